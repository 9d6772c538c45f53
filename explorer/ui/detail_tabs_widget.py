"""The tabs under the inspector: Image, Values, Stats, Memory, Graph for the selected variable.

Only the visible tab is told about a new selection, so switching variables costs
one request, not five; a tab catches up when it is shown.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QTabWidget, QWidget

from explorer.ui.graph_view import GraphView
from explorer.ui.image_view import ImageView
from explorer.ui.memory_map_view import MemoryMapView
from explorer.ui.stats_view import StatsView
from explorer.ui.values_view import ValuesView


class DetailTabsWidget(QTabWidget):
    """Holds the detail views; each receives the kernel *source* in its constructor."""

    def __init__(self, source: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.image = ImageView(source)
        self.values = ValuesView(source)
        self.stats = StatsView(source)
        self.memory = MemoryMapView(source)
        self.graph = GraphView(source)
        for view in (self.image, self.values, self.stats, self.memory, self.graph):
            self.addTab(view, "")
        self._var: dict | None = None
        self._shown: dict[int, int] = {}
        self._generation = 0
        self.currentChanged.connect(self._on_tabs_current_changed)
        self.retranslate()

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
        index = self.currentIndex()
        if self._shown.get(index) == self._generation:
            return
        self._shown[index] = self._generation
        view = self.widget(index)
        if view is not None:
            view.set_variable(self._var)
