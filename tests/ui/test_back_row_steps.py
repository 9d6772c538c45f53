"""Steps are never lost (issue 24 item 3): F10 pressed while a step or the kernel's start runs is queued and
said where the teacher looks; Shift+F10's replay says how far it is. A scripted session, no kernel process."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from explorer import protocol
from explorer.client.run_queue import RunQueue
from explorer.client.step import Stepper

SCRIPT = "a = 1\nb = 2\nc = 3\nd = 4\ne = 5\nf = 6\n"


class ScriptedSession(QObject):
    """Starts not ready; ``become_ready`` is the kernel's start. Each execute finishes on a later turn."""

    status_changed = Signal(str)
    namespace_changed = Signal(dict)
    run_finished = Signal(dict)
    ready = Signal(dict)
    kernel_died = Signal(str)
    kernel_restarted = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.is_ready = False
        self.status = "starting"
        self.executed: list[str] = []
        self._ids = 0

    def become_ready(self) -> None:
        self.is_ready, self.status = True, "idle"
        self.ready.emit({})
        self.status_changed.emit("idle")

    def execute(self, code: str) -> str:
        self._ids += 1
        msg_id = f"m{self._ids}"
        self.executed.append(code)
        self.status = "busy"
        QTimer.singleShot(5, lambda: self._finish(msg_id, code))
        return msg_id

    def _finish(self, msg_id: str, code: str) -> None:
        self.status = "idle"
        self.namespace_changed.emit({"changes": {}})
        self.run_finished.emit({"msg_id": msg_id, "code": code})
        self.status_changed.emit("idle")

    def ask(self, request: Any, on_reply: Any, valid: Any = None) -> None:
        result = {"items": []} if isinstance(request, protocol.StepCompare) else {}
        QTimer.singleShot(0, lambda: on_reply(protocol.Reply(True, result)))

    def restart(self) -> None:
        self.is_ready, self.status = False, "restarting"
        QTimer.singleShot(5, self.become_ready)


def _stepper(qtbot) -> tuple[ScriptedSession, Stepper]:
    session = ScriptedSession()
    runs = RunQueue(session)
    return session, Stepper(session, runs)


def test_f10_pressed_six_times_while_the_kernel_starts_runs_six_statements(qtbot) -> None:
    session, stepper = _stepper(qtbot)
    queued: list[int] = []
    stepper.queued_changed.connect(queued.append)
    for _ in range(6):
        assert stepper.step(SCRIPT, 1)
    assert stepper.queued == 5 and queued[-1] == 5  # said at once, before the kernel is up
    session.become_ready()
    qtbot.waitUntil(lambda: len(session.executed) == 6 and not stepper.queued and stepper.next_index == 6)
    assert session.executed == ["a = 1", "b = 2", "c = 3", "d = 4", "e = 5", "f = 6"]


def test_the_replay_reports_its_progress(qtbot) -> None:
    session, stepper = _stepper(qtbot)
    session.become_ready()
    for _ in range(5):
        stepper.step(SCRIPT, 1)
    qtbot.waitUntil(lambda: stepper.next_index == 5 and not stepper.queued and not stepper.busy)
    progress: list[tuple[int, int]] = []
    stepper.replay_progressed.connect(lambda done, total: progress.append((done, total)))
    assert stepper.step_back(SCRIPT)
    assert not stepper.step(SCRIPT, 1)  # no stepping into a replay
    qtbot.waitUntil(lambda: stepper.next_index == 4 and not stepper.is_replaying())
    assert progress == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]


def test_the_window_says_queued_steps_and_the_replay_where_the_teacher_looks(qtbot) -> None:
    from tests.ui.quiet_window import quiet_window

    window = quiet_window(qtbot)
    window.step_panel.show_queued(2)
    assert "2 more times" in window.step_panel.notice_text() and window.step_panel.isVisible()
    window.stepper.replay_progressed.emit(8, 20)
    window.stepper._busy, window.stepper._replaying = True, 20  # as during a replay
    window._on_session_status_changed("idle")
    assert "Replaying 8 of 20" in window.kernel_label.text()
    assert "Replaying 8 of 20" in window.step_panel.header_text()


def test_a_replay_runs_the_earlier_statements_as_one_execution(qtbot) -> None:
    """Issue 25 goal 4: not one execution (and one snapshot) per statement; the target is stepped as F10 steps."""
    session, stepper = _stepper(qtbot)
    session.replays_at_once = True  # the real session's extension has %%explorer_replay
    session.become_ready()
    for _ in range(5):
        stepper.step(SCRIPT, 1)
    qtbot.waitUntil(lambda: stepper.next_index == 5 and not stepper.queued and not stepper.busy)
    session.executed.clear()
    progress: list[tuple[int, int]] = []
    stepper.replay_progressed.connect(lambda done, total: progress.append((done, total)))
    with qtbot.waitSignal(stepper.stepped) as blocker:
        assert stepper.step_back(SCRIPT)
    assert session.executed == ["%%explorer_replay 1:1 2:1 3:1\na = 1\nb = 2\nc = 3", "d = 4"]
    assert blocker.args[0].replayed == 4 and stepper.next_index == 4
    assert progress == [(0, 4), (3, 4), (4, 4)]
