"""One comm, one client: parse a request, answer it through the handler table, send the reply.

Every request is answered exactly once, with a result or with an error as data
(``{"type", "message"}``), never with a traceback on the user's console: while
a handler runs, warnings are silenced, printed output is dropped and the
interpreter is put back as it was (:class:`~explorer.core.summary.guard.inspecting`).
The standard library functions used for that are taken when the kernel starts, so a
user's ``contextlib.redirect_stdout = None`` or ``io.StringIO = None`` cannot stop an answer.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from functools import partial
from io import StringIO
from traceback import format_exception_only
from typing import Any
from warnings import catch_warnings, simplefilter

from explorer import protocol
from explorer.core.agent.handlers import HANDLERS, Agent, ClientState
from explorer.core.summary.guard import inspecting

#: Replies that never hold bytes or NaN (they are large: do not walk them).
_PLAIN_JSON = (protocol.AfterRun, protocol.Snapshot, protocol.SelectFrame)

try:  # the window's environment has it; a kernel-only install (`pip install --no-deps`) may not
    import orjson
except ImportError:
    #: How a snapshot's rows are written (:data:`explorer.protocol.envelope.Dumps`): orjson where installed.
    FAST_DUMPS: protocol.Dumps | None = None
else:
    FAST_DUMPS = partial(orjson.dumps, option=orjson.OPT_NON_STR_KEYS)


class CommEndpoint:
    """Answers the requests arriving on one comm (one window or one CLI run)."""

    def __init__(self, agent: Agent, send: Callable[[dict, list], None], session: str | None = None) -> None:
        self.agent = agent
        self.client = ClientState()
        self.session = session  # the Jupyter session of the client that opened the comm
        self._send = send

    def notify(self, name: str, data: dict[str, Any]) -> None:
        """Tell the client something it did not ask (code paused, resumed)."""
        self._send(protocol.event_message(name, data), [])

    def watch_state(self) -> Any:
        """The client's watch (a :class:`~explorer.core.agent.sampler.WatchState`), or None; read by the sampling thread."""
        return self.client.watch

    def notify_replaced(self, names: list[str]) -> None:
        """The code that just ran replaced *names*, which the kernel's messaging calls (it may fall silent now)."""
        self.notify(protocol.REPLACED_EVENT, {"names": list(names)})

    def reply(self, request_id: int, result: Any) -> None:
        """Answer a request that was handled outside the handler table (the pause loop's Resume)."""
        self._reply(request_id, None, result=result)

    def on_message(self, data: Any) -> None:
        """Handle one comm message's data (called by ipykernel on the main thread).

        The reply is sent inside the guard too: serialising it must not meet the user's builtins.
        """
        with inspecting():
            self._on_message(data)

    def _on_message(self, data: Any) -> None:
        request_id = data.get("id", -1) if isinstance(data, dict) else -1
        try:
            request_id, request = protocol.parse_request(data)
        except protocol.ProtocolError as exc:
            self._reply(request_id if isinstance(request_id, int) else -1,
                        error=protocol.ErrorInfo("ProtocolError", str(exc)))
            return
        result, error = self.answer(request)
        self._reply(request_id, request, result=result, error=error)
        self.client.tracker.settle()  # the fingerprints a snapshot left for after its reply (snapshot/changes.py)

    def answer(self, request: protocol.Request[Any]) -> tuple[Any, protocol.ErrorInfo | None]:
        """``(result, None)`` or ``(None, error)`` for one typed request; never raises."""
        handler = HANDLERS[type(request)]
        sink = StringIO()
        try:
            with catch_warnings(), redirect_stdout(sink), redirect_stderr(sink):
                simplefilter("ignore")
                result = handler(self.agent, request, self.client)
            return result, None
        except ValueError as exc:  # the core's one sentence for the user (ResolveError included), in the client's language
            facts = getattr(exc, "facts", None)
            return None, protocol.ErrorInfo(type(exc).__name__, str(exc), dict(facts) if isinstance(facts, dict) else {})
        except KeyboardInterrupt:
            return None, protocol.ErrorInfo("KeyboardInterrupt", "interrupted")
        except BaseException as exc:  # noqa: BLE001 - the client must get an answer, whatever happened
            detail = "".join(format_exception_only(type(exc), exc)).strip()
            return None, protocol.ErrorInfo(type(exc).__name__, detail)

    def push_after_run(self, code: str, failed: bool, msg_id: str | None) -> bool:
        """Send this client the AfterRun reply of the run that just ended, unasked (when it asked: PushAfterRun).

        Called by the extension in ``post_run_cell``, before the kernel goes idle; the event names the
        execution's ``execute_request`` (*msg_id*), so the client applies it to that run and asks nothing.
        An error is sent as the reply's error, as an asked AfterRun would get it. False: nothing was sent.
        """
        settings = self.client.push
        if settings is None:
            return False
        with inspecting():
            request = settings.after_run(code, failed)
            result, error = self.answer(request)
            reply, buffers = self._encoded(0, request, result, error)
            self._send(protocol.event_message(protocol.AFTER_RUN_EVENT, {"msg_id": msg_id, "reply": reply}), buffers)
            self.client.tracker.settle()  # the window has the reply: now the prints of re-bound names
        return True

    def _reply(self, request_id: int, request: protocol.Request[Any] | None = None, result: Any = None,
               error: protocol.ErrorInfo | None = None) -> None:
        self._send(*self._encoded(request_id, request, result, error))

    @staticmethod
    def _encoded(request_id: int, request: protocol.Request[Any] | None, result: Any,
                 error: protocol.ErrorInfo | None) -> tuple[dict[str, Any], list[Any]]:
        """The comm data of a reply and its binary buffers."""
        if error is not None:
            return protocol.reply_message(request_id, None, error), []
        if isinstance(request, _PLAIN_JSON):
            result, buffers = _packed_snapshot(result, compact=bool(getattr(request, "delta", False)))
            return protocol.reply_message(request_id, result, None, encoded=False), buffers
        payload, buffers = protocol.split_buffers(_binary_histogram(result))
        return protocol.reply_message(request_id, payload), buffers


def _packed_snapshot(result: Any, compact: bool) -> tuple[Any, list[bytes]]:
    """The snapshot's VARs moved into binary chunks (see :func:`explorer.protocol.pack_rows`)."""
    if not isinstance(result, dict):
        return result, []
    snapshot = result.get("snapshot") if "snapshot" in result else result
    if not isinstance(snapshot, dict) or not isinstance(snapshot.get("variables"), list):
        return result, []
    marker, buffers = protocol.pack_rows(snapshot["variables"], compact, FAST_DUMPS)
    snapshot = dict(snapshot, variables=marker)
    return (dict(result, snapshot=snapshot) if "snapshot" in result else snapshot), buffers


def _binary_histogram(result: Any) -> Any:
    """A finished statistics job's histogram counts and edges as little-endian buffers."""
    if not isinstance(result, dict) or not isinstance(result.get("result"), dict):
        return result
    hist = result["result"].get("histogram")
    if not isinstance(hist, dict) or not isinstance(hist.get("counts"), list):
        return result
    import numpy as np

    hist = dict(hist, counts=np.asarray(hist["counts"], dtype="<i8").tobytes(),
                edges=np.asarray(hist.get("edges") or [], dtype="<f8").tobytes())
    return dict(result, result=dict(result["result"], histogram=hist))

