"""The inspector's tree model: one row per variable, children for containers, filtered by name.

It applies the kernel's snapshot replies as they come: a full snapshot rebuilds
the tree, a delta replaces only the rows that changed, so the cost of a run in
the window follows what the run changed, not the size of the namespace. The
name filter lives here too (a plain substring test over the names), which stays
fast at 100,000 variables where a proxy model calling back per row would not.

The top level is given to the view in batches (``canFetchMore``/``fetchMore``): Qt
lays out every row it knows of after a reset, a few Python calls per row, so a
filter keystroke over 100,000 names would cost a second; it costs one batch.

Every step on the GUI thread stays small: thousands of changed rows are swapped
:data:`CHUNK_ROWS` per event-loop turn, and thousands of new rows (a run that made
10,000 variables, a full snapshot) are built that many per turn before they are shown.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QIcon, QPainter, QPen, QPixmap

from explorer import protocol
from explorer.ui.inspector.inspector_columns import Column, columns
from explorer.ui.inspector.inspector_nodes import (
    RowBuild,
    all_names,
    filtered,
    number,
    root_name,
    visible,
)
from explorer.ui.inspector.inspector_rows import RowTree
from explorer.ui.palette import HIGHLIGHT_ALPHA, HighlightRole, group_color

_PIN: list[QIcon] = []


def pin_icon() -> QIcon:
    """A small drawn pin (made once): the row's value is watched while code runs."""
    if not _PIN:
        pixmap = QPixmap(16, 16)
        pixmap.fill(QColor(0, 0, 0, 0))
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor("#555555"), 1.6))
        painter.drawLine(8, 8, 8, 15)
        painter.setBrush(QColor("#D55E00"))
        painter.setPen(QPen(QColor("#8c3d00"), 1))
        painter.drawEllipse(3, 1, 10, 9)
        painter.end()
        _PIN.append(QIcon(pixmap))
    return _PIN[0]

Index = QModelIndex | QPersistentModelIndex
VAR_ROLE = Qt.ItemDataRole.UserRole + 1
# Rows built per event-loop turn when a snapshot is large (a 10,000-variable run).
CHUNK_ROWS = 1500
# Changed rows swapped per turn (cheaper than building): 3,000 re-bound names are one turn and one repaint.
SWAP_ROWS = 3000
# Top-level rows the view gets at a time; scrolling to the end (or selecting a later row) fetches more.
FETCH_ROWS = 1000
_DISPLAY = Qt.ItemDataRole.DisplayRole
_ROLES = frozenset({_DISPLAY, VAR_ROLE, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.DecorationRole,
                    Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.FontRole, Qt.ItemDataRole.ForegroundRole})


class InspectorModel(RowTree):
    """Shows the kernel's snapshot replies (:class:`explorer.protocol.SnapshotReply`)."""

    # A delta did not follow the snapshot shown (a reply was lost): ask for a full snapshot.
    out_of_step = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._columns = columns()
        self._changes: dict[str, protocol.Change] = {}
        self._highlight: dict[str, HighlightRole] = {}
        self._pinned: set[str] = set()  # watched names (the Watch tab), drawn with a pin
        self._limit = FETCH_ROWS
        self._seq = 0
        self._pending: dict[str, protocol.Var] = {}  # the rest of a large delta, applied a slice per turn
        self._pending_markers: set[str] = set()
        self._building: tuple[RowBuild, dict[str, protocol.Change]] | None = None  # new rows being built, and their changes

    # -- data in -----------------------------------------------------------------------
    def apply_snapshot(self, snapshot: protocol.SnapshotReply) -> set[str]:
        """Show a full snapshot or apply a delta; returns the names whose VAR changed.

        A delta costs what it changed: VARs are swapped in place and the view is told
        once, with one ``dataChanged`` spanning the touched rows (it repaints only the
        rows on screen); only a container whose children came or went, or names that
        came or went, restructure rows. Rows added while code ran (``show_running``) go first.
        """
        self.drop_running()
        self._finish_pending()
        if snapshot["full"]:
            self.set_variables(snapshot["variables"], snapshot["changes"])
            self._seq = snapshot["seq"]
            return all_names(snapshot["variables"])  # not from the rows: they may still be being built
        if snapshot["seq"] != self._seq + 1:
            self.out_of_step.emit()
            return set()
        self._seq += 1
        old_changes, self._changes = self._changes, snapshot["changes"]
        fresh = snapshot["variables"]
        changed = {var["name"] for var in fresh}
        if snapshot["order"] is not None or snapshot["removed"]:
            self._rebuild(snapshot)
            return changed
        markers = set(old_changes) | set(self._changes)
        if len(fresh) > SWAP_ROWS:
            # Thousands of changed rows: a slice per event-loop turn keeps the window answering.
            self._pending = {var["name"]: var for var in fresh[SWAP_ROWS:]}
            self._pending_markers = markers
            self._swap_all(fresh[:SWAP_ROWS], set())
            QTimer.singleShot(0, self._next_chunk)
        else:
            self._swap_all(fresh, markers)
        return changed

    def _swap_all(self, fresh: list[protocol.Var], markers: set[str]) -> None:
        touched = [node for node in (self._swap(var) for var in fresh) if node is not None]
        touched += [node for node in (self._by_name.get(name) for name in markers) if node is not None]
        self._repaint(touched)

    def _next_chunk(self) -> None:
        if not self._pending:
            return
        names = list(self._pending)[:SWAP_ROWS]
        chunk = [self._pending.pop(name) for name in names]
        self._swap_all(chunk, set() if self._pending else self._pending_markers)
        if self._pending:
            QTimer.singleShot(0, self._next_chunk)

    def _finish_pending(self) -> None:
        """Apply what is left of a large delta or build now (a newer snapshot must find the model complete)."""
        if self._building is not None:
            self._building[0].step(None)
            self._install()
        if self._pending:
            rest, self._pending = list(self._pending.values()), {}
            self._swap_all(rest, self._pending_markers)

    def set_variables(self, variables: list[protocol.Var], changes: dict[str, protocol.Change] | None = None) -> None:
        """Replace everything (a full snapshot); more than :data:`CHUNK_ROWS` rows are built over several turns."""
        self.drop_running()
        self._finish_pending()
        self._highlight = {}
        self._start_build(RowBuild([v["name"] for v in variables], {v["name"]: v for v in variables}, {}, self._root),
                          changes or {})

    def _rebuild(self, snapshot: protocol.SnapshotReply) -> None:
        """Names came or went: the top level in the kernel's order, unchanged rows reused, new ones built."""
        fresh = {var["name"]: var for var in snapshot["variables"]}
        removed = set(snapshot["removed"])
        order = snapshot["order"] or [n.name for n in self._root.children if n.name not in removed]
        old = {node.name: node for node in self._root.children}
        self._start_build(RowBuild(order, fresh, old, self._root), self._changes)

    def _start_build(self, build: RowBuild, changes: dict[str, protocol.Change]) -> None:
        """Build the new rows a slice per event-loop turn, then show them (at once when they are few)."""
        self._building = (build, changes)
        if build.step(CHUNK_ROWS):
            self._install()
        else:
            QTimer.singleShot(0, self._next_build)

    def _next_build(self) -> None:
        if self._building is None:
            return  # finished early by a newer snapshot
        if self._building[0].step(CHUNK_ROWS):
            self._install()
        else:
            QTimer.singleShot(0, self._next_build)

    def _install(self) -> None:
        """The built rows replace the top level (one reset; the view is given the first batch)."""
        assert self._building is not None
        build, changes = self._building
        self._building = None
        self.beginResetModel()
        self._root.children = build.children()
        self._running = []  # rows added while the build ran were in the old top level
        self._changes = changes
        self._reindex()
        self._limit = FETCH_ROWS
        self.endResetModel()

    def _building_holds(self, name: str) -> bool:
        """Whether *name*'s row is about to change: it is in the top level still being built."""
        return self._building is not None and root_name(name) in self._building[0].names

    # -- the name filter -------------------------------------------------------------------
    def set_filter(self, text: str) -> None:
        """Show only variables whose name contains *text* (any case), with their matching children."""
        self._finish_pending()
        text = text.strip().lower()
        if text == self._filter:
            return
        self.beginResetModel()
        self._filter = text
        self._root.shown = filtered(self._root.children, text, parent_matches=not text)
        number(self._root.shown)
        self._limit = FETCH_ROWS
        self.endResetModel()


    # -- highlight and language ---------------------------------------------------------------
    def retranslate(self) -> None:
        self._columns = columns()
        for node in self._root.walk():
            node.texts = None  # column texts may be words (the change column, a ✓) in the new language
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self._columns) - 1)

    def set_pinned(self, names: list[str]) -> None:
        """Mark the rows of watched names with a pin (the Watch tab draws them while code runs)."""
        pinned = set(names)
        if pinned == self._pinned:
            return
        touched = pinned | self._pinned
        self._pinned = pinned
        self._refresh_rows(touched)

    def is_pinned(self, name: str) -> bool:
        return name in self._pinned

    def set_highlight(self, roles: dict[str, HighlightRole]) -> None:
        """Highlight rows by name: ``{"t": "selected" | "overlap" | "same_allocation"}``."""
        if roles == self._highlight:
            return
        touched = set(roles) | set(self._highlight)
        self._highlight = dict(roles)
        self._refresh_rows(touched)

    def set_overlaps(self, name: str, overlaps: list[str]) -> protocol.Var | None:
        """*name*'s overlaps came: its VAR (the one owner; the selection's copy is amended from it) and row get them."""
        var = self.variable(name)
        if var is not None:
            var["overlaps"] = list(overlaps)
            node = self._by_name.get(name)
            if node is not None and node.var is var:
                node.texts = None
                self._refresh_rows({name})
        return var

    # -- lookups --------------------------------------------------------------------------------
    def variables(self) -> list[protocol.Var]:
        """Every VAR, children included, in tree order."""
        self._finish_pending()
        return [node.var for node in self._root.walk()]

    def variable(self, name: str) -> protocol.Var | None:
        if name in self._pending:
            return self._pending[name]  # the newest VAR, though its row has not been repainted yet
        if self._building is not None:
            build = self._building[0]
            if name in build.fresh or root_name(name) not in build.names:
                return build.fresh.get(name)  # the newest VAR (None: the name is going), its row not built yet
            if root_name(name) in build.fresh:
                self._finish_pending()  # a child of a new row: build it now
        node = self._by_name.get(name)
        return node.var if node else None

    def index_of(self, name: str) -> QModelIndex:
        """The row of *name*; invalid when unknown or hidden by the filter."""
        if self._building_holds(name):
            self._finish_pending()
        node = self._by_name.get(name)
        if node is None or not visible(node, None):
            return QModelIndex()
        top = node
        while top.parent is not self._root and top.parent is not None:
            top = top.parent
        if top.row >= self._limit:  # not given to the view yet: give it the rows up to this one
            self._fetch_to(top.row + 1)
        return self.createIndex(node.row, 0, node)

    def is_fetched(self, name: str) -> bool:
        """Whether the view already has *name*'s row (False also when it is unknown or filtered out)."""
        if self._building_holds(name):
            self._finish_pending()
        node = self._by_name.get(name)
        return node is not None and visible(node, self._limit)

    def column_of(self, key: str) -> int:
        return next(i for i, c in enumerate(self._columns) if c.key == key)

    def columns(self) -> list[Column]:
        return list(self._columns)

    def change_of(self, name: str) -> protocol.Change | None:
        return self._changes.get(name)

    # -- Qt model interface ------------------------------------------------------------------------
    # Qt calls index/rowCount/hasChildren once per row when it lays out a reset tree (10,000 rows:
    # 30,000 calls), so these are written for speed: no helper calls, no defaults rebuilt.
    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:
        if parent.isValid():
            shown = parent.internalPointer().shown
            count = len(shown)
        else:
            shown = self._root.shown
            count = min(len(shown), self._limit)
        if 0 <= row < count and 0 <= column < len(self._columns):
            return self.createIndex(row, column, shown[row])
        return QModelIndex()

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        parent = index.internalPointer().parent
        if parent is None or parent is self._root:
            return QModelIndex()
        return self.createIndex(parent.row, 0, parent)

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        if not parent.isValid():
            return min(len(self._root.shown), self._limit)
        return 0 if parent.column() else len(parent.internalPointer().shown)

    def canFetchMore(self, parent: Index) -> bool:
        return not parent.isValid() and self._limit < len(self._root.shown)

    def fetchMore(self, parent: Index) -> None:
        if not parent.isValid():
            self._fetch_to(self._limit + FETCH_ROWS)

    def longest_name(self) -> str:
        """The longest top-level name (by characters), to size the name column."""
        return max((node.name for node in self._root.children), key=len, default="")

    def fetch_all(self) -> None:
        """Give the view every top-level row (End in the list, or a test)."""
        self._fetch_to(len(self._root.shown))

    def _fetch_to(self, rows: int) -> None:
        """Give the view the top-level rows up to *rows* (rounded up to a whole batch)."""
        total = len(self._root.shown)
        end = min(total, -(-rows // FETCH_ROWS) * FETCH_ROWS)
        if end > self._limit:
            self.beginInsertRows(QModelIndex(), self._limit, end - 1)
            self._limit = end
            self.endInsertRows()

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:
        if not parent.isValid():
            return bool(self._root.shown)
        return not parent.column() and bool(parent.internalPointer().shown)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return len(self._columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self._columns):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._columns[section].header
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._columns[section].tip
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _ROLES or not index.isValid():
            return None  # Qt asks ~10 roles per painted cell: answer the others at once
        node = index.internalPointer()
        var = node.var
        column = self._columns[index.column()]
        if role == _DISPLAY:
            if column.key == "change":
                return self._change_text(var)
            texts = node.texts
            if texts is None:  # formatted once per VAR, not once per paint
                texts = node.texts = [None] * len(self._columns)
            text = texts[index.column()]
            if text is None:
                text = texts[index.column()] = column.text(var)
            return text
        if role == VAR_ROLE:
            return var
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(var, column)
        if role == Qt.ItemDataRole.DecorationRole and column.key == "memory_group" and var["memory_group"]:
            return QColor(group_color(var["memory_group"]))
        if role == Qt.ItemDataRole.DecorationRole and column.key == "name" and var["name"] in self._pinned:
            return pin_icon()
        if role == Qt.ItemDataRole.BackgroundRole:
            return self._background(var)
        if role == Qt.ItemDataRole.FontRole:
            return self._font(var, column)
        if role == Qt.ItemDataRole.ForegroundRole and self._running and self.is_running_row(node):
            return QColor("#888888")  # made by the code still running: its facts come when the run ends
        return None

    def _font(self, var: protocol.Var, column: Column) -> QFont | None:
        """Bold names for what the last run touched; bold type for nn.Parameter rows."""
        changed = column.key == "name" and self._changes.get(var["name"])
        parameter = column.key == "type" and var["is_parameter"]
        if not (changed or parameter):
            return None
        font = QFont()
        font.setBold(True)
        return font

    def _change_text(self, var: protocol.Var) -> str:
        change = self._changes.get(var["name"])
        if not change:
            return ""
        status = change.get("status")
        if status == "new":
            #: Change column: the last run created this variable.
            return self.tr("new")
        if status == "changed_through" and change.get("through"):
            #: Change column: the variable changed because {name}, which shares its memory, was written.
            return self.tr("changed through {name}").format(name=change["through"])
        #: Change column: the last run changed this variable.
        return self.tr("changed")

    def _background(self, var: protocol.Var) -> QBrush | None:
        role = self._highlight.get(var["name"])
        if role is None:
            return None
        color = QColor(group_color(var["memory_group"] or ""))
        color.setAlpha(HIGHLIGHT_ALPHA[role])
        return QBrush(color)

    def _tooltip(self, var: protocol.Var, column: Column) -> str | None:
        parts = []
        if column.key == "name":
            parts.append(var["name"])  # whole, when the column elides it
        if var["note"]:
            parts.append(var["note"])
        if var["copy_hint"]:
            parts.append(var["copy_hint"])
        if column.key == "type" and var["is_parameter"]:
            parts.append(self.tr("nn.Parameter: a tensor the model learns; optimizers update it after backward()."))
        if column.key == "change":
            change = self._changes.get(var["name"]) or {}
            if change.get("status") == "changed_through":
                parts.append(self.tr("The last run never wrote {name} by name: it wrote {alias}, which shares its memory.").format(
                    name=var["name"], alias=change.get("through")))
        if column.key == "grad" and var["grad"] and var["grad"]["preview"]:
            parts.append(f"grad = {var['grad']['preview']}")
        if column.key == "name" and var["preview"]:
            parts.append(var["preview"])
        if column.key == "shape" and var["kind"] == "other" and var["repr"]:
            parts.append(var["repr"])
        return "\n".join(parts) or None
