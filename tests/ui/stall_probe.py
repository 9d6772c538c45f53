"""Measure how long the GUI thread stops answering: the longest gap between ticks of a 10 ms timer.

Used by the stall tests and by ``scripts/bench.py``'s stall rows. A gap is the
time between two consecutive ticks; a timer that fires on time gives gaps of
about its interval, and anything that blocks the GUI thread (a long slot, a
paint, a blocking call) shows up as one long gap.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, Qt, QTimer

INTERVAL_MS = 10


class StallProbe(QObject):
    """Records the longest gap between timer ticks while running."""

    def __init__(self, interval_ms: int = INTERVAL_MS, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._on_timer_timeout)
        self._last: float | None = None
        self.longest_ms = 0.0
        self.ticks = 0

    def start(self) -> None:
        self._last = time.perf_counter()
        self.longest_ms = 0.0
        self.ticks = 0
        self._timer.start()

    def stop(self) -> float:
        """Stop; returns the longest gap in milliseconds (the last tick up to now counts too)."""
        self._on_timer_timeout()
        self._timer.stop()
        return self.longest_ms

    def _on_timer_timeout(self) -> None:
        now = time.perf_counter()
        if self._last is not None:
            self.longest_ms = max(self.longest_ms, (now - self._last) * 1000.0)
        self._last = now
        self.ticks += 1
