"""The client end of the explorer comm, over any ``jupyter_client`` kernel client (no Qt here).

It builds the ``comm_open`` and ``comm_msg`` messages a frontend sends on the
shell channel, and reads the kernel's answers off IOPub: ``comm_msg`` replies
and events (code paused, resumed) on our comm, and a ``comm_close`` when the
kernel has no such target (the extension is not loaded). While code is paused
the shell channel is not read: a request then travels as the answer to the
kernel's pause prompt (:meth:`CommChannel.encode`, sent with the client's ``input``).
Both the window's client and the CLI's use it.
"""

from __future__ import annotations

import itertools
import json
import uuid
from dataclasses import dataclass
from typing import Any

from explorer import protocol

try:  # a dependency of the window; the kernel side never needs it
    import orjson
except ImportError:  # pragma: no cover - only an install that skipped the dependencies lacks it
    #: How a snapshot's rows are read (:data:`explorer.protocol.envelope.Loads`): orjson where installed.
    FAST_LOADS: protocol.Loads | None = None
else:
    FAST_LOADS = orjson.loads

#: Loads the kernel side into a kernel that was not started with it (silently; nothing in user_ns).
LOAD_EXTENSION_CODE = f"get_ipython().extension_manager.load_extension({protocol.EXTENSION!r})"


@dataclass
class Incoming:
    """What one IOPub message means for our comm: a reply, an event, or the comm closed."""

    closed: bool
    request_id: int | None = None
    reply: protocol.Reply[Any] | None = None
    event: tuple[str, dict[str, Any]] | None = None
    pushed: tuple[str, protocol.Reply[Any]] | None = None  # (execute msg_id, its AfterRun reply), sent unasked


class CommChannel:
    """Our comm's id and the messages that travel on it."""

    def __init__(self, kernel_client: Any) -> None:
        self.kernel_client = kernel_client
        self.comm_id = uuid.uuid4().hex
        self._ids = itertools.count(1)
        self.last_msg_id: str | None = None  # the Jupyter message id of the last request sent (the kernel's busy names it)

    def open(self) -> None:
        """Ask the kernel to open the comm (the extension's target answers, or the kernel closes it)."""
        content = {"comm_id": self.comm_id, "target_name": protocol.COMM_TARGET, "data": {}}
        self._send("comm_open", content)

    def close(self) -> None:
        self._send("comm_close", {"comm_id": self.comm_id, "data": {}})

    def send(self, request: protocol.Request[Any]) -> int:
        """Send one request; returns its id (the reply carries it)."""
        request_id = next(self._ids)
        data = protocol.request_message(request_id, request)
        self.last_msg_id = self._send("comm_msg", {"comm_id": self.comm_id, "data": data})
        return request_id

    def encode(self, request: protocol.Request[Any]) -> tuple[int, str]:
        """``(id, text)``: one request as the answer to the kernel's pause prompt (the reply comes on the comm)."""
        request_id = next(self._ids)
        return request_id, json.dumps(protocol.request_message(request_id, request))

    def read(self, msg: dict[str, Any]) -> Incoming | None:
        """Interpret an IOPub message; None when it is not about our comm."""
        kind = msg.get("msg_type") or msg.get("header", {}).get("msg_type")
        content = msg.get("content") or {}
        if kind not in ("comm_msg", "comm_close") or content.get("comm_id") != self.comm_id:
            return None
        if kind == "comm_close":
            return Incoming(closed=True)
        event = protocol.parse_event(content.get("data"))
        if event is not None and event[0] == protocol.AFTER_RUN_EVENT:
            return _pushed(event[1], msg)
        if event is not None:
            return Incoming(closed=False, event=event)
        try:
            request_id, reply = protocol.parse_reply(content.get("data"), msg.get("buffers"))
        except protocol.ProtocolError:
            return None
        return Incoming(closed=False, request_id=request_id, reply=reply)

    def _send(self, msg_type: str, content: dict[str, Any]) -> str:
        client = self.kernel_client
        msg = client.session.msg(msg_type, content)
        client.shell_channel.send(msg)
        return str(msg["header"]["msg_id"])


def _pushed(data: dict[str, Any], msg: dict[str, Any]) -> Incoming | None:
    """A run's AfterRun reply the kernel sent unasked (``protocol.PushAfterRun``), tied to its execution.

    The event names the ``execute_request``; the comm message's parent header names it too (ipykernel
    publishes it as output of that execution), for a kernel that could not tell.
    """
    msg_id = data.get("msg_id") or (msg.get("parent_header") or {}).get("msg_id")
    try:
        _, reply = protocol.parse_reply(data.get("reply"), msg.get("buffers"))
    except protocol.ProtocolError:
        return None
    return Incoming(closed=False, pushed=(str(msg_id), reply)) if msg_id else None
