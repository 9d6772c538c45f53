"""The names both sides agree on: versions, the comm target, the extension, the pause prompt."""

from __future__ import annotations

from typing import TypeVar

#: Bumped whenever a message or a field changes meaning.
PROTOCOL_VERSION = 2
#: The Jupyter comm target the kernel extension registers.
COMM_TARGET = "tensor_explorer"
#: The import name of the IPython extension (``%load_ext explorer``).
EXTENSION = "explorer"
#: The prompt of the kernel's input request that reads one request while code is paused.
#: Record separators around a name no program prints, so a user's ``input()`` prompt cannot pass for it.
PAUSE_PROMPT = "\x1etensor-explorer:paused\x1e"
#: The event sent after a cell that replaced builtins or standard library functions the kernel's own messaging
#: calls (``{"names": ["builtins.isinstance"]}``): a kernel silent after it was broken by them.
REPLACED_EVENT = "replaced"

R = TypeVar("R")
