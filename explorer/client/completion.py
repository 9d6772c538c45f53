"""Completion and calltips from the kernel's live objects: Jupyter's ``complete_request`` and ``inspect_request``.

They go out on the session's own kernel client and their replies are matched by
``msg_id`` on its shell channel. Nothing here waits: a request is only sent while the
kernel is idle (a busy kernel would answer after the running code ends), its answer
comes back through a callback on the GUI thread, and one that has not come within
:data:`TIMEOUT_MS` is given up (the callback gets ``None``, the editor falls back to its
static completer).

What the kernel evaluates is IPython's standard, non-greedy completion (ipykernel uses
jedi with the live namespace, ``Completer.evaluation = "limited"``) and IPython's
inspector (``obj?``); see :mod:`explorer.ui.editor.completion_context` for what the editor
asks about.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer

from explorer.client.link import KernelLink

#: A reply later than this is no use to someone typing: the editor falls back.
TIMEOUT_MS = 1500

Reply = Callable[[dict[str, Any] | None], None]


class KernelCompletion(QObject):
    """Asks the session's kernel for completions and object information, never blocking."""

    def __init__(self, session: KernelLink, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._client: Any = None  # the kernel client whose shell channel we listen to
        self._pending: dict[str, tuple[Reply, float]] = {}

    def available(self) -> bool:
        """Whether the kernel can answer now: started, handshake done, idle and not paused in breakpoint()."""
        session = self._session
        return (getattr(session, "kernel_client", None) is not None and session.is_ready
                and session.status == "idle" and not session.is_paused)

    def complete(self, code: str, cursor_pos: int, on_reply: Reply) -> bool:
        """Send ``complete_request``; *on_reply* gets the reply's content (or None). False when not sent."""
        return self._send(lambda client: client.complete(code, cursor_pos), on_reply)

    def inspect(self, code: str, cursor_pos: int, on_reply: Reply) -> bool:
        """Send ``inspect_request`` (detail level 0, as ``obj?``); *on_reply* as for :meth:`complete`."""
        return self._send(lambda client: client.inspect(code, cursor_pos, 0), on_reply)

    def _send(self, send: Callable[[Any], str], on_reply: Reply) -> bool:
        if not self.available():
            return False
        client = self._session.kernel_client
        if client is not self._client:
            if self._client is not None:
                self._client.shell_channel.message_received.disconnect(self._on_shell_message_received)
            client.shell_channel.message_received.connect(self._on_shell_message_received)
            self._client = client
        msg_id = send(client)
        self._pending[msg_id] = (on_reply, time.monotonic())
        QTimer.singleShot(TIMEOUT_MS, self, lambda: self._expire(msg_id))
        return True

    def _expire(self, msg_id: str) -> None:
        entry = self._pending.pop(msg_id, None)
        if entry is not None:
            entry[0](None)

    def _on_shell_message_received(self, msg: dict[str, Any]) -> None:
        parent = (msg.get("parent_header") or {}).get("msg_id")
        entry = self._pending.pop(parent, None) if parent else None
        if entry is None:
            return
        content = msg.get("content") or {}
        entry[0](content if content.get("status") == "ok" else None)
