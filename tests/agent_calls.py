"""Asking the kernel side in-process (no kernel, no Qt): through the real comm endpoint and protocol."""

from __future__ import annotations

import json
from typing import Any

from explorer import protocol
from explorer.core.agent.comm import CommEndpoint
from explorer.core.agent.handlers import Agent


class Caller:
    """One client of an :class:`Agent`: requests are encoded, answered and decoded as on the wire."""

    def __init__(self, target: Agent | dict[str, Any]) -> None:
        self.agent = target if isinstance(target, Agent) else Agent(lambda ns=target: ns)
        self._out: list[tuple[dict, list]] = []
        self.endpoint = CommEndpoint(self.agent, lambda data, buffers: self._out.append((data, buffers)))
        self._ids = 0

    def ask(self, request: protocol.Request[Any]) -> protocol.Reply[Any]:
        self._ids += 1
        self.endpoint.on_message(protocol.request_message(self._ids, request))
        data, buffers = self._out.pop()
        json.dumps(data, allow_nan=False)  # what goes on the wire is strict JSON (NaN/Inf never leak)
        return protocol.unpacked(protocol.parse_reply(data, [bytes(b) for b in buffers])[1])

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """``{"result": ...}`` or ``{"error": message}`` for the request named *method*."""
        reply = self.ask(protocol.REQUESTS[method](**params))
        return {"result": reply.result} if reply.ok else {"error": reply.message, "error_info": reply.error}


def call(target: Agent | dict[str, Any] | Caller, method: str, **params: Any) -> dict[str, Any]:
    """One request to *target* (an Agent, a namespace, or a :class:`Caller` that keeps its state)."""
    caller = target if isinstance(target, Caller) else Caller(target)
    return caller.call(method, **params)
