"""The main window's step-through and watched gradients: F10, Shift+F10, run to cursor, the step panel.

:class:`StepControl` is owned by :class:`~explorer.ui.window.main_window.MainWindow`;
the stepping itself is :class:`explorer.client.step.Stepper`. After each step it
bands the statement in the editor, points at the next one, shows every changed
variable before and after (:class:`StepPanel`), and selects the variable the
statement made. Cells and selections select what they made too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QStatusBar

from explorer import protocol
from explorer.client.link import WindowLink
from explorer.client.run_queue import Run, RunQueue
from explorer.client.statements import assigned_names
from explorer.client.step import Stepper, StepResult
from explorer.protocol.names import is_top_level
from explorer.ui.editor.code_editor_widget import CodeEditorWidget
from explorer.ui.inspector.inspector_model import InspectorModel
from explorer.ui.inspector.inspector_view import InspectorView
from explorer.ui.window.step_panel import StepPanel

# Runs after which the window selects the variable the code made.
_SELECTING = ("cell", "selection", "step")
WATCH_KEY = "view/watch_gradients"
# Run > Keep a Spare Kernel (on unless turned off): see explorer.client.spare.
SPARE_KEY = "kernel/spare"


def made_by(code: str, changes: dict, known: Any) -> str | None:
    """The variable *code* made or changed: the last one it assigns that changed, else the first that changed.

    *known* tells whether the inspector shows a name.
    """
    written = [name for name in assigned_names(code) if name in changes and known(name)]
    if written:
        return written[-1]
    return next((name for name in changes if known(name) and is_top_level(name)), None)


class StepControl(QObject):
    """Step-through commands and their display: the window gives it the widgets it shows steps in.

    *lesson_open* tells whether the editor holds a lesson (gradients are always
    watched then); *watch_action* and *spare_action* are the View and Run menus'
    check boxes; *kernel_label* is the status bar's kernel field, which a replay
    writes its progress in.
    """

    # A replay or step is over: the kernel field may show the kernel's status again.
    kernel_status_due = Signal()

    def __init__(self, session: WindowLink, runs: RunQueue, editor: CodeEditorWidget, step_panel: StepPanel,
                 inspector_model: InspectorModel, inspector: InspectorView, status_bar: QStatusBar,
                 kernel_label: QLabel, watch_action: QAction, spare_action: QAction,
                 lesson_open: Callable[[], bool], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._editor = editor
        self._step_panel = step_panel
        self._inspector_model = inspector_model
        self._inspector = inspector
        self._status_bar = status_bar
        self._kernel_label = kernel_label
        self._watch_action = watch_action
        self._spare_action = spare_action
        self._lesson_open = lesson_open
        self.stepper = Stepper(session, runs, self)
        self.stepper.stepped.connect(self._on_stepper_stepped)
        self.stepper.position_changed.connect(self._on_stepper_position_changed)
        self.stepper.replay_started.connect(self._on_stepper_replay_started)
        self.stepper.ended.connect(self._on_stepper_ended)
        self.stepper.queued_changed.connect(self._on_stepper_queued_changed)
        self.stepper.replay_progressed.connect(self._on_stepper_replay_progressed)
        self.stepper.busy_changed.connect(self._on_stepper_busy_changed)
        session.ready.connect(self._on_session_ready)
        runs.prepare = self._prepare_run
        self._last_changes: dict = {}
        self._watch_gradients = QSettings().value(WATCH_KEY, False) in (True, "true")
        self._watch_action.setChecked(self._watch_gradients)
        self.set_spare_kernel(QSettings().value(SPARE_KEY, True) in (True, "true"), remember=False)

    # -- commands -----------------------------------------------------------------------
    def step(self) -> None:
        """F10: run the next statement (queued behind the one running, or the kernel's start)."""
        started = self.stepper.step(self._editor.toPlainText(), self._editor.textCursor().blockNumber() + 1)
        if started and not (self._session.is_ready and self._session.status in ("idle", "busy")):
            self._step_panel.show_waiting(True)
        elif not started and self.stepper.is_replaying():
            self._status_bar.showMessage(self.tr("Busy stepping back: F10 works again once the replay is done"), 5000)

    def step_back(self) -> None:
        """Shift+F10: back one statement, by replaying the ones before it in a fresh kernel."""
        if not self.stepper.step_back(self._editor.toPlainText()):
            self._status_bar.showMessage(self.tr("Nothing to step back: no statement was stepped yet"), 5000)

    def run_to_cursor(self) -> None:
        """Ctrl+F10: run the statements up to the cursor's one (back to it by a replay if it already ran)."""
        line = self._editor.textCursor().blockNumber() + 1
        if not self.stepper.run_to(self._editor.toPlainText(), line):
            self._status_bar.showMessage(self.tr("The cursor's statement is the next one already"), 5000)

    def set_watch_gradients(self, on: bool) -> None:
        """View > Watch Gradients: show the gradients of intermediate results after backward(), for every run."""
        self._watch_gradients = bool(on)
        QSettings().setValue(WATCH_KEY, self._watch_gradients)
        self._watch_action.setChecked(self._watch_gradients)

    def set_spare_kernel(self, on: bool, remember: bool = True) -> None:
        """Run > Keep a Spare Kernel: Restart and Step Back swap to a kernel started ahead, or not (its memory back)."""
        if remember:
            QSettings().setValue(SPARE_KEY, bool(on))
        self._session.set_spare(bool(on))
        self._spare_action.setChecked(self._session.spare_enabled)
        self._spare_action.setEnabled(self._session.owns_kernel)

    def watching_gradients(self, run: Run | None = None) -> bool:
        """Whether gradients are watched for *run*: always while stepping or in a lesson, else by the switch."""
        return (self._watch_gradients or self._lesson_open()
                or (run is not None and run.origin in ("step", "replay")))

    # -- what runs leave ----------------------------------------------------------------
    def remember_changes(self, changes: dict) -> None:
        """The names the last snapshot says changed: a finished cell or selection selects what it made."""
        self._last_changes = dict(changes)

    def select_after_run(self, run: Run | None) -> None:
        """After a cell or a selection: select the variable it made (a step selects its own when stepped)."""
        if run is not None and run.origin in _SELECTING and run.origin != "step":
            self._select_made(run.code, self._last_changes)

    # -- the run queue's hook -----------------------------------------------------------
    def _prepare_run(self, run: Run) -> None:
        if run.origin in ("file", "cell", "selection"):
            self.stepper.reset()  # the kernel's state no longer follows the statements stepped
        if self.watching_gradients(run):
            self._session.ask(protocol.WatchGradients(), lambda _reply: None)

    def _select_made(self, code: str, changes: dict) -> None:
        name = made_by(code, changes, lambda n: self._inspector_model.variable(n) is not None)
        if name is not None:
            self._inspector.select(name)

    # -- stepper signals ----------------------------------------------------------------
    def _on_stepper_stepped(self, result: StepResult) -> None:
        self._step_panel.show_result(result)
        if result.statement is not None:
            self._select_made(result.statement.code, result.changes)

    def _on_stepper_position_changed(self, done: Any, upcoming: Any) -> None:
        self._editor.mark_step(None if done is None else (done.first_line, done.last_line),
                               None if upcoming is None else upcoming.first_line)

    def _on_stepper_replay_started(self, count: int) -> None:
        self._step_panel.show_replaying(count)
        self._status_bar.showMessage(self.tr("Replaying in a fresh kernel…"), 5000)

    def _on_stepper_queued_changed(self, count: int) -> None:
        self._step_panel.show_queued(count)

    def _on_session_ready(self, _hello: dict) -> None:
        self._step_panel.show_waiting(False)  # the queued step starts now

    def _on_stepper_busy_changed(self, busy: bool) -> None:
        if not busy:
            self._step_panel.show_waiting(False)
            self.kernel_status_due.emit()  # the replay's progress gives way to the kernel's

    def _on_stepper_replay_progressed(self, done: int, total: int) -> None:
        """The status bar says how far the replay is ("Kernel idle" between its statements would be wrong)."""
        progress = self._step_panel.replay_progress(done, total)
        if done < total:  # the last one is stepped: its before and after replace the panel's text
            self._step_panel.show_replaying(total, done)
        self._kernel_label.setText(f"<span style='color:#E69F00'>●</span> {progress}")

    def _on_stepper_ended(self) -> None:
        self._status_bar.showMessage(self.tr("The end of the script: every statement ran. "
                                             "Shift+F10 steps back; F5 runs it all again."), 6000)
