"""The window's session takes each run's reply from the kernel's push (issue 25), and asks when none came.

Requests are counted at the client's send; nothing is timed.
"""

from __future__ import annotations

import pytest

from explorer.client import budgets
from explorer.client.session import KernelSession
from tests.client.request_spy import count_requests

TIMEOUT = budgets.milliseconds(budgets.KERNEL_START)





def _finished(qtbot, session: KernelSession, start) -> dict:
    with qtbot.waitSignal(session.run_finished, timeout=TIMEOUT) as blocker:
        start()
    return blocker.args[0]


def _names(snapshots: list) -> dict:
    return {v["name"]: v for v in snapshots[-1]["variables"]}


def _silently(qtbot, session: KernelSession, code: str) -> None:
    """Run *code* in the kernel as nobody's run (silent: no execute_input, no post_run_cell)."""
    replies: list = []
    session.kernel_client.shell_channel.message_received.connect(replies.append)
    session.kernel_client.execute(code, silent=True, store_history=False)
    qtbot.waitUntil(lambda: any(r["msg_type"] == "execute_reply" for r in replies), timeout=TIMEOUT)
    assert [r["content"]["status"] for r in replies if r["msg_type"] == "execute_reply"] == ["ok"]


def test_code_typed_in_the_console_updates_the_inspector_by_the_push(qtbot, session) -> None:
    console = session.console_client()  # another client: its code may overtake our PushAfterRun, so wait for it
    qtbot.waitUntil(lambda: session.client.push_acknowledged is not None, timeout=TIMEOUT)
    snapshots: list = []
    session.namespace_changed.connect(snapshots.append)
    sent = count_requests(session)
    run = _finished(qtbot, session, lambda: console.execute("x = 41 + 1"))
    assert run["mine"] is False and run["problem"] is None
    assert _names(snapshots)["x"]["repr"] == "42"
    failed = _finished(qtbot, session, lambda: console.execute("y = x / 0"))
    assert failed["failed"] and failed["error"]["type"] == "ZeroDivisionError"
    assert sent == []  # no AfterRun: both replies came unasked


def test_our_own_run_asks_nothing_and_carries_its_delta(qtbot, session) -> None:
    snapshots: list = []
    session.namespace_changed.connect(snapshots.append)
    sent = count_requests(session)
    _finished(qtbot, session, lambda: session.execute("import torch\nt = torch.ones(3)\nn = 1"))
    _finished(qtbot, session, lambda: session.execute("n = 2"))
    assert sent == []
    assert [v["name"] for v in snapshots[-1]["variables"]] == ["n"]  # a delta: only what changed
    assert snapshots[-1]["seq"] == snapshots[-2]["seq"] + 1 and not snapshots[-1]["full"]


def test_the_push_follows_the_selection(qtbot, session) -> None:
    session.selection = lambda: "u"
    session.selection_moved()
    offered: list = []
    session.selected_overlaps.connect(offered.append)
    sent = count_requests(session)
    _finished(qtbot, session, lambda: session.execute("import torch\nt = torch.ones(4)\nu = t[1:]"))
    assert sent == [] and offered[-1]["name"] == "u" and offered[-1]["overlaps"] == ["t"]


def test_an_older_kernel_side_is_asked_as_before(qtbot, session) -> None:
    # As a kernel side without PushAfterRun answers it: "unknown request".
    _silently(qtbot, session, "from explorer.protocol import requests\nrequests.REQUESTS.pop('push_after_run')")
    session.client.leave()
    with qtbot.waitSignal(session.ready, timeout=TIMEOUT):
        session.client.connect_comm()
    qtbot.waitUntil(lambda: session.client._push_refused, timeout=TIMEOUT)
    snapshots: list = []
    session.namespace_changed.connect(snapshots.append)
    sent = count_requests(session)
    run = _finished(qtbot, session, lambda: session.execute("a = 5"))
    assert sent == ["AfterRun"] and run["problem"] is None and _names(snapshots)["a"]["repr"] == "5"


def test_a_push_that_fails_is_replaced_by_asking(qtbot, session) -> None:
    _silently(qtbot, session, "from explorer.core.agent.comm import CommEndpoint\n"
                              "def broken(self, *args):\n    raise RuntimeError('no push')\n"
                              "CommEndpoint.push_after_run = broken")
    snapshots: list = []
    session.namespace_changed.connect(snapshots.append)
    sent = count_requests(session)
    run = _finished(qtbot, session, lambda: session.execute("b = 7"))
    assert sent == ["AfterRun"] and run["problem"] is None and _names(snapshots)["b"]["repr"] == "7"


def _iopub(kind: str, parent: str, **content) -> dict:
    return {"msg_type": kind, "header": {"msg_type": kind, "session": "k"}, "parent_header": {"msg_id": parent},
            "content": content}


def test_a_pushed_snapshot_is_shown_once_decoded_and_the_run_ends_at_its_idle(qtbot) -> None:
    from explorer import protocol

    session = KernelSession()  # never started: IOPub messages are handed to it as the kernel would send them
    session._iopub_seen = True
    events: list[str] = []
    session.namespace_changed.connect(lambda snapshot: events.append(f"namespace {snapshot['seq']}"))
    session.run_finished.connect(lambda run: events.append(f"finished {run['msg_id']}"))
    snapshot = dict(protocol.empty_snapshot(), seq=7)
    reply = protocol.Reply(True, {"snapshot": snapshot, "error": None, "hints": [], "warnings": [], "selected": None})
    session._on_iopub_message_received(_iopub("execute_input", "run-1", code="x = 1"))
    session.client._on_pushed("run-1", reply)  # its reply arrives and is decoded (nothing packed here)
    assert events == ["namespace 7"]  # shown now: the kernel is still tidying up after the reply
    session._on_iopub_message_received(_iopub("status", "run-1", execution_state="idle"))
    assert events == ["namespace 7", "finished run-1"]  # the run ends at its idle, its snapshot not shown twice
    marker, buffers = protocol.pack_rows([dict.fromkeys(protocol.VAR_KEYS, None) | {"name": "y"}], compact=True)
    packed = protocol.Reply(True, {"snapshot": dict(snapshot, seq=8, variables=marker), "error": None, "hints": [],
                                   "warnings": [], "selected": None}, buffers=buffers)
    session._on_iopub_message_received(_iopub("execute_input", "run-2", code="y = 1"))
    session.client._on_pushed("run-2", packed)  # decoded a chunk per event-loop turn, from the next one
    session._on_iopub_message_received(_iopub("status", "run-2", execution_state="idle"))  # idle first this time
    qtbot.waitUntil(lambda: len(events) == 4)
    assert events[2:] == ["namespace 8", "finished run-2"]  # shown once, when taken
    session.shutdown()


@pytest.mark.parametrize(("budget", "turns"), [(0.0, 4), (60.0, 1)])
def test_a_packed_reply_is_decoded_a_slice_of_time_per_event_loop_turn(qtbot, monkeypatch, budget, turns) -> None:
    """Three chunks: with no time to spare, one chunk a turn and the handing on in a turn of its own; with time,
    all of it in one turn (a 3,000-variable snapshot no longer waits for seven turns)."""
    from PySide6.QtCore import QObject

    from explorer import protocol
    from explorer.client import client as client_module

    rows = [dict.fromkeys(protocol.VAR_KEYS, None) | {"name": f"v{i}"} for i in range(3 * protocol.ROWS_PER_CHUNK)]
    marker, buffers = protocol.pack_rows(rows, compact=True)
    assert len(buffers) == 3
    reply = protocol.Reply(True, {"snapshot": dict(protocol.empty_snapshot(), variables=marker)}, buffers=buffers)
    monkeypatch.setattr(client_module, "DECODE_SLICE_S", budget)
    steps = []
    step = client_module._ChunkDecoder._step
    monkeypatch.setattr(client_module._ChunkDecoder, "_step", lambda self: (steps.append(1), step(self)))
    got: list = []
    owner = QObject()
    client_module._ChunkDecoder(owner, reply, got.append).start()
    qtbot.waitUntil(lambda: bool(got))
    assert len(steps) == turns
    assert got[0].result["snapshot"]["variables"] == rows


def test_the_push_is_acknowledged_and_turning_it_off_is_too(qtbot, session) -> None:
    from explorer import protocol

    qtbot.waitUntil(lambda: session.client.push_acknowledged == session.client.push, timeout=TIMEOUT)
    default = session.client.push
    session.client.set_push(None)
    qtbot.waitUntil(lambda: session.client.push_acknowledged is None, timeout=TIMEOUT)
    session.client.set_push(default)
    qtbot.waitUntil(lambda: session.client.push_acknowledged == default, timeout=TIMEOUT)
    assert isinstance(default, protocol.PushAfterRun) and default.enabled
