"""The inspector's rows: one node per VAR, its children, and those the name filter shows.

Plain Python (no Qt): :class:`~explorer.ui.inspector.inspector_model.InspectorModel`
keeps a tree of these and tells the view what changed. New rows (10,000 names that a
run made) are built a slice at a time by :class:`RowBuild`, one slice per event-loop turn.
"""

from __future__ import annotations

from collections.abc import Iterator

from explorer import protocol


class Node:
    """A row: its VAR, its parent, and its children (all of them, and those the filter shows)."""

    __slots__ = ("children", "key", "name", "parent", "row", "shown", "texts", "var")

    def __init__(self, var: protocol.Var, parent: Node | None) -> None:
        # 10,000 rows are made in one event-loop turn: no helper calls, no empty comprehensions.
        self.var = var
        self.name = name = var["name"]  # a row keeps its name: a VAR replaces one of the same name
        self.key = name.lower()  # what the filter compares
        self.texts: list[str | None] | None = None  # the columns' display texts, made when first painted
        self.parent = parent
        kids = var["children"]
        self.children = [Node(child, self) for child in kids] if kids else []
        self.shown = self.children
        self.row = 0

    @classmethod
    def root(cls, variables: list[protocol.Var]) -> Node:
        """The invisible parent of the top-level rows."""
        var = protocol.null_var()
        var["children"] = variables
        return cls(var, None)

    def walk(self) -> Iterator[Node]:
        for child in self.children:
            yield child
            yield from child.walk()


def number(nodes: list[Node]) -> None:
    for row, node in enumerate(nodes):
        node.row = row


def refresh_vars(node: Node, children: list[protocol.Var]) -> None:
    """Give *node*'s existing child rows their new VARs (same names, same order), all the way down."""
    for child, var in zip(node.children, children):
        child.var, child.texts = var, None
        refresh_vars(child, var["children"] or [])


def visible(node: Node, limit: int | None) -> bool:
    """Whether *node* is shown: it sits in its parent's shown list (and so on up), its top-level row below *limit*."""
    while node.parent is not None:
        parent = node.parent
        if node.row >= len(parent.shown) or parent.shown[node.row] is not node:
            return False
        if parent.parent is None and limit is not None and node.row >= limit:
            return False  # the view has not been given this top-level row yet
        node = parent
    return True


def index_names(nodes: list[Node], out: dict[str, Node]) -> None:
    """Every node by name, children included (recursion only where there are children)."""
    for node in nodes:
        out[node.name] = node
        if node.children:
            index_names(node.children, out)


def filtered(nodes: list[Node], text: str, parent_matches: bool) -> list[Node]:
    """The nodes to show: all (down to the leaves) when the parent matched, else those that match or hold a match."""
    if parent_matches:
        for node in nodes:
            if node.children:  # a leaf has nothing to show (one test per row: 100,000 rows)
                node.shown = filtered(node.children, text, parent_matches=True)
                number(node.shown)
        return nodes
    candidates = [node for node in nodes if node.children or text in node.key]
    if not any(node.children for node in candidates):
        return candidates  # no containers among them (the common case): the matches as they are
    shown = []
    for node in candidates:
        hit = text in node.key
        if node.children:
            node.shown = filtered(node.children, text, parent_matches=hit)
            number(node.shown)
            if node.shown:
                shown.append(node)
                continue
        if hit:
            shown.append(node)
    return shown


class RowBuild:
    """A new top level in the kernel's order: the rows of new or changed names built a slice at a time.

    *fresh* are the VARs that need a row of their own, *old* the rows kept as they are (by name).
    Until :meth:`step` says it is done, the model goes on showing what it showed.
    """

    def __init__(self, order: list[str], fresh: dict[str, protocol.Var], old: dict[str, Node], root: Node) -> None:
        self.order = order
        self.names = set(order)
        self.fresh = fresh
        self._old = old
        self._root = root
        self._todo = [name for name in order if name in fresh or name not in old]
        self._built: dict[str, Node] = {}

    def step(self, rows: int | None) -> bool:
        """Build about *rows* more rows, children included (None: all that are left); True once all are built.

        A container is built whole, so a slice ends after the row that reaches *rows*.
        """
        left = rows
        while len(self._built) < len(self._todo) and (left is None or left > 0):
            name = self._todo[len(self._built)]
            var = self.fresh[name]
            self._built[name] = Node(var, self._root)
            if left is not None:
                left -= 1 + _count(var)
        return len(self._built) == len(self._todo)

    def children(self) -> list[Node]:
        """The top level, once :meth:`step` is done."""
        return [self._built[name] if name in self._built else self._old[name] for name in self.order]


def spans(nodes: list[Node], limit: int | None) -> list[tuple[Node | None, int, int]]:
    """``(parent, first row, last row)`` per parent, spanning those of *nodes* that are shown.

    Top-level rows (thousands after a re-run) are checked inline; a node listed twice counts once.
    """
    rows: dict[int, tuple[Node | None, list[int]]] = {}
    top_rows: list[int] = []
    top: Node | None = None
    for node in nodes:
        parent = node.parent
        if parent is not None and parent.parent is None:  # a top-level row: visible() in one step
            row = node.row
            if row < len(parent.shown) and parent.shown[row] is node and (limit is None or row < limit):
                top = parent
                top_rows.append(row)
        elif visible(node, limit):
            rows.setdefault(id(parent), (parent, []))[1].append(node.row)
    found = [(parent, min(at), max(at)) for parent, at in rows.values()]
    return ([(top, min(top_rows), max(top_rows))] if top_rows else []) + found


def all_names(variables: list[protocol.Var]) -> set[str]:
    """The names of *variables* and of all their children."""
    names = set()
    for var in variables:
        names.add(var["name"])
        kids = var["children"]
        if kids:
            names |= all_names(kids)
    return names


def root_name(name: str) -> str:
    """The top-level variable a child row's name starts with (``sd['w']`` -> ``sd``, ``m.fc.weight`` -> ``m``)."""
    for stop, char in enumerate(name):
        if char in ".[":
            return name[:stop]
    return name


def _count(var: protocol.Var) -> int:
    """How many rows *var*'s children make, all the way down."""
    kids = var["children"]
    return sum(1 + _count(child) for child in kids) if kids else 0
