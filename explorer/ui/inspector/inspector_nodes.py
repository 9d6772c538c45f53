"""The inspector's rows: one node per VAR, its children, and those the name filter shows.

Plain Python (no Qt): :class:`~explorer.ui.inspector.inspector_model.InspectorModel`
keeps a tree of these and tells the view what changed.
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
