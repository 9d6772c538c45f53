"""What the hint checks share: a found hint, and the assignments of the learner's code."""

from __future__ import annotations

import ast

from explorer.core.errors.entry import Card


class Found:
    """One hint before it becomes a dict: the key, its line in the code and the card."""

    def __init__(self, key: str, line: int, card: Card) -> None:
        self.key, self.line, self.card = key, line, card


def assignments(tree: ast.AST) -> list[tuple[str, ast.Assign]]:
    """(name, statement) for every ``name = <value>`` statement, in source order."""
    found = [(node.targets[0].id, node) for node in ast.walk(tree)
             if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)]
    return sorted(found, key=lambda pair: pair[1].lineno)


def creation_of(tree: ast.AST, name: str) -> ast.Assign | None:
    """The last top-level-ish ``name = ...`` statement."""
    found = [stmt for target, stmt in assignments(tree) if target == name]
    return found[-1] if found else None
