"""The Watch tab's charts, painted with QPainter: one small chart per watched name, cheap enough for every sample.

The curves grow four times a second while a loop runs. Laying out and drawing six matplotlib
axes took 250-300 ms of the GUI thread each time (tick layout, ``tight_layout``), long enough to
stall the window on every redraw and to take a core from the user's loop on a 2-core laptop. A
chart here is a title, a frame, a few tick labels and one polyline per curve; painting all of
them takes a few milliseconds. Curves longer than the chart is wide are reduced to each pixel
column's first, lowest, highest and last point, so a spike (a gradient exploding) stays visible.

The panel hands over plain :class:`Chart` data (:meth:`WatchCharts.set_charts`); nothing here
knows about samples or the kernel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPaintEvent, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

# Charts side by side before a new row starts.
CHARTS_PER_ROW = 3
# Tick labels per axis, about.
TICKS = 4
NOTE_COLOR = "#D55E00"
BAR_COLOR = "#0072B2"


@dataclass
class Line:
    """One curve: times, numbers (None is a gap), its colour, dashed or not."""

    xs: list[float]
    ys: list[float | None]
    color: str
    dashed: bool = False


@dataclass
class Chart:
    """What one chart shows; *right* is a second title in *right_color* (the gradient's curve)."""

    title: str
    lines: list[Line] = field(default_factory=list)
    right: str = ""
    right_color: str = ""
    log: bool = False
    note: str = ""
    bars: tuple[float, float, list[int]] | None = None  # a histogram (lo, hi, counts) instead of curves


def nice_ticks(lo: float, hi: float, count: int = TICKS) -> list[float]:
    """About *count* round numbers (1, 2, 2.5 or 5 times a power of ten apart) within [lo, hi]."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [lo] if math.isfinite(lo) else []
    raw = (hi - lo) / max(count, 1)
    power = 10.0 ** math.floor(math.log10(raw))
    step = min((m * power for m in (1, 2, 2.5, 5, 10)), key=lambda s: abs((hi - lo) / s - count))
    first = math.ceil(lo / step - 1e-9) * step
    ticks: list[float] = []
    value = first
    while value <= hi + step * 1e-9 and len(ticks) < 3 * count:
        ticks.append(0.0 if abs(value) < step * 1e-9 else value)
        value += step
    return ticks


def log_ticks(lo: float, hi: float) -> list[float]:
    """Powers of ten within [lo, hi] (positive bounds), thinned to at most TICKS + 1."""
    first, last = math.ceil(math.log10(lo) - 1e-9), math.floor(math.log10(hi) + 1e-9)
    powers = list(range(first, last + 1))
    stride = max(1, -(-len(powers) // (TICKS + 1)))
    return [10.0 ** p for p in powers[::stride]]


def tick_text(value: float, log: bool = False) -> str:
    if log:
        return f"1e{round(math.log10(value))}"
    if value == 0:
        return "0"
    if abs(value) >= 1e5 or abs(value) < 1e-3:
        return f"{value:.1e}"
    return f"{value:.4g}"


def reduced(xs: list[float], ys: list[float | None], width: int) -> list[list[tuple[float, float]]]:
    """The curve as runs of finite points (a None or non-finite number breaks it), at most 4 per pixel column.

    A column keeps its first, lowest, highest and last point, so a one-sample spike stays visible.
    """
    x = np.asarray(xs, dtype=float)
    y = np.array([math.nan if v is None else v for v in ys], dtype=float)
    finite = np.isfinite(y) & np.isfinite(x)
    if not finite.any():
        return []
    # Runs of finite points: where finite starts and stops.
    edges = np.flatnonzero(np.diff(np.concatenate(([0], finite.astype(np.int8), [0]))))
    spans = list(zip(edges[::2], edges[1::2]))
    if width <= 0 or int(finite.sum()) <= 2 * width:
        return [list(zip(x[a:b].tolist(), y[a:b].tolist())) for a, b in spans]
    lo, hi = float(x[finite].min()), float(x[finite].max())
    scale = width / ((hi - lo) or 1.0)
    out = []
    for a, b in spans:
        rx, ry = x[a:b], y[a:b]
        column = np.floor((rx - lo) * scale).astype(np.int64)
        starts = np.flatnonzero(np.diff(np.concatenate(([-1], column)))) if len(column) else np.array([], int)
        ends = np.append(starts[1:], len(column)) - 1
        lows = np.minimum.reduceat(ry, starts)
        highs = np.maximum.reduceat(ry, starts)
        kept: list[tuple[float, float]] = []
        for s, e, low, high in zip(starts.tolist(), ends.tolist(), lows.tolist(), highs.tolist()):
            mid = float(rx[(s + e) // 2])
            for point in ((float(rx[s]), float(ry[s])), (mid, low), (mid, high), (float(rx[e]), float(ry[e]))):
                if not kept or kept[-1] != point:
                    kept.append(point)
        out.append(kept)
    return out


def bounds(lines: list[Line], log: bool) -> tuple[float, float, float, float] | None:
    """(x_lo, x_hi, y_lo, y_hi) of the finite points (positive ones on a log scale), or None."""
    found = None
    for line in lines:
        x = np.asarray(line.xs, dtype=float)
        y = np.array([math.nan if v is None else v for v in line.ys], dtype=float)
        keep = np.isfinite(x) & np.isfinite(y) & ((y > 0) if log else True)
        if not keep.any():
            continue
        here = (float(x[keep].min()), float(x[keep].max()), float(y[keep].min()), float(y[keep].max()))
        found = here if found is None else (min(found[0], here[0]), max(found[1], here[1]),
                                            min(found[2], here[2]), max(found[3], here[3]))
    return found


class WatchCharts(QWidget):
    """Paints a list of :class:`Chart`, :data:`CHARTS_PER_ROW` to a row, with *xlabel* under the bottom row."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("watch_charts")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumHeight(160)
        self.charts: list[Chart] = []
        self.xlabel = ""

    def set_charts(self, charts: list[Chart], xlabel: str = "") -> None:
        self.charts, self.xlabel = charts, xlabel
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        try:
            if not self.charts:
                return
            columns = min(len(self.charts), CHARTS_PER_ROW)
            rows = -(-len(self.charts) // columns)
            fm = QFontMetricsF(self.font())
            label_height = fm.height() * 1.2 if self.xlabel else 0.0
            width, height = self.width() / columns, (self.height() - label_height) / rows
            for i, chart in enumerate(self.charts):
                cell = QRectF((i % columns) * width, (i // columns) * height, width, height)
                self._paint_chart(painter, fm, chart, cell.adjusted(4, 2, -6, -2))
            if self.xlabel:
                painter.setPen(self.palette().windowText().color())
                painter.drawText(QRectF(0, self.height() - label_height, self.width(), label_height),
                                 Qt.AlignmentFlag.AlignCenter, self.xlabel)
        finally:
            painter.end()

    def _paint_chart(self, painter: QPainter, fm: QFontMetricsF, chart: Chart, cell: QRectF) -> None:
        text = self.palette().windowText().color()
        painter.setPen(text)
        title = QRectF(cell.left(), cell.top(), cell.width(), fm.height())
        painter.drawText(title, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         fm.elidedText(chart.title, Qt.TextElideMode.ElideMiddle, cell.width() * 0.7))
        if chart.right:
            painter.setPen(QColor(chart.right_color or text))
            painter.drawText(title, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, chart.right)
        if chart.bars is not None:
            self._paint_bars(painter, fm, chart.bars, QRectF(cell.left(), title.bottom() + 4, cell.width(),
                                                             cell.height() - title.height() - 4))
            return
        found = bounds(chart.lines, chart.log)
        if found is None:
            return
        x_lo, x_hi, y_lo, y_hi = found
        if chart.log:
            y_lo, y_hi = math.log10(y_lo), math.log10(y_hi)
        if y_hi - y_lo < 1e-12 * max(1.0, abs(y_hi)):
            pad = abs(y_hi) * 0.05 or 0.5
            y_lo, y_hi = y_lo - pad, y_hi + pad
        else:
            pad = (y_hi - y_lo) * 0.05
            y_lo, y_hi = y_lo - pad, y_hi + pad
        if x_hi <= x_lo:
            x_hi = x_lo + 1.0
        y_ticks = log_ticks(10 ** y_lo, 10 ** y_hi) if chart.log else nice_ticks(y_lo, y_hi)
        y_texts = [tick_text(v, chart.log) for v in y_ticks]
        left = max((fm.horizontalAdvance(t) for t in y_texts), default=0.0) + 6
        plot = QRectF(cell.left() + left, title.bottom() + 4, cell.width() - left,
                      cell.height() - title.height() - 4 - fm.height() - 2)
        if plot.width() < 10 or plot.height() < 10:
            return

        def to_x(x: float) -> float:
            return plot.left() + (x - x_lo) / (x_hi - x_lo) * plot.width()

        def to_y(y: float) -> float:
            v = math.log10(y) if chart.log else y
            return plot.bottom() - (v - y_lo) / (y_hi - y_lo) * plot.height()

        grid = QColor(text)
        grid.setAlphaF(0.18)
        for value, label in zip(y_ticks, y_texts):
            y = to_y(value)
            painter.setPen(QPen(grid, 1))
            painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            painter.setPen(text)
            painter.drawText(QRectF(cell.left(), y - fm.height() / 2, left - 4, fm.height()),
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, label)
        for value in nice_ticks(x_lo, x_hi, TICKS - 1):
            x = to_x(value)
            painter.setPen(QPen(grid, 1))
            painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
            painter.setPen(text)
            label = tick_text(value)
            w = fm.horizontalAdvance(label)
            painter.drawText(QRectF(min(max(x - w / 2, plot.left() - left / 2), plot.right() - w), plot.bottom() + 2,
                                    w + 2, fm.height()), Qt.AlignmentFlag.AlignLeft, label)
        painter.setPen(QPen(text, 1))
        painter.drawRect(plot)
        painter.save()
        painter.setClipRect(plot.adjusted(-2, -2, 2, 2))
        for line in chart.lines:
            pen = QPen(QColor(line.color), 1.6)
            if line.dashed:
                pen.setStyle(Qt.PenStyle.DashLine)
            painter.setPen(pen)
            ys = [y if y is None or not chart.log or y > 0 else None for y in line.ys]
            for run in reduced(line.xs, ys, int(plot.width())):
                if len(run) == 1:
                    painter.drawEllipse(QPointF(to_x(run[0][0]), to_y(run[0][1])), 1.5, 1.5)
                else:
                    painter.drawPolyline(QPolygonF([QPointF(to_x(x), to_y(y)) for x, y in run]))
        painter.restore()
        if chart.note:
            painter.setPen(QColor(NOTE_COLOR))
            painter.drawText(plot.adjusted(4, 2, -4, -2), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop,
                             chart.note)

    def _paint_bars(self, painter: QPainter, fm: QFontMetricsF, bars: tuple[float, float, list[int]],
                    area: QRectF) -> None:
        """A histogram: one bar per bin between lo and hi, counts up the side."""
        lo, hi, counts = bars
        top = max(counts, default=0)
        if not counts or top <= 0:
            return
        text = self.palette().windowText().color()
        y_ticks = [v for v in nice_ticks(0.0, float(top)) if v == int(v)]
        y_texts = [tick_text(v) for v in y_ticks]
        left = max((fm.horizontalAdvance(t) for t in y_texts), default=0.0) + 6
        plot = QRectF(area.left() + left, area.top(), area.width() - left, area.height() - fm.height() - 2)
        if plot.width() < 10 or plot.height() < 10:
            return
        grid = QColor(text)
        grid.setAlphaF(0.18)
        for value, label in zip(y_ticks, y_texts):
            y = plot.bottom() - value / top * plot.height()
            painter.setPen(QPen(grid, 1))
            painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            painter.setPen(text)
            painter.drawText(QRectF(area.left(), y - fm.height() / 2, left - 4, fm.height()),
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, label)
        width = plot.width() / len(counts)
        color = QColor(BAR_COLOR)
        for i, count in enumerate(counts):
            height = count / top * plot.height()
            painter.fillRect(QRectF(plot.left() + i * width, plot.bottom() - height, max(width - 1, 1), height), color)
        painter.setPen(text)
        for value, align in ((lo, Qt.AlignmentFlag.AlignLeft), (hi, Qt.AlignmentFlag.AlignRight)):
            painter.drawText(QRectF(plot.left(), plot.bottom() + 2, plot.width(), fm.height()), align, tick_text(value))
        painter.setPen(QPen(text, 1))
        painter.drawRect(plot)
