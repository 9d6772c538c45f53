"""The tabs under the inspector: Image, Values, Stats, Memory, Graph for the selected variable.

Every view follows the window's selection (:class:`~explorer.ui.app_state.AppState`)
and fetches only while it is visible (:class:`~explorer.ui.selection_fetch.SelectionFetch`),
so switching variables costs one request, not five; a tab catches up when it is
shown. The views (and matplotlib and networkx behind them) are built just after
the window appears, so they do not delay the first paint. Each view sits in a
scroll area: a long name or a tall memory map scrolls instead of making the
window larger than a projector's screen.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QTabWidget, QWidget

# Delay before building the views once the tabs exist: enough for the window to paint first.
BUILD_DELAY_MS = 150


class DetailTabsWidget(QTabWidget):
    """Holds the detail views; each receives the kernel *source* and the shared *state* in its constructor."""

    def __init__(self, source: Any, state: Any, parent: QWidget | None = None, watch: Any = None) -> None:
        super().__init__(parent)
        self._source = source
        self._state = state
        self._watch = watch  # the window's WatchList (the Watch tab shows it)
        self._views: list[QWidget] = []
        for _ in range(6):
            placeholder = QLabel(self)
            placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self.addTab(placeholder, "")
        self.retranslate()
        QTimer.singleShot(BUILD_DELAY_MS, self.ensure_views)

    def ensure_views(self) -> None:
        """Build the six views (imports matplotlib/networkx) unless done already."""
        if self._views:
            return
        from explorer.ui.graph_view import GraphView
        from explorer.ui.image.image_view import ImageView
        from explorer.ui.memory_map_view import MemoryMapView
        from explorer.ui.stats_view import StatsView
        from explorer.ui.values.values_view import ValuesView
        from explorer.ui.watch_panel import WatchPanel

        current = self.currentIndex()
        self.blockSignals(True)
        for index, cls in enumerate((ImageView, ValuesView, StatsView, MemoryMapView, GraphView, WatchPanel)):
            view = cls(self._source, self._state, self._watch) if cls is WatchPanel else cls(self._source, self._state)
            placeholder = self.widget(index)
            self.removeTab(index)
            self.insertTab(index, _scrolling(view), "")
            if placeholder is not None:
                placeholder.deleteLater()
            self._views.append(view)
        self.setCurrentIndex(current)
        self.blockSignals(False)
        self.retranslate()

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

    @property
    def watch(self) -> Any:
        return self._view(5)

    def _view(self, index: int) -> Any:
        self.ensure_views()
        return self._views[index]

    def page_of(self, view: QWidget) -> QWidget:
        """The tab page holding *view* (its scroll area), or *view* itself when it is a page."""
        for i, shown in enumerate(self._views):
            page = self.widget(i)
            if shown is view and page is not None:
                return page
        return view

    def setCurrentWidget(self, widget: QWidget) -> None:
        super().setCurrentWidget(self.page_of(widget))

    def retranslate(self) -> None:
        titles = (self.tr("Image"), self.tr("Values"), self.tr("Stats"), self.tr("Memory"), self.tr("Graph"),
                  self.tr("Watch"))
        tips = (
            self.tr("The tensor drawn as an image, with the channel order fixed automatically"),
            self.tr("The numbers themselves: pick two dimensions and slide through the others"),
            self.tr("Minimum, maximum, mean, standard deviation, NaN/Inf counts and a histogram"),
            self.tr("The memory block behind the variable and which cells each view reaches"),
            self.tr("The autograd graph backward() will walk, from the leaves to this tensor"),
            self.tr("Curves of the watched values, drawn while the code runs (a loss falling, a norm growing)"),
        )
        for i, (title, tip) in enumerate(zip(titles, tips)):
            self.setTabText(i, title)
            self.setTabToolTip(i, tip)
            placeholder = self.widget(i)
            if not self._views and isinstance(placeholder, QLabel):
                placeholder.setText(self.tr("Loading…"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


class _Page(QScrollArea):
    """A view in a frameless scroll area: it fills the tab, and scrolls only below its minimum size.

    Not ``widgetResizable``: that sizes a view with wrapped labels by its
    height-for-width, i.e. its *preferred* height, and a pane shorter than
    that would scroll although the view fits.
    """

    def __init__(self, view: QWidget) -> None:
        super().__init__()
        self.setObjectName(f"{type(view).__name__}_page")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(False)
        self.setWidget(view)
        view.installEventFilter(self)

    def _fit(self) -> None:
        view = self.widget()
        if view is None:
            return
        least = view.minimumSizeHint().expandedTo(view.minimumSize())
        area = self.maximumViewportSize()  # the room without scroll bars
        width = max(area.width(), least.width())
        height = max(area.height(), least.height())
        if width > area.width():  # a horizontal bar takes room from the height, and the other way round
            height = max(area.height() - self.horizontalScrollBar().sizeHint().height(), least.height())
        if height > area.height():
            width = max(area.width() - self.verticalScrollBar().sizeHint().width(), least.width())
        if view.size() != QSize(width, height):
            view.resize(width, height)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self._fit()  # the view's minimum changed (a new variable, a bigger font)
        return super().eventFilter(watched, event)


def _scrolling(view: QWidget) -> QScrollArea:
    """*view* as a tab page (see :class:`_Page`)."""
    return _Page(view)
