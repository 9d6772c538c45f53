"""The inspector's tree model: one row per variable, children for containers."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from explorer.ui.inspector.inspector_columns import Column, columns
from explorer.ui.palette import group_color

Index = QModelIndex | QPersistentModelIndex
VAR_ROLE = Qt.ItemDataRole.UserRole + 1


class _Node:
    """A row: its VAR dict, its parent and its children (built once per snapshot)."""

    __slots__ = ("var", "parent", "row", "children")

    def __init__(self, var: dict | None, parent: "_Node | None", row: int) -> None:
        self.var = var or {}
        self.parent = parent
        self.row = row
        self.children = [_Node(child, self, i) for i, child in enumerate(self.var.get("children") or [])]


class InspectorModel(QAbstractItemModel):
    """Shows a snapshot (the agent's ``{"variables": [...], "changes": {...}}``)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._columns: list[Column] = columns()
        self._root = _Node({"children": []}, None, 0)
        self._changes: dict[str, dict] = {}
        self._highlight: dict[str, str] = {}
        self._by_name: dict[str, _Node] = {}

    # -- data in -----------------------------------------------------------------
    def set_snapshot(self, snapshot: dict[str, Any]) -> None:
        self.beginResetModel()
        self._root = _Node({"children": snapshot.get("variables") or []}, None, 0)
        self._changes = snapshot.get("changes") or {}
        self._highlight = {}
        self._by_name = {}
        self._index_names(self._root)
        self.endResetModel()

    def retranslate(self) -> None:
        self._columns = columns()
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self._columns) - 1)

    def set_highlight(self, roles: dict[str, str]) -> None:
        """Highlight rows by name: ``{"t": "selected" | "overlap" | "same_allocation"}``."""
        self._highlight = roles
        if self.rowCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1))

    def _index_names(self, node: _Node) -> None:
        for child in node.children:
            self._by_name[child.var.get("name", "")] = child
            self._index_names(child)

    def variables(self) -> list[dict]:
        """Every VAR, children included, in tree order."""
        return [node.var for node in self._by_name.values()]

    def variable(self, name: str) -> dict | None:
        node = self._by_name.get(name)
        return node.var if node else None

    def index_of(self, name: str) -> QModelIndex:
        node = self._by_name.get(name)
        return self.createIndex(node.row, 0, node) if node else QModelIndex()

    def column_of(self, key: str) -> int:
        return next(i for i, c in enumerate(self._columns) if c.key == key)

    def columns(self) -> list[Column]:
        return list(self._columns)

    # -- Qt model interface ------------------------------------------------------------
    def _node(self, index: Index) -> _Node:
        return index.internalPointer() if index.isValid() else self._root

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:
        node = self._node(parent)
        if 0 <= row < len(node.children) and 0 <= column < len(self._columns):
            return self.createIndex(row, column, node.children[row])
        return QModelIndex()

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        parent = index.internalPointer().parent
        if parent is None or parent is self._root:
            return QModelIndex()
        return self.createIndex(parent.row, 0, parent)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802 - Qt override
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._node(parent).children)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802 - Qt override
        return len(self._columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self._columns):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._columns[section].header
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._columns[section].tip
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        var = index.internalPointer().var
        column = self._columns[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._change_text(var) if column.key == "change" else column.text(var)
        if role == VAR_ROLE:
            return var
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(var, column)
        if role == Qt.ItemDataRole.DecorationRole and column.key == "memory_group" and var.get("memory_group"):
            return QColor(group_color(var["memory_group"]))
        if role == Qt.ItemDataRole.BackgroundRole:
            return self._background(var)
        if role == Qt.ItemDataRole.FontRole:
            return self._font(var, column)
        return None

    def _font(self, var: dict, column: Column) -> QFont | None:
        """Bold names for what the last run touched; bold type for nn.Parameter rows."""
        changed = column.key == "name" and self._changes.get(var.get("name", ""))
        parameter = column.key == "type" and var.get("is_parameter")
        if not (changed or parameter):
            return None
        font = QFont()
        font.setBold(True)
        return font

    def _change_text(self, var: dict) -> str:
        change = self._changes.get(var.get("name", ""))
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

    def _background(self, var: dict) -> QBrush | None:
        role = self._highlight.get(var.get("name", ""))
        if role is None:
            return None
        color = QColor(group_color(var.get("memory_group") or ""))
        color.setAlpha({"selected": 110, "overlap": 90, "same_allocation": 40}.get(role, 40))
        return QBrush(color)

    def _tooltip(self, var: dict, column: Column) -> str | None:
        parts = []
        if var.get("note"):
            parts.append(var["note"])
        if var.get("copy_hint"):
            parts.append(var["copy_hint"])
        if column.key == "type" and var.get("is_parameter"):
            parts.append(self.tr("nn.Parameter: a tensor the model learns; optimizers update it after backward()."))
        if column.key == "change":
            change = self._changes.get(var.get("name", "")) or {}
            if change.get("status") == "changed_through":
                parts.append(self.tr("The last run never wrote {name} by name: it wrote {alias}, which shares its memory.").format(
                    name=var.get("name"), alias=change.get("through")))
        if column.key == "grad" and (var.get("grad") or {}).get("preview"):
            parts.append(f"grad = {var['grad']['preview']}")
        if column.key == "name" and var.get("preview"):
            parts.append(var["preview"])
        if column.key == "shape" and var.get("kind") == "other" and var.get("repr"):
            parts.append(var["repr"])
        return "\n".join(parts) or None
