"""The names both sides agree on: versions, the comm target, the extension, the pause prompt."""

from __future__ import annotations

from typing import TypeVar

#: Bumped whenever a message or a field changes meaning.
PROTOCOL_VERSION = 3
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
#: The event that carries a run's AfterRun reply unasked (:class:`explorer.protocol.PushAfterRun`), sent as the
#: run ends: data ``{"msg_id": <the execute_request's id>, "reply": <a reply envelope, id 0>}``, buffers as a reply's.
AFTER_RUN_EVENT = "after_run"

#: The cell magic that replays a script's first statements as one execution (Step back; see
#: ``explorer.core.step.replay``): ``%%explorer_replay FIRST:LINES FIRST:LINES ...`` then the statements'
#: lines, one statement after another; each runs at its file line, and one that raises does not stop the others.
REPLAY_MAGIC = "explorer_replay"

#: The event that carries one sample of a running program (:class:`explorer.protocol.WatchSample`).
WATCH_EVENT = "watch_sample"
#: The control-channel message that pauses or resumes sampling while code runs (the shell is busy then):
#: content ``{"comm_id", "paused"}``; answered by :data:`WATCH_CONTROL_REPLY` ``{"comm_id", "paused", "known"}``.
WATCH_CONTROL = "tensor_explorer_watch_request"
WATCH_CONTROL_REPLY = "tensor_explorer_watch_reply"
#: Samples per second a watch takes by default (``Watch.every`` = 1 / this).
WATCH_RATE = 4.0

R = TypeVar("R")
