"""Teaching hints for copies a learner may take for views.

``torch.tensor(arr)``, ``x.clone()``, a ``reshape`` that had to copy, and
``.contiguous()`` of a non-contiguous tensor all give *independent* memory.
The hint comes from the executed code (which call made the variable) checked
against the facts (the result really shares nothing with its source), and it
stays attached to that very object until the name is rebound.
"""

from __future__ import annotations

import ast
from typing import Any

from explorer.core.i18n import N_, _
from explorer.core.memory.reach import allocation
from explorer.core.snapshot.written import parse_code
from explorer.core.summary.static import PRISTINE_BUILTINS, inspecting

globals()["__builtins__"] = PRISTINE_BUILTINS

# method name -> hint template ({src} is the source variable), translated when the hint is written
_METHODS = {
    "clone": N_("independent copy of {src} (clone): writing to it does not change {src}"),
    "copy": N_("independent copy of {src} (copy): writing to it does not change {src}"),
    "reshape": N_("reshape had to copy {src} (it was not contiguous): an independent copy, not a view"),
    "contiguous": N_("contiguous() copied {src} (it was not contiguous): an independent copy, not a view"),
    "flatten": N_("flatten had to copy {src}: an independent copy, not a view"),
}
# function name -> hint template
_FUNCTIONS = {
    "tensor": N_("independent copy of {src}: torch.tensor always copies (torch.from_numpy / torch.as_tensor "
                 "would share)"),
    "array": N_("independent copy of {src}: np.array copies by default (np.asarray would share)"),
    "copy": N_("independent copy of {src}: writing to it does not change {src}"),
}


def _source_call(value: ast.AST) -> tuple[str, str] | None:
    """(template, source name) when *value* is ``src.method(...)`` or ``module.func(src)``."""
    if not isinstance(value, ast.Call):
        return None
    func = value.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.attr in _METHODS \
            and func.value.id not in ("torch", "np", "numpy"):
        return _METHODS[func.attr], func.value.id
    if isinstance(func, ast.Attribute) and func.attr in _FUNCTIONS and value.args:
        first = value.args[0]
        if isinstance(first, ast.Name):
            return _FUNCTIONS[func.attr], first.id
        inner = _source_call(first)  # torch.tensor(arr.copy()) and the like
        if inner is not None:
            return _FUNCTIONS[func.attr], inner[1]
    return None


def _assignments(code: str) -> list[tuple[str, str, str]]:
    """(target, template, source) for each ``name = <copying call>`` in *code*."""
    tree = parse_code(code) if type(code) is str else None
    if tree is None:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            call = _source_call(node.value)
            if call is not None:
                found.append((node.targets[0].id, call[0], call[1]))
    return found


def _shares(a: Any, b: Any) -> bool:
    first, second = allocation(a), allocation(b)
    if first is None or second is None:
        return False
    return first[0] < second[1] and second[0] < first[1]


class CopyHints:
    """Remembers hints per variable name and object identity across runs."""

    def __init__(self) -> None:
        self._hints: dict[str, tuple[int, str, str]] = {}  # name -> (id of the copy, template, source)

    def update(self, code: str, namespace: dict[str, Any], variables: list[dict]) -> None:
        """Learn from *code*, then write ``copy_hint`` into the top-level VARs it applies to (no user code runs)."""
        with inspecting():
            self._update(code, namespace, variables)

    def _update(self, code: str, namespace: dict[str, Any], variables: list[dict]) -> None:
        for target, template, source in _assignments(code):
            value, origin = namespace.get(target), namespace.get(source)
            if value is None or origin is None or allocation(value) is None or _shares(value, origin):
                self._hints.pop(target, None)
                continue
            self._hints[target] = (id(value), template, source)
        for var in variables:
            remembered = self._hints.get(var.get("name", ""))
            if remembered is None:
                continue
            if id(namespace.get(var["name"])) == remembered[0]:
                # Written in the language of this snapshot (the window may have switched since the copy).
                var["copy_hint"] = _(remembered[1]).format(src=remembered[2])
            else:
                del self._hints[var["name"]]
