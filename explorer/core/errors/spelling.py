"""How the learner's script spells a library name, and whether a fix only uses names the script has.

``spell("torch.nn.Linear", scopes)`` answers ``"nn.Linear"`` after ``import torch.nn as nn``
or ``from torch import nn``, ``"torch.nn.Linear"`` after only ``import torch``, ``"Linear"``
after ``from torch.nn import Linear``, and None when the script cannot reach it at all:
a fix is then written in words, never with a name the script does not have.
"""

from __future__ import annotations

import ast
import builtins
import sys
import types
from collections.abc import Iterable
from typing import Any

from explorer.core.errors.safe import instance_dict
from explorer.protocol.cells import is_code_line


def _target(path: str) -> tuple[bool, Any]:
    """The library object a dotted path names, from modules already imported (nothing is imported here)."""
    parts = path.split(".")
    value = sys.modules.get(parts[0])
    if value is None:
        return False, None
    for part in parts[1:]:
        try:
            value = getattr(value, part)  # library modules only: no learner code runs here
        except AttributeError:
            return False, None
    return True, value


def _candidates(path: str, obj: Any, name: str, value: Any) -> str | None:
    """How *name* (bound to *value*) reaches *path*, or None."""
    if value is obj and not isinstance(value, (int, float, str, bool)):
        return name
    if type(value) is types.ModuleType:
        module_name = instance_dict(value).get("__name__")
        if isinstance(module_name, str) and path.startswith(module_name + "."):
            found, reached = _target(path)
            return f"{name}.{path[len(module_name) + 1:]}" if found and reached is obj else None
    return None


def spell(path: str, scopes: Iterable[dict[str, Any]]) -> str | None:
    """The shortest way the learner's names reach the library object *path* (e.g. ``"torch.nn.Linear"``).

    Parameters
    ----------
    path : str
        The full dotted name, as the library defines it.
    scopes : iterable of dict
        The failing frame's locals, its globals, then the namespace; an earlier scope
        hides a name of a later one.

    Returns
    -------
    str or None
        Code that evaluates to the object in the learner's script, or None.
    """
    found, obj = _target(path)
    if not found:
        return None
    seen: set[str] = set()
    best: str | None = None
    for scope in scopes:
        for name, value in list(dict.items(scope)) if type(scope) is dict else []:
            if name in seen or name.startswith("__"):
                continue
            seen.add(name)
            spelled = _candidates(path, obj, name, value)
            if spelled is not None and (best is None or len(spelled) < len(best)):
                best = spelled
    return best


def spell_torch(scopes: list[dict[str, Any]]) -> str | None:
    """How the script names the ``torch`` module itself (``torch`` or an alias)."""
    for scope in scopes:
        for name, value in dict.items(scope) if type(scope) is dict else []:
            if type(value) is types.ModuleType and instance_dict(value).get("__name__") == "torch":
                return name
    return None


class _Reads(ast.NodeVisitor):
    """Names a piece of code reads before it binds them, in execution order."""

    def __init__(self) -> None:
        self.bound: set[str] = set()
        self.free: list[str] = []

    def _read(self, name: str) -> None:
        if name not in self.bound:
            self.free.append(name)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self._read(node.id)
        else:
            self.bound.add(node.id)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        for target in node.targets:
            self.visit(target)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.visit(node.value)
        if isinstance(node.target, ast.Name):
            self._read(node.target.id)
        self.visit(node.target)

    def visit_For(self, node: ast.For) -> None:
        self.visit(node.iter)
        self.visit(node.target)
        for stmt in node.body + node.orelse:
            self.visit(stmt)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self.bound.add(node.name)  # the body runs later, with its own names: not checked

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> None:
        return None

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> None:
        outer = set(self.bound)
        for generator in node.generators:
            self.visit(generator.iter)
            self.visit(generator.target)
            for condition in generator.ifs:
                self.visit(condition)
        for field in ("elt", "key", "value"):
            if hasattr(node, field):
                self.visit(getattr(node, field))
        self.bound = outer

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension


def unknown_names(code: str, scopes: Iterable[dict[str, Any]]) -> list[str] | None:
    """Names the code reads that neither the scopes, the builtins nor the code itself define; None when it does not parse."""
    tree = None
    # A fix may be only the header of a block (``if (a > 0).all():``); its body stays as it was.
    for candidate in (code, code + "\n" + _indent_of_last(code) + "    pass"):
        try:
            tree = ast.parse(candidate)
            break
        except (SyntaxError, ValueError):
            continue
    if tree is None:
        return None
    reads = _Reads()
    reads.visit(tree)
    known = set(dir(builtins))
    for scope in scopes:
        known.update(dict.keys(scope) if type(scope) is dict else ())
    return [name for name in dict.fromkeys(reads.free) if name not in known]


def _indent_of_last(code: str) -> str:
    """The indentation of the last line that is code."""
    rows = [r for r in code.splitlines() if is_code_line(r)]
    last = rows[-1] if rows else ""
    return last[: len(last) - len(last.lstrip())]
