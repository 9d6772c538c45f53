"""The window's one client of the explorer comm: typed requests in, replies out on the GUI thread.

Every view asks through :meth:`ExplorerClient.ask` with a request from
:mod:`explorer.protocol`; the callback receives a :class:`protocol.Reply`.
A view passes ``valid`` (its selection generation check) so a reply that
arrives after the user moved on is dropped here, in one place. Requests made
before the kernel is ready wait for the handshake; when the kernel dies or
restarts, every waiting callback gets an error reply, so no view waits forever.

While the code we ran is paused in ``breakpoint()`` the kernel does not read the
shell channel: requests then wait for the kernel's pause prompts on the stdin
channel and go as their answers, one per prompt (see :mod:`explorer.core.agent.pause`);
the replies come on the comm as always. Other input requests (the user's
``input()``) are passed on as :attr:`ExplorerClient.input_requested`.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QObject, QTimer, Signal

from explorer import __version__, protocol
from explorer.client.channel import FAST_LOADS, LOAD_EXTENSION_CODE, CommChannel

R = TypeVar("R")
Callback = Callable[[protocol.Reply[Any]], None]
#: Requests waiting for the handshake; beyond this the oldest are answered with an error.
MAX_WAITING = 200
#: Pushed AfterRun replies kept for runs not finished yet (one per run; more means nobody takes them).
MAX_PUSHES = 8


class ExplorerClient(QObject):
    """Opens the comm on a jupyter_client Qt kernel client, shakes hands, and routes replies."""

    ready = Signal(object)  # the HelloReply
    #: (kind, facts): "version" {"kernel", "kernel_protocol", "app", "app_protocol"} | "missing" {"error"}
    problem = Signal(str, dict)  # (ProblemKind, facts)
    paused = Signal(object)  # protocol.PausedEvent: the code waits in breakpoint()
    resumed = Signal(object)  # {"stop"}: it went on (or was stopped)
    input_requested = Signal(str, bool)  # (prompt, password) of the user's input() in code we ran
    watch_sampled = Signal(object)  # protocol.WatchSample: a sample of the running code (Watch)
    push_decoded = Signal(str, object)  # (execute msg_id, its pushed AfterRun reply), as soon as it is decoded

    def __init__(self, kernel_client: Any = None, language: str = "en", parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._kernel_client = kernel_client
        self.language = language
        self.hello: dict | None = None
        self._channel: CommChannel | None = None
        self._pending: dict[int, tuple[Callback, Callable[[], bool] | None]] = {}
        self._waiting: list[tuple[protocol.Request[Any], Callback, Callable[[], bool] | None]] = []
        self._load_tried = False
        self._extension_load: str | None = None
        self._paused = False
        self._by_stdin: list[tuple[protocol.Request[Any], Callback, Callable[[], bool] | None]] = []
        self._prompts = 0  # pause prompts the kernel is waiting on
        #: The AfterRun each run's reply is pushed as (sent with every handshake); None: every run is asked for.
        self.push: protocol.PushAfterRun | None = None
        self._push_refused = False  # an older kernel side, without PushAfterRun: every run is asked for
        #: The PushAfterRun the kernel side has taken on this comm (None before its reply): until then a run that
        #: another client started first is asked for, the fallback for any run without a push.
        self.push_acknowledged: protocol.PushAfterRun | None = None
        self._pushes: dict[str, _Push] = {}  # by execute msg_id: replies the kernel pushed as a run ended

    @property
    def is_paused(self) -> bool:
        """The code we ran waits in ``breakpoint()`` (requests go through the pause prompts)."""
        return self._paused

    @property
    def is_ready(self) -> bool:
        return self.hello is not None

    def attach(self, kernel_client: Any) -> None:
        """The kernel client to talk through (requests asked before this wait for the handshake)."""
        self._kernel_client = kernel_client

    # -- connecting -------------------------------------------------------------------
    def connect_comm(self) -> None:
        """Open a fresh comm and send the handshake (after a start or restart)."""
        self.hello = None
        self._channel = CommChannel(self._kernel_client)
        self._channel.open()
        self._send(protocol.Hello(package=__version__, language=self.language, pause=True), self._on_hello_replied, None)

    def load_then_connect(self) -> None:
        """A kernel we attached to: load the extension first (silently), then open the comm.

        Opened first, the comm reached a kernel without our target: it logged "No such comm target
        registered" and "No such comm" for each message of the handshake into every console, before the
        extension was loaded and the comm opened again. Loading twice is harmless.
        """
        self.hello = None
        self._load_tried = True  # a comm closed after this load: the extension is missing, say so
        self._extension_load = self._kernel_client.execute(LOAD_EXTENSION_CODE, silent=True, store_history=False)

    def _on_hello_replied(self, reply: protocol.Reply[Any]) -> None:
        if not reply.ok and reply.error is not None and reply.error.type == "ProtocolError":
            # A kernel too old to read our handshake: say which release to install, as for any mismatch.
            self.problem.emit("version", {"kernel": "?", "kernel_protocol": None, "app": __version__,
                                          "app_protocol": protocol.PROTOCOL_VERSION})
            return
        if not reply.ok or not isinstance(reply.result, dict):
            return  # a closed comm is handled in on_iopub; a dead kernel by fail_all
        if protocol.version_mismatch(reply.result, __version__):
            self.problem.emit("version", {"kernel": str(reply.result.get("package")),
                                          "kernel_protocol": reply.result.get("protocol"),
                                          "app": __version__, "app_protocol": protocol.PROTOCOL_VERSION})
        self.hello = reply.result
        self._load_tried = False
        self._push_refused, self._pushes, self.push_acknowledged = False, {}, None
        if self.push is not None:  # before any code of ours runs: it goes ahead of it on the shell channel
            self._send_push(self.push)
        waiting, self._waiting = self._waiting, []
        for request, callback, valid in waiting:
            self._send(request, callback, valid)
        self.ready.emit(dict(reply.result))

    def _on_comm_closed(self) -> None:
        """The kernel has no explorer target: load the extension once, then say what is missing."""
        self.fail_all("the kernel closed the explorer comm", include_waiting=False)
        if self._load_tried:
            self.problem.emit("missing", {"error": ""})
            return
        self._load_tried = True
        msg_id = self._kernel_client.execute(LOAD_EXTENSION_CODE, silent=True, store_history=False)
        self._extension_load = msg_id

    def on_shell_reply(self, msg: dict) -> None:
        """The reply to our silent ``load_extension``: reconnect, or report why it failed."""
        if self._extension_load is None or msg["parent_header"].get("msg_id") != self._extension_load:
            return
        self._extension_load = None
        content = msg.get("content") or {}
        if content.get("status") == "ok":
            self.connect_comm()
        else:
            self.problem.emit("missing", {"error": f"{content.get('ename', '')}: {content.get('evalue', '')}"})

    # -- asking -------------------------------------------------------------------------
    def ask(self, request: protocol.Request[R], on_reply: Callable[[protocol.Reply[R]], None],
            valid: Callable[[], bool] | None = None) -> None:
        """Send *request*; *on_reply* runs on the GUI thread unless ``valid()`` is False by then."""
        if self.hello is None:
            self._waiting.append((request, on_reply, valid))
            if len(self._waiting) > MAX_WAITING:
                _, old_callback, old_valid = self._waiting.pop(0)
                self._deliver(old_callback, old_valid, _error("Busy", "too many requests before the kernel was ready"))
            return
        self._send(request, on_reply, valid)

    def _send(self, request: protocol.Request[Any], callback: Callback, valid: Callable[[], bool] | None) -> None:
        assert self._channel is not None
        if self._paused:
            self._by_stdin.append((request, callback, valid))
            self._answer_prompts()
            return
        request_id = self._channel.send(request)
        self._pending[request_id] = (callback, valid)

    # -- replies pushed as a run ends -----------------------------------------------------------
    def set_push(self, push: protocol.PushAfterRun | None) -> None:
        """Have each run's AfterRun reply pushed with these fields from the next run on (None: ask for it)."""
        old, self.push = self.push, push
        if push != old and self.hello is not None and not self._push_refused:
            self._send_push(push or protocol.PushAfterRun(enabled=False))

    def follow_selection(self, name: str) -> None:
        """The window's selection is now *name*: pushed replies carry its overlaps (``AfterRun.selected``)."""
        if self.push is not None and self.push.selected != name:
            self.set_push(dataclasses.replace(self.push, selected=name))

    def _send_push(self, push: protocol.PushAfterRun) -> None:
        self._send(push, lambda reply: self._on_push_replied(reply, push), None)

    def _on_push_replied(self, reply: protocol.Reply[Any], push: protocol.PushAfterRun) -> None:
        if reply.ok:
            self.push_acknowledged = push if push.enabled else None
        elif reply.error is not None and reply.error.type == "ProtocolError":
            self._push_refused = True  # its runs are asked for, as before PushAfterRun

    def _on_pushed(self, msg_id: str, reply: protocol.Reply[Any]) -> None:
        push = self._pushes[msg_id] = _Push()
        while len(self._pushes) > MAX_PUSHES:
            self._pushes.pop(next(iter(self._pushes)))

        def decoded(reply: protocol.Reply[Any]) -> None:
            push.done(reply)
            self.push_decoded.emit(msg_id, reply)

        if protocol.packed_snapshot(reply) is not None:
            _ChunkDecoder(self, reply, decoded).start()  # decoding starts before the run's idle arrives
        else:
            decoded(reply)

    def take_push(self, msg_id: str, on_reply: Callback) -> bool:
        """Give the AfterRun reply the kernel pushed for execution *msg_id* to *on_reply* (now, or once decoded).

        False when none came (a kernel side without :class:`protocol.PushAfterRun`, or the push
        failed): the caller asks. The kernel pushes before the run's idle, and IOPub keeps its order.
        """
        push = self._pushes.pop(msg_id, None)
        if push is None:
            return False
        push.then(on_reply)
        return True

    # -- paused code ------------------------------------------------------------------------
    def resume(self, stop: bool = False) -> None:
        """Let the paused code go on (``stop``: end it with KeyboardInterrupt there)."""
        if not self._paused:
            return
        self._send(protocol.Resume(stop=stop), lambda _reply: None, None)
        self._paused = False  # later requests wait in the shell queue until the run ends

    def leave(self) -> None:
        """Before we close: let paused code go on (nobody would answer it) and close our comm."""
        if self._paused:
            self.resume(stop=False)
        if self._channel is not None:
            self._channel.close()

    def on_stdin(self, msg: dict) -> None:
        """An input request for code we ran: a pause prompt takes our next request, anything else is the user's."""
        if msg.get("msg_type") != "input_request":
            return
        content = msg.get("content") or {}
        if content.get("prompt") == protocol.PAUSE_PROMPT:
            self._prompts += 1
            self._answer_prompts()
        else:
            self.input_requested.emit(str(content.get("prompt", "")), bool(content.get("password")))

    def answer_input(self, text: str) -> None:
        """Answer the user's ``input()``."""
        self._kernel_client.input(text)

    def _answer_prompts(self) -> None:
        while self._prompts and self._by_stdin and self._channel is not None:
            request, callback, valid = self._by_stdin.pop(0)
            request_id, text = self._channel.encode(request)
            self._pending[request_id] = (callback, valid)
            self._prompts -= 1
            self._kernel_client.input(text)

    def pause_watch(self, paused: bool) -> bool:
        """Pause or resume our watch now, even while code runs (Jupyter's control channel); False without a comm."""
        if self._channel is None or self._kernel_client is None:
            return False
        content = {"comm_id": self._channel.comm_id, "paused": bool(paused)}
        self._kernel_client.control_channel.send(self._kernel_client.session.msg(protocol.WATCH_CONTROL, content))
        return True

    def _on_event(self, name: str, data: dict) -> None:
        if name == protocol.WATCH_EVENT:
            self.watch_sampled.emit(data)
        elif name == "paused":
            self._paused = True
            self.paused.emit(data)
        elif name == "resumed":
            self._paused = False
            if data.get("interrupted"):  # the prompt we held was abandoned
                self._prompts = 0
            self.resumed.emit(data)

    def on_iopub(self, msg: dict) -> None:
        """Feed every IOPub message here; ours are taken, the rest ignored."""
        if self._channel is None:
            return
        incoming = self._channel.read(msg)
        if incoming is None:
            return
        if incoming.closed:
            self._on_comm_closed()
            return
        if incoming.event is not None:
            self._on_event(*incoming.event)
            return
        if incoming.pushed is not None:
            self._on_pushed(*incoming.pushed)
            return
        entry = self._pending.pop(incoming.request_id, None) if incoming.request_id is not None else None
        if entry is None or incoming.reply is None:
            return
        callback, valid = entry
        if protocol.packed_snapshot(incoming.reply) is not None:
            _ChunkDecoder(self, incoming.reply, lambda reply: self._deliver(callback, valid, reply)).start()
        else:
            self._deliver(callback, valid, incoming.reply)

    def forget_kernel(self) -> None:
        """The kernel died or restarts: our comm is gone with it, so later requests wait for a new handshake.

        (Sent on the old comm they would reach a kernel that never heard of it.)
        """
        self.hello = None
        self._channel = None
        self._pushes = {}

    def fail_all(self, why: str, include_waiting: bool = True) -> None:
        """Answer pending (and waiting) requests with an error: the kernel died or restarted, the comm closed."""
        pending = list(self._pending.values()) + [(callback, valid) for _, callback, valid in self._by_stdin]
        waiting = [(callback, valid) for _, callback, valid in self._waiting] if include_waiting else []
        self._pending = {}
        self._by_stdin, self._prompts, self._paused = [], 0, False
        if include_waiting:
            self._waiting = []
        reply = _error("KernelGone", why)
        for callback, valid in pending + waiting:
            QTimer.singleShot(0, lambda c=callback, v=valid: self._deliver(c, v, reply))

    @staticmethod
    def _deliver(callback: Callback, valid: Callable[[], bool] | None, reply: protocol.Reply[Any]) -> None:
        if valid is None or valid():
            callback(reply)


def _error(kind: str, message: str) -> protocol.Reply[Any]:
    return protocol.Reply(False, error=protocol.ErrorInfo(kind, message))


class _Push:
    """A reply the kernel pushed as a run ended: decoded (``reply``) or not yet, and who takes it."""

    def __init__(self) -> None:
        self.reply: protocol.Reply[Any] | None = None
        self._taker: Callback | None = None

    def done(self, reply: protocol.Reply[Any]) -> None:
        self.reply = reply
        if self._taker is not None:
            self._taker(reply)

    def then(self, taker: Callback) -> None:
        if self.reply is not None:
            taker(self.reply)
        else:
            self._taker = taker


#: Seconds of decoding per event-loop turn: a 3,000-variable snapshot (six chunks of 1-2 ms) takes one or two
#: turns instead of seven, and a turn ends after the chunk that passes this (the chunks are small).
DECODE_SLICE_S = 0.008


class _ChunkDecoder(QObject):
    """Decodes a packed snapshot a few chunks per event-loop turn (:data:`DECODE_SLICE_S`), then hands the reply on.

    A 10,000-variable snapshot is several MB of JSON; decoded in one call it would
    hold the GUI thread (and the GIL) for a tenth of a second or more. The reply is
    handed on in the turn that decodes its last chunk when that turn has time left,
    else in the next.
    """

    def __init__(self, parent: QObject, reply: protocol.Reply[Any], done: Callable[[protocol.Reply[Any]], None]) -> None:
        super().__init__(parent)
        self._reply = reply
        self._done = done
        self._rows: list[protocol.Var] = []
        self._next = 0
        snapshot = protocol.packed_snapshot(reply)
        self._compact = snapshot is not None and protocol.is_compact(snapshot)

    def start(self) -> None:
        QTimer.singleShot(0, self._step)

    def _step(self) -> None:
        buffers = self._reply.buffers
        end = time.perf_counter() + DECODE_SLICE_S
        while self._next < len(buffers):
            self._rows.extend(protocol.unpack_chunk(buffers[self._next], self._compact, FAST_LOADS))
            self._next += 1
            if time.perf_counter() >= end:
                QTimer.singleShot(0, self._step)  # the rest (or the handing on) in the next turn
                return
        snapshot = protocol.packed_snapshot(self._reply)
        if snapshot is not None:
            snapshot["variables"] = self._rows
        self._done(self._reply)
        self.deleteLater()
