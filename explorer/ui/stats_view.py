"""The Stats tab: min, max, mean, std, NaN/Inf/zero counts and a histogram.

The kernel computes them in a background job (``stats_start``); this view polls
``stats_poll`` on a timer, shows progress, can cancel, and never waits for the
kernel on the GUI thread.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from matplotlib.figure import Figure
from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from explorer import protocol
from explorer.protocol.kinds import is_array
from explorer.ui.app_state import AppState
from explorer.ui.canvas import Canvas
from explorer.ui.figure_fonts import families, points
from explorer.ui.selection_view import SelectionView

# Below this many elements the statistics start as soon as the tab shows the variable.
AUTO_LIMIT = 10_000_000
POLL_MS = 100
# (result key, label) in display order; the labels are marked for lupdate here and translated in retranslate().
# QT_TRANSLATE_NOOP gives its text back unchanged (a str); its stub says object.
FIELDS: tuple[tuple[str, Any], ...] = (
    ("count", QT_TRANSLATE_NOOP("StatsView", "Elements")), ("min", QT_TRANSLATE_NOOP("StatsView", "Min")),
    ("max", QT_TRANSLATE_NOOP("StatsView", "Max")), ("mean", QT_TRANSLATE_NOOP("StatsView", "Mean")),
    ("std", QT_TRANSLATE_NOOP("StatsView", "Std")), ("nan", "NaN"), ("posinf", "+Inf"), ("neginf", "-Inf"),
    ("zeros", QT_TRANSLATE_NOOP("StatsView", "Zeros")),
)


def format_stat(value: Any) -> str:
    """Numbers for the form: ints with thousands separators, floats with 6 significant digits."""
    if value is None:
        return "—"
    if isinstance(value, (bool, str)):
        return str(value)  # NaN/Inf arrive as the strings "nan"/"inf"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:.6g}"


class StatsView(SelectionView):
    """Statistics of the selected variable, computed in the kernel without blocking.

    Its source answers :class:`explorer.protocol.StatsStart`, ``StatsPoll`` and ``StatsCancel``.

    Attributes
    ----------
    job_options : dict
        Extra :class:`explorer.protocol.StatsStart` fields (e.g. ``bins``, ``chunk_elements``).
    """

    stats_shown = Signal(object)

    def __init__(self, source: protocol.RequestSource, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(source, state, parent)
        self._job: int | None = None
        self._state = "idle"  # idle | starting | running | done | cancelled | failed
        self._result: dict | None = None
        self._cancel_wanted = False
        self.job_options: dict = {}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)  # re-armed after each reply, so polls never pile up
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._on_timer_timeout)
        self._build_widgets()
        self._build_figure()
        self.retranslate()
        self.follow_selection()

    def _build_widgets(self) -> None:
        self.compute_button = QPushButton(self)
        self.compute_button.clicked.connect(self._on_compute_button_clicked)
        self.compute_button.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.cancel_button = QPushButton(self)
        self.cancel_button.clicked.connect(self._on_cancel_button_clicked)
        self.progress_bar = QProgressBar(self)
        self.progress_bar.setRange(0, 1000)
        self.progress_bar.setTextVisible(False)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        bar = QHBoxLayout()
        bar.addWidget(self.compute_button)
        bar.addWidget(self.progress_bar, 1)
        bar.addWidget(self.cancel_button)
        form_box = QWidget(self)
        # Minimum: the numbers keep their full width; the histogram takes what is left.
        form_box.setSizePolicy(QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Preferred)
        self._form = QFormLayout(form_box)
        self._names: dict[str, QLabel] = {}
        self.values: dict[str, QLabel] = {}
        for key, _label in FIELDS:
            self._names[key], self.values[key] = QLabel(form_box), QLabel(form_box)
            self.values[key].setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self._form.addRow(self._names[key], self.values[key])
        self._root = QVBoxLayout(self)
        self._root.setContentsMargins(0, 0, 0, 0)
        self._root.addLayout(bar)
        self._root.addWidget(self.message)
        self._body = QHBoxLayout()
        self._body.addWidget(form_box)
        self._root.addLayout(self._body, 1)

    def _build_figure(self) -> None:
        self._figure = Figure(figsize=(4, 3))
        self._figure.set_facecolor(self.palette().window().color().name())  # blend into the theme
        self._canvas = Canvas(self._figure)
        self._canvas.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self._axes = self._figure.add_subplot(1, 1, 1)
        self._body.addWidget(self._canvas, 1)

    def retranslate(self) -> None:
        """Set every static text in the current language."""
        self.compute_button.setText(self.tr("Compute"))
        self.compute_button.setToolTip(self.tr("Compute the statistics in the kernel (large tensors take a moment)"))
        self.cancel_button.setText(self.tr("Cancel"))
        for key, label in FIELDS:
            #: A form label: the name of a statistic followed by a colon.
            self._names[key].setText(self.tr("{field}:").format(field=self.tr(label)))
        std_tip = self.tr("Standard deviation, computed like the library does (torch: t.std() divides by n-1; numpy: a.std() by n)")
        self._names["std"].setToolTip(std_tip)
        self._show_state()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        if event.type() in (QEvent.Type.LanguageChange, QEvent.Type.FontChange) and self._result is not None:
            self._draw_histogram(self._result.get("histogram") or {})  # labels in the new language or size
        super().changeEvent(event)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._state == "idle" and self._auto_ok():
            self.start()

    # -- public API --------------------------------------------------------------------
    def _on_state_selection_changed(self, _selection: protocol.Var | None) -> None:
        """Show the selection; small tensors are computed at once (when visible), large ones on request."""
        self._stop_job()
        self._result = None
        self._state = "idle"
        self._clear()
        if self.isVisible() and self._auto_ok():
            self.start()
        else:
            self._show_state()

    def start(self) -> None:
        """Start computing the statistics of the current variable in the kernel."""
        if not self._has_values():
            return
        self._stop_job()
        self._state, self._result = "starting", None
        self._cancel_wanted = False
        self._clear()
        self._show_state()
        request = protocol.StatsStart(name=self._name, **self.job_options)
        self._fetcher.ask(request, self._on_source_started, on_stale=self._on_stale_start)

    def cancel(self) -> None:
        """Ask the kernel to stop the running job (the poll then reports it cancelled)."""
        if self._state == "starting":
            self._cancel_wanted = True  # no job id yet: cancel as soon as it arrives
        elif self._job is not None and self._state == "running":
            self._source.ask(protocol.StatsCancel(job=self._job), _ignore)

    def state(self) -> str:
        """idle, starting, running, done, cancelled or failed."""
        return self._state

    # -- slots ----------------------------------------------------------------------------
    def _on_compute_button_clicked(self) -> None:
        self.start()

    def _on_cancel_button_clicked(self) -> None:
        self.cancel()

    def _on_timer_timeout(self) -> None:
        if self._job is None:
            return
        self._fetcher.ask(protocol.StatsPoll(job=self._job), self._on_source_polled)

    def _on_stale_start(self, reply: protocol.Reply[protocol.StatsJob]) -> None:
        """A job started for a selection the user left: stop it wasting the kernel's time."""
        if reply.ok and isinstance(reply.result, dict) and "job" in reply.result:
            self._source.ask(protocol.StatsCancel(job=reply.result["job"]), _ignore)

    def _on_source_started(self, reply: protocol.Reply[protocol.StatsJob]) -> None:
        result = reply.result if reply.ok else None
        if not isinstance(result, dict) or "job" not in result:
            self._fail(reply.message or self.tr("The statistics could not be started."))
            return
        self._job = result["job"]
        self._state = "running"
        self._show_state()
        if self._cancel_wanted:
            self.cancel()
        self._timer.start()

    def _on_source_polled(self, reply: protocol.Reply[protocol.StatsStatus]) -> None:
        status: Any = reply.result if reply.ok else None
        if not isinstance(status, dict):
            self._fail(reply.message)
            return
        state = status.get("state")
        if state == "running":
            self._set_progress(status.get("progress"))
            self._timer.start()
        elif state == "done" and isinstance(status.get("result"), dict):
            self._job, self._state, self._result = None, "done", _decoded(status["result"])
            self._show_result(self._result)
        elif state == "cancelled":
            self._job, self._state = None, "cancelled"
            self._show_state()
        else:
            self._fail(str(status.get("error") or self.tr("The statistics job was lost (the kernel restarted?).")))

    # -- helpers ------------------------------------------------------------------------------
    def _has_values(self) -> bool:
        var = self._var
        return var is not None and is_array(var["kind"]) and bool(var["name"])

    def _auto_ok(self) -> bool:
        numel = self._var["numel"] if self._var else None
        if not isinstance(numel, int):
            shape = self._var["shape"] if self._var else None
            numel = _product(shape) if isinstance(shape, list) else None
        return self._has_values() and isinstance(numel, int) and numel < AUTO_LIMIT

    def _stop_job(self) -> None:
        """Forget the current job; a still-running one is told to stop."""
        self._timer.stop()
        if self._job is not None and self._state in ("starting", "running"):
            self._source.ask(protocol.StatsCancel(job=self._job), _ignore)
        self._job = None
        self._fetcher.restart()

    def _fail(self, text: str) -> None:
        self._job, self._state = None, "failed"
        self._show_state(text)

    def _set_progress(self, progress: Any) -> None:
        if isinstance(progress, (int, float)):
            self.progress_bar.setValue(round(min(max(progress, 0.0), 1.0) * 1000))

    def _show_state(self, error: str = "") -> None:
        """Buttons, progress bar and message for the current state."""
        busy = self._state in ("starting", "running")
        self.compute_button.setEnabled(self._has_values() and not busy)
        self.cancel_button.setVisible(busy)
        self.progress_bar.setVisible(busy)
        if not busy:
            self.progress_bar.setValue(0)
        texts = {
            "idle": self.tr("Press Compute to read every element.") if self._has_values()
            else self.tr("Select a tensor or array to see its statistics."),
            "starting": self.tr("Computing…"), "running": self.tr("Computing…"),
            "cancelled": self.tr("Cancelled."), "failed": error or self.tr("The statistics could not be computed."),
            "done": self._note_text(),
        }
        self.message.setText(texts.get(self._state, ""))
        self.message.setVisible(bool(self.message.text()))

    def _note_text(self) -> str:
        """The kernel's notes in the current language (its English ``note`` for codes we do not know)."""
        result = self._result or {}
        step = (result.get("histogram") or {}).get("step") or 1
        known = {
            "nonfinite_ignored": self.tr("min, max, mean and std leave out NaN and Inf"),
            "complex_magnitude": self.tr("complex values: the statistics are of the magnitude |z|"),
            "sparse_implicit_zeros": self.tr("sparse tensor: the stored values plus the implicit zeros"),
            "quantized_dequantized": self.tr("quantized tensor: statistics of the dequantized values"),
            "histogram_sampled": self.tr("the histogram counts a sample of about 1 in {step} elements"),
        }
        codes = result.get("notes") or []
        if all(code in known for code in codes):
            note = "; ".join(known[code].format(step=step) for code in codes)
        else:
            note = result.get("note") or ""
        return self.tr("Note: {note}").format(note=note) if note else ""

    def _clear(self) -> None:
        for label in self.values.values():
            label.setText("")
        # Hide the old histogram rather than clear it: Axes.clear() rebuilds ticks and spines (~30 ms on the
        # GUI thread at every selection); the next histogram clears the axes when it draws.
        if self._axes.get_visible():
            self._axes.set_visible(False)
            self._canvas.draw_idle()

    def _show_result(self, result: dict) -> None:
        for key, label in self.values.items():
            label.setText(format_stat(result.get(key)))
        self._draw_histogram(result.get("histogram") or {})
        self._show_state()
        self.stats_shown.emit(result)

    def _draw_histogram(self, hist: dict) -> None:
        ax = self._axes
        ax.clear()
        ax.set_visible(True)
        edges, counts = hist.get("edges") or [], hist.get("counts") or []
        if len(edges) != len(counts) + 1 or not counts:
            ax.set_axis_off()
            self._canvas.draw_idle()
            return
        ax.set_axis_on()
        widths = [b - a for a, b in itertools.pairwise(edges)]
        ax.bar(edges[:-1], counts, width=widths, align="edge", color="#0072B2", edgecolor="none")
        size = points(self)  # follow the widget font (bigger with the zoom and in presentation mode)
        ax.tick_params(labelsize=size)
        #: Axis label of the histogram: the values of the elements.
        xlabel = self.tr("value")
        ax.set_xlabel(xlabel, fontsize=size, fontfamily=families(xlabel))  # a CJK font that exists, for Chinese
        step = hist.get("step") or 1
        #: Axis label of the histogram: how many elements fall in each bar.
        ylabel = self.tr("count") if step == 1 else self.tr("count (sample: 1 in {step} elements)").format(step=step)
        ax.set_ylabel(ylabel, fontsize=size, fontfamily=families(ylabel))
        self._figure.tight_layout()
        self._canvas.draw_idle()


def _product(shape: list) -> int | None:
    """Number of elements of a shape list (None if it holds non-integers)."""
    n = 1
    for s in shape:
        if not isinstance(s, int):
            return None
        n *= s
    return n


def _ignore(_reply: protocol.Reply[Any]) -> None:
    """Nothing to do with the answer (a cancel)."""


def _decoded(result: dict) -> dict:
    """The result with its histogram's counts and edges (buffers from the kernel) as lists."""
    hist = result.get("histogram")
    if not isinstance(hist, dict):
        return result
    counts, edges = hist.get("counts"), hist.get("edges")
    if isinstance(counts, bytes):
        hist = dict(hist, counts=np.frombuffer(counts, dtype="<i8").tolist())
    if isinstance(edges, bytes):
        hist = dict(hist, edges=np.frombuffer(edges, dtype="<f8").tolist())
    return dict(result, histogram=hist)
