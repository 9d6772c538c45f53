"""Hints about gradients after a run that raised nothing: grads left None, hidden leaves, weights that never move."""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable
from typing import Any

from explorer.core.errors.context import join
from explorer.core.errors.entry import Card
from explorer.core.errors.flow import Step, chain, cuts_graph, reads, steps_before, uncut
from explorer.core.errors.hints_base import Found, assignments, creation_of
from explorer.core.errors.safe import (
    flag,
    grad_of,
    instance_dict,
    is_float,
    is_module,
    is_optimizer,
    is_tensor,
    module_parameters,
)
from explorer.core.errors.source import comment_lines, replaced
from explorer.core.i18n import _, ngettext

_MAX_PARAMS = 20
_FACTORIES = {"tensor", "zeros", "ones", "randn", "rand", "empty", "full", "arange", "linspace", "as_tensor",
              "zeros_like", "ones_like", "randn_like", "rand_like"}


def _backward_line(tree: ast.AST) -> int | None:
    lines = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr == "backward"]
    return min(lines) if lines else None


def _used_tensors(tree: ast.AST, namespace: dict[str, Any]) -> dict[str, Any]:
    """Tensors the code names, plus the parameters of modules it names (``model.weight``), read statically."""
    used = dict.fromkeys(n.id for n in ast.walk(tree) if isinstance(n, ast.Name))
    found: dict[str, Any] = {}
    for name in used:
        value = namespace.get(name)
        if is_tensor(value):
            found[name] = value
        elif is_module(value):
            for pname, param in module_parameters(value, limit=_MAX_PARAMS):
                found[f"{name}.{pname}"] = param
    return found


def _requires_grad_kw(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and any(
        k.arg == "requires_grad" and isinstance(k.value, ast.Constant) and k.value.value is True for k in node.keywords)


def _spine_has_requires_grad(node: ast.AST) -> bool:
    """Follow ``f(...).method()`` / ``expr * const`` down to the creating call; True if it sets requires_grad.

    Only the spine counts: in ``loss = (w * x).sum() + torch.zeros(1, requires_grad=True).sum()``
    the loss is a result, not a parameter someone meant to train.
    """
    while True:
        if _requires_grad_kw(node):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            node = node.func.value
        elif isinstance(node, ast.BinOp) and isinstance(node.right, ast.Constant):
            node = node.left
        elif isinstance(node, ast.BinOp) and isinstance(node.left, ast.Constant):
            node = node.right
        elif isinstance(node, ast.Attribute):
            node = node.value
        else:
            return False


def _leaf_fix(value: ast.AST) -> str:
    """Rewrite ``torch.randn(3, requires_grad=True) * 0.01`` as ``(torch.randn(3) * 0.01).requires_grad_()``."""
    value = copy.deepcopy(value)
    for node in ast.walk(value):
        if isinstance(node, ast.Call):
            node.keywords = [k for k in node.keywords if k.arg != "requires_grad"]
    text = ast.unparse(value)
    wrapped = text if isinstance(value, (ast.Call, ast.Name, ast.Attribute)) else f"({text})"
    return f"{wrapped}.requires_grad_()"


def _hidden_leaves(tree: ast.AST, namespace: dict[str, Any]) -> list[Found]:
    """``w = torch.randn(3, requires_grad=True) * 0.01``: w is not a leaf, its .grad stays None."""
    if _backward_line(tree) is None:
        return []
    found = []
    for name, stmt in assignments(tree):
        value = namespace.get(name)
        if _requires_grad_kw(stmt.value) or not _spine_has_requires_grad(stmt.value):
            continue
        if not (is_tensor(value) and flag(value, "requires_grad") and not flag(value, "is_leaf")):
            continue
        explanation = join(
            _("`{name}` is not a leaf: requires_grad=True was set on a tensor that was then changed (multiplied, "
              ".double(), .to(device), …), and `{name}` is that changed copy.").format(name=name),
            _("Gradients are kept only on leaves, so `{name}.grad` stays None and the leaf that does get the gradient "
              "has no name you can reach.").format(name=name))
        fix = f"{name} = {_leaf_fix(stmt.value)}  # " + _("requires_grad_() last: {name} is the leaf").format(name=name)
        found.append(Found("grad_non_leaf", stmt.lineno, Card(
            _("The gradient goes to a tensor you cannot see"), explanation, fix, fix_line=stmt.lineno)))
    return found


def _with_requires_grad(stmt: ast.Assign) -> str | None:
    """``w = torch.zeros(3)`` -> ``w = torch.zeros(3, requires_grad=True)`` (torch factories only)."""
    call = stmt.value
    name = call.func.attr if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) else \
        getattr(getattr(call, "func", None), "id", "")
    if not isinstance(call, ast.Call) or name not in _FACTORIES or any(k.arg == "requires_grad" for k in call.keywords):
        return None
    twin = copy.copy(call)
    twin.keywords = [*call.keywords, ast.keyword(arg="requires_grad", value=ast.Constant(value=True))]
    return replaced(stmt, {call: twin})


def _cut_fix(tree: ast.AST, line: int, broken: list[str]) -> tuple[int, str] | None:
    """(line, code) of the first statement that cuts a broken tensor off with .detach() / .data, without the cut."""
    steps: list[Step] = steps_before(list(getattr(tree, "body", [])), line + 1)
    for step in steps:
        code, changed = uncut(step.stmt)
        names = {n.id for n in ast.walk(step.stmt.value) if isinstance(n, ast.Name)}
        if changed and not step.in_no_grad and names & {b.split(".")[0] for b in broken} and cuts_graph(step):
            return step.stmt.lineno, code
    return None


def _loss_names(tree: ast.AST, line: int) -> set[str]:
    """The names the first backward()'s loss is computed from (through the assignments before it)."""
    method = next(n.func for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                  and n.func.attr == "backward" and n.lineno == line)
    target = method.value
    names = reads(target)
    if isinstance(target, ast.Name):
        kept, starts = chain(target.id, steps_before(list(getattr(tree, "body", [])), line + 1), keep=lambda s: True)
        names |= starts | {n for step in kept for n in reads(step.stmt.value)}
    return names


def _grads_none(tree: ast.AST, namespace: dict[str, Any]) -> list[Found]:
    line = _backward_line(tree)
    if line is None or _hidden_leaves(tree, namespace):
        return []
    related = _loss_names(tree, line)
    tensors = {n: v for n, v in _used_tensors(tree, namespace).items()
               if flag(v, "is_leaf") and n.split(".")[0] in related}
    broken = [n for n, v in tensors.items() if flag(v, "requires_grad") and grad_of(v) is None]
    if broken:
        return [_broken_hint(tree, line, broken)]
    plain = [n for n, v in tensors.items() if "." not in n and is_float(v) and not flag(v, "requires_grad")]
    read = [n for n in plain if n in _grad_reads(tree)]
    if not read and (not plain or any(grad_of(v) is not None for v in tensors.values())):
        return []
    return [_untracked_hint(tree, line, (read or plain)[:4])]


def _grad_reads(tree: ast.AST) -> set[str]:
    """Names whose ``.grad`` the code reads (``forgot.grad``)."""
    return {n.value.id for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "grad"
            and isinstance(n.value, ast.Name) and isinstance(n.ctx, ast.Load)}


def _broken_hint(tree: ast.AST, line: int, broken: list[str]) -> Found:
    names = ", ".join(f"`{n}`" for n in broken)
    explanation = join(
        ngettext("After backward(), {names} still has .grad = None although it requires grad: the loss was not "
                 "computed from it.",
                 "After backward(), {names} still have .grad = None although they require grad: the loss was not "
                 "computed from them.", len(broken)).format(names=names),
        _("Usual causes: .detach() or .data cut the chain, the computation ran inside torch.no_grad(), or the "
          "value went through .item() / .numpy() and back."))
    cut = _cut_fix(tree, line, broken)
    fix, fix_line = (cut[1], cut[0]) if cut else (None, None)
    advice = comment_lines(_("compute the loss from {names} without .detach() and outside torch.no_grad()").format(
        names=", ".join(broken)))
    return Found("grads_none", fix_line or line, Card(_("The gradients are None"), explanation, fix or advice,
                                                     fix_line=fix_line, advice=advice))


def _untracked_hint(tree: ast.AST, line: int, plain: list[str]) -> Found:
    explanation = ngettext(
        "After backward(), a tensor used to compute the loss has no gradient: {names} was created without "
        "requires_grad=True.",
        "After backward(), tensors used to compute the loss have no gradient: {names} were created without "
        "requires_grad=True.", len(plain)).format(names=", ".join(f"`{n}`" for n in plain))
    stmt = creation_of(tree, plain[0])
    fix = _with_requires_grad(stmt) if stmt is not None else None
    return Found("grads_none", stmt.lineno if fix and stmt else line, Card(
        _("The gradients are None"), explanation, fix or comment_lines(_("create them with requires_grad=True")),
        fix_line=stmt.lineno if fix and stmt else None))


def _optimizer_params(namespace: dict[str, Any]) -> list[Any]:
    """Every tensor an optimizer in the namespace holds (read from its param_groups, no method called)."""
    held = []
    for value in list(dict.values(namespace)):
        if is_optimizer(value):
            for group in instance_dict(value).get("param_groups") or []:
                if type(group) is dict:
                    held += list(group.get("params") or [])
    return held


def _never_change(tree: ast.AST, namespace: dict[str, Any]) -> list[Found]:
    """A tensor handed to an optimizer without requires_grad: step() never changes it."""
    held = {id(p) for p in _optimizer_params(namespace)}
    found = []
    for name, value in list(dict.items(namespace)):
        if id(value) not in held or not is_tensor(value) or flag(value, "requires_grad") or name.startswith("_"):
            continue
        stmt = creation_of(tree, name)
        explanation = join(
            _("The optimizer holds `{name}`, but `{name}` does not require grad: backward() never gives it a gradient, "
              "so step() skips it and `{name}` keeps its first value however long you train.").format(name=name),
            _("A tensor to learn must be created with requires_grad=True."))
        fix = _with_requires_grad(stmt) if stmt is not None else None
        found.append(Found("weights_never_change", stmt.lineno if stmt else 1, Card(
            _("`{name}` never changes").format(name=name), explanation,
            fix or comment_lines(_("create {name} with requires_grad=True").format(name=name)),
            fix_line=stmt.lineno if fix and stmt else None)))
    return found


def grad_checks() -> tuple[Callable[[ast.AST, dict[str, Any]], list[Found]], ...]:
    """The gradient checks, in the order they run."""
    return (_hidden_leaves, _grads_none, _never_change)
