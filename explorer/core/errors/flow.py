"""Where a value came from: the assignments before the failing line that compute it, read from the AST.

Used to rebuild a loss: again after a first ``backward()`` freed its graph, or without
the ``.detach()`` / ``.data`` / ``torch.no_grad()`` that cut it off from the weights.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from explorer.core.errors.safe import is_tensor, scope_get, tensor_attr

_CUT_METHODS = {"detach"}


@dataclass
class Step:
    """One ``name = value`` statement before the failing line."""

    stmt: ast.Assign
    target: str
    in_no_grad: bool


def _is_no_grad(stmt: ast.With) -> bool:
    return any("no_grad" in ast.unparse(item.context_expr) or "inference_mode" in ast.unparse(item.context_expr)
               for item in stmt.items)


def steps_before(body: list[ast.stmt], line: int) -> list[Step]:
    """Single-name assignments that end before *line*, in order; ``with`` blocks are looked into."""
    found: list[Step] = []

    def visit(stmts: list[ast.stmt], no_grad: bool) -> None:
        for stmt in stmts:
            if (stmt.end_lineno or stmt.lineno) >= line:
                return
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                found.append(Step(stmt, stmt.targets[0].id, no_grad))
            elif isinstance(stmt, ast.With):
                visit(stmt.body, no_grad or _is_no_grad(stmt))

    visit(body, False)
    return found


def reads(node: ast.AST) -> set[str]:
    """Plain names an expression reads."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def chain(name: str, steps: list[Step], keep: Callable[[Step], bool]) -> tuple[list[Step], set[str]]:
    """The steps that compute *name*, walking back while *keep* accepts them; and the names they start from."""
    needed: set[str] = {name}
    kept: list[Step] = []
    starts: set[str] = set()
    for step in reversed(steps):
        if step.target not in needed:
            continue
        needed.discard(step.target)
        if keep(step):
            kept.insert(0, step)
            needed |= reads(step.stmt.value)
        else:
            starts.add(step.target)
    return kept, starts | needed


def has_grad_fn(scopes: list[dict[str, Any]], name: str) -> bool:
    """True when *name* is a tensor computed by a tracked operation (it has a grad_fn)."""
    found, value = scope_get(scopes, name)
    try:
        return found and is_tensor(value) and tensor_attr(value, "grad_fn") is not None
    except Exception:  # noqa: BLE001
        return False


class _Uncut(ast.NodeTransformer):
    """``x.detach()`` -> ``x``; ``x.data`` -> ``x``."""

    def __init__(self) -> None:
        self.changed = False

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Attribute) and node.func.attr in _CUT_METHODS and not node.args:
            self.changed = True
            return node.func.value
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        if node.attr == "data" and isinstance(node.ctx, ast.Load):
            self.changed = True
            return node.value
        return node


def uncut(stmt: ast.Assign) -> tuple[str, bool]:
    """The statement's code without ``.detach()`` / ``.data``, and whether anything was removed."""
    import copy

    transformer = _Uncut()
    new = transformer.visit(copy.deepcopy(stmt))
    return ast.unparse(new), transformer.changed


def cuts_graph(step: Step) -> bool:
    """True when the step detaches its value from the graph (``.detach()``, ``.data``, ``torch.no_grad()``)."""
    return step.in_no_grad or uncut(step.stmt)[1]


def converts_out(step: Step) -> bool:
    """True when the step goes through Python numbers or NumPy (``.item()``, ``.numpy()``, ``.tolist()``)."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("item", "numpy", "tolist")
               for n in ast.walk(step.stmt.value))
