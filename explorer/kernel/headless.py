"""A kernel driven without Qt: used by the CLI and by kernel tests.

It runs code exactly as the GUI does (same kernel command, same agent, the
code sent as one cell), so ``tensor-explorer inspect`` reports what the window
would show.
"""

from __future__ import annotations

import queue
import shutil
import time
from typing import Any

from jupyter_client import KernelManager

from explorer.kernel.launch import (
    INSTALL_CODE,
    configure_manager,
    kernel_env,
    parse_expression_reply,
    request_expression,
)


class KernelDiedError(RuntimeError):
    """The kernel process ended while running code."""


class HeadlessKernel:
    """Start a local IPC kernel with the agent installed; run code; ask the agent.

    Parameters
    ----------
    cwd : str, optional
        Working directory of the kernel process.
    """

    def __init__(self, cwd: str | None = None) -> None:
        self.manager = KernelManager()
        self._runtime = configure_manager(self.manager)
        self.manager.start_kernel(env=kernel_env(), cwd=cwd)
        self.client = self.manager.client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=60)
        self._install()

    def _install(self) -> None:
        reply = self.client.execute_interactive(INSTALL_CODE, silent=True, store_history=False, timeout=60)
        if reply["content"].get("status") != "ok":
            raise RuntimeError("could not install the explorer agent in the kernel")

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
            try:
                msg = self.client.get_iopub_msg(timeout=0.2)
            except queue.Empty:
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

    def request(self, method: str, params: dict[str, Any] | None = None, timeout: float = 600) -> dict:
        """Ask the agent; return its reply dict (``{"result": ...}`` or ``{"error": ...}``)."""
        msg_id = self.client.execute(
            "", silent=True, store_history=False, user_expressions={"r": request_expression(method, params)}
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.manager.is_alive():
                raise KernelDiedError("the kernel died while answering a request")
            try:
                msg = self.client.get_shell_msg(timeout=0.2)
            except queue.Empty:
                continue
            if msg["parent_header"].get("msg_id") == msg_id:
                return parse_expression_reply(msg["content"])
        return {"error": f"no answer to {method!r} within {timeout:.0f} s"}

    def shutdown(self) -> None:
        """Stop the channels and the kernel process (quietly, even if it already died)."""
        try:
            self.client.stop_channels()
        finally:
            try:
                self.manager.shutdown_kernel(now=True)
            except Exception:  # noqa: BLE001 - a dead kernel cannot be shut down twice
                pass
            self.manager.cleanup_resources()
            shutil.rmtree(self._runtime, ignore_errors=True)

    def __enter__(self) -> "HeadlessKernel":
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
