"""Teaching hints for code that ran without raising: uninitialised tensors, .data, and (in ``hints_grad``) gradients;
silent training-loop mistakes in ``hints_train`` (the step's order), ``hints_modes`` (eval/train, no_grad, graphs
kept alive) and ``hints_outputs`` (softmax, what a loss is fed, functional dropout).

A hint is a card with ``"severity": "hint"``; its ``line`` and ``fix_line`` count the lines of
the submitted code, and its fix is checked like an error card's (only names the script has).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from explorer.core.errors.cards import card_dict
from explorer.core.errors.context import ErrorContext, dotted_name, join
from explorer.core.errors.entry import Card
from explorer.core.errors.hints_base import Found, assignments, names_in_scope_at
from explorer.core.errors.hints_grad import grad_checks
from explorer.core.errors.hints_modes import mode_checks
from explorer.core.errors.hints_outputs import output_checks
from explorer.core.errors.hints_train import train_checks
from explorer.core.errors.safe import flag, is_tensor, scope_get
from explorer.core.errors.source import comment_lines, parse
from explorer.core.errors.spelling import spell
from explorer.core.i18n import _

_LEGACY_CTORS = {"Tensor", "FloatTensor", "DoubleTensor", "LongTensor", "IntTensor", "HalfTensor",
                 "ByteTensor", "BoolTensor", "ShortTensor", "CharTensor", "BFloat16Tensor"}
_CTOR_DTYPE = {"LongTensor": "long", "IntTensor": "int32", "DoubleTensor": "float64", "HalfTensor": "float16",
               "ByteTensor": "uint8", "BoolTensor": "bool", "ShortTensor": "int16", "CharTensor": "int8",
               "BFloat16Tensor": "bfloat16"}
_WRITERS = {"copy_", "fill_", "zero_", "normal_", "uniform_", "random_", "index_copy_", "scatter_", "masked_fill_"}


def _torch_prefix(call: ast.Call, namespace: dict[str, Any], function: str) -> str | None:
    """``torch.zeros`` spelled the way the call spells torch (``T.Tensor`` -> ``T.zeros``)."""
    if isinstance(call.func, ast.Attribute):
        return f"{ast.unparse(call.func.value)}.{function}"
    return spell(f"torch.{function}", [namespace])


def _int_args(call: ast.Call, namespace: dict[str, Any]) -> bool:
    """True when every positional argument is an int (a literal or an int variable)."""
    def is_int(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, int) and not isinstance(node.value, bool)
        return isinstance(node, ast.Name) and type(namespace.get(node.id)) is int

    return bool(call.args) and all(is_int(a) for a in call.args)


def _legacy(call: ast.Call) -> str | None:
    name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
    if isinstance(call.func, ast.Attribute) and not isinstance(call.func.value, ast.Name):
        return None
    return name if name in _LEGACY_CTORS else None


def _zeros_fix(stmt: ast.stmt, call: ast.Call, namespace: dict[str, Any], dtype: str | None) -> str | None:
    """The statement with the call replaced by ``torch.zeros(<same sizes>)``."""
    from explorer.core.errors.source import replaced

    zeros = _torch_prefix(call, namespace, "zeros")
    if zeros is None:
        return None
    args = ", ".join([*(ast.unparse(a) for a in call.args), *(ast.unparse(k) for k in call.keywords)])
    torch = zeros.rsplit(".", 1)[0] if "." in zeros else spell("torch", [namespace])
    if dtype:
        if torch is None:
            return None
        args += f", dtype={torch}.{dtype}"
    return replaced(stmt, {call: f"{zeros}({args})"})


def _uninitialised(tree: ast.AST, namespace: dict[str, Any]) -> list[Found]:
    found = []
    for name, stmt in assignments(tree):
        call = stmt.value
        if not isinstance(call, ast.Call):
            continue
        ctor = _legacy(call)
        if ctor is not None and _int_args(call, namespace):
            sizes = ", ".join(ast.unparse(a) for a in call.args)
            explanation = join(
                _("torch.{ctor}({sizes}) reads the numbers as a SHAPE and returns memory that was never cleared: the "
                  "values are whatever bytes were there before (garbage, sometimes huge or NaN), not zeros.").format(
                    ctor=ctor, sizes=sizes),
                _("torch.tensor(...), with a small t, is the one that takes data."))
            fix = _zeros_fix(stmt, call, namespace, _CTOR_DTYPE.get(ctor))
            title = _("torch.{ctor}({sizes}) is not zeros").format(ctor=ctor, sizes=sizes)
            found.append(Found("tensor_uninitialised", stmt.lineno, Card(
                title, explanation, (fix + "  # " + _("all zeros")) if fix else None, fix_line=stmt.lineno,
                advice=comment_lines(_("use torch.zeros(...) for zeros, torch.tensor([...]) for data")))))
        elif _is_empty(call) and not _written(tree, name, stmt.lineno):
            found.append(_empty_hint(name, stmt, call, namespace))
    return found


def _is_empty(call: ast.Call) -> bool:
    func = call.func
    return (isinstance(func, ast.Attribute) and func.attr == "empty" and isinstance(func.value, ast.Name)) \
        or (isinstance(func, ast.Name) and func.id == "empty")


def _written(tree: ast.AST, name: str, after: int) -> bool:
    """True when the code fills the tensor: ``x[...] = ``, ``x.fill_()``, ``out=x``, ``x.copy_(...)``."""
    for node in ast.walk(tree):
        if getattr(node, "lineno", 0) < after:
            continue
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and dotted_name(node.value) == name:
            return True
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in _WRITERS and dotted_name(func.value) == name:
                return True
            if any(k.arg == "out" and dotted_name(k.value) == name for k in node.keywords):
                return True
            if any(dotted_name(a) == name for a in node.args) and "init" in ast.unparse(func):
                return True  # nn.init.normal_(x)
    return False


def _empty_hint(name: str, stmt: ast.Assign, call: ast.Call, namespace: dict[str, Any]) -> Found:
    from explorer.core.errors.source import replaced

    sizes = ", ".join(ast.unparse(a) for a in call.args)
    explanation = join(
        _("torch.empty({sizes}) only reserves memory: it does not clear it, so `{name}` holds whatever bytes were "
          "there before (garbage, sometimes huge or NaN).").format(sizes=sizes, name=name),
        _("That is fine only when you fill every value yourself before reading it; this code never fills `{name}`.").format(
            name=name))
    zeros = _torch_prefix(call, namespace, "zeros")
    fix = replaced(stmt, {call.func: zeros}) + "  # " + _("all zeros") if zeros else None
    return Found("empty_uninitialised", stmt.lineno, Card(
        _("torch.empty() is not zeros"), explanation, fix, fix_line=stmt.lineno,
        advice=comment_lines(_("use torch.zeros(...) when you need zeros"))))


def _data_attr(tree: ast.AST, namespace: dict[str, Any]) -> list[Found]:
    for stmt in sorted((n for n in ast.walk(tree) if isinstance(n, (ast.Expr, ast.Assign, ast.AugAssign))),
                       key=lambda n: n.lineno):
        uses = [(n, n.value) for n in ast.walk(stmt) if isinstance(n, ast.Attribute) and n.attr == "data"
                and isinstance(n.value, ast.Name)]
        for node, base in uses:
            found, value = scope_get([namespace], base.id)
            if found and is_tensor(value) and flag(value, "requires_grad"):
                return [_data_hint(stmt, node, base.id, namespace)]
    return []


def _data_hint(stmt: ast.stmt, node: ast.Attribute, name: str, namespace: dict[str, Any]) -> Found:
    """*node* is ``name.data`` in *stmt*."""
    from explorer.core.errors.source import replaced

    explanation = join(
        _("`{name}.data` shares `{name}`'s memory but hides every change from autograd, which can silently give wrong "
          "gradients.").format(name=name),
        _(".detach() shares the memory too, but autograd still notices in-place changes; to update parameters, "
          "change them inside torch.no_grad()."))
    in_place = isinstance(stmt, ast.AugAssign) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
                                                    and ast.unparse(stmt.value.func).endswith("_"))
    no_grad = spell("torch.no_grad", [namespace])
    if in_place and no_grad:
        fix = f"with {no_grad}():\n    {replaced(stmt, {node: node.value})}"
    else:
        fix = replaced(stmt, {node: f"{name}.detach()"})
    return Found("data_attr", stmt.lineno, Card(_("Prefer .detach() or torch.no_grad() to .data"), explanation, fix,
                                                fix_line=stmt.lineno))


def _checks() -> tuple[Callable[[ast.AST, dict[str, Any]], list[Found]], ...]:
    return (*grad_checks(), *train_checks(), *mode_checks(), *output_checks(), _uninitialised, _data_attr)


def find_hints(code: str, namespace: dict[str, Any]) -> list[dict[str, Any]]:
    """All hints for the code, in check order; a check that fails is skipped."""
    tree = parse(code)
    if tree is None:
        return []
    out: list[dict[str, Any]] = []
    for check in _checks():
        try:
            found = check(tree, namespace)
        except Exception:  # noqa: BLE001 - one odd value must not hide the other hints
            continue
        for item in found:
            scopes = [namespace, names_in_scope_at(tree, item.card.fix_line or item.line)]
            ctx = ErrorContext(message="", source=code, line=item.line, scopes=scopes)
            record = card_dict(item.key, item.card, ctx, 0, "hint")
            out.append({k: record[k] for k in ("key", "severity", "line", "title", "explanation", "fix", "fix_mode",
                                                "fix_line")})
    return out
