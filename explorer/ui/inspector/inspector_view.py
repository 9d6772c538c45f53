"""The inspector: a filterable tree of variables, column chooser, and the memory-sharing line."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QItemSelection, QModelIndex, QPoint, QSettings, QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QLineEdit, QMenu, QTreeView, QVBoxLayout, QWidget

from explorer.ui.inspector.inspector_model import VAR_ROLE, InspectorModel
from explorer.ui.inspector.memory_relations import describe


class InspectorView(QWidget):
    """Receives snapshots; emits ``variable_selected(var)`` (an empty dict when nothing is selected)."""

    variable_selected = Signal(dict)

    def __init__(self, model: InspectorModel, source: Any = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self._source = source  # asked for exact overlaps of the selection (snapshots carry groups only)
        self._selected_name: str | None = None
        self._filter = QLineEdit(self)
        self._filter.setClearButtonEnabled(True)
        self._proxy = QSortFilterProxyModel(self)
        self._proxy.setSourceModel(model)
        self._proxy.setRecursiveFilteringEnabled(True)
        self._proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self._proxy.setFilterKeyColumn(0)
        self.tree = QTreeView(self)
        self.tree.setModel(self._proxy)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        header = self.tree.header()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._on_header_menu_requested)
        self.relation = QLabel(self)
        self.relation.setWordWrap(True)
        self.relation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._filter)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.relation)
        self._filter.textChanged.connect(self._on_filter_text_changed)
        self.tree.selectionModel().selectionChanged.connect(self._on_tree_selection_changed)
        self._expanded: set[str] = set()
        self._restore_columns()
        self.retranslate()

    def retranslate(self) -> None:
        self._filter.setPlaceholderText(self.tr("Filter variables by name"))
        self._filter.setToolTip(self.tr("Show only variables whose name contains this text"))
        self.model.retranslate()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- snapshots ---------------------------------------------------------------
    def set_snapshot(self, snapshot: dict) -> None:
        """Show a new snapshot, keeping the selection and expanded rows by name."""
        self._remember_expanded()
        self.model.set_snapshot(snapshot)
        for name in self._expanded:
            self.tree.expand(self._proxy.mapFromSource(self.model.index_of(name)))
        if self._selected_name and self.model.variable(self._selected_name) is not None:
            self.select(self._selected_name)
        else:
            self._selected_name = None
            self.relation.clear()
            self.variable_selected.emit({})

    def _remember_expanded(self) -> None:
        self._expanded = {
            var["name"] for var in self.model.variables()
            if self.tree.isExpanded(self._proxy.mapFromSource(self.model.index_of(var["name"])))
        }

    def select(self, name: str) -> None:
        index = self._proxy.mapFromSource(self.model.index_of(name))
        if index.isValid():
            self.tree.setCurrentIndex(index)
            self.tree.scrollTo(index)
            self._emit_selection(index)

    def selected_name(self) -> str | None:
        return self._selected_name

    def _on_tree_selection_changed(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        indexes = selected.indexes()
        self._emit_selection(indexes[0] if indexes else QModelIndex())

    def _emit_selection(self, index: QModelIndex) -> None:
        var = index.data(VAR_ROLE) if index.isValid() else None
        self._selected_name = var.get("name") if var else None
        if not var:
            self.model.set_highlight({})
            self.relation.clear()
            self.variable_selected.emit({})
            return
        self._describe(var)
        self.variable_selected.emit(var)
        if var.get("memory_group") and var.get("overlaps") is None and self._source is not None:
            self.relation.setText(self.tr("Checking which elements {name} shares…").format(name=var["name"]))
            self._source.request("overlaps", {"name": var["name"]},
                                 lambda reply, v=var: self._on_source_overlaps_replied(v, reply))

    def _describe(self, var: dict) -> None:
        sentence, roles = describe(var, self.model.variables())
        self.model.set_highlight(roles)
        self.relation.setText(sentence)

    def _on_source_overlaps_replied(self, var: dict, reply: dict) -> None:
        result = reply.get("result")
        if var.get("name") != self._selected_name:
            return  # the user moved on
        if not result:
            self.relation.setText(self.tr("Could not check the shared memory: {why}").format(why=reply.get("error", "")))
            return
        var["overlaps"] = result.get("overlaps") or []
        stored = self.model.variable(var["name"])
        if stored is not None:
            stored["overlaps"] = var["overlaps"]
        self._describe(var)

    def _on_filter_text_changed(self, text: str) -> None:
        self._proxy.setFilterFixedString(text)

    # -- columns -------------------------------------------------------------------
    def _on_header_menu_requested(self, pos: QPoint) -> None:
        menu = QMenu(self)
        for section, column in enumerate(self.model.columns()):
            if section == 0:
                continue
            action = menu.addAction(column.header)
            action.setCheckable(True)
            action.setChecked(not self.tree.isColumnHidden(section))
            action.setToolTip(column.tip)
            action.toggled.connect(lambda on, s=section: self.set_column_visible(s, on))
        menu.exec(self.tree.header().mapToGlobal(pos))

    def set_column_visible(self, section: int, visible: bool) -> None:
        self.tree.setColumnHidden(section, not visible)
        hidden = [c.key for i, c in enumerate(self.model.columns()) if self.tree.isColumnHidden(i)]
        QSettings().setValue("inspector/hidden_columns", hidden)

    def _restore_columns(self) -> None:
        saved = QSettings().value("inspector/hidden_columns")
        if isinstance(saved, str):
            saved = [saved]
        for section, column in enumerate(self.model.columns()):
            hidden = (column.key in saved) if isinstance(saved, list) else not column.visible
            self.tree.setColumnHidden(section, hidden)
