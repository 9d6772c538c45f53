"""Running the editor's code, and what a run leaves: the error card (its fix checked on the script) or hints.

:class:`RunControl` is owned by :class:`~explorer.ui.window.main_window.MainWindow`.
F5, Ctrl+Enter, Shift+Enter and F9 submit the editor's code to the window's
:class:`~explorer.client.run_queue.RunQueue` with the file line it starts at, so what
the kernel says of a cell or a selection is shown at the file's lines: the failing
line is marked in the editor, and the card's lines can be clicked.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow

from explorer.client.fix_prover import FixProver
from explorer.client.link import WindowLink
from explorer.client.run_queue import Run, RunQueue
from explorer.client.step import Stepper
from explorer.protocol.cells import has_code
from explorer.ui.banner_widget import BannerWidget
from explorer.ui.editor.code_editor_widget import CodeEditorWidget
from explorer.ui.error_card_view import ErrorCardView


class RunControl(QObject):
    """Runs and stops code for *window*; *file_path* says the editor's file (the fix is checked on it),
    *after_run* is called with each finished run of ours (None: code typed in the console)."""

    def __init__(self, window: QMainWindow, session: WindowLink, runs: RunQueue, editor: CodeEditorWidget,
                 error_card: ErrorCardView, banner: BannerWidget, fix_prover: FixProver, stepper: Stepper,
                 check_fixes: QAction, file_path: Callable[[], str | None],
                 after_run: Callable[[Run | None], None]) -> None:
        super().__init__(window)
        self._window = window
        self._session = session
        self._runs = runs
        self._editor = editor
        self._card = error_card
        self._banner = banner
        self._prover = fix_prover
        self._stepper = stepper
        self._check_fixes = check_fixes
        self._file_path = file_path
        self._after_run = after_run
        self._card_run: Run | None = None  # the run the error card speaks of
        runs.started.connect(self._on_runs_started)
        runs.finished.connect(self._on_runs_finished)
        error_card.line_activated.connect(self._on_error_card_line_activated)
        fix_prover.checked.connect(error_card.show_proof)
        check_fixes.setChecked(fix_prover.enabled)

    # -- running code ------------------------------------------------------------------
    def run_file(self) -> None:
        self._runs.submit(Run(self._editor.toPlainText(), 1, "file"))

    def run_cell(self) -> None:
        code, first = self._editor.current_cell()
        self._runs.submit(Run(code, first, "cell"))

    def run_cell_and_advance(self) -> None:
        # A cell of comments only (a lesson's title) would run nothing visible: start at the next cell with code.
        while not has_code(self._editor.current_cell()[0]) and self._editor.advance_to_next_cell():
            pass
        self.run_cell()
        self._editor.advance_to_next_cell()

    def run_selection(self) -> None:
        code, first = self._editor.selection_or_line()
        self._runs.submit(Run(code, first, "selection"))

    def run_loading_code(self, code: str, done: Callable[[], None]) -> None:
        """Run a data file's loading snippet visibly (the console shows it), then call *done*."""
        self._runs.submit(Run(code, None, "load", on_finished=lambda _result: done()))

    def stop(self) -> None:
        self._runs.clear()
        self._session.interrupt()
        self._window.statusBar().showMessage(self.tr("Interrupted: the running code was stopped"), 5000)

    def restart(self) -> None:
        self._stepper.reset()
        self._runs.clear()
        self._session.restart()

    def set_check_fixes(self, on: bool) -> None:
        """Run > Check Fixes on My Script: prove each error card's fix in the background, or not."""
        self._prover.set_enabled(on)
        self._check_fixes.setChecked(self._prover.enabled)
        if not on:
            self._card.show_proof(None)

    # -- what a run left -------------------------------------------------------------------
    def _on_runs_started(self, _run: Run) -> None:
        """A run of ours began: the last run's error marks, cards and restart notice are out of date."""
        self._banner.clear("restarted")
        self._editor.mark_error_line(None)
        self._card.clear()
        self._card.hide()

    def _on_runs_finished(self, run: Run | None, result: dict) -> None:
        """Show what a finished run left: its error card (marked in the editor), or its hints and warnings."""
        self._card_run = run
        error = in_file_lines(result.get("error"), run)
        cards = (result.get("hints") or []) + (result.get("warnings") or [])
        notes = [note for card in cards if (note := in_file_lines(card, run)) is not None]
        if error and error.get("type") == "KeyboardInterrupt":
            # The user pressed Stop: nothing to explain.
            self._window.statusBar().showMessage(self.tr("Stopped (KeyboardInterrupt)"), 6000)
        elif error:
            self._card.show_error(error)
            # The fix is run on the script in the background: "checking…" now, the verdict later.
            script = run.code if run is not None and run.origin == "file" else self._editor.toPlainText()
            self._card.show_proof(self._prover.check(run, error, script, self._file_path()))
            self._card.show()
            if run is not None and isinstance(error.get("line"), int):
                self._editor.mark_error_line(error["line"])
        elif notes:
            self._card.show_error(None)
            self._card.show_hints(notes)
            self._card.show()
        elif run is not None:
            self._card.clear()
            self._card.hide()
        self._after_run(run)

    def _on_error_card_line_activated(self, line: int) -> None:
        """The card's lines are the file's lines when the card came from the editor's code."""
        if self._card_run is not None and self._card_run.first_line is not None:
            self._editor.go_to_line(line)
            self._editor.setFocus()


def in_file_lines(card: dict | None, run: Run | None) -> dict | None:
    """*card* with ``line`` and ``fix_line`` counted in the editor's file, when *run* was the editor's code.

    The kernel counts lines in the code it was given (a cell, a selection); the
    editor, the gutter and the card all speak of the file. Code typed in the console (no *run*) has no
    file line: the card says it came from the console.
    """
    if card and run is None:
        return {**card, "source": "console"}
    if not card or run is None or run.first_line is None:
        return card
    out = dict(card)
    for key in ("line", "fix_line"):
        if isinstance(card.get(key), int):
            out[key] = run.file_line(card[key])
    return out
