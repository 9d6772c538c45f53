"""The inspector model's rows: swapping a changed VAR into its row, restructuring a container, repainting.

:class:`RowTree` is the base of :class:`~explorer.ui.inspector.inspector_model.InspectorModel`:
the tree of :class:`~explorer.ui.inspector.inspector_nodes.Node` rows under a root, the
name index, and the few row operations every snapshot uses, each telling the view only about
rows it has been given (the top level is handed over in batches, see ``fetchMore``).
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, Signal

from explorer import protocol
from explorer.ui.inspector.inspector_columns import Column
from explorer.ui.inspector.inspector_nodes import (
    Node,
    filtered,
    index_names,
    number,
    refresh_vars,
    spans,
    visible,
)


class RowTree(QAbstractItemModel):
    """Rows of the inspector: the root's top level, the name index, and the view's batch limit."""

    # Rows' data changed in the names' column too, beyond what ``dataChanged`` said: views repaint it.
    names_restyled = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._root = Node.root([])
        self._by_name: dict[str, Node] = {}
        self._filter = ""  # lower-case substring of the names shown ('' shows all)
        self._columns: list[Column] = []
        self._limit = 0  # top-level rows the view has been given
        self._running: list[Node] = []  # rows for names the running code made (until the next snapshot)

    def _matches(self, node: Node) -> bool:
        return not self._filter or self._filter in node.key

    def _swap(self, var: protocol.Var) -> Node | None:
        """A changed top-level VAR takes its row's place; returns the node (None if unknown)."""
        node = self._by_name.get(var["name"])
        if node is None or node.parent is not self._root:
            return None
        new_children = var["children"] or []
        if not new_children and not node.children:  # a tensor, an array, a number: the common case
            node.var, node.texts = var, None
            return node
        if [c["name"] for c in new_children] == [c.name for c in node.children]:
            node.var, node.texts = var, None
            refresh_vars(node, new_children)  # same rows: new facts in place
            return node
        self._restructure(node, var)
        return node

    def _restructure(self, node: Node, var: protocol.Var) -> None:
        """A container's children came or went: remove its old child rows, insert the new ones."""
        index = self.createIndex(node.row, 0, node)
        told = visible(node, self._limit)  # rows the view never got need no notice
        if node.shown:
            if told:
                self.beginRemoveRows(index, 0, len(node.shown) - 1)
            for gone in node.walk():
                self._by_name.pop(gone.name, None)
            node.children, node.shown = [], []
            if told:
                self.endRemoveRows()
        node.var, node.texts = var, None
        fresh = Node(var, node.parent)
        if not fresh.children:
            return
        shown = filtered(fresh.children, self._filter, parent_matches=self._matches(node))
        if shown and told:
            self.beginInsertRows(index, 0, len(shown) - 1)
        node.children = fresh.children
        for child in node.children:
            child.parent = node
        node.shown = shown
        number(node.shown)
        for child in node.walk():
            self._by_name[child.name] = child
        if shown and told:
            self.endInsertRows()

    def _repaint(self, nodes: list[Node]) -> None:
        """One dataChanged per parent, spanning the touched rows that are shown.

        A span of several rows starts at the second column: one starting at the first makes each
        QTreeView ask every row of the span again whether it has children (``flags`` and
        ``hasChildren``, two calls into Python per row and view: 12,000 for 3,000 re-bound
        variables). A swap never changes that (new or gone children restructure the rows), so
        the names' column is repainted by the views instead (:attr:`names_restyled`).
        """
        last = len(self._columns) - 1
        restyled = False
        for parent, lo, hi in spans(nodes, self._limit):
            parent_index = QModelIndex() if parent is self._root or parent is None else self.createIndex(parent.row, 0, parent)
            first = 1 if hi > lo and last > 0 else 0
            restyled = restyled or first == 1
            self.dataChanged.emit(self.index(lo, first, parent_index), self.index(hi, last, parent_index))
        if restyled:
            self.names_restyled.emit()

    def _reindex(self) -> None:
        by_name: dict[str, Node] = {}
        index_names(self._root.children, by_name)
        self._by_name = by_name
        self._root.shown = filtered(self._root.children, self._filter, parent_matches=not self._filter)
        number(self._root.shown)

    def _refresh_rows(self, names: set[str]) -> None:
        """Repaint the rows whose change marker or highlight came or went (not the whole table)."""
        self._repaint([node for node in (self._by_name.get(name) for name in names) if node is not None])

    # -- names that appear while code runs ------------------------------------------------
    def show_running(self, names: list[str], type_text: str, note: str = "") -> int:
        """Rows at the end for top-level *names* the running code made since the last snapshot; how many were added.

        A watch sample lists the names that exist (``WatchSample.names``); their facts come with the
        run's snapshot, which first removes these rows (:meth:`drop_running`), so the kernel's deltas
        still apply to exactly the rows it sent.
        """
        fresh = [name for name in dict.fromkeys(names) if name not in self._by_name]
        if not fresh:
            return 0
        root = self._root
        nodes = [Node(protocol.null_var(name, "other", type_text), root) for name in fresh]
        for node in nodes:
            node.var["note"] = note or None
        filtering = root.shown is not root.children  # a filter is on: only the rows that match it are shown
        seen = [node for node in nodes if self._matches(node)] if filtering else nodes
        given = min(len(root.shown), self._limit)
        now = min(len(root.shown) + len(seen), self._limit)
        if now > given:  # the view is told before the rows change (Qt's rule for every insert)
            self.beginInsertRows(QModelIndex(), given, now - 1)
        if filtering:
            root.shown.extend(seen)
        root.children.extend(nodes)
        self._running.extend(nodes)
        for node in nodes:
            self._by_name[node.name] = node
        number(root.shown)
        if now > given:
            self.endInsertRows()
        return len(nodes)

    def is_running_row(self, node: Node) -> bool:
        """A row :meth:`show_running` added: a name without facts yet."""
        return bool(self._running) and any(node is row for row in self._running)

    def drop_running(self) -> None:
        """Remove the rows :meth:`show_running` added (they are the last ones: nothing is added after them)."""
        if not self._running:
            return
        root, gone = self._root, {id(node) for node in self._running}
        given = min(len(root.shown), self._limit)
        kept_shown = [node for node in root.shown if id(node) not in gone]
        now = min(len(kept_shown), self._limit)
        if now < given:
            self.beginRemoveRows(QModelIndex(), now, given - 1)
        if root.shown is not root.children:
            root.shown[:] = kept_shown
        root.children[:] = [node for node in root.children if id(node) not in gone]
        for node in self._running:
            self._by_name.pop(node.name, None)
        self._running = []
        number(root.shown)
        if now < given:
            self.endRemoveRows()
