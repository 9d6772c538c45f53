"""The GUI's kernel: start, run, interrupt, restart; silent agent requests as Qt callbacks.

One kernel process, two clients: the console's (qtconsole shows only its own
session's messages) and ours, which watches every execution on IOPub so code
typed in the console updates the inspector too, and sends the agent's silent
requests.
"""

from __future__ import annotations

import shutil
from typing import Any, Callable

from jupyter_client.session import Session
from PySide6.QtCore import QObject, QTimer, Signal
from qtconsole.manager import QtKernelManager
from traitlets.config import Config

from explorer.kernel.launch import (
    INSTALL_CODE,
    configure_manager,
    kernel_env,
    parse_expression_reply,
    request_expression,
)

Callback = Callable[[dict], None]


class KernelSession(QObject):
    """A local ipykernel with the explorer agent installed.

    Signals carry plain data only (dicts and strings), never tensors.
    """

    status_changed = Signal(str)  # "starting" | "idle" | "busy" | "restarting" | "dead"
    namespace_changed = Signal(dict)  # the agent's snapshot
    run_finished = Signal(dict)  # {"code", "failed", "error", "hints"}
    kernel_died = Signal(str)
    kernel_restarted = Signal()
    agent_installed = Signal()

    def __init__(self, cwd: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._cwd = cwd
        config = Config()
        config.KernelRestarter.time_to_dead = 0.5  # notice a dead kernel within half a second
        config.KernelRestarter.restart_limit = 1000
        self.manager = QtKernelManager(config=config)
        self.manager.autorestart = True
        self._runtime = configure_manager(self.manager)
        self.client: Any = None
        self._pending: dict[str, Callback] = {}
        self._runs: dict[str, dict[str, Any]] = {}
        self._status = "dead"
        self._installed = False
        self._iopub_seen = False
        self.language = "en"

    # -- life cycle ---------------------------------------------------------
    @property
    def status(self) -> str:
        return self._status

    def start(self) -> None:
        """Start the kernel process and our client; returns at once (the kernel boots behind)."""
        self._set_status("starting")
        self.manager.start_kernel(env=kernel_env(), cwd=self._cwd)
        self.manager.add_restart_callback(self._on_manager_restarting, "restart")
        self.manager.add_restart_callback(self._on_manager_dead, "dead")
        self.manager.kernel_restarted.connect(self._on_manager_kernel_restarted)
        self.client = self._new_client()
        self.client.start_channels()
        self.client.iopub_channel.message_received.connect(self._on_iopub_message_received)
        self.client.shell_channel.message_received.connect(self._on_shell_message_received)
        self._install_agent()

    def console_client(self) -> Any:
        """A second client for the console widget on the same kernel."""
        client = self._new_client()
        client.start_channels()
        return client

    def _new_client(self) -> Any:
        """A client with its own Session: ZMQ routes replies by session identity, so two
        clients sharing the manager's Session would steal each other's replies."""
        own = self.manager.session
        return self.manager.client(session=Session(key=own.key, signature_scheme=own.signature_scheme,
                                                   username=own.username))

    def shutdown(self) -> None:
        """Stop the kernel process (on quit)."""
        if self.client is not None:
            self.client.stop_channels()
        if self.manager.has_kernel:
            self.manager.shutdown_kernel(now=True)
        self.manager.cleanup_resources()
        shutil.rmtree(self._runtime, ignore_errors=True)
        self._set_status("dead")

    def interrupt(self) -> None:
        """Stop running code (KeyboardInterrupt in the kernel)."""
        if self.manager.has_kernel:
            self.manager.interrupt_kernel()

    def restart(self) -> None:
        """Restart the kernel process: the namespace is lost, the editor is not."""
        self._set_status("restarting")
        self._fail_pending("the kernel restarted")
        self.manager.restart_kernel(now=True)
        self._after_restart()

    # -- running code and asking the agent ----------------------------------
    def execute(self, code: str) -> str:
        """Run *code* visibly through our own client (the console normally does this)."""
        return self.client.execute(code, store_history=True, allow_stdin=False)

    def request(self, method: str, params: dict[str, Any], callback: Callback) -> None:
        """Ask the agent; *callback* gets ``{"result": ...}`` or ``{"error": ...}`` on the GUI thread."""
        if self.client is None or not self._installed:
            QTimer.singleShot(0, lambda: callback({"error": "the kernel is still starting"}))
            return
        msg_id = self.client.execute(
            "", silent=True, store_history=False, user_expressions={"r": request_expression(method, params)}
        )
        self._pending[msg_id] = callback

    def set_language(self, lang: str) -> None:
        """Language of the texts the agent writes (error cards, hints)."""
        self.language = lang
        if self._installed:
            self.request("set_language", {"lang": lang}, lambda _reply: None)

    # -- internals ------------------------------------------------------------
    def _set_status(self, status: str) -> None:
        if status != self._status:
            self._status = status
            self.status_changed.emit(status)

    def _install_agent(self) -> None:
        self._installed = False
        self._iopub_seen = False
        msg_id = self.client.execute(INSTALL_CODE, silent=True, store_history=False)
        self._pending[msg_id] = self._on_agent_install_replied

    def _on_agent_install_replied(self, reply: dict) -> None:
        if not self._iopub_seen:
            # ZMQ's slow joiner: until IOPub delivers something, a run could finish unseen.
            # Ask for kernel_info (which publishes busy/idle) until IOPub answers.
            self.client.kernel_info()
            QTimer.singleShot(50, lambda: self._on_agent_install_replied(reply))
            return
        self._installed = True
        self._set_status("idle")
        self.set_language(self.language)
        self.agent_installed.emit()

    def _on_shell_message_received(self, msg: dict) -> None:
        callback = self._pending.pop(msg["parent_header"].get("msg_id"), None)
        if callback is None or msg["msg_type"] != "execute_reply":
            return
        content = msg["content"]
        if "r" in (content.get("user_expressions") or {}) or content.get("status") != "ok":
            callback(parse_expression_reply(content))
        else:
            callback({"result": None})

    def _on_iopub_message_received(self, msg: dict) -> None:
        self._iopub_seen = True
        kind = msg["msg_type"]
        parent = msg["parent_header"].get("msg_id")
        if kind == "execute_input":
            self._runs[parent] = {"code": msg["content"].get("code", ""), "failed": False}
            self._set_status("busy")
        elif kind == "error" and parent in self._runs:
            self._runs[parent]["failed"] = True
        elif kind == "status":
            state = msg["content"].get("execution_state")
            if state == "idle" and parent in self._runs:
                self._finish_run(self._runs.pop(parent))

    def _finish_run(self, run: dict[str, Any]) -> None:
        if not self._runs:
            self._set_status("idle")
        # overlaps: False keeps big namespaces fast; the inspector asks for the selected variable's
        self.request("after_run", {"code": run["code"], "failed": run["failed"], "overlaps": False},
                     lambda reply: self._on_after_run_replied(run, reply))

    def _on_after_run_replied(self, run: dict[str, Any], reply: dict) -> None:
        result = reply.get("result")
        if not result:
            self.run_finished.emit({**run, "error": None, "hints": [], "problem": reply.get("error")})
            return
        self.namespace_changed.emit(result["snapshot"])
        self.run_finished.emit({**run, "error": result.get("error"), "hints": result.get("hints") or []})

    def _fail_pending(self, why: str) -> None:
        pending, self._pending = self._pending, {}
        self._runs.clear()
        for callback in pending.values():
            callback({"error": why})

    def _on_manager_restarting(self) -> None:
        self._fail_pending("the kernel died")
        self._set_status("restarting")
        self.kernel_died.emit("The kernel died (the code crashed or exited); restarting it. Your editor text is kept.")

    def _on_manager_dead(self) -> None:
        self._set_status("dead")
        self.kernel_died.emit("The kernel died and could not be restarted.")

    def _on_manager_kernel_restarted(self) -> None:
        self._after_restart()

    def _after_restart(self) -> None:
        self._runs.clear()
        self._install_agent()
        self.kernel_restarted.emit()
