"""The Qt kernel session with a real kernel: runs, interrupts, death and restart."""

from __future__ import annotations

import pytest

from explorer import protocol
from explorer.client import budgets
from explorer.client.session import KernelSession

#: A kernel start (or restart) on this machine, as the app counts it (scaled by TENSOR_EXPLORER_TIME_SCALE).
TIMEOUT = budgets.milliseconds(budgets.KERNEL_START)



def _run(qtbot, session: KernelSession, code: str) -> dict:
    with qtbot.waitSignal(session.run_finished, timeout=TIMEOUT) as blocker:
        session.execute(code)
    return blocker.args[0]


def test_run_updates_the_namespace(qtbot, session) -> None:
    snapshots = []
    session.namespace_changed.connect(snapshots.append)
    run = _run(qtbot, session, "import torch\nt = torch.arange(10).reshape(2, 5)\ncols = t[:, 1:3]")
    assert run["failed"] is False
    names = {v["name"]: v for v in snapshots[-1]["variables"]}
    assert names["cols"]["strides"] == [5, 1] and names["cols"]["storage_offset"] == 1
    assert names["cols"]["memory_group"] == names["t"]["memory_group"]


def test_request_round_trip(qtbot, session) -> None:
    _run(qtbot, session, "import numpy as np\na = np.zeros((2, 3))")
    replies = []
    session.ask(protocol.Snapshot(), replies.append)
    qtbot.waitUntil(lambda: bool(replies), timeout=TIMEOUT)
    assert [v["name"] for v in replies[0].result["variables"]] == ["a"]


def test_stop_interrupts_an_endless_loop(qtbot, session, tmp_path) -> None:
    marker = tmp_path / "looping"
    # The marker proves the loop is running: an interrupt that lands before the cell starts
    # only aborts it, which would not show that a running loop can be stopped.
    session.execute(f"open({str(marker)!r}, 'w').close()\nwhile True: pass")
    qtbot.waitUntil(marker.exists, timeout=TIMEOUT)
    with qtbot.waitSignal(session.run_finished, timeout=TIMEOUT) as blocker:
        session.interrupt()
    assert blocker.args[0]["failed"] is True
    assert _run(qtbot, session, "after = 1")["failed"] is False


def test_kernel_death_restarts_automatically(qtbot, session) -> None:
    with qtbot.waitSignals([session.kernel_died, session.kernel_restarted, session.ready], timeout=TIMEOUT):
        session.execute("import os; os._exit(1)")
    run = _run(qtbot, session, "alive = 41 + 1")
    assert run["failed"] is False


def test_manual_restart_clears_the_namespace(qtbot, session) -> None:
    _run(qtbot, session, "x = 5")
    with qtbot.waitSignal(session.ready, timeout=TIMEOUT):
        session.restart()
    replies = []
    session.ask(protocol.Snapshot(), replies.append)
    qtbot.waitUntil(lambda: bool(replies), timeout=TIMEOUT)
    assert replies[0].result["variables"] == []


def test_requests_before_start_wait_for_the_handshake(qtbot) -> None:
    s = KernelSession()
    replies = []
    s.ask(protocol.Snapshot(), replies.append)  # asked before the kernel even exists
    with qtbot.waitSignal(s.ready, timeout=TIMEOUT):
        s.start()
    try:
        qtbot.waitUntil(lambda: bool(replies), timeout=TIMEOUT)
        assert replies[0].ok and replies[0].result["variables"] == []
    finally:
        s.shutdown()


def test_a_kernel_with_another_release_is_reported(qtbot, session) -> None:
    problems = []
    session.problem.connect(lambda kind, facts: problems.append((kind, facts)))
    _run(qtbot, session, "import explorer\nexplorer.__version__ = '0.0.1-other'")
    with qtbot.waitSignal(session.ready, timeout=TIMEOUT):
        session.client.connect_comm()  # a new handshake, as after an attach
    assert problems and problems[0][0] == "version"
    assert problems[0][1]["kernel"] == "0.0.1-other"


def test_language_is_sent_in_every_handshake(qtbot, session) -> None:
    session.set_language("zh_CN")
    try:
        with qtbot.waitSignal(session.ready, timeout=TIMEOUT) as blocker:
            session.restart()
        assert blocker.args[0]["language"] == "zh_CN"
    finally:
        session.set_language("en")


def _see_iopub_first(session, record) -> None:
    """*record* each IOPub message just before the session handles it (a listener of its own may be called later)."""
    signal = session.kernel_client.iopub_channel.message_received
    signal.disconnect(session._on_iopub_message_received)
    signal.connect(lambda msg: (record(msg), session._on_iopub_message_received(msg)))


def _late(kind: str, old: str) -> dict:
    """A message the old kernel published just before it was killed: its idle, or its IOPub welcome."""
    if kind == "status":
        return {"msg_type": "status", "header": {"msg_type": "status", "session": old, "msg_id": "late"},
                "parent_header": {"msg_id": "an-old-request", "msg_type": "comm_msg"}, "metadata": {},
                "content": {"execution_state": "idle"}, "buffers": []}
    return {"msg_type": "iopub_welcome", "header": {"msg_type": "iopub_welcome", "session": old, "msg_id": "w"},
            "parent_header": {}, "metadata": {}, "content": {"subscription": ""}, "buffers": []}


@pytest.mark.parametrize("kind", ["status", "iopub_welcome"])
def test_a_late_message_of_the_old_kernel_does_not_open_the_comm_on_the_new_one(qtbot, session, kind) -> None:
    """After a restart the comm opens once the *new* kernel's IOPub reaches us.

    A message the old kernel published just before it was killed (the ``idle`` after our last
    request) can still be queued; taken for the new kernel's, it opened the comm while the new
    kernel's IOPub was not connected yet, the handshake's reply was lost, and the session never
    became ready again (every step back of a step-through waited forever on a loaded machine).
    The old kernel's welcome of our subscription says nothing about the new one's either.
    """
    sessions: list[str] = []
    _see_iopub_first(session, lambda msg: sessions.append(msg["header"]["session"]))
    _run(qtbot, session, "x = 5")
    old = sessions[-1]
    opened_after: list[list[str]] = []
    connect = session.client.connect_comm
    session.client.connect_comm = lambda: (opened_after.append(list(sessions)), connect())
    with qtbot.waitSignal(session.ready, timeout=TIMEOUT):
        session.restart()
        session.kernel_client.iopub_channel.message_received.emit(_late(kind, old))
    assert len(opened_after) == 1
    assert any(s != old for s in opened_after[0]), "the comm was opened before the new kernel's IOPub delivered"
    assert _run(qtbot, session, "alive = 1")["failed"] is False


def test_the_comm_opens_when_iopub_welcomes_us_not_a_ping_later(qtbot, session) -> None:
    """ipykernel 7 welcomes each IOPub subscription (JEP 65): from then on nothing it publishes is lost, so the
    comm opens at once. Waiting for a ping's busy/idle instead cost a round trip or a ping interval per start."""
    before: list[list[str]] = []
    seen: list[str] = []
    _see_iopub_first(session, lambda msg: seen.append(msg["msg_type"]))
    connect = session.client.connect_comm
    session.client.connect_comm = lambda: (before.append(list(seen)), connect())
    with qtbot.waitSignal(session.ready, timeout=TIMEOUT):
        session.restart()
    assert len(before) == 1 and before[0], before
    assert before[0][-1] == "iopub_welcome", before  # the new kernel's first message; no ping answered yet
    assert _run(qtbot, session, "alive = 1")["failed"] is False


def test_a_late_run_of_the_old_kernel_does_not_keep_the_new_one_busy(qtbot, session) -> None:
    """A crash's own execute_input can arrive after the restart on a loaded machine: taken for a run of the new
    kernel, it never finished, and the window stayed "busy" (the crash test waited out its budget)."""
    _run(qtbot, session, "x = 5")
    with qtbot.waitSignal(session.ready, timeout=TIMEOUT):
        session.restart()
        late = {"msg_type": "execute_input", "header": {"msg_type": "execute_input", "session": "old", "msg_id": "in"},
                "parent_header": {"msg_id": "the-crashing-run", "msg_type": "execute_request"}, "metadata": {},
                "content": {"code": "import os; os._exit(1)", "execution_count": 2}, "buffers": []}
        session.kernel_client.iopub_channel.message_received.emit(late)
    qtbot.waitUntil(lambda: session.status == "idle", timeout=TIMEOUT)
    assert _run(qtbot, session, "alive = 1")["failed"] is False
