"""The tabs under the inspector: Image, Values, Stats, Memory, Graph for the selected variable, and Watch.

Every view follows the window's selection (:class:`~explorer.ui.app_state.AppState`)
and fetches only while it is visible (:class:`~explorer.ui.selection_fetch.SelectionFetch`),
so switching variables costs one request, not five; a tab catches up when it is
shown. Each view (and matplotlib or networkx behind it) is built the first time
its tab is shown, and not before the kernel's handshake is done (or a variable is
selected, or a few seconds have passed). A view's module (matplotlib behind the
Image tab, about 0.3 s; networkx behind the Graph tab) is imported on a worker
thread first, and only the view itself (a few milliseconds) is made on the GUI
thread, so neither the first paint, the handshake nor the window's answers wait
on those imports. Each view sits in a
scroll area: a long name or a tall memory map scrolls instead of making the
window larger than a projector's screen.
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QTabWidget, QWidget

from explorer import protocol
from explorer.client import workers

if TYPE_CHECKING:
    from explorer.ui.app_state import AppState
    from explorer.ui.watch_list import WatchList

# Without a handshake (a kernel that never answers, a stand-in source), the shown tab is built after this long.
BUILD_FALLBACK_MS = 3000
_CLASSES = ("image", "values", "stats", "memory", "graph", "watch")
# Where each tab's view class lives: only the shown tab's module (matplotlib, networkx behind it) is imported.
_MODULES = (("explorer.ui.image.image_view", "ImageView"), ("explorer.ui.values.values_view", "ValuesView"),
            ("explorer.ui.stats_view", "StatsView"), ("explorer.ui.memory_map_view", "MemoryMapView"),
            ("explorer.ui.graph_view", "GraphView"), ("explorer.ui.watch_panel", "WatchPanel"))


class DetailTabsWidget(QTabWidget):
    """Holds the detail views; each receives the kernel *source* and the shared *state* in its constructor."""

    _imported = Signal(int)  # a worker thread has imported the module of tab N (queued to the GUI thread)

    def __init__(self, source: protocol.RequestSource, state: AppState, parent: QWidget | None = None,
                 watch: WatchList | None = None) -> None:
        super().__init__(parent)
        self._source = source
        self._state = state
        self._watch = watch  # the window's WatchList (the Watch tab shows it)
        self._views: dict[int, QWidget] = {}
        self._started = False  # may the shown tab be built now?
        self._importing: set[int] = set()
        self._imported.connect(self._on_imported)
        for _ in _CLASSES:
            placeholder = QLabel(self)
            placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self.addTab(placeholder, "")
        self.retranslate()
        self.currentChanged.connect(self._on_current_changed)
        ready = getattr(source, "ready", None)
        if ready is not None and hasattr(ready, "connect"):
            ready.connect(self._on_source_ready)
        state.selection_changed.connect(self._on_state_selection_changed)
        self._fallback = QTimer(self)
        self._fallback.setSingleShot(True)
        self._fallback.setInterval(BUILD_FALLBACK_MS)
        self._fallback.timeout.connect(self.start_building)
        self._fallback.start()

    def start_building(self) -> None:
        """From now on the shown tab's view is built (at once if the tabs are visible)."""
        self._fallback.stop()
        self._started = True
        self._build_shown()

    def built(self) -> list[str]:
        """The views built so far, by name ("image", "values", ...)."""
        return [_CLASSES[i] for i in sorted(self._views)]

    def _on_source_ready(self, *_args: Any) -> None:
        self.start_building()

    def _on_state_selection_changed(self, var: Any) -> None:
        if var is not None:
            self.start_building()  # the learner asked for details: the shown view is needed now

    def _on_current_changed(self, _index: int) -> None:
        self._build_shown()

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self._build_shown()

    def _build_shown(self) -> None:
        """Build the shown tab's view now if its module is imported; else import it on a worker thread first."""
        index = self.currentIndex()
        if not (self._started and self.isVisible() and index >= 0) or index in self._views:
            return
        if _MODULES[index][0] in sys.modules:
            self._view(index)
        elif index not in self._importing:
            self._importing.add(index)
            workers.start(self._import, f"te-import-{_CLASSES[index]}", index)  # joined at exit: see workers

    def _import(self, index: int) -> None:
        """On a worker thread: import tab *index*'s module (an error shows when the GUI thread builds the view)."""
        try:
            importlib.import_module(_MODULES[index][0])
        except Exception:  # noqa: BLE001 - raised again, visibly, by the build on the GUI thread
            pass
        try:
            self._imported.emit(index)
        except RuntimeError:  # the tabs were deleted meanwhile (the window closed): nothing to build
            pass

    def _on_imported(self, index: int) -> None:
        self._importing.discard(index)
        if index not in self._views and index == self.currentIndex() and self.isVisible():
            self._view(index)

    def _build(self, index: int) -> QWidget:
        """The view of tab *index*, made now and put in place of its placeholder (importing only its module)."""
        module, name = _MODULES[index]
        cls = getattr(importlib.import_module(module), name)
        view = cls(self._source, self._state, self._watch) if name == "WatchPanel" else cls(self._source, self._state)
        self._views[index] = view
        current = self.currentIndex()
        placeholder = self.widget(index)
        self.blockSignals(True)
        self.removeTab(index)
        self.insertTab(index, _scrolling(view), "")
        self.setCurrentIndex(current)
        self.blockSignals(False)
        if placeholder is not None:
            placeholder.deleteLater()
        self.retranslate()
        return view

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
        view = self._views.get(index)
        return view if view is not None else self._build(index)

    def page_of(self, view: QWidget) -> QWidget:
        """The tab page holding *view* (its scroll area), or *view* itself when it is a page."""
        for i, shown in self._views.items():
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
            if i not in self._views and isinstance(placeholder, QLabel):
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
