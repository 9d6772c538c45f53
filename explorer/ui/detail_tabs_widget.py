"""The tabs under the inspector: Image, Values, Stats, Memory, Graph for the selected variable.

Only the visible tab is told about a new selection, so switching variables costs
one request, not five; a tab catches up when it is shown. The views (and
matplotlib and networkx behind them) are built just after the window appears,
so they do not delay the first paint.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtWidgets import QLabel, QTabWidget, QWidget

# Delay before building the views once the tabs exist: enough for the window to paint first.
BUILD_DELAY_MS = 150


class DetailTabsWidget(QTabWidget):
    """Holds the detail views; each receives the kernel *source* in its constructor."""

    def __init__(self, source: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._source = source
        self._views: list[QWidget] = []
        for _ in range(5):
            placeholder = QLabel(self)
            placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self.addTab(placeholder, "")
        self._var: dict | None = None
        self._shown: dict[int, int] = {}
        self._generation = 0
        self.currentChanged.connect(self._on_tabs_current_changed)
        self.retranslate()
        QTimer.singleShot(BUILD_DELAY_MS, self.ensure_views)

    def ensure_views(self) -> None:
        """Build the five views (imports matplotlib/networkx) unless done already."""
        if self._views:
            return
        from explorer.ui.graph_view import GraphView
        from explorer.ui.image.image_view import ImageView
        from explorer.ui.memory_map_view import MemoryMapView
        from explorer.ui.stats_view import StatsView
        from explorer.ui.values.values_view import ValuesView

        current = self.currentIndex()
        self.blockSignals(True)
        for index, cls in enumerate((ImageView, ValuesView, StatsView, MemoryMapView, GraphView)):
            view = cls(self._source)
            placeholder = self.widget(index)
            self.removeTab(index)
            self.insertTab(index, view, "")
            placeholder.deleteLater()
            self._views.append(view)
        self.setCurrentIndex(current)
        self.blockSignals(False)
        self.retranslate()
        self._shown.clear()
        self._update_current()

    @property
    def image(self) -> Any:
        return self._view(0)

    @property
    def values(self) -> Any:
        return self._view(1)

    @property
    def stats(self) -> Any:
        return self._view(2)

    @property
    def memory(self) -> Any:
        return self._view(3)

    @property
    def graph(self) -> Any:
        return self._view(4)

    def _view(self, index: int) -> Any:
        self.ensure_views()
        return self._views[index]

    def retranslate(self) -> None:
        titles = (self.tr("Image"), self.tr("Values"), self.tr("Stats"), self.tr("Memory"), self.tr("Graph"))
        tips = (
            self.tr("The tensor drawn as an image, with the channel order fixed automatically"),
            self.tr("The numbers themselves: pick two dimensions and slide through the others"),
            self.tr("Minimum, maximum, mean, standard deviation, NaN/Inf counts and a histogram"),
            self.tr("The memory block behind the variable and which cells each view reaches"),
            self.tr("The autograd graph backward() will walk, from the leaves to this tensor"),
        )
        for i, (title, tip) in enumerate(zip(titles, tips)):
            self.setTabText(i, title)
            self.setTabToolTip(i, tip)
            if not self._views:
                self.widget(i).setText(self.tr("Loading…"))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def set_variable(self, var: dict | None) -> None:
        """Show *var* (a VAR dict) in the visible tab; others update when shown."""
        self._var = var or None
        self._generation += 1
        self._update_current()

    def _on_tabs_current_changed(self, _index: int) -> None:
        self._update_current()

    def _update_current(self) -> None:
        if not self._views:
            return  # ensure_views() catches up with the selection
        index = self.currentIndex()
        if self._shown.get(index) == self._generation:
            return
        self._shown[index] = self._generation
        self.widget(index).set_variable(self._var)
