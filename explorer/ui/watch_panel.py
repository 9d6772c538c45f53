"""The Watch tab: curves of the watched values, growing while the code runs.

Each watched scalar is one small chart over the run's time (a tensor is drawn as its norm, its
gradient's norm beside it); the previous run's curve can be shown dashed behind it, to compare
two runs (a learning rate changed, a bug fixed). Samples only append numbers
(:class:`~explorer.ui.watch_list.WatchList`); the charts (:mod:`explorer.ui.watch_charts`, painted
with QPainter in a few milliseconds) are redrawn by a timer, at most :data:`REDRAW_MS` apart and
only while the tab is visible.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from explorer.ui.inspector.inspector_model import pin_icon
from explorer.ui.watch_charts import Chart, Line, WatchCharts
from explorer.ui.watch_curves import GRAD_SUFFIX, Run
from explorer.ui.watch_list import WatchList

# The charts are redrawn at most this often while samples arrive.
REDRAW_MS = 250
# Charts drawn at most (the first watched names).
MAX_CHARTS = 6
# Okabe-Ito colours, as the memory groups use: this run, its gradient.
COLORS = ("#0072B2", "#D55E00")
PREVIOUS_COLOR = "#999999"


class WatchPanel(QWidget):
    """Shows a :class:`WatchList`: the names (add, remove), pause/resume, comparison, the charts."""

    def __init__(self, source: Any, state: Any, watch: WatchList | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("watch_panel")
        self.watch = watch if watch is not None else WatchList(source, self)
        self._dirty = True
        self.name_edit = QLineEdit(self)
        self.add_button = QPushButton(self)
        self.pause_button = QPushButton(self)
        self.pause_button.setCheckable(True)
        self.compare_box = QCheckBox(self)
        self.names = QListWidget(self)  # one row of pinned names, as the inspector marks them
        self.names.setFlow(QListView.Flow.LeftToRight)
        self.names.setWrapping(False)
        self.names.setSizeAdjustPolicy(QListWidget.SizeAdjustPolicy.AdjustToContents)
        self.names.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.names.setFixedHeight(self.fontMetrics().height() + 16)
        self.remove_button = QPushButton(self)
        self.histogram_button = QPushButton(self)  # the selected name: its histogram instead of its norm
        self.histogram_button.setCheckable(True)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.charts = WatchCharts(self)
        top = QHBoxLayout()
        top.addWidget(self.name_edit, 1)
        top.addWidget(self.add_button)
        top.addWidget(self.pause_button)
        top.addWidget(self.compare_box)
        middle = QHBoxLayout()
        middle.addWidget(self.names, 1)
        middle.addWidget(self.histogram_button)
        middle.addWidget(self.remove_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addLayout(middle)
        layout.addWidget(self.status)
        layout.addWidget(self.charts, 1)
        self._timer = QTimer(self)
        self._timer.setInterval(REDRAW_MS)
        self._timer.timeout.connect(self._on_timer_timeout)
        self.name_edit.returnPressed.connect(self._on_add_clicked)
        self.add_button.clicked.connect(self._on_add_clicked)
        self.remove_button.clicked.connect(self._on_remove_clicked)
        self.histogram_button.toggled.connect(self._on_histogram_toggled)
        self.names.currentItemChanged.connect(self._show_histogram_state)
        self.pause_button.toggled.connect(self.watch.set_paused)
        self.compare_box.toggled.connect(self._mark_dirty)
        self.watch.changed.connect(self._on_watch_changed)
        self.watch.paused_changed.connect(self._on_watch_paused_changed)
        self.watch.sampled.connect(self._mark_dirty)
        self.watch.run_started.connect(self._mark_dirty)
        self._on_watch_changed(self.watch.names)
        self.retranslate()

    # -- texts -------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.name_edit.setPlaceholderText(self.tr("A name to watch while the code runs: loss, model.fc.weight, "
                                                  "history[-1], opt.param_groups[0]['lr']"))
        self.add_button.setText(self.tr("Watch"))
        self.add_button.setToolTip(self.tr("Add this name: the next run draws its value as it changes "
                                           "(right-click a variable in the inspector to pin it instead)"))
        self.remove_button.setText(self.tr("Stop watching"))
        self.histogram_button.setText(self.tr("Histogram"))
        self.histogram_button.setToolTip(self.tr("Draw the selected tensor as the histogram of its values, "
                                                 "updated while the code runs (one more pass over its data)"))
        self.compare_box.setText(self.tr("Compare with the previous run"))
        self.compare_box.setToolTip(self.tr("Draw the previous run's curves dashed behind this run's"))
        self._on_watch_paused_changed(self.watch.paused)
        self._show_status()
        self._mark_dirty()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.FontChange:
            self.names.setFixedHeight(self.fontMetrics().height() + 16)
            self._mark_dirty()
        super().changeEvent(event)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._timer.start()
        self._mark_dirty()

    def hideEvent(self, event: Any) -> None:
        self._timer.stop()  # nothing is drawn while the tab is hidden; the curves keep growing
        super().hideEvent(event)

    # -- the user's actions ------------------------------------------------------------------
    def _on_add_clicked(self) -> None:
        self.watch.add(self.name_edit.text())
        self.name_edit.clear()

    def _on_remove_clicked(self) -> None:
        item = self.names.currentItem()
        if item is not None:
            self.watch.remove(item.data(Qt.ItemDataRole.UserRole))

    def _on_watch_changed(self, names: list[str]) -> None:
        current: QListWidgetItem | None = self.names.currentItem()  # None when nothing is current
        keep = current.data(Qt.ItemDataRole.UserRole) if current is not None else None
        self.names.clear()
        for name in names:
            item = QListWidgetItem(pin_icon(), name, self.names)
            item.setData(Qt.ItemDataRole.UserRole, name)
            if name == keep:
                self.names.setCurrentItem(item)
        self.remove_button.setEnabled(bool(names))
        self._show_histogram_state()
        self._mark_dirty()

    def _on_histogram_toggled(self, on: bool) -> None:
        item = self.names.currentItem()
        if item is not None:
            self.watch.set_histogram(item.data(Qt.ItemDataRole.UserRole), on)

    def _show_histogram_state(self, *_args: Any) -> None:
        item: QListWidgetItem | None = self.names.currentItem()
        self.histogram_button.blockSignals(True)
        self.histogram_button.setEnabled(item is not None)
        self.histogram_button.setChecked(item is not None and item.data(Qt.ItemDataRole.UserRole) in self.watch.histograms)
        self.histogram_button.blockSignals(False)

    def _on_watch_paused_changed(self, paused: bool) -> None:
        self.pause_button.blockSignals(True)
        self.pause_button.setChecked(paused)
        self.pause_button.blockSignals(False)
        self.pause_button.setText(self.tr("Resume") if paused else self.tr("Pause"))
        self.pause_button.setToolTip(self.tr("Stop taking samples (the curves stay); works while the code runs"))
        self._show_status()

    def _mark_dirty(self, *_args: Any) -> None:
        self._dirty = True
        if not self._timer.isActive() and self.isVisible():
            self._timer.start()

    def _on_timer_timeout(self) -> None:
        if self._dirty and self.isVisible():
            self._dirty = False
            self._show_status()
            self.redraw()

    # -- drawing ---------------------------------------------------------------------------
    def _show_status(self) -> None:
        watch = self.watch
        run = watch.curves.current
        if not watch.names:
            text = self.tr("Nothing is watched. Type a name above, or right-click a variable in the inspector "
                           "and choose Watch While Running.")
        elif watch.paused:
            text = self.tr("Paused: no samples are taken until you resume.")
        elif run.samples == 0:
            text = self.tr("Run the code: these values will be drawn while it runs, about four times a second.")
        else:
            every = (watch.last_sample or {}).get("every")
            seconds = every if isinstance(every, float) else watch.every
            if run.frame in (None, "<module>"):
                text = self.tr("{count} samples at the top level of the code, one every {every} s.").format(
                    count=run.samples, every=f"{seconds:.2f}")
            else:
                text = self.tr("{count} samples in {frame}(), one every {every} s.").format(
                    count=run.samples, frame=run.frame, every=f"{seconds:.2f}")
            skipped = (watch.last_sample or {}).get("skipped") or {}
            if skipped:
                name, why = next(iter(skipped.items()))
                text += " " + self.tr("Not read: {name} ({why}).").format(name=name, why=why)
        self.status.setText(text)

    def charted(self) -> list[str]:
        """The names drawn, one chart each: those watched that have a curve in this run or the previous."""
        curves = self.watch.curves
        runs = [curves.current] + ([curves.previous] if curves.previous is not None else [])
        return [n for n in self.watch.names if any(n in r.curves for r in runs)][:MAX_CHARTS]

    def redraw(self) -> None:
        """One small chart per watched name (the previous run dashed behind it when compared)."""
        compare = self.compare_box.isChecked() and self.watch.curves.previous is not None
        current = self.watch.curves.current
        charts = []
        for name in self.charted():
            if name in self.watch.histograms and name in current.histograms:
                #: A chart's title: the values of the watched tensor {name}, counted in bins.
                charts.append(Chart(self.tr("histogram of {name}").format(name=name), bars=current.histograms[name]))
                continue
            lines = _lines(self.watch.curves.previous, name, PREVIOUS_COLOR, True) if compare else []
            lines += _lines(current, name, COLORS[0], False)
            chart = Chart(name if name in current.scalars else f"‖{name}‖", lines, log=_spans_decades(current, name))
            if name + GRAD_SUFFIX in current.curves:
                #: Beside a chart's title, in the gradient curve's colour: that curve is the gradient's norm.
                chart.right, chart.right_color = self.tr("gradient"), COLORS[1]
            if name in current.nonfinite:
                chart.note = self.tr("NaN or Inf: the value blew up")
            charts.append(chart)
        curves = any(chart.bars is None for chart in charts)  # a histogram's axis is its values, not the time
        self.charts.set_charts(charts, self.tr("seconds since the run started") if curves else "")


def _spans_decades(run: Run, name: str) -> bool:
    """True when every number of *name* (and its gradient) is positive and they span two decades or more."""
    ys = [y for key in (name, name + GRAD_SUFFIX) for y in (run.curves.get(key) or ((), ()))[1] if y is not None]
    return bool(ys) and min(ys) > 0 and max(ys) / min(ys) >= 100


def _lines(run: Run | None, name: str, color: str, dashed: bool) -> list[Line]:
    """The curve of *name* in *run*, and its gradient's norm beside it."""
    if run is None:
        return []
    lines = []
    found = run.curves.get(name)
    if found:
        lines.append(Line(found[0], found[1], color, dashed))
    grad = run.curves.get(name + GRAD_SUFFIX)
    if grad:
        lines.append(Line(grad[0], grad[1], PREVIOUS_COLOR if dashed else COLORS[1], dashed))
    return lines
