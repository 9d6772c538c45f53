"""Driving a paused kernel as the window does: run with stdin allowed, answer the pause prompts with requests."""

from __future__ import annotations

import time
from typing import Any

from explorer import __version__, protocol
from explorer.client.headless import HeadlessKernel

TIMEOUT = 60.0


class PauseDriver:
    """One kernel client that said ``Hello(pause=True)`` and runs code with ``allow_stdin``."""

    def __init__(self, kernel: HeadlessKernel) -> None:
        self.kernel = kernel
        assert kernel.ask(protocol.Hello(package=__version__, pause=True)).ok
        self.msg_id: str | None = None
        self.outputs: list[dict[str, Any]] = []

    def start(self, code: str) -> None:
        self.kernel.events.clear()
        self.msg_id = self.kernel.client.execute(code, allow_stdin=True)

    def prompt(self) -> str:
        """The prompt of the kernel's next input request."""
        return self.kernel.client.get_stdin_msg(timeout=TIMEOUT)["content"]["prompt"]

    def ask(self, request: protocol.Request[Any]) -> protocol.Reply[Any]:
        """Answer the next pause prompt with *request*; its reply (which comes on the comm)."""
        assert self.prompt() == protocol.PAUSE_PROMPT
        request_id, text = self.kernel.channel.encode(request)
        self.kernel.client.input(text)
        deadline = time.monotonic() + TIMEOUT
        while request_id not in self.kernel._replies:
            assert time.monotonic() < deadline, f"no reply to {request.method}"
            self._note(self.kernel._pump(0.2))
        return protocol.unpacked(self.kernel._replies.pop(request_id))

    def wait_event(self, name: str) -> dict[str, Any]:
        deadline = time.monotonic() + TIMEOUT
        while True:
            for event, data in self.kernel.events:
                if event == name:
                    self.kernel.events.remove((event, data))
                    return data
            assert time.monotonic() < deadline, f"no {name} event"
            self._note(self.kernel._pump(0.2))

    def finish(self) -> str:
        """Wait for the run to end; its status ("ok" or "error")."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            assert time.monotonic() < deadline, "the run did not end"
            msg = self.kernel._pump(0.2)
            self._note(msg)
            if msg and msg["parent_header"].get("msg_id") == self.msg_id and msg["msg_type"] == "status" \
                    and msg["content"]["execution_state"] == "idle":
                return "error" if any(o["msg_type"] == "error" for o in self.outputs) else "ok"

    def _note(self, msg: dict[str, Any] | None) -> None:
        if msg and msg["parent_header"].get("msg_id") == self.msg_id and msg["msg_type"] in ("error", "stream"):
            self.outputs.append(msg)
