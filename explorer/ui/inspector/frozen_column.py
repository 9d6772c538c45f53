"""The inspector's Name column, frozen: it stays in place while the other columns scroll sideways.

A second tree view over the same model (as the tree has it) shows only the first
column and lies on top of the main tree's first column (Qt's "frozen column"
pattern), while the tree is scrolled sideways. Vertical scrolling, the selection,
expanding and collapsing, and the column's width follow the main tree both ways, so
the two read as one table; the main tree keeps the keyboard focus.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QEvent,
    QIdentityProxyModel,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHeaderView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeView,
    QWidget,
)

Index = QModelIndex | QPersistentModelIndex


class _RowsTheTreeHas(QIdentityProxyModel):
    """The tree's model as the tree has it: this view never asks for more rows (the tree does, as it
    scrolls, and this view follows), so a second view never gives Qt a second batch to lay out."""

    def canFetchMore(self, parent: Index) -> bool:
        return False

    def fetchMore(self, parent: Index) -> None:
        return None


class _TreeRowHeight(QStyledItemDelegate):
    """Rows as tall as the tree's: its other columns (the memory chip, bold type) make its rows taller than the
    names alone would, and the names must stay beside their rows."""

    def __init__(self, tree: QTreeView, parent: QWidget) -> None:
        super().__init__(parent)
        self._tree = tree

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        own = super().sizeHint(option, index)
        rows = self._tree.model().rowCount() if self._tree.model() is not None else 0
        height = self._tree.sizeHintForRow(0) if rows else 0
        return QSize(own.width(), max(own.height(), height))


class FrozenColumnView(QTreeView):
    """Shows column 0 of *tree* over it, at the tree's left edge, whatever the horizontal scroll."""

    def __init__(self, tree: QTreeView) -> None:
        super().__init__(tree)
        self.setObjectName("frozen_name_column")
        self._tree = tree
        self._proxy = _RowsTheTreeHas(self)
        self._proxy.setSourceModel(tree.model())
        self.setModel(self._proxy)
        self.setItemDelegate(_TreeRowHeight(tree, self))
        self._syncing = False
        self.selectionModel().selectionChanged.connect(self._lead_selection)
        # On the next turn: a row thousands down makes both views lay out their rows, each its own step.
        self._selection_timer = QTimer(self)
        self._selection_timer.setSingleShot(True)
        self._selection_timer.setInterval(0)
        self._selection_timer.timeout.connect(self._follow_selection)
        tree.selectionModel().selectionChanged.connect(self._selection_timer.start)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setAutoScroll(False)  # the tree scrolls to a new current row, and this view with it
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(tree.alternatingRowColors())
        self.setSelectionMode(tree.selectionMode())
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setTextElideMode(tree.textElideMode())
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.header().setSectionsMovable(False)
        self.header().setStretchLastSection(False)
        self.header().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.header().setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.header().customContextMenuRequested.connect(
            lambda pos: tree.header().customContextMenuRequested.emit(pos))  # the same column chooser
        model = tree.model()
        model.columnsInserted.connect(self._hide_other_columns)  # a reset keeps the header's hidden sections
        self._hide_other_columns()
        # Scrolling, expanding and the column's width: whichever view moves, the other follows.
        self._following = False  # True while this view takes the tree's scroll position
        tree.verticalScrollBar().valueChanged.connect(self._follow_scroll)
        self.verticalScrollBar().valueChanged.connect(self._lead_scroll)
        # This view lays its rows out later than the tree: once its range allows it, take the tree's place.
        self.verticalScrollBar().rangeChanged.connect(lambda *_: self._follow_scroll(tree.verticalScrollBar().value()))
        tree.expanded.connect(self._follow_expanded)
        tree.collapsed.connect(self._follow_collapsed)
        self.expanded.connect(self._lead_expanded)
        self.collapsed.connect(self._lead_collapsed)
        tree.header().sectionResized.connect(self._on_tree_section_resized)
        self.header().sectionResized.connect(self._on_own_section_resized)
        tree.header().geometriesChanged.connect(self._place_later)
        self._place_timer = QTimer(self)  # dies with this view (and the tree), unlike a singleShot's call
        self._place_timer.setSingleShot(True)
        self._place_timer.setInterval(0)
        self._place_timer.timeout.connect(self.place)
        tree.viewport().installEventFilter(self)
        # Only while the tree is scrolled sideways: over an unscrolled tree it would show what the tree shows, and
        # a hidden view lays out no rows (a row 10,000 down selected: one view's layout instead of two).
        tree.horizontalScrollBar().valueChanged.connect(self._on_tree_scrolled_sideways)
        self.place()
        self.setVisible(tree.horizontalScrollBar().value() > 0)

    def _on_tree_scrolled_sideways(self, value: int) -> None:
        if (value > 0) == self.isVisible():
            return
        self.setVisible(value > 0)
        if value > 0:
            self.place()
            self._follow_selection()

    def _hide_other_columns(self) -> None:
        for section in range(1, self.model().columnCount()):
            self.setColumnHidden(section, True)
        self.setColumnWidth(0, self._tree.columnWidth(0))

    def _lead_selection(self, *_: Any) -> None:
        if self._syncing:
            return
        rows = self.selectionModel().selectedRows()
        if rows:  # a click on a frozen name selects its row of the tree, which makes it the selection
            flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
            self._tree.selectionModel().setCurrentIndex(self._proxy.mapToSource(rows[0]), flags)

    def _follow_selection(self, *_: Any) -> None:
        self._syncing = True
        try:
            wanted = QItemSelection()
            for index in self._tree.selectionModel().selectedRows():
                mine = self._proxy.mapFromSource(index)
                wanted.select(mine, mine)
            self.selectionModel().select(
                wanted, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        finally:
            self._syncing = False

    def _follow_scroll(self, value: int) -> None:
        self._following = True
        try:
            self.verticalScrollBar().setValue(value)
        finally:
            self._following = False

    def _lead_scroll(self, value: int) -> None:
        # Only a scroll of its own (the wheel over the names) moves the tree; not a value clamped to a range
        # this view has not finished laying out yet.
        if not self._following:
            self._tree.verticalScrollBar().setValue(value)

    def _follow_expanded(self, index: QModelIndex) -> None:
        mine = self._proxy.mapFromSource(index)
        if not self.isExpanded(mine):
            self.expand(mine)

    def _follow_collapsed(self, index: QModelIndex) -> None:
        mine = self._proxy.mapFromSource(index)
        if self.isExpanded(mine):
            self.collapse(mine)

    def _lead_expanded(self, index: QModelIndex) -> None:
        theirs = self._proxy.mapToSource(index)
        if not self._tree.isExpanded(theirs):
            self._tree.expand(theirs)

    def _lead_collapsed(self, index: QModelIndex) -> None:
        theirs = self._proxy.mapToSource(index)
        if self._tree.isExpanded(theirs):
            self._tree.collapse(theirs)

    def _on_tree_section_resized(self, section: int, _old: int, new: int) -> None:
        if section == 0:
            if self.columnWidth(0) != new:
                self.setColumnWidth(0, new)
            self._place_later()

    def _on_own_section_resized(self, section: int, _old: int, new: int) -> None:
        if section == 0 and self._tree.columnWidth(0) != new:
            self._tree.setColumnWidth(0, new)  # dragging the frozen header's edge resizes the real column

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and watched is self._tree.viewport():
            self._place_later()
        return super().eventFilter(watched, event)

    def _place_later(self) -> None:
        # On the next turn: resizing this view lays its rows out, which would fetch rows in the middle of a
        # model reset; one move for several changes.
        self._place_timer.start()

    def place(self) -> None:
        """Lie exactly over the tree's first column: its header cell and its rows, never its scroll bar."""
        tree = self._tree
        frame = tree.frameWidth()
        header = tree.header().height() if not tree.isHeaderHidden() else 0
        self.header().setFixedHeight(header)
        width = min(tree.columnWidth(0), tree.viewport().width())
        self.setGeometry(frame, frame, width, tree.viewport().height() + header)
        self._follow_scroll(tree.verticalScrollBar().value())
