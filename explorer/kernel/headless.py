"""A kernel driven without Qt: used by the CLI and by kernel tests.

It runs code exactly as the GUI does (same kernel command, same extension, the
code sent as one cell) and asks the kernel through the same comm protocol, so
``tensor-explorer inspect`` reports what the window would show.
"""

from __future__ import annotations

import queue
import shutil
import time
from typing import Any, TypeVar

from jupyter_client import KernelManager

from explorer import __version__, protocol
from explorer.kernel.channel import LOAD_EXTENSION_CODE, CommChannel
from explorer.kernel.launch import configure_manager, kernel_env

R = TypeVar("R")


class KernelDiedError(RuntimeError):
    """The kernel process ended while running code or answering."""


class ExtensionError(RuntimeError):
    """The kernel has no (or another version of the) explorer extension; the message says what to do."""


class HeadlessKernel:
    """Start a local IPC kernel with the extension loaded; run code; ask through the comm.

    Parameters
    ----------
    cwd : str, optional
        Working directory of the kernel process.
    language : str
        Language of the kernel's sentences ("en" for the CLI).
    """

    def __init__(self, cwd: str | None = None, language: str = "en") -> None:
        self.manager = KernelManager()
        self._runtime = configure_manager(self.manager)
        self._replies: dict[int, protocol.Reply[Any]] = {}
        self._closed = False
        self.manager.start_kernel(env=kernel_env(), cwd=cwd)
        try:
            self.client = self.manager.client()
            self.client.start_channels()
            self.client.wait_for_ready(timeout=60)
            self.channel = CommChannel(self.client)
            self.hello = self._connect(language)
        except BaseException:
            self.shutdown()
            raise

    # -- connecting -------------------------------------------------------------------
    def _connect(self, language: str) -> protocol.HelloReply:
        """Open the comm and shake hands; load the extension first if the kernel lacks it."""
        for attempt in range(2):
            self._closed = False
            self.channel.open()
            reply = self.ask(protocol.Hello(package=__version__, language=language), timeout=60)
            if reply.ok and reply.result is not None:
                return reply.result
            if not self._closed or attempt:
                raise ExtensionError(f"the kernel's explorer extension did not answer: {reply.message}")
            self.channel = CommChannel(self.client)
            outcome = self.client.execute_interactive(LOAD_EXTENSION_CODE, silent=True, store_history=False,
                                                      timeout=60)
            if outcome["content"].get("status") != "ok":
                raise ExtensionError("this kernel cannot import tensor-explorer; run `pip install tensor-explorer` "
                                     "in the kernel's environment")
        raise ExtensionError("the kernel's explorer extension did not answer")

    # -- asking -------------------------------------------------------------------------
    def ask(self, request: protocol.Request[R], timeout: float = 600) -> protocol.Reply[R]:
        """Send one request and wait for its reply (an error Reply on timeout or a closed comm)."""
        request_id = self.channel.send(request)
        deadline = time.monotonic() + timeout
        while request_id not in self._replies:
            if self._closed:
                return protocol.Reply(False, error=protocol.ErrorInfo("CommClosed", "the kernel closed the comm"))
            if time.monotonic() > deadline:
                return protocol.Reply(False, error=protocol.ErrorInfo(
                    "Timeout", f"no answer to {request.method!r} within {timeout:.0f} s"))
            if not self.manager.is_alive():
                raise KernelDiedError("the kernel died while answering a request")
            self._pump(0.2)
        return protocol.unpacked(self._replies.pop(request_id))

    def _pump(self, timeout: float) -> dict[str, Any] | None:
        """Read one IOPub message; comm traffic is filed, anything else is returned."""
        try:
            msg = self.client.get_iopub_msg(timeout=timeout)
        except queue.Empty:
            return None
        incoming = self.channel.read(msg)
        if incoming is None:
            return msg
        if incoming.closed:
            self._closed = True
        elif incoming.request_id is not None and incoming.reply is not None:
            self._replies[incoming.request_id] = incoming.reply
        return None

    # -- running code ---------------------------------------------------------------------
    def run(self, code: str, timeout: float | None = None) -> dict[str, Any]:
        """Run *code* as one cell; return ``{"status", "outputs" (its errors), "interrupted"}``.

        On *timeout* the kernel is interrupted (the code then ends with KeyboardInterrupt).
        """
        outputs: list[dict] = []
        # No stdin: input() fails at once instead of waiting for an answer nobody can type.
        msg_id = self.client.execute(code, store_history=True, allow_stdin=False)
        deadline = None if timeout is None else time.monotonic() + timeout
        interrupted = False
        while True:
            if not self.manager.is_alive():
                raise KernelDiedError("the kernel died while running the code")
            msg = self._pump(0.2)
            if msg is None:
                if deadline is not None and not interrupted and time.monotonic() > deadline:
                    self.manager.interrupt_kernel()
                    interrupted = True
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind = msg["msg_type"]
            if kind == "error":  # printed output is not kept: a script may print gigabytes
                outputs.append({"type": kind, **msg["content"]})
            if kind == "status" and msg["content"]["execution_state"] == "idle":
                break
        failed = any(o["type"] == "error" for o in outputs)
        return {"status": "error" if failed else "ok", "outputs": outputs, "interrupted": interrupted}

    # -- ending ---------------------------------------------------------------------------
    def shutdown(self) -> None:
        """Stop the channels and the kernel process (quietly, even if it already died)."""
        try:
            client = getattr(self, "client", None)
            if client is not None:
                client.stop_channels()
        finally:
            try:
                self.manager.shutdown_kernel(now=True)
            except Exception:  # noqa: BLE001 - a dead kernel cannot be shut down twice
                pass
            self.manager.cleanup_resources()
            shutil.rmtree(self._runtime, ignore_errors=True)

    def __enter__(self) -> HeadlessKernel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
