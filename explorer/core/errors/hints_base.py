"""What the hint checks share: a found hint, and the assignments of the learner's code."""

from __future__ import annotations

import ast

from explorer.core.errors.entry import Card


class Found:
    """One hint before it becomes a dict: the key, its line in the code and the card."""

    def __init__(self, key: str, line: int, card: Card) -> None:
        self.key, self.line, self.card = key, line, card


_ASSIGNMENTS = "_explorer_assignments"


def assignments(tree: ast.AST) -> list[tuple[str, ast.Assign]]:
    """(name, statement) for every ``name = <value>`` statement, in source order (kept on the node: every
    check asks)."""
    cached = getattr(tree, _ASSIGNMENTS, None)
    if cached is not None:
        return list(cached)
    found = [(node.targets[0].id, node) for node in ast.walk(tree)
             if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)]
    found.sort(key=lambda pair: pair[1].lineno)
    setattr(tree, _ASSIGNMENTS, tuple(found))
    return found


def creation_of(tree: ast.AST, name: str) -> ast.Assign | None:
    """The last top-level-ish ``name = ...`` statement."""
    found = [stmt for target, stmt in assignments(tree) if target == name]
    return found[-1] if found else None


def names_in_scope_at(tree: ast.AST, line: int) -> dict[str, None]:
    """The parameters and local names of the functions around *line*: a fix placed there may read them."""
    found: dict[str, None] = {}
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if not func.lineno <= line <= (func.end_lineno or func.lineno):
            continue
        args = func.args
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if arg is not None:
                found[arg.arg] = None
        for node in ast.walk(func):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                found[node.id] = None
    return found
