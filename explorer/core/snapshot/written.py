"""What the code that just ran wrote: names assigned, mutated in place, or passed to a call.

Read from the code's syntax tree once per run (never from the values), so its cost
grows with the code, not with the namespace.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from explorer.core.summary.static import PRISTINE_BUILTINS

globals()["__builtins__"] = PRISTINE_BUILTINS

# Python/numpy methods that mutate their object (torch's in-place ones end in "_").
_MUTATING_METHODS = frozenset({
    "append", "extend", "insert", "remove", "pop", "clear", "update", "setdefault",
    "popitem", "sort", "reverse", "fill", "put", "itemset", "resize", "setfield",
    "partition", "byteswap", "__setitem__", "__iadd__", "__delitem__",
})


def _root(node: ast.AST) -> str | None:
    """The variable at the root of ``a.b[0].c`` (``a``), if any."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _target_roots(node: ast.AST) -> Iterator[str]:
    """Root names of an assignment target (tuples unpacked)."""
    if isinstance(node, (ast.Tuple, ast.List)):
        for elt in node.elts:
            yield from _target_roots(elt)
    else:
        root = _root(node)
        if root is not None:
            yield root


def _node_writes(node: ast.AST) -> tuple[set[str], set[str]]:
    """(names written or mutated, names passed to a call) by one AST node."""
    strong: set[str] = set()
    weak: set[str] = set()
    targets: list[ast.AST] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
        targets = [node.target]
    elif isinstance(node, ast.withitem) and node.optional_vars is not None:
        targets = [node.optional_vars]
    elif isinstance(node, ast.Delete):
        targets = list(node.targets)
    elif isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and _is_mutator(func.attr):
            strong.update(r for r in [_root(func.value)] if r)
        for arg in list(node.args) + [kw.value for kw in node.keywords]:
            weak.update(r for r in [_root(arg)] if r)
    for target in targets:
        strong.update(_target_roots(target))
    return strong, weak


def _is_mutator(method: str) -> bool:
    return method in _MUTATING_METHODS or (method.endswith("_") and not method.startswith("_"))


_PARSED: list[tuple[str, ast.Module | None]] = []  # the last codes parsed (a run's code is read by several parts)


def parse_code(code: str) -> ast.Module | None:
    """``ast.parse(code)``, or None when it does not parse; the last two codes are remembered (read-only trees)."""
    for seen, parsed in _PARSED:
        if seen == code:
            return parsed
    try:
        tree: ast.Module | None = ast.parse(code)
    except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError):
        tree = None
    _PARSED[:] = [(code, tree)] + _PARSED[:1]
    return tree


def written_names(code: str) -> tuple[set[str], set[str]]:
    """Names the code writes (assign, store, in-place method) and names it passes to calls.

    Never raises: code that does not parse as a whole (IPython magics, a typo)
    is parsed line by line, skipping the lines that fail.
    """
    whole = parse_code(code)
    trees = [whole] if whole is not None else []
    if whole is None:
        for line in code.splitlines():
            try:
                trees.append(ast.parse(line.strip()))
            except (SyntaxError, ValueError, RecursionError):
                continue
    strong: set[str] = set()
    weak: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            s, w = _node_writes(node)
            strong |= s
            weak |= w
    return strong, weak
