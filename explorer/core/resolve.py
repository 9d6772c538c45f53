"""Resolve inspector names such as ``sd['fc.weight']`` or ``model.fc.weight`` to objects."""

from __future__ import annotations

import ast
from typing import Any


class ResolveError(LookupError):
    """A name that does not denote a value in the namespace."""


def resolve(namespace: dict[str, Any], name: str) -> Any:
    """Return the object an inspector name denotes, evaluating only names, attributes and constant subscripts."""
    try:
        node = ast.parse(name, mode="eval").body
    except SyntaxError as exc:
        raise ResolveError(f"not a variable name: {name!r}") from exc
    return _walk(namespace, node, name)


def _walk(namespace: dict[str, Any], node: ast.AST, name: str) -> Any:
    if isinstance(node, ast.Name):
        if node.id not in namespace:
            raise ResolveError(f"no variable named {node.id!r}")
        return namespace[node.id]
    if isinstance(node, ast.Attribute):
        parent = _walk(namespace, node.value, name)
        try:
            return getattr(parent, node.attr)
        except Exception as exc:  # a property may raise anything
            raise ResolveError(f"{name}: {exc}") from exc
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        parent = _walk(namespace, node.value, name)
        try:
            return parent[node.slice.value]
        except Exception as exc:
            raise ResolveError(f"{name}: {exc}") from exc
    raise ResolveError(f"not a variable name: {name!r}")
