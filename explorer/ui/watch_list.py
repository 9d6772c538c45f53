"""What the window watches while code runs: the name paths, paused or not, and the curves samples make.

One object per window, made before the views: the inspector's pin and the Watch tab both
change it, and it tells the kernel (a ``Watch`` request; while code runs, pause and resume go
on the control channel, which the kernel reads although it is busy). Samples arrive as the
session's ``watch_sampled``; applying one appends a few numbers (:class:`WatchCurves`), and the
view redraws on its own timer, so the GUI thread never spends long on a sample.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from explorer import protocol
from explorer.ui.watch_curves import WatchCurves

# Name paths one window watches at most (each is a curve).
MAX_NAMES = 12


class WatchList(QObject):
    """The watched name paths and their curves; *source* is the kernel session (``ask``, ``pause_watch``)."""

    changed = Signal(list)  # the names, after an add, a removal or a new set
    paused_changed = Signal(bool)
    sampled = Signal()  # the curves grew (the view redraws when it next paints)
    run_started = Signal()  # a watched run began: new curves

    def __init__(self, source: protocol.RequestSource, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._source = source
        self.names: list[str] = []
        self.histograms: set[str] = set()  # watched names drawn as their histogram (the kernel counts bins)
        self.paused = False
        self.every = 1.0 / protocol.WATCH_RATE
        self.curves = WatchCurves()
        self.last_sample: dict[str, Any] | None = None
        self.running = False
        for signal, slot in (("watch_sampled", self._on_source_watch_sampled), ("ready", self._on_source_ready),
                             ("run_started", self._on_source_run_started),
                             ("run_finished", self._on_source_run_finished)):
            if hasattr(source, signal):
                getattr(source, signal).connect(slot)

    # -- changing the watch --------------------------------------------------------------
    def set_names(self, names: list[str]) -> None:
        """Watch exactly *names* (a lesson sets its own; duplicates dropped, at most :data:`MAX_NAMES`)."""
        names = list(dict.fromkeys(n.strip() for n in names if n.strip()))[:MAX_NAMES]
        if names == self.names:
            return
        self.names = names
        self.histograms &= set(names)
        self._send()
        self.changed.emit(list(self.names))

    def add(self, name: str) -> None:
        if name.strip() and name.strip() not in self.names:
            self.set_names([*self.names, name.strip()])

    def remove(self, name: str) -> None:
        if name in self.names:
            self.set_names([n for n in self.names if n != name])

    def toggle(self, name: str) -> None:
        """The inspector's pin: watch *name*, or stop watching it."""
        if name in self.names:
            self.remove(name)
        else:
            self.add(name)

    def set_histogram(self, name: str, on: bool) -> None:
        """Draw *name* (a watched tensor) as its histogram, or as its norm again."""
        if name not in self.names or (name in self.histograms) == on:
            return
        if on:
            self.histograms.add(name)
        else:
            self.histograms.discard(name)
        self._send()
        self.changed.emit(list(self.names))

    def set_paused(self, paused: bool) -> None:
        """Pause or resume sampling: at once while code runs (control channel), and for the next runs."""
        if paused == self.paused:
            return
        self.paused = paused
        if self.running and hasattr(self._source, "pause_watch"):
            self._source.pause_watch(paused)
        self._send()
        self.paused_changed.emit(paused)

    def _send(self) -> None:
        if not hasattr(self._source, "ask"):
            return
        # Always on: with no name watched, samples still list the names the running code made (new inspector rows).
        request = protocol.Watch(names=list(self.names), every=self.every, paused=self.paused, enabled=True,
                                 histograms=[n for n in self.names if n in self.histograms] or None)
        self._source.ask(request, lambda _reply: None)

    # -- the session's signals -----------------------------------------------------------
    def _on_source_ready(self, _hello: Any = None) -> None:
        """A new (or restarted) kernel knows no watch: tell it ours (the names made while code runs, at least)."""
        self._send()

    def _on_source_run_started(self, _run: Any = None) -> None:
        self.running = True
        if self.names:
            self.curves.new_run()
            self.last_sample = None
            self.run_started.emit()

    def _on_source_run_finished(self, _run: Any = None) -> None:
        self.running = False

    def _on_source_watch_sampled(self, sample: dict[str, Any]) -> None:
        if self.paused or not isinstance(sample, dict):
            return  # one already in flight when the pause was asked
        if self.curves.add_sample(sample, self.names):
            self.last_sample = sample
            self.sampled.emit()
