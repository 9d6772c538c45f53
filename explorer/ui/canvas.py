"""The matplotlib canvas every view draws on, made safe against being deleted while it draws.

matplotlib's Qt canvas defers a redraw with ``QTimer.singleShot``, a timer no widget owns,
and draws in Python, allocating many objects. Two things can then delete the widget under
it: its owner's Python wrapper collected by the garbage collector in the middle of the draw
(a view that is no longer referenced still has a C++ widget until the collector reaches it,
and a collection may start at any allocation), or a redraw firing after the widget is gone.
A test run on a loaded machine ended in a segmentation fault that way ("Internal C++ object
(FigureCanvasQTAgg) already deleted" in the deferred draw, then in ``paintEvent``).

:class:`Canvas` closes both: the deferred draw is a timer the canvas owns (deleted with it,
so it never fires on a dead widget), and the collector is paused while the canvas draws or
paints, so no collection can delete the widget halfway. Pausing costs nothing but the wait:
whatever is garbage is collected right after.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
from matplotlib.figure import Figure
from PySide6.QtCore import QTimer
from shiboken6 import isValid


@contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage collection inside the block (nested blocks keep it off until the outermost ends)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class Canvas(FigureCanvasQTAgg):
    """A FigureCanvasQTAgg whose deferred draw is its own timer and whose drawing the collector cannot interrupt."""

    def __init__(self, figure: Figure) -> None:
        super().__init__(figure)
        self._draw_pending = False
        self.idle_timer = QTimer(self)  # a child: deleted with the canvas, never fires after it
        self.idle_timer.setSingleShot(True)
        self.idle_timer.setInterval(0)
        self.idle_timer.timeout.connect(self._on_idle_timer_timeout)

    def draw_idle(self) -> None:
        """Queue one redraw for the next turn of the event loop (requests before it coalesce)."""
        if not (self._draw_pending or getattr(self, "_is_drawing", False)):
            self._draw_pending = True
            self.idle_timer.start()

    def _on_idle_timer_timeout(self) -> None:
        if not self._draw_pending:
            return
        self._draw_pending = False
        if self.height() <= 0 or self.width() <= 0:
            return
        self.draw()

    def draw(self) -> None:
        """Render the figure and ask Qt to show it; on a canvas whose widget is gone, nothing."""
        with collector_paused():
            if not isValid(self):
                return
            try:
                super().draw()
            except RuntimeError:
                if isValid(self):
                    raise
                # the widget went during the draw (its owner released by a draw_event callback)

    def paintEvent(self, event: Any) -> None:
        with collector_paused():
            if isValid(self):
                super().paintEvent(event)
