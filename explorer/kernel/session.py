"""The window's kernel: start, run, interrupt, restart; the explorer comm's client; runs as signals.

One kernel process, two clients: the console's, and ours. Ours runs the
editor's code (the console shows it as input from another client), watches
every execution on IOPub (so code typed in the console updates the inspector
too), and owns the explorer comm (:class:`~explorer.kernel.client.ExplorerClient`).
"""

from __future__ import annotations

import logging
import shutil
import threading
from typing import Any, Callable, TypeVar

from jupyter_client.session import Session
from PySide6.QtCore import QObject, QTimer, Signal
from qtconsole.manager import QtKernelManager
from traitlets.config import Config

from explorer import protocol
from explorer.kernel.client import ExplorerClient
from explorer.kernel.launch import configure_manager, kernel_env

R = TypeVar("R")
#: How often the kernel is pinged until IOPub delivers (ZMQ's slow joiner drops early messages).
IOPUB_PING_MS = 50


class KernelSession(QObject):
    """A local ipykernel with the explorer extension. Signals carry plain data only, never tensors.

    Signals are ``Signal(object)``: a ``Signal(dict)`` would convert a 10,000-variable
    snapshot to a QVariantMap and back on the GUI thread (seconds).
    """

    status_changed = Signal(str)  # "starting" | "idle" | "busy" | "restarting" | "dead"
    namespace_changed = Signal(object)  # a protocol.SnapshotReply (full, or a delta)
    run_started = Signal(object)  # {"msg_id", "code", "mine"}
    run_finished = Signal(object)  # {"msg_id", "code", "mine", "failed", "error", "hints", "warnings", "problem"}
    kernel_died = Signal(str)
    kernel_restarted = Signal()
    ready = Signal(object)  # the kernel's HelloReply, after every start and restart
    problem = Signal(str, dict)  # see ExplorerClient.problem

    def __init__(self, cwd: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._cwd = cwd
        config = Config()
        config.KernelRestarter.time_to_dead = 0.5  # notice a dead kernel within half a second
        config.KernelRestarter.restart_limit = 1000
        self.manager = QtKernelManager(config=config)
        self.manager.autorestart = True
        self._runtime = configure_manager(self.manager)
        self.kernel_client: Any = None
        self._other_clients: list[Any] = []
        # Exists before the kernel: requests made meanwhile (files named at start) wait for the handshake.
        self.client = ExplorerClient(None, "en", self)
        self.client.ready.connect(self._on_client_ready)
        self.client.problem.connect(self.problem)
        self._runs: dict[str, dict[str, Any]] = {}
        self._mine: set[str] = set()
        self._status = "starting"
        self._iopub_seen = False
        self._reconnecting = False

    # -- life cycle ---------------------------------------------------------------------
    @property
    def status(self) -> str:
        return self._status

    @property
    def is_ready(self) -> bool:
        return self.client.is_ready

    def start(self) -> None:
        """Start the kernel process and our client; returns at once (the kernel boots behind)."""
        self._set_status("starting")
        self.manager.start_kernel(env=kernel_env(), cwd=self._cwd)
        self.manager.add_restart_callback(self._on_manager_restarting, "restart")
        self.manager.add_restart_callback(self._on_manager_dead, "dead")
        self.manager.kernel_restarted.connect(self._on_manager_kernel_restarted)
        self.kernel_client = self._new_client()
        self.kernel_client.start_channels()
        _quiet_comm_manager(self.kernel_client)
        self.kernel_client.iopub_channel.message_received.connect(self._on_iopub_message_received)
        self.kernel_client.shell_channel.message_received.connect(self._on_shell_message_received)
        self.client.attach(self.kernel_client)
        self._connect_when_iopub_flows()

    def console_client(self) -> Any:
        """A second client for the console widget on the same kernel."""
        client = self._new_client()
        client.start_channels()
        _quiet_comm_manager(client)
        self._other_clients.append(client)  # stopped with ours: its heartbeat thread must not outlive it
        return client

    def _new_client(self) -> Any:
        """A client with its own Session: ZMQ routes replies by session identity, so two
        clients sharing the manager's Session would steal each other's replies."""
        own = self.manager.session
        client = self.manager.client(session=Session(key=own.key, signature_scheme=own.signature_scheme,
                                                     username=own.username))
        return client

    def shutdown(self, wait: bool = True) -> threading.Thread | None:
        """Stop the kernel process and our clients (on quit).

        Stopping a client's channels joins its I/O threads (about half a second each),
        so the app quits with ``wait=False``: the window is gone at once and a worker
        thread finishes the work (the interpreter waits for it before the process ends).
        """
        clients = [c for c in [self.kernel_client, *self._other_clients] if c is not None]
        self._other_clients = []
        self._set_status("dead")

        def finish() -> None:
            for client in clients:
                client.stop_channels()
            if self.manager.has_kernel:
                self.manager.shutdown_kernel(now=True)
            self.manager.cleanup_resources()
            shutil.rmtree(self._runtime, ignore_errors=True)

        if wait:
            finish()
            return None
        if self.manager.has_kernel:
            self.manager.stop_restarter()  # its QTimer belongs to this thread, not the worker's
        worker = threading.Thread(target=finish, name="te-kernel-shutdown")
        worker.start()
        return worker

    def interrupt(self) -> None:
        """Stop running code (KeyboardInterrupt in the kernel)."""
        if self.manager.has_kernel:
            self.manager.interrupt_kernel()

    def restart(self) -> None:
        """Restart the kernel process: the namespace is lost, the editor is not."""
        self._set_status("restarting")
        self._forget_runs("the kernel restarted")
        self.manager.restart_kernel(now=True)
        self._after_restart()

    # -- running code and asking --------------------------------------------------------------
    def execute(self, code: str) -> str:
        """Run *code* visibly (the console shows it); returns the execution's message id."""
        msg_id = self.kernel_client.execute(code, store_history=True, allow_stdin=False)
        self._mine.add(msg_id)
        return msg_id

    def ask(self, request: protocol.Request[R], on_reply: Callable[[protocol.Reply[R]], None],
            valid: Callable[[], bool] | None = None) -> None:
        """Ask the kernel (see :meth:`ExplorerClient.ask`); before it is ready, the request waits."""
        self.client.ask(request, on_reply, valid)

    def set_language(self, lang: str) -> None:
        """Language of the kernel's sentences; also sent in every handshake, so a restart keeps it."""
        self.client.language = lang
        if self.client.is_ready:
            self.client.ask(protocol.SetLanguage(lang=lang), lambda _reply: None)

    # -- internals ----------------------------------------------------------------------------
    def _set_status(self, status: str) -> None:
        if status != self._status:
            self._status = status
            self.status_changed.emit(status)

    def _connect_when_iopub_flows(self) -> None:
        """Until IOPub delivers something, a reply on it could be lost: ping, then open the comm."""
        if self.kernel_client is None:
            return
        if not self._iopub_seen:
            self.kernel_client.kernel_info()  # publishes busy/idle on IOPub
            QTimer.singleShot(IOPUB_PING_MS, self._connect_when_iopub_flows)
            return
        self.client.connect_comm()

    def _on_client_ready(self, hello: dict) -> None:
        self._reconnecting = False
        if not self._runs:
            self._set_status("idle")
        self.ready.emit(hello)

    def _on_shell_message_received(self, msg: dict) -> None:
        self.client.on_shell_reply(msg)

    def _on_iopub_message_received(self, msg: dict) -> None:
        self._iopub_seen = True
        self.client.on_iopub(msg)
        kind = msg["msg_type"]
        parent = msg["parent_header"].get("msg_id")
        if kind == "execute_input":
            run = {"msg_id": parent, "code": msg["content"].get("code", ""), "failed": False,
                   "mine": parent in self._mine}
            self._runs[parent] = run
            self._set_status("busy")
            self.run_started.emit(dict(run))
        elif kind == "error" and parent in self._runs:
            self._runs[parent]["failed"] = True
        elif kind == "status" and msg["content"].get("execution_state") == "idle" and parent in self._runs:
            self._finish_run(self._runs.pop(parent))

    def _finish_run(self, run: dict[str, Any]) -> None:
        self._mine.discard(run["msg_id"])
        if not self._runs:
            self._set_status("idle")
        # overlaps=False keeps big namespaces fast; the inspector asks for the selected variable's
        request = protocol.AfterRun(code=run["code"], failed=run["failed"], overlaps=False, delta=True)
        self.ask(request, lambda reply: self._on_after_run_replied(run, reply))

    def _on_after_run_replied(self, run: dict[str, Any], reply: protocol.Reply[Any]) -> None:
        result = reply.result if reply.ok else None
        if not result:
            self.run_finished.emit({**run, "error": None, "hints": [], "warnings": [], "problem": reply.message})
            return
        self.namespace_changed.emit(result["snapshot"])
        self.run_finished.emit({**run, "error": result.get("error"), "hints": result.get("hints") or [],
                                "warnings": result.get("warnings") or [], "problem": None})

    def _forget_runs(self, why: str) -> None:
        self._runs.clear()
        self._mine.clear()
        self.client.fail_all(why)
        self.client.forget_kernel()

    def _on_manager_restarting(self) -> None:
        self._forget_runs("the kernel died")
        self._set_status("restarting")
        self.kernel_died.emit("The kernel died (the code crashed or exited); restarting it. Your editor text is kept.")

    def _on_manager_dead(self) -> None:
        self._set_status("dead")
        self.kernel_died.emit("The kernel died and could not be restarted.")

    def _on_manager_kernel_restarted(self) -> None:
        self._after_restart()

    def _after_restart(self) -> None:
        """A new kernel process is up (after our restart, or the manager's after a death): reconnect once."""
        if self._reconnecting:
            return  # restart() and the manager's kernel_restarted signal both arrive here
        self._reconnecting = True
        self._runs.clear()
        self._iopub_seen = False
        self.client.forget_kernel()
        self.kernel_restarted.emit()
        self._connect_when_iopub_flows()


def _quiet_comm_manager(client: Any) -> None:
    """qtconsole gives every Qt kernel client a comm manager that sees our comm's traffic on
    IOPub and logs "No such comm" for each message (it knows only its own comms): quiet it."""
    manager = getattr(client, "comm_manager", None)
    if manager is not None:
        quiet = logging.getLogger("tensor_explorer.foreign_comms")
        quiet.setLevel(logging.ERROR)
        manager.log = quiet
