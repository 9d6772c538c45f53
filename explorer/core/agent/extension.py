"""The IPython extension: ``%load_ext explorer`` registers the comm target in any IPython kernel.

Nothing is put in the user's namespace: the agent reads ``user_ns`` through the
shell at every request, so ``%reset -f``, ``del`` or shadowed names change
nothing for the inspector. Warnings that the user's code raises are recorded
(and still shown as usual) so the window can turn them into quiet cards. A cell
that replaced what the kernel's own messaging calls is told to every client
before the kernel may fall silent (:mod:`explorer.core.agent.machinery`).
"""

from __future__ import annotations

import logging
import sys
import threading
import warnings
from typing import Any

from explorer import protocol
from explorer.core.agent import machinery
from explorer.core.agent.comm import CommEndpoint
from explorer.core.agent.handlers import Agent
from explorer.core.agent.interrupts import InterruptGuard
from explorer.core.agent.pause import PauseHook
from explorer.core.agent.sampler import Sampler
from explorer.core.step import replay
from explorer.core.summary.guard import inspecting

#: Warnings kept per run (a loop that warns a million times must not fill the kernel's memory).
MAX_WARNINGS = 20


class Extension:
    """The agent of one shell, the comm target, and the warning recorder."""

    def __init__(self, shell: Any) -> None:
        import numpy

        from explorer.core.summary.guard import remember

        remember("numpy", numpy)  # so a user's sys.modules["numpy"] = None is undone while we inspect
        self.shell = shell
        compiler = getattr(shell, "compile", None)
        filename_map = getattr(compiler, "_filename_map", None)
        code_filenames = (lambda: set(filename_map)) if isinstance(filename_map, dict) else set
        self.agent = Agent(lambda: shell.user_ns, lambda: shell.user_ns_hidden, code_filenames)
        self.endpoints: dict[str, CommEndpoint] = {}
        self._original_showwarning = warnings.showwarning
        self._cell: str | None = None
        self.pause_hook: PauseHook | None = None
        self._watched: machinery.Watched | None = None  # what the kernel's messaging calls, as the running cell found it
        self.sampler = Sampler(lambda: list(self.endpoints.values()), self.agent.user_namespace,
                               lambda: shell.user_ns, code_filenames)
        self.interrupts = InterruptGuard()  # a Stop that lands in the pre-cell callbacks still stops the cell

    # -- comm -------------------------------------------------------------------------
    def register(self) -> None:
        manager = self.shell.kernel.comm_manager
        manager.register_target(protocol.COMM_TARGET, self._on_comm_opened)
        logging.getLogger("Comm").addFilter(ROUTING_PEEK_FILTER)
        self.shell.events.register("pre_execute", self.interrupts.arm)
        self.shell.events.register("post_execute", self.interrupts.release)
        transformers = getattr(self.shell, "ast_transformers", None)
        if isinstance(transformers, list):
            transformers.append(self.interrupts)  # last: it runs when the cell is about to
        self.shell.events.register("pre_run_cell", self._on_pre_run_cell)
        self.shell.events.register("post_run_cell", self._on_post_run_cell)
        warnings.showwarning = self._showwarning
        if hasattr(self.shell, "register_magic_function"):
            replay.register(self.shell)  # Step back's replay as one execution
        kernel = getattr(self.shell, "kernel", None)
        handlers = getattr(kernel, "control_handlers", None)
        if isinstance(handlers, dict):  # pause/resume of a watch while the shell is busy running code
            handlers[protocol.WATCH_CONTROL] = self._on_watch_control
        if kernel is not None and hasattr(kernel, "raw_input"):
            self.pause_hook = PauseHook(kernel, self.agent, lambda: list(self.endpoints.values()), sys.breakpointhook)
            sys.breakpointhook = self.pause_hook

    def unregister(self) -> None:
        manager = self.shell.kernel.comm_manager
        manager.unregister_target(protocol.COMM_TARGET, self._on_comm_opened)
        logging.getLogger("Comm").removeFilter(ROUTING_PEEK_FILTER)
        for event, callback in (("pre_run_cell", self._on_pre_run_cell), ("post_run_cell", self._on_post_run_cell),
                                ("pre_execute", self.interrupts.arm), ("post_execute", self.interrupts.release)):
            try:
                self.shell.events.unregister(event, callback)
            except ValueError:
                pass
        self.interrupts.release()
        transformers = getattr(self.shell, "ast_transformers", None)
        if isinstance(transformers, list) and self.interrupts in transformers:
            transformers.remove(self.interrupts)
        self.sampler.stop()
        handlers = getattr(getattr(self.shell, "kernel", None), "control_handlers", None)
        if isinstance(handlers, dict) and handlers.get(protocol.WATCH_CONTROL) == self._on_watch_control:
            del handlers[protocol.WATCH_CONTROL]
        if warnings.showwarning == self._showwarning:
            warnings.showwarning = self._original_showwarning
        if self.pause_hook is not None and sys.breakpointhook is self.pause_hook:
            sys.breakpointhook = self.pause_hook.previous

    def _on_comm_opened(self, comm: Any, open_msg: object) -> None:
        def send(data: dict, buffers: list) -> None:
            comm.send(data, buffers=buffers or None)

        header = open_msg.get("header") if isinstance(open_msg, dict) else None
        session = header.get("session") if isinstance(header, dict) else None
        endpoint = CommEndpoint(self.agent, send, session)
        self.endpoints[comm.comm_id] = endpoint
        comm.on_msg(lambda msg: endpoint.on_message(msg["content"]["data"]) if _has_data(msg) else None)
        comm.on_close(lambda _msg: self.endpoints.pop(comm.comm_id, None))

    # -- watching running code ------------------------------------------------------------
    def _on_watch_control(self, stream: Any, ident: Any, parent: Any) -> None:
        """Pause or resume one comm's watch (a control-channel message: it arrives while code runs).

        Runs on ipykernel's control thread: it only swaps one immutable state, and answers.
        """
        content = parent.get("content") if isinstance(parent, dict) else None
        content = content if isinstance(content, dict) else {}
        endpoint = self.endpoints.get(str(content.get("comm_id")))
        state = endpoint.client.watch if endpoint is not None else None
        if endpoint is not None and state is not None:
            endpoint.client.watch = state.with_paused(bool(content.get("paused")))
        reply = {"comm_id": content.get("comm_id"), "paused": bool(content.get("paused")), "known": state is not None}
        kernel = getattr(self.shell, "kernel", None)
        session = getattr(kernel, "session", None)
        if session is not None:
            session.send(stream, protocol.WATCH_CONTROL_REPLY, reply, parent, ident=ident)

    # -- warnings ---------------------------------------------------------------------
    def _on_pre_run_cell(self, info: Any = None) -> None:
        self._watched = machinery.watch()
        self.agent.warnings = []
        self._cell = getattr(info, "raw_cell", None)
        self.agent.new_run(self._cell)
        if self.endpoints:
            self.sampler.start()

    def _on_post_run_cell(self, result: Any = None) -> None:
        """When the cell replaced what the kernel's messaging calls, tell every client before the kernel may fall silent.

        Nothing here may call a builtin before the guard is on: the cell may have replaced it.
        """
        self.sampler.stop()  # before the client's AfterRun: no sample after the run's snapshot
        before, self._watched = self._watched, None
        if before is None or not self.endpoints:
            return
        names = machinery.replaced_since(before)
        if names:  # no push then: its clients ask, as they would of a kernel without it
            with inspecting():
                notices = [endpoint.notify_replaced for endpoint in list(self.endpoints.values())]
                machinery.tell_clients(getattr(self.shell, "kernel", None), before, names, notices)
            return
        self._push_after_run(result)

    def _push_after_run(self, result: Any) -> None:
        """Each comm that asked (PushAfterRun) gets this run's AfterRun reply now, before the kernel goes idle.

        Every comm gets the run's warnings (an asked AfterRun takes them); a push that fails is not
        sent, and its client asks as before. Nothing here may raise into IPython (it would print).
        """
        with inspecting():
            try:
                failed = not bool(getattr(result, "success", True))
                msg_id = _execution_id(self.shell)
                warned = list(self.agent.warnings)
                for endpoint in list(self.endpoints.values()):
                    self.agent.warnings = list(warned)
                    try:
                        endpoint.push_after_run(self._cell or "", failed, msg_id)
                    except BaseException:  # noqa: BLE001 - that client asks instead (a late Stop included)
                        pass
                self.agent.warnings = warned
            except BaseException:  # noqa: BLE001 - the clients ask instead
                pass

    def _showwarning(self, message: Any, category: type, filename: str, lineno: int,
                     file: Any = None, line: str | None = None) -> None:
        """Record a warning raised by the user's code as a card, then show it as Python would."""
        if len(self.agent.warnings) < MAX_WARNINGS:
            try:
                with inspecting():
                    self.agent.record_warning(message, category, filename, lineno, self._cell,
                                              sys._getframe(1))
            except Exception:  # noqa: BLE001 - recording must never hide the warning itself
                pass
        self._original_showwarning(message, category, filename, lineno, file, line)


class RoutingPeekFilter(logging.Filter):
    """Drops the "No such comm" that ipykernel 7's shell-channel thread logs while routing a message.

    That thread looks up the comm of every ``comm_msg`` to pick a subshell, and a message sent
    right after its ``comm_open`` (our handshake) arrives there before the main thread has opened
    the comm: the warning went into the console at about every other start, though nothing was lost. The
    main thread's own lookup, which does drop a message, still logs.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        peek = threading.current_thread() is not threading.main_thread()
        return not (peek and str(record.msg).startswith("No such comm:"))


ROUTING_PEEK_FILTER = RoutingPeekFilter()


def _execution_id(shell: Any) -> str | None:
    """The ``msg_id`` of the ``execute_request`` running now (ipykernel's shell parent), or None."""
    kernel = getattr(shell, "kernel", None)
    get_parent = getattr(kernel, "get_parent", None)
    parent = get_parent("shell") if callable(get_parent) else getattr(shell, "parent_header", None)
    header = parent.get("header") if isinstance(parent, dict) else None
    msg_id = header.get("msg_id") if isinstance(header, dict) else None
    return msg_id if isinstance(msg_id, str) else None


def _has_data(msg: Any) -> bool:
    return isinstance(msg, dict) and isinstance(msg.get("content"), dict) and "data" in msg["content"]


_loaded: dict[int, Extension] = {}


def load_ipython_extension(shell: Any) -> None:
    """Entry point of ``%load_ext explorer``; loading twice is harmless."""
    if id(shell) in _loaded:
        return
    extension = Extension(shell)
    extension.register()
    _loaded[id(shell)] = extension


def unload_ipython_extension(shell: Any) -> None:
    extension = _loaded.pop(id(shell), None)
    if extension is not None:
        extension.unregister()
