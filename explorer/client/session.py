"""The window's kernel: start, run, interrupt, restart; the explorer comm's client; runs as signals.

One kernel process, two clients: the console's, and ours. Ours runs the
editor's code (the console shows it as input from another client), watches
every execution on IOPub (so code typed in the console updates the inspector
too), and owns the explorer comm (:class:`~explorer.client.client.ExplorerClient`).

With ``connection`` (``tensor-explorer --existing``) the session attaches to a kernel someone
else started (a notebook's, ``jupyter console``'s, one on a GPU server through SSH tunnels):
it is never shut down or restarted by us, Stop is Jupyter's ``interrupt_request``, and a
silent heartbeat is reported as :attr:`KernelSession.connection_lost`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QObject, QTimer, Signal

from explorer import protocol
from explorer.client import budgets
from explorer.client.client import ExplorerClient
from explorer.client.launch import kernel_env
from explorer.client.qt_clients import attached_client, quiet_comm_manager, wait_for
from explorer.client.spare import SpareKernel, dispose, new_client, new_manager
from explorer.client.states import KernelStatus

R = TypeVar("R")
#: How often the kernel is pinged until IOPub delivers (ZMQ's slow joiner drops early messages).
IOPUB_PING_MS = 50
#: Milliseconds an attached kernel gets, when we quit, to read that paused code goes on and our comm closed.
LEAVE_WAIT_MS = budgets.milliseconds(2.0)
#: Milliseconds after the kernel is ready before the spare starts (it must not slow the start or a run).
SPARE_DELAY_MS = 3000


class KernelSession(QObject):
    """A local ipykernel with the explorer extension. Signals carry plain data only, never tensors.

    Signals are ``Signal(object)``: a ``Signal(dict)`` would convert a 10,000-variable
    snapshot to a QVariantMap and back on the GUI thread (seconds).
    """

    status_changed = Signal(str)  # a KernelStatus
    namespace_changed = Signal(object)  # a protocol.SnapshotReply (full, or a delta)
    # The selected variable's overlaps (a protocol.OverlapsReply) that a run's reply carried; emitted
    # just before that run's namespace_changed, so the inspector need not ask for them again.
    selected_overlaps = Signal(object)
    run_started = Signal(object)  # {"msg_id", "code", "mine"}
    run_finished = Signal(object)  # {"msg_id", "code", "mine", "failed", "error", "hints", "warnings", "problem"}
    kernel_died = Signal(str)
    kernel_restarted = Signal()
    kernel_swapped = Signal()  # a restart handed over to the spare kernel: the console takes a new client
    ready = Signal(object)  # the kernel's HelloReply, after every start and restart
    problem = Signal(str, dict)  # see ExplorerClient.problem
    paused = Signal(object)  # protocol.PausedEvent: code we ran waits in breakpoint()
    resumed = Signal(object)  # protocol.ResumedEvent
    input_requested = Signal(str, bool)  # (prompt, password): the user's input() in code we ran
    connection_lost = Signal()  # an attached kernel stopped answering its heartbeat
    watch_sampled = Signal(object)  # protocol.WatchSample, while watched code runs
    #: Step back's replay runs the earlier statements as one cell (our extension's %%explorer_replay).
    replays_at_once = True

    def __init__(self, cwd: str | None = None, parent: QObject | None = None,
                 connection: dict[str, Any] | None = None) -> None:
        super().__init__(parent)
        self._cwd = cwd
        self.connection = connection
        self.manager: Any = None
        self._runtime: str | None = None
        if connection is None:
            self.manager, self._runtime = new_manager()
        # Restart swaps to it when it is ready (see explorer.client.spare); off until set_spare(True).
        self.spare: SpareKernel | None = SpareKernel(cwd, self) if connection is None else None
        self._spare_on = False
        self._spare_timer = QTimer(self)
        self._spare_timer.setSingleShot(True)
        self._spare_timer.setInterval(SPARE_DELAY_MS)
        self._spare_timer.timeout.connect(self._start_spare)
        self.kernel_client: Any = None
        self._console_clients: list[Any] = []  # stopped with ours: a heartbeat must not outlive its widget
        # Exists before the kernel: requests made meanwhile (files named at start) wait for the handshake.
        self.client = ExplorerClient(None, "en", self)
        self.client.ready.connect(self._on_client_ready)
        for name in ("problem", "paused", "resumed", "input_requested", "watch_sampled"):  # passed on as they are
            getattr(self.client, name).connect(getattr(self, name))
        self.client.push_decoded.connect(self._on_client_push_decoded)
        # Each run's AfterRun (as _finish_run would ask it) comes unasked as the run ends: one round trip less.
        self.client.push = protocol.PushAfterRun(overlaps=False, delta=True)
        self._runs: dict[str, dict[str, Any]] = {}
        self._shown: set[str] = set()  # runs whose pushed snapshot is shown already (their idle not yet here)
        self._mine: set[str] = set()
        self._status: KernelStatus = "starting"
        self._iopub_seen = False
        self._pings: set[str] = set()  # kernel_info requests sent since the (re)start, until IOPub answered one
        self._kernel: str | None = None  # the Jupyter session id of the kernel whose IOPub we read
        self._old_kernels: set[str] = set()  # those of the kernels before a restart
        self._reconnecting = False
        self._launched = False  # the kernel process was started (by launch() or start())
        # The name selected in the window (set by it), sent with each run's AfterRun.
        self.selection: Callable[[], str | None] = lambda: None
        self._ping_timer = QTimer(self)  # the next ping while IOPub has not answered one
        self._ping_timer.setSingleShot(True)
        self._ping_timer.setInterval(IOPUB_PING_MS)
        self._ping_timer.timeout.connect(self._connect_when_iopub_flows)

    # -- life cycle ---------------------------------------------------------------------
    @property
    def status(self) -> KernelStatus:
        return self._status

    @property
    def is_ready(self) -> bool:
        return self.client.is_ready

    @property
    def owns_kernel(self) -> bool:
        """False for a kernel we attached to: we never restart or shut it down."""
        return self.connection is None

    @property
    def is_paused(self) -> bool:
        return self.client.is_paused

    def launch(self) -> None:
        """Start the kernel process only, so it imports while the window is built; :meth:`start` connects to it.

        Nothing is emitted and no client exists yet; an attached kernel (no manager) has nothing to launch.
        """
        if self.manager is not None and not self._launched:
            self._launched = True
            self.manager.start_kernel(env=kernel_env(), cwd=self._cwd)

    def start(self) -> None:
        """Start the kernel process (unless :meth:`launch` did) or reach the running one, and our client; returns at once."""
        self._set_status("starting")
        if self.manager is not None:
            self.launch()
            self.manager.add_restart_callback(self._on_manager_restarting, "restart")
            self.manager.add_restart_callback(self._on_manager_dead, "dead")
            self.manager.kernel_restarted.connect(self._on_manager_kernel_restarted)
        self.kernel_client = self._new_client()
        self.kernel_client.start_channels()
        quiet_comm_manager(self.kernel_client)
        self._wire(self.kernel_client, True)
        if self.manager is None:
            self.kernel_client.hb_channel.kernel_died.connect(self._on_heartbeat_failed)
        self.client.attach(self.kernel_client)
        self._connect_when_iopub_flows()

    def _wire(self, client: Any, on: bool) -> None:
        """Connect (or disconnect) our handlers to *client*'s channels."""
        pairs = [(client.iopub_channel.message_received, self._on_iopub_message_received),
                 (client.shell_channel.message_received, self._on_shell_message_received),
                 (client.stdin_channel.message_received, self.client.on_stdin)]
        for signal, slot in pairs:
            if on:
                signal.connect(slot)
            else:
                signal.disconnect(slot)

    def console_client(self) -> Any:
        """A second client for the console widget on the same kernel."""
        client = self._new_client()
        client.start_channels()
        quiet_comm_manager(client)
        self._console_clients.append(client)
        return client

    def _new_client(self) -> Any:
        """A client with its own Session: ZMQ routes replies by session identity, so two
        clients sharing the manager's Session would steal each other's replies."""
        if self.manager is None:
            return attached_client(self.connection or {})
        return new_client(self.manager)

    def shutdown(self, wait: bool = True) -> threading.Thread | None:
        """Stop the kernel process and our clients (on quit); an attached kernel is left running.

        Stopping a client's channels joins its I/O threads (about half a second each),
        so the app quits with ``wait=False``: the window is gone at once and a worker
        thread finishes the work (the interpreter waits for it before the process ends).
        """
        if self.kernel_client is not None and self.manager is None:
            self._leave()  # paused code goes on, our comm is closed: the kernel stays as we found it
        clients = [c for c in [self.kernel_client, *self._console_clients] if c is not None]
        self._console_clients = []
        self._set_status("dead")
        self._spare_timer.stop()
        kernels = [(self.manager, self._runtime)]
        if self.spare is not None and self.spare.started:  # the spare goes too: no orphan process
            manager, client, runtime = self.spare.take()
            kernels.append((manager, runtime))
            clients.append(client)
        return dispose(kernels, clients, wait)

    def _leave(self) -> None:
        """Let paused code go on and close our comm, waiting (briefly) until the kernel has them:
        closing the channels drops what they have not sent yet."""
        if self.client.is_paused:
            wait_for(self.resumed, lambda: self.client.resume(stop=False), LEAVE_WAIT_MS)

        def close_and_ping() -> None:
            self.client.leave()
            self.kernel_client.kernel_info()  # answered once the kernel has read the comm_close

        wait_for(self.kernel_client.shell_channel.message_received, close_and_ping, LEAVE_WAIT_MS)

    def interrupt(self) -> None:
        """Stop running code (KeyboardInterrupt in the kernel); paused code is stopped where it waits."""
        if self.client.is_paused:
            self.client.resume(stop=True)
        elif self.manager is None:
            if self.kernel_client is not None:
                self.kernel_client.control_channel.send(self.kernel_client.session.msg("interrupt_request", {}))
        elif self.manager.has_kernel:
            self.manager.interrupt_kernel()

    def resume(self) -> None:
        """Let code paused in ``breakpoint()`` go on."""
        self.client.resume(stop=False)

    def pause_watch(self, paused: bool) -> bool:
        """Pause or resume sampling now, even while code runs (see :meth:`ExplorerClient.pause_watch`)."""
        return self.client.pause_watch(paused)

    def answer_input(self, text: str) -> None:
        """Answer the user's ``input()`` (see :attr:`input_requested`)."""
        self.client.answer_input(text)

    def restart(self) -> None:
        """Restart the kernel process: the namespace is lost, the editor is not. Never an attached kernel."""
        if self.manager is None:
            return
        self._set_status("restarting")
        self._forget_runs("the kernel restarted")
        if self.spare is not None and self._spare_on and self.spare.is_ready:
            self._swap_to_spare()
            return
        self.manager.restart_kernel(now=True)
        self._after_restart()

    # -- the spare kernel (explorer.client.spare) ----------------------------------------------
    @property
    def spare_enabled(self) -> bool:
        return self._spare_on

    def set_spare(self, on: bool) -> None:
        """Keep a spare kernel for Restart (started a while after the kernel is ready), or shut it down."""
        self._spare_on = bool(on) and self.spare is not None
        if not self._spare_on:
            self._spare_timer.stop()
            if self.spare is not None:
                self.spare.discard()
        elif self.is_ready and self.spare is not None and not self.spare.started:
            self._spare_timer.start()

    def _start_spare(self) -> None:
        if self._spare_on and self.spare is not None and self._status != "dead":
            self.spare.start()

    def _swap_to_spare(self) -> None:
        """Restart by handing our clients over to the ready spare; the old kernel is shut down by a worker."""
        assert self.spare is not None
        old_manager, old_runtime = self.manager, self._runtime
        old_clients = [self.kernel_client, *self._console_clients]
        self._wire(self.kernel_client, False)
        old_manager.kernel_restarted.disconnect(self._on_manager_kernel_restarted)
        old_manager.remove_restart_callback(self._on_manager_restarting, "restart")
        old_manager.remove_restart_callback(self._on_manager_dead, "dead")
        self.manager, self.kernel_client, self._runtime = self.spare.take()
        self._console_clients = []
        self.manager.autorestart = True
        self.manager.start_restarter()
        self.manager.add_restart_callback(self._on_manager_restarting, "restart")
        self.manager.add_restart_callback(self._on_manager_dead, "dead")
        self.manager.kernel_restarted.connect(self._on_manager_kernel_restarted)
        self._wire(self.kernel_client, True)
        self.client.attach(self.kernel_client)
        dispose([(old_manager, old_runtime)], old_clients)
        self.kernel_swapped.emit()  # the console binds a client of the new kernel
        self._after_restart()

    # -- running code and asking --------------------------------------------------------------
    def execute(self, code: str) -> str:
        """Run *code* visibly (the console shows it); returns the execution's message id."""
        # stdin allowed: breakpoint() pauses for us and the user's input() is asked in a dialog
        msg_id = self.kernel_client.execute(code, store_history=True, allow_stdin=True)
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
    def _set_status(self, status: KernelStatus) -> None:
        if status != self._status:
            self._status = status
            self.status_changed.emit(status)

    def _connect_when_iopub_flows(self) -> None:
        """Until IOPub delivers the answer to a ping, a reply on it could be lost: ping, then open the comm.

        Only IOPub's welcome of our subscription or a ping's busy/idle counts: after a restart, a
        message the old kernel published just before it was killed may still arrive, and says
        nothing about the new kernel's IOPub.
        """
        if self.kernel_client is None:
            return
        if not self._iopub_seen:
            self._pings.add(self.kernel_client.kernel_info())  # publishes busy/idle on IOPub
            self._ping_timer.start()
            return
        self._ping_timer.stop()
        if self.owns_kernel:
            self.client.connect_comm()  # started with --ext=explorer: the target is there
        else:
            self.client.load_then_connect()

    def _on_client_ready(self, hello: dict) -> None:
        self._reconnecting = False
        if self._spare_on and self.spare is not None:
            if self.spare.started and not self.spare.is_alive:
                self.spare.discard()  # it died: another one is started
            if not self.spare.started:
                self._spare_timer.start()
        if not self._runs:
            self._set_status("idle")
        self.ready.emit(hello)

    def _on_shell_message_received(self, msg: dict) -> None:
        self.client.on_shell_reply(msg)

    def _on_iopub_message_received(self, msg: dict) -> None:
        if not self._iopub_seen:
            # The kernel's IOPub welcomes our subscription (JEP 65, ipykernel 7): all it publishes from now
            # on reaches us, no need to wait for a ping's busy/idle. Older kernels answer a ping only.
            sender = msg["header"].get("session")
            welcome = msg["msg_type"] == "iopub_welcome" and sender not in self._old_kernels
            if not welcome and msg["parent_header"].get("msg_id") not in self._pings:
                return  # a late message of the kernel before a restart: its runs are over (IOPub keeps its order)
            self._iopub_seen = True
            self._kernel = sender
            self._pings.clear()
            if self._ping_timer.isActive():  # connect now, not at the next ping
                self._ping_timer.stop()
                QTimer.singleShot(0, self._connect_when_iopub_flows)
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

    def selection_moved(self, *_args: Any) -> None:
        """The window's selection changed: the kernel's next pushed reply carries its overlaps."""
        self.client.follow_selection(self.selection() or "")

    def _finish_run(self, run: dict[str, Any]) -> None:
        self._mine.discard(run["msg_id"])
        if not self._runs:
            self._set_status("idle")
        if self.client.take_push(run["msg_id"], lambda reply: self._on_after_run_replied(run, reply)):
            return  # the kernel sent the reply as the run ended (PushAfterRun): nothing to ask
        # overlaps=False keeps big namespaces fast; the inspector asks for the selected variable's
        request = protocol.AfterRun(code=run["code"], failed=run["failed"], overlaps=False, delta=True,
                                    selected=self.selection() or "")
        self.ask(request, lambda reply: self._on_after_run_replied(run, reply))

    def _on_client_push_decoded(self, msg_id: str, reply: protocol.Reply[protocol.AfterRunReply]) -> None:
        """Shown at once; the run ends at its idle (ipykernel aborts a run sent before the idle of one that failed)."""
        if msg_id in self._runs and reply.ok and reply.result:
            self._shown.add(msg_id)
            self._show_namespace(reply.result)

    def _show_namespace(self, result: protocol.AfterRunReply) -> None:
        if result.get("selected"):
            self.selected_overlaps.emit(result["selected"])
        self.namespace_changed.emit(result["snapshot"])

    def _on_after_run_replied(self, run: dict[str, Any], reply: protocol.Reply[protocol.AfterRunReply]) -> None:
        result = reply.result if reply.ok else None
        shown = run["msg_id"] in self._shown
        self._shown.discard(run["msg_id"])
        if not result:
            self.run_finished.emit({**run, "error": None, "hints": [], "warnings": [], "problem": reply.message})
            return
        if not shown:
            self._show_namespace(result)
        self.run_finished.emit({**run, "error": result.get("error"), "hints": result.get("hints") or [],
                                "warnings": result.get("warnings") or [], "problem": None})

    def _forget_runs(self, why: str) -> None:
        self._runs, self._shown = {}, set()
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

    def _on_heartbeat_failed(self, _since: float) -> None:
        """An attached kernel stopped answering (its process ended, or the network or tunnel went)."""
        if self._status == "dead":
            return
        self._forget_runs("the kernel stopped answering")
        self._set_status("dead")
        self.connection_lost.emit()

    def _on_manager_kernel_restarted(self) -> None:
        self._after_restart()

    def _after_restart(self) -> None:
        """A new kernel process is up (after our restart, or the manager's after a death): reconnect once."""
        if self._reconnecting:
            return  # restart() and the manager's kernel_restarted signal both arrive here
        self._reconnecting = True
        self._runs, self._shown = {}, set()
        self._iopub_seen = False
        self._pings.clear()
        if self._kernel is not None:
            self._old_kernels.add(self._kernel)
        self.client.forget_kernel()
        self.kernel_restarted.emit()
        self._connect_when_iopub_flows()
