"""Which variable was saved for the backward pass and which line changed it in place afterwards, from the source.

The message of "modified by an inplace operation" names only the operation that saved the
tensor (``ReluBackward0``) and its shape; by the time ``backward()`` fails the frames of
``forward`` are gone. The learner's source still says it: an assignment made by that
operation (``out = self.relu(...)``, ``att = torch.sigmoid(...)``) followed, in the same
block, by an in-place change of the same name (``out += x``, ``att[:, 0] = 0``, ``y.mul_(2)``).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from explorer.core.errors.context import call_name, dotted_name
from explorer.core.errors.source import parse

_BODIES = ("body", "orelse", "finalbody")


@dataclass(frozen=True)
class Change:
    """A tensor made by the saving operation, and the later statement that changes it in place."""

    name: str
    made: ast.stmt
    changed: ast.stmt
    kind: str  # "augmented" (y += 1), "method" (y.mul_(2)) or "item" (y[0] = 0)


def op_word(op: str) -> str:
    """'relu' for 'ReluBackward0' or 'Relu'; the word the learner's code spells the operation with."""
    return re.sub(r"(backward\d*)$", "", op.lower()).replace("_", "")


def _mentions(expr: ast.AST, word: str) -> bool:
    """True when a call in the expression is the operation: ``F.relu(...)``, ``x.sigmoid()``, ``self.relu(...)``."""
    if not word:
        return False
    for node in ast.walk(expr):
        if isinstance(node, ast.Call):
            name = (call_name(node) or (dotted_name(node.func) or "").rsplit(".", 1)[-1]).lower().replace("_", "")
            if word in name:
                return True
    return False


def _changes(stmt: ast.stmt, name: str) -> str | None:
    """How *stmt* changes *name* in place, or None."""
    if isinstance(stmt, ast.AugAssign):
        if isinstance(stmt.target, ast.Name) and stmt.target.id == name:
            return "augmented"
        if isinstance(stmt.target, ast.Subscript) and dotted_name(stmt.target.value) == name:
            return "item"
    if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Subscript) and dotted_name(t.value) == name
                                            for t in stmt.targets):
        return "item"
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Attribute):
        method = stmt.value.func.attr
        if dotted_name(stmt.value.func.value) == name and method.endswith("_") and not method.startswith("_"):
            return "method"
    return None


def _rebinds(stmt: ast.stmt, name: str) -> bool:
    """True when *stmt* gives *name* a new value (``out = ...``): later changes are to another tensor."""
    return isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)


def _blocks(tree: ast.AST) -> list[list[ast.stmt]]:
    """Every list of statements in the module: the module, function bodies, loops, branches."""
    found = []
    for node in ast.walk(tree):
        for field in _BODIES:
            body = getattr(node, field, None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                found.append(body)
    return found


def find_change(source: str, op: str, before: int) -> Change | None:
    """The last in-place change, before line *before*, of a tensor the operation *op* made."""
    tree = parse(source)
    word = op_word(op)
    best: Change | None = None
    top = tree.body if tree is not None else []
    for block in _blocks(tree) if tree is not None else []:
        for i, stmt in enumerate(block):
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                    and _mentions(stmt.value, word)):
                continue
            name = stmt.targets[0].id
            for later in block[i + 1:]:
                if block is top and later.lineno >= before > 0:
                    break  # the top level ran only up to the failing line
                kind = _changes(later, name)
                if kind is not None:
                    if best is None or later.lineno > best.changed.lineno:
                        best = Change(name, stmt, later, kind)
                    break
                if _rebinds(later, name):
                    break
    return best
