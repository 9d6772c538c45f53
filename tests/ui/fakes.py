"""A detail source that answers requests in-process with the real agent (no kernel)."""

from __future__ import annotations

import json
from typing import Any, Callable

from PySide6.QtCore import QTimer

from explorer.core.agent.handlers import Agent, decode_reply


class InProcessSource:
    """Implements the ``request(method, params, callback)`` protocol of ``KernelSession``.

    Replies are delivered on a later event-loop turn, as a real kernel would.
    """

    def __init__(self, namespace: dict[str, Any]) -> None:
        self.agent = Agent(namespace)
        self.requests: list[tuple[str, dict]] = []

    def request(self, method: str, params: dict, callback: Callable[[dict], None]) -> None:
        self.requests.append((method, params))
        reply = decode_reply(repr(self.agent.call(method, json.dumps(params))))
        QTimer.singleShot(0, lambda: callback(reply))
