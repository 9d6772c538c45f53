"""The console under the editor follows the newest output of each run.

qtconsole keeps its scroll position while output from another client (the
editor's runs) is appended, so after a second error it still showed the first
traceback. This keeps the console at its end from the moment a run of ours
starts until the user scrolls up to read something older; the next run follows
again.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QAbstractSlider, QWidget


class ConsoleFollow(QObject):
    """Scrolls *console* (qtconsole's widget: its text is ``_control``) to the end after each run of *runs*."""

    def __init__(self, runs: Any, console: QWidget) -> None:
        super().__init__(console)  # dies with the console
        control = getattr(console, "_control", None)
        self._bar: QAbstractSlider | None = control.verticalScrollBar() if control is not None else None
        # qtconsole lets its bar scroll a page past the end (ConsoleWidget._adjust_scrollbars): at its maximum
        # the last line is at the top of an empty view. Its end is a page before that.
        self._page_past_end = hasattr(console, "_adjust_scrollbars")
        self._following = True
        if self._bar is None:
            return
        self._bar.rangeChanged.connect(self._on_bar_range_changed)
        self._bar.actionTriggered.connect(self._on_bar_action_triggered)
        runs.started.connect(self._on_runs_changed)
        runs.finished.connect(self._on_runs_changed)

    @property
    def following(self) -> bool:
        return self._following

    def to_end(self) -> None:
        """Show the newest lines at the bottom of the view."""
        if self._bar is not None:
            self._bar.setValue(self._end())

    def _end(self) -> int:
        assert self._bar is not None
        bar = self._bar
        return max(bar.minimum(), bar.maximum() - bar.pageStep()) if self._page_past_end else bar.maximum()

    def _on_runs_changed(self, *_args: Any) -> None:
        self._following = True
        self.to_end()
        QTimer.singleShot(0, self._on_later)  # output printed just before "finished" is laid out on the next turn

    def _on_later(self) -> None:
        if self._following:
            self.to_end()

    def _on_bar_range_changed(self, _low: int, _high: int) -> None:
        if self._following and self._bar is not None:
            self._bar.setValue(self._end())

    def _on_bar_action_triggered(self, _action: int) -> None:
        # The user moved the bar (wheel, drag, page keys): follow again only once they are back at the end.
        self._following = False
        QTimer.singleShot(0, self._on_user_scrolled)

    def _on_user_scrolled(self) -> None:
        if self._bar is not None:
            self._following = self._bar.value() >= self._end()
