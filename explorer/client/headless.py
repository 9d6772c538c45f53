"""A kernel driven without Qt: used by the CLI and by kernel tests.

It runs code exactly as the GUI does (same kernel command, same extension, the
code sent as one cell) and asks the kernel through the same comm protocol, so
``tensor-explorer inspect`` reports what the window would show.

Every wait is bounded: the start, each request and each run take a timeout (the start's and the
graces come from :mod:`explorer.client.budgets`), and a run that ignores the interrupt sent at its
timeout gets its kernel killed. A run that replaced what the kernel's own messaging calls
(``builtins.isinstance = None``) and leaves the kernel silent ends at once with
:class:`KernelSilentError`, naming what was replaced. The kernel's own log (its stdout and stderr)
goes to a file in its private folder, never to the caller's terminal. Every kernel not yet shut
down is listed in a registry, so a caller ending on a signal can stop them all (:func:`shutdown_all`)
even when the signal arrived before the object reached it.
"""

from __future__ import annotations

import asyncio
import os
import queue
import shutil
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from jupyter_client import KernelManager

from explorer import __version__, protocol
from explorer.client import budgets
from explorer.client.channel import FAST_LOADS, LOAD_EXTENSION_CODE, CommChannel
from explorer.client.launch import configure_manager, kernel_env

R = TypeVar("R")
#: The kernel's stdout and stderr, in its private folder (removed with it).
KERNEL_LOG = "kernel.log"

_RUNNING: list[HeadlessKernel] = []


#: Watch samples kept (a long watched run must not fill the memory; the callback sees every one).
MAX_SAMPLES = 10_000


class KernelDiedError(RuntimeError):
    """The kernel process ended while running code or answering."""


class KernelKilledError(KernelDiedError):
    """The run ignored the interrupt sent at its timeout, so the kernel was killed."""


class KernelSilentError(KernelDiedError):
    """The code replaced :attr:`names`, which the kernel's messaging calls, and the kernel fell silent (or :attr:`ended`)."""

    def __init__(self, names: list[str], ended: bool = False) -> None:
        super().__init__(f"the kernel {'ended' if ended else 'fell silent'} after the code replaced {', '.join(names)}")
        self.names = names
        self.ended = ended


class KernelStartTimeout(TimeoutError):
    """The kernel did not start and answer within the time given (it has been stopped)."""


class ExtensionError(RuntimeError):
    """The kernel has no (or another version of the) explorer extension; the message says what to do."""


def missing_sentence(error: str) -> str:
    """What the window's banner says when a kernel cannot load the extension (one sentence)."""
    return (f"the kernel cannot load the tensor-explorer extension ({error.strip(': ') or 'no answer'}); run "
            "`pip install tensor-explorer` in the kernel's environment and restart it")


def version_sentence(hello: Mapping[str, object]) -> str | None:
    """What the window's banner says when the kernel runs another release (None when it is this one)."""
    if not protocol.version_mismatch(hello, __version__):
        return None
    return (f"the kernel has tensor-explorer {hello.get('package')}, this command {__version__}: its answers may "
            f"be wrong; run `pip install tensor-explorer=={__version__}` in the kernel's environment and restart it")


def _cancel_interrupted_start() -> None:
    """Cancel what a signal left pending on jupyter_client's event loop (a start stopped midway).

    Left pending, the start went on at the loop's next use (our own shutdown of that kernel):
    the kernel was launched after it had been stopped.
    """
    from jupyter_core.utils import ensure_event_loop

    loop = ensure_event_loop()
    if loop.is_running():
        return
    pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
    for task in pending:
        task.cancel()
    if pending:
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))


def _kill_and_reap(pid: object) -> None:
    """Make sure our kernel process *pid* has ended (SIGKILL if it still runs), and reap it."""
    if not isinstance(pid, int):
        return
    try:
        if os.waitpid(pid, os.WNOHANG) == (0, 0):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    except (ChildProcessError, ProcessLookupError):
        pass  # already reaped by jupyter_client


def kill_strays(folder: str) -> list[int]:
    """Kill (and reap) our child processes whose command line names *folder*; their pids.

    A signal during the start can stop jupyter_client after it launched the kernel but before it
    kept the process's pid: nothing would end that kernel, and a kernel still starting writes its
    connection file again into the folder we just removed. Its command line names the connection
    file in *folder*. Linux only (``/proc``); elsewhere the kernel ends with us (it watches its parent).
    """
    if not os.path.isdir("/proc"):
        return []
    me, needle, killed = str(os.getpid()), os.fsencode(folder), []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                parent = stat.read().rsplit(b")", 1)[1].split()[1].decode()
            if parent != me:
                continue
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                named = needle in cmdline.read()
        except (OSError, IndexError):
            continue  # ended meanwhile, or not ours to read
        if named:
            _kill_and_reap(int(entry))
            killed.append(int(entry))
    return killed


def _within(seconds: float, steps: list[Callable[[], object]]) -> bool:
    """Run *steps* in order (each even when an earlier one failed) on a thread; wait for them at most *seconds*.

    True when they finished. A step blocked in ZMQ (a context whose socket a signal left open waits in
    ``zmq_ctx_term`` for ever) is left behind on its daemon thread, and ends with the process.
    """
    def run() -> None:
        for step in steps:
            try:
                step()
            except Exception:  # noqa: BLE001 - a dead kernel cannot be shut down twice
                pass

    worker = threading.Thread(target=run, name="te-kernel-shutdown", daemon=True)
    worker.start()
    worker.join(seconds)
    return not worker.is_alive()


def shutdown_all() -> None:
    """Shut down every headless kernel of this process that is still running."""
    while _RUNNING:
        _RUNNING[-1].shutdown()


class HeadlessKernel:
    """Start a local IPC kernel with the extension loaded; run code; ask through the comm.

    Parameters
    ----------
    cwd : str, optional
        Working directory of the kernel process.
    language : str
        Language of the kernel's sentences ("en" for the CLI).
    start_timeout : float, optional
        Seconds for the kernel to start and answer the handshake (default: :data:`budgets.KERNEL_START`,
        scaled); :class:`KernelStartTimeout` after.
    """

    def __init__(self, cwd: str | None = None, language: str = "en", start_timeout: float | None = None) -> None:
        _RUNNING.append(self)  # first: a signal during the start still finds this kernel
        self._runtime: str | None = None
        self._reset_state()
        self.client: Any = None
        try:
            self.manager: KernelManager | None = KernelManager()  # None: a kernel someone else started
            self._runtime = configure_manager(self.manager)
            if start_timeout is None:
                start_timeout = budgets.seconds(budgets.KERNEL_START)
            deadline = time.monotonic() + start_timeout
            with open(os.path.join(self._runtime, KERNEL_LOG), "wb") as log:  # the kernel keeps its own copy
                self.manager.start_kernel(env=kernel_env(die_with_parent=True), cwd=cwd,
                                          stdin=subprocess.DEVNULL, stdout=log, stderr=log)
            self.client = self.manager.client()
            self.client.start_channels()
            try:
                self.client.wait_for_ready(timeout=max(deadline - time.monotonic(), 0.01))
            except RuntimeError as exc:  # jupyter_client's "Kernel didn't respond in N seconds"
                if not self.manager.is_alive():
                    raise KernelDiedError("the kernel process ended while starting") from exc
                raise KernelStartTimeout(f"the kernel did not start within {start_timeout:g} s") from exc
            self.channel = CommChannel(self.client)
            self.hello = self._connect(language, deadline)
        except BaseException:
            self.shutdown()
            raise

    def _reset_state(self) -> None:
        """What a kernel object knows before it has heard anything (also :class:`AttachedKernel`'s start)."""
        self._replies: dict[int, protocol.Reply[Any]] = {}
        self.events: list[tuple[str, dict[str, Any]]] = []  # the kernel's events, oldest first (samples apart)
        self.samples: deque[dict[str, Any]] = deque(maxlen=MAX_SAMPLES)  # watch samples, oldest first
        # AfterRun replies pushed as runs ended (after a PushAfterRun; the CLI asks instead): (msg_id, reply).
        self.pushes: deque[tuple[str, protocol.Reply[Any]]] = deque(maxlen=8)
        self.on_sample: Callable[[dict[str, Any]], None] | None = getattr(self, "on_sample", None)
        self._closed = False
        self.replaced: list[str] = []  # what the last run replaced of what the kernel's messaging calls
        self._replaced_at = 0.0
        self._awaiting: str | None = None  # the message id of the request asked now
        self._acknowledged = False  # the kernel said it is busy with it: it could read it

    @property
    def runtime(self) -> str | None:
        """The kernel's private folder (connection file and sockets); removed by :meth:`shutdown`."""
        return self._runtime

    # -- connecting -------------------------------------------------------------------
    def _connect(self, language: str, deadline: float) -> protocol.HelloReply:
        """Open the comm and shake hands; load the extension first if the kernel lacks it."""
        for attempt in range(2):
            self._closed = False
            self.channel.open()
            reply = self.ask(protocol.Hello(package=__version__, language=language),
                             timeout=deadline - time.monotonic())
            if reply.ok and reply.result is not None:
                return reply.result
            if reply.error is not None and reply.error.type == "Timeout":
                raise KernelStartTimeout("the kernel started but its explorer extension did not answer in time")
            if not self._closed or attempt:
                raise ExtensionError(f"the kernel's explorer extension did not answer: {reply.message}")
            self.channel = CommChannel(self.client)
            # The hook keeps the kernel's traceback of a failed import off our terminal: the sentence says it.
            outcome = self.client.execute_interactive(LOAD_EXTENSION_CODE, silent=True, store_history=False,
                                                      timeout=max(deadline - time.monotonic(), 0.01),
                                                      output_hook=lambda _msg: None)
            content = outcome["content"]
            if content.get("status") != "ok":
                raise ExtensionError(missing_sentence(f"{content.get('ename', '')}: {content.get('evalue', '')}"))
        raise ExtensionError("the kernel's explorer extension did not answer")

    # -- asking -------------------------------------------------------------------------
    def ask(self, request: protocol.Request[R], timeout: float = 600) -> protocol.Reply[R]:
        """Send one request and wait for its reply (an error Reply of type "Timeout" after *timeout* s,
        of type "CommClosed" when the kernel closed the comm)."""
        request_id = self.channel.send(request)
        sent = time.monotonic()
        deadline = sent + timeout
        self._awaiting, self._acknowledged = self.channel.last_msg_id, False
        while request_id not in self._replies:
            if self._closed:
                return protocol.Reply(False, error=protocol.ErrorInfo("CommClosed", "the kernel closed the comm"))
            if time.monotonic() > deadline:
                return protocol.Reply(False, error=protocol.ErrorInfo(
                    "Timeout", f"no answer to {request.method!r} within {max(timeout, 0):g} s"))
            self._check_alive("the kernel died while answering a request")
            if not self._acknowledged and self._silent_since(sent):  # it cannot even read requests any more
                raise KernelSilentError(self.replaced)
            self._pump(min(0.2, max(deadline - time.monotonic(), 0.01)))
        return protocol.unpacked(self._replies.pop(request_id), FAST_LOADS)

    def _silent_since(self, moment: float) -> bool:
        """The last run replaced what the kernel's messaging calls, and *moment* is a silence ago."""
        return bool(self.replaced) and time.monotonic() > moment + budgets.seconds(budgets.SILENCE)

    def _check_alive(self, why: str) -> None:
        """:class:`KernelDiedError` (:class:`KernelSilentError` when the code replaced what the kernel needs)."""
        if self.is_alive():
            return
        self._drain()  # the notice may still be queued
        if self.replaced:
            raise KernelSilentError(self.replaced, ended=True)
        raise KernelDiedError(why)

    def _pump(self, timeout: float) -> dict[str, Any] | None:
        """Read one IOPub message; comm traffic is filed, anything else is returned."""
        try:
            msg = self.client.get_iopub_msg(timeout=timeout)
        except queue.Empty:
            return None
        return self._file(msg)

    def _drain(self) -> None:
        """File what IOPub already holds (a kernel that just ended may have said why)."""
        while True:
            try:
                self._file(self.client.get_iopub_msg(timeout=0))
            except queue.Empty:
                return

    def _file(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        """Keep a comm reply or event; return any other message (noting that the request asked now was read)."""
        incoming = self.channel.read(msg)
        if incoming is None:
            content = msg.get("content") or {}
            if content.get("execution_state") == "busy" and msg["parent_header"].get("msg_id") == self._awaiting:
                self._acknowledged = True
            return msg
        if incoming.closed:
            self._closed = True
        elif incoming.event is not None and incoming.event[0] == protocol.WATCH_EVENT:
            self.samples.append(incoming.event[1])
            if self.on_sample is not None:
                self.on_sample(incoming.event[1])
        elif incoming.event is not None:
            self.events.append(incoming.event)
            if incoming.event[0] == protocol.REPLACED_EVENT:
                self.replaced = [str(name) for name in incoming.event[1].get("names") or []]
                self._replaced_at = time.monotonic()
        elif incoming.pushed is not None:
            self.pushes.append((incoming.pushed[0], protocol.unpacked(incoming.pushed[1], FAST_LOADS)))
        elif incoming.request_id is not None and incoming.reply is not None:
            self._replies[incoming.request_id] = incoming.reply
        return None

    # -- running code ---------------------------------------------------------------------
    def run(self, code: str, timeout: float | None = None, stop_grace: float | None = None) -> dict[str, Any]:
        """Run *code* as one cell; return ``{"status", "outputs" (its errors), "interrupted"}``.

        After *timeout* seconds the kernel is interrupted (the code then ends with KeyboardInterrupt);
        when it is still busy *stop_grace* seconds later (default :data:`budgets.STOP_GRACE`, scaled),
        the kernel is killed and :class:`KernelKilledError` raised. When the code replaced what the
        kernel's messaging calls and the kernel then stays silent, :class:`KernelSilentError`.
        """
        grace = budgets.seconds(budgets.STOP_GRACE) if stop_grace is None else stop_grace
        outputs: list[dict] = []
        self.replaced = []
        # No stdin: input() fails at once instead of waiting for an answer nobody can type.
        msg_id = self.client.execute(code, store_history=True, allow_stdin=False)
        deadline = None if timeout is None else time.monotonic() + timeout
        interrupted = False
        while True:
            self._check_alive("the kernel died while running the code")
            if self._silent_since(self._replaced_at):  # the cell ended, but the kernel cannot say so
                raise KernelSilentError(self.replaced)
            # Checked on every message, so a script printing without pause still times out.
            if deadline is not None and time.monotonic() > deadline:
                if interrupted:
                    self.kill()
                    raise KernelKilledError(f"the code ignored the interrupt for {grace:g} s")
                self.interrupt()
                interrupted, deadline = True, time.monotonic() + grace
            msg = self._pump(0.2)
            if msg is None or msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind = msg["msg_type"]
            if kind == "error":  # printed output is not kept: a script may print gigabytes
                outputs.append({"type": kind, **msg["content"]})
            if kind == "status" and msg["content"]["execution_state"] == "idle":
                break
        failed = any(o["type"] == "error" for o in outputs)
        return {"status": "error" if failed else "ok", "outputs": outputs, "interrupted": interrupted}

    def pause_watch(self, paused: bool) -> None:
        """Pause or resume this comm's watch now, even while code runs (on the control channel)."""
        content = {"comm_id": self.channel.comm_id, "paused": bool(paused)}
        self.client.control_channel.send(self.client.session.msg(protocol.WATCH_CONTROL, content))

    def is_alive(self) -> bool:
        return self.manager is not None and bool(self.manager.is_alive())

    def interrupt(self) -> None:
        """KeyboardInterrupt in the running code."""
        if self.manager is not None:
            self.manager.interrupt_kernel()

    # -- ending ---------------------------------------------------------------------------
    def kill(self) -> None:
        """Kill the kernel process (and its process group) at once; the object is then shut down."""
        self.shutdown()

    def shutdown(self) -> None:
        """Stop the channels and the kernel process (quietly, even if it already died); remove its folder.

        The folder goes last, once the kernel process is surely gone: a kernel still starting writes
        its connection file again when it finds none.
        """
        manager = getattr(self, "manager", None)
        if manager is not None:
            _cancel_interrupted_start()
        pid = getattr(getattr(manager, "provisioner", None), "pid", None)
        client = self.client
        steps = [
            lambda: client is not None and client.stop_channels(),
            lambda: manager is not None and manager.has_kernel and manager.shutdown_kernel(now=True),
            lambda: manager is not None and manager.cleanup_resources(),
        ]
        _within(budgets.seconds(budgets.SHUTDOWN), steps)
        _kill_and_reap(pid)  # whatever jupyter_client managed, the process is gone after this
        if self._runtime is not None:
            kill_strays(self._runtime)
        if self._runtime is not None:
            shutil.rmtree(self._runtime, ignore_errors=True)
        if self in _RUNNING:
            _RUNNING.remove(self)

    def __enter__(self) -> HeadlessKernel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
