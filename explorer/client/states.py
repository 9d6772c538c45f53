"""The few words the window and its kernel client agree on: kernel states, why code ran, what went wrong."""

from __future__ import annotations

from typing import Literal

#: Where the kernel is: starting, waiting (idle), running code (busy), being restarted, gone (dead).
KernelStatus = Literal["starting", "idle", "busy", "restarting", "dead"]

#: What the user did to run code: the whole file, a cell, the selection (or line), one step (F10),
#: a statement replayed to step back, a data file loaded.
RunOrigin = Literal["file", "cell", "selection", "step", "replay", "load"]

#: What is wrong with the kernel side: another release ("version"), or no extension at all ("missing").
ProblemKind = Literal["version", "missing"]
