"""The structure of an inspector name: ``sd['fc.weight']``, ``model.layers[0].bias``, ``x``.

The kernel names a container's children so that its resolver finds them again
(``explorer.core.resolve``); the window asks the same questions of a name (which
top-level variable holds it, is it one). One parser answers both: Python's own, so
a dict key holding a dot or a bracket is still one key.
"""

from __future__ import annotations

import ast
from typing import Literal

StepKind = Literal["name", "attr", "item"]
#: One step of a name: the variable (``("name", "sd")``), an attribute (``("attr", "fc")``)
#: or a constant subscript (``("item", "fc.weight")``, ``("item", 0)``).
Step = tuple[StepKind, object]


def name_steps(name: str) -> tuple[Step, ...]:
    """The steps of *name*, the variable first; ``ValueError`` when it is not such a name."""
    try:
        node = ast.parse(name, mode="eval").body
    except (SyntaxError, ValueError, TypeError, RecursionError) as exc:
        raise ValueError(f"not a variable name: {name!r}") from exc
    steps: list[Step] = []
    while True:
        if isinstance(node, ast.Attribute):
            steps.append(("attr", node.attr))
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            steps.append(("item", node.slice.value))
        elif isinstance(node, ast.Subscript) and _negative_int(node.slice):  # history[-1]
            steps.append(("item", -node.slice.operand.value))  # type: ignore[attr-defined]
        elif isinstance(node, ast.Name):
            steps.append(("name", node.id))
            break
        else:
            raise ValueError(f"not a variable name: {name!r}")
        node = node.value
    return tuple(reversed(steps))


def _negative_int(node: ast.expr) -> bool:
    """``-1``: Python parses a negative index as a minus applied to a constant."""
    return (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant)
            and type(node.operand.value) is int)


def root_name(name: str) -> str:
    """The top-level variable holding *name*: ``sd`` for ``sd['a.b']``, ``model`` for ``model.fc.weight``.

    A text that is not such a name is its own root.
    """
    try:
        return str(name_steps(name)[0][1])
    except ValueError:
        return name


def is_top_level(name: str) -> bool:
    """True for a variable's own name (``x``), False for a child's (``sd['w']``, ``model.fc``) or a non-name."""
    try:
        return len(name_steps(name)) == 1
    except ValueError:
        return False
