"""StepControl alone (issue 21): the step-through commands on real small widgets and a stand-in session,
with no main window and no kernel process."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QStatusBar

from explorer.client.run_queue import Run, RunQueue
from explorer.ui.editor.code_editor_widget import CodeEditorWidget
from explorer.ui.window.step_panel import StepPanel
from explorer.ui.window.window_steps import StepControl
from tests.ui.quiet_window import StandInSession


class Selecting:
    """The inspector as StepControl uses it: only ``select``."""

    def __init__(self) -> None:
        self.selected: list[str] = []

    def select(self, name: str) -> None:
        self.selected.append(name)


class Known:
    """The inspector's model as StepControl uses it: which names it shows."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names

    def variable(self, name: str) -> object | None:
        return object() if name in self.names else None


def _steps(qtbot, lesson: bool = False, known: tuple[str, ...] = ()) -> tuple[StepControl, dict[str, Any]]:
    session = StandInSession()
    editor, panel, bar, label = CodeEditorWidget(), StepPanel(), QStatusBar(), QLabel()
    for widget in (editor, panel, bar, label):
        qtbot.addWidget(widget)
    model, inspector = Known(known), Selecting()
    watch, spare = QAction(), QAction()
    watch.setCheckable(True)
    spare.setCheckable(True)
    steps = StepControl(session, RunQueue(session), editor, panel, model, inspector,  # type: ignore[arg-type]
                        bar, label, watch, spare, lambda: lesson)
    parts = {"session": session, "editor": editor, "panel": panel, "bar": bar, "label": label,
             "model": model, "inspector": inspector, "spare": spare}
    return steps, parts


def test_step_back_with_nothing_stepped_says_so_in_the_status_bar(qtbot) -> None:
    steps, parts = _steps(qtbot)
    parts["editor"].setPlainText("a = 1\nb = 2\n")
    steps.step_back()
    assert "Nothing to step back" in parts["bar"].currentMessage()


def test_a_replay_writes_its_progress_in_the_kernel_field_and_ends_with_the_kernel_status_due(qtbot) -> None:
    steps, parts = _steps(qtbot)
    due: list[bool] = []
    steps.kernel_status_due.connect(lambda: due.append(True))
    steps.stepper.replay_progressed.emit(8, 20)
    assert "Replaying 8 of 20" in parts["label"].text() and "Replaying 8 of 20" in parts["panel"].header_text()
    steps.stepper.busy_changed.emit(False)
    assert due == [True]


def test_a_cell_selects_the_variable_it_assigned_and_a_file_run_selects_nothing(qtbot) -> None:
    steps, parts = _steps(qtbot, known=("a", "b"))
    steps.remember_changes({"a": "changed", "b": "changed"})
    steps.select_after_run(Run("b = a + 1\n", 1, "cell"))
    steps.select_after_run(Run("a = 2\n", 1, "file"))
    assert parts["inspector"].selected == ["b"]


def test_gradients_are_watched_in_a_lesson_and_while_stepping(qtbot) -> None:
    steps, _parts = _steps(qtbot, lesson=True)
    assert steps.watching_gradients(Run("x = 1", 1, "file"))
    plain, _ = _steps(qtbot)
    assert not plain.watching_gradients(Run("x = 1", 1, "file")) and plain.watching_gradients(Run("x = 1", 1, "step"))


def test_the_spare_kernel_switch_follows_the_session(qtbot) -> None:
    steps, parts = _steps(qtbot)
    parts["session"].spare_enabled = True
    steps.set_spare_kernel(True, remember=False)
    assert parts["spare"].isChecked() and parts["spare"].isEnabled()
