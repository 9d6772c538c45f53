"""Reading a name, an attribute chain or a constant subscript of the learner's code statically (no learner code runs)."""

from __future__ import annotations

import ast
import types
from typing import Any

from explorer.core.errors import safe
from explorer.core.errors.safe import is_module


def _item(container: Any, key: Any) -> tuple[bool, Any]:
    """``container[key]`` for dicts, lists, tuples and module containers, without a subclass's ``__getitem__``."""
    try:
        if isinstance(container, dict):
            return (True, dict.__getitem__(container, key)) if dict.__contains__(container, key) else (False, None)
        if isinstance(container, (list, tuple)) and isinstance(key, int):
            items = safe.list_items(container, 10_000)
            return (True, items[key]) if -len(items) <= key < len(items) else (False, None)
        if is_module(container):
            children = safe.module_children(container)
            if isinstance(key, int):
                values = list(children.values())
                return (True, values[key]) if -len(values) <= key < len(values) else (False, None)
            return (key in children, children.get(key))
    except Exception:  # noqa: BLE001
        pass
    return False, None


def lookup(node: ast.AST, scopes: list[dict[str, Any]]) -> tuple[bool, Any]:
    """The value of a name, attribute chain or constant subscript, read statically (no learner code runs)."""
    if isinstance(node, ast.Name):
        return safe.scope_get(scopes, node.id)
    if isinstance(node, ast.Attribute):
        ok, parent = lookup(node.value, scopes)
        if not ok or type(parent) is types.ModuleType:  # torch.float32, np.pi: not the learner's variables
            return False, None
        return safe.static_attr(parent, node.attr)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        ok, parent = lookup(node.value, scopes)
        return _item(parent, node.slice.value) if ok else (False, None)
    return False, None


def resolve_callee(node: ast.AST, scopes: list[dict[str, Any]]) -> tuple[bool, Any]:
    """What a called name denotes (``torch.optim.SGD``, ``nn.Linear``): like :func:`lookup`, through imported modules too."""
    if isinstance(node, ast.Attribute):
        ok, parent = resolve_callee(node.value, scopes)
        if ok and type(parent) is types.ModuleType:
            inner = safe.instance_dict(parent)
            return (True, inner[node.attr]) if node.attr in inner else (False, None)
        return safe.static_attr(parent, node.attr) if ok else (False, None)
    return lookup(node, scopes)
