"""RunQueue: one run at a time, matched to its finished execution by message id, never by text."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from explorer.client.run_queue import Run, RunQueue


class FakeSession(QObject):
    run_finished = Signal(dict)
    status_changed = Signal(str)
    ready = Signal(dict)
    kernel_died = Signal(str)
    kernel_restarted = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.is_ready = False
        self.status = "starting"
        self.executed: list[tuple[str, str]] = []

    def execute(self, code: str) -> str:
        msg_id = f"m{len(self.executed) + 1}"
        self.executed.append((msg_id, code))
        self.status = "busy"
        return msg_id

    def finish(self, msg_id: str, code: str, **extra) -> None:
        self.status = "idle"
        self.run_finished.emit({"msg_id": msg_id, "code": code, **extra})
        self.status_changed.emit("idle")

    def become_ready(self) -> None:
        self.is_ready, self.status = True, "idle"
        self.ready.emit({})


def test_runs_wait_for_the_kernel_and_go_one_at_a_time(qtbot) -> None:
    session = FakeSession()
    queue = RunQueue(session)
    queue.submit(Run("a = 1", 1))
    queue.submit(Run("b = 2", 5))
    assert session.executed == []
    session.become_ready()
    qtbot.waitUntil(lambda: len(session.executed) == 1)
    assert queue.current.code == "a = 1"
    finished = []
    queue.finished.connect(lambda run, result: finished.append((run, result)))
    session.finish("m1", "a = 1")
    qtbot.waitUntil(lambda: len(session.executed) == 2)
    assert finished[0][0].first_line == 1 and session.executed[1] == ("m2", "b = 2")


def test_identical_code_from_the_console_is_not_taken_for_the_editors(qtbot) -> None:
    session = FakeSession()
    session.become_ready()
    queue = RunQueue(session)
    finished = []
    queue.finished.connect(lambda run, result: finished.append(run))
    queue.submit(Run("x = 1", 10))
    qtbot.waitUntil(lambda: len(session.executed) == 1)
    session.run_finished.emit({"msg_id": "console-7", "code": "x = 1"})  # same text, typed in the console
    assert finished == [None] and queue.current is not None
    session.finish("m1", "x = 1")
    assert finished[-1].first_line == 10 and queue.current is None


def test_file_lines_count_from_where_the_code_started() -> None:
    run = Run("y = x.view(4, 4)", first_line=6)
    assert run.file_line(1) == 6 and run.file_line(None) is None
    assert Run("z", first_line=None).file_line(3) is None


def test_a_dead_kernel_drops_the_runs_and_says_so(qtbot) -> None:
    session = FakeSession()
    session.become_ready()
    queue = RunQueue(session)
    told = []
    queue.submit(Run("slow()", 1, on_finished=told.append))
    queue.submit(Run("later()", 2, on_finished=told.append))
    qtbot.waitUntil(lambda: len(session.executed) == 1)
    session.kernel_died.emit("gone")
    assert queue.current is None and queue.waiting() == []
    assert [r["dropped"] for r in told] == [True, True]


def test_blank_code_is_not_sent(qtbot) -> None:
    session = FakeSession()
    session.become_ready()
    queue = RunQueue(session)
    queue.submit(Run("   \n", 1))
    assert session.executed == [] and queue.waiting() == []


def test_before_and_prepare_run_just_before_their_code_is_sent(qtbot) -> None:
    """A step's capture must see the variables after the earlier runs finished, not when it was queued."""
    session = FakeSession()
    queue = RunQueue(session)
    calls: list[str] = []
    queue.prepare = lambda run: calls.append(f"prepare {run.code} after {len(session.executed)} sent")
    session.become_ready()
    queue.submit(Run("a = 1", 1))
    queue.submit(Run("b = 2", 2, before=lambda: calls.append(f"before b after {len(session.executed)} sent")))
    qtbot.waitUntil(lambda: len(session.executed) == 1)
    assert calls == ["prepare a = 1 after 0 sent"]
    session.finish("m1", "a = 1")
    qtbot.waitUntil(lambda: len(session.executed) == 2)
    assert calls[1:] == ["prepare b = 2 after 1 sent", "before b after 1 sent"]
