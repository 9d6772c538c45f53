"""A kernel stand-in that answers requests in-process with the real agent (no kernel process)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QTimer

from explorer import protocol
from explorer.core.agent.comm import CommEndpoint
from explorer.core.agent.handlers import Agent


def var(name: str, kind: str = "tensor", **fields: Any) -> protocol.Var:
    """A VAR as the kernel sends it: every key present, null but for *fields* (and the kind's type name)."""
    made = protocol.null_var(name, kind, {"tensor": "Tensor", "ndarray": "ndarray"}.get(kind, kind))
    made.update(fields)
    return made


class InProcessSource:
    """Implements ``ask(request, on_reply, valid)`` like :class:`~explorer.client.session.KernelSession`.

    Each request goes through the real comm endpoint (parse, handler, buffers) and
    back through :func:`explorer.protocol.parse_reply`, and is delivered on a later
    event-loop turn, as a real kernel's reply would be.
    """

    def __init__(self, namespace: dict[str, Any]) -> None:
        self.namespace = namespace
        self.agent = Agent(lambda: namespace)
        self._replies: list[tuple[dict, list]] = []
        self.endpoint = CommEndpoint(self.agent, lambda data, buffers: self._replies.append((data, buffers)))
        self.requests: list[protocol.Request[Any]] = []
        self._ids = 0

    def ask(self, request: protocol.Request[Any], on_reply: Callable[[protocol.Reply[Any]], None],
            valid: Callable[[], bool] | None = None) -> None:
        QTimer.singleShot(0, self.answer(request, on_reply, valid))

    def answer(self, request: protocol.Request[Any], on_reply: Callable[[protocol.Reply[Any]], None],
               valid: Callable[[], bool] | None = None) -> Callable[[], None]:
        """Answer *request* now; returns the delivery (which checks *valid* when it runs)."""
        self.requests.append(request)
        self._ids += 1
        self.endpoint.on_message(protocol.request_message(self._ids, request))
        data, buffers = self._replies.pop()
        reply = protocol.unpacked(protocol.parse_reply(data, [bytes(b) for b in buffers])[1])

        def deliver() -> None:
            if valid is None or valid():
                on_reply(reply)

        return deliver

    def methods(self) -> list[str]:
        """The method names asked so far, in order."""
        return [r.method for r in self.requests]


class HeldSource(InProcessSource):
    """Answers with the real agent but keeps each delivery until the test runs it (a slow kernel)."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        super().__init__(namespace)
        self.held: list[Callable[[], None]] = []

    def ask(self, request: protocol.Request[Any], on_reply: Callable[[protocol.Reply[Any]], None],
            valid: Callable[[], bool] | None = None) -> None:
        self.held.append(self.answer(request, on_reply, valid))
