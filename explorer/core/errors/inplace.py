"""Catalogue entries for autograd rules about changing tensors: leaves, saved values, non-scalar outputs."""

from __future__ import annotations

import ast
import re

from explorer.core.errors.built import scopes_at
from explorer.core.errors.context import ErrorContext, fmt_shape, join
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.fixes import receiver, receiver_code, swap
from explorer.core.errors.safe import flag, grad_of, is_tensor, shape_of, tensor_attr
from explorer.core.errors.saved import Change, find_change, op_word
from explorer.core.errors.source import comment_lines, parse
from explorer.core.errors.spelling import spell, spell_torch
from explorer.core.i18n import _, ngettext

_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**", ast.MatMult: "@"}
_METHOD_OPS = {"add_": "+", "sub_": "-", "mul_": "*", "div_": "/", "pow_": "**"}


def out_of_place(stmt: ast.stmt | None) -> tuple[str, str] | None:
    """(target, new code) for ``y *= 2`` / ``y.mul_(2)``: the same change as a new tensor, ``y = y * 2``."""
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and type(stmt.op) in _OPS:
        name = stmt.target.id
        return name, f"{name} = {name} {_OPS[type(stmt.op)]} {ast.unparse(stmt.value)}"
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Attribute):
        call, func = stmt.value, stmt.value.func
        method, target = func.attr, func.value
        if isinstance(target, ast.Name) and method.endswith("_") and not method.startswith("_"):
            if method in _METHOD_OPS and len(call.args) == 1 and not call.keywords:
                return target.id, f"{target.id} = {target.id} {_METHOD_OPS[method]} {ast.unparse(call.args[0])}"
            renamed = ast.Call(func=ast.Attribute(value=target, attr=method[:-1], ctx=ast.Load()),
                               args=call.args, keywords=call.keywords)
            return target.id, f"{target.id} = {ast.unparse(renamed)}"
    return None


def _backward_nonscalar(ctx: ErrorContext) -> Card:
    call = next((c for c in ctx.calls("backward") if receiver(c) is not None), None)
    name = receiver_code(call)
    shape = shape_of(ctx.tensors.get(name or ""))
    said = ""
    if shape is not None and name is not None:
        count = 1
        for size in shape:
            count *= size
        said = join(_("{facts}.").format(facts=ctx.describe(name)),
                    ngettext("It has {n} element.", "It has {n} elements.", count).format(n=count))
    rule = _("backward() without an argument starts from one number, a scalar loss. For a tensor of several "
             "numbers PyTorch does not know how much each one counts: reduce it to one number with .sum() or "
             ".mean(), or pass a gradient of the same shape.")
    fix = None
    if call is not None and name:
        code = swap(ctx, receiver(call), f"{name}.sum()" if isinstance(receiver(call), (ast.Name, ast.Attribute))
                    else f"({name}).sum()")
        torch = spell_torch(ctx.scopes)
        other = f"{name}.backward({torch}.ones_like({name}))" if torch else f"{name}.sum().backward()"
        fix = f"{code}\n" + comment_lines(_("or: {code}").format(code=other)) if code else None
    advice = comment_lines(_("call backward() on one number, e.g. {name}.sum()").format(name=name or "loss"))
    return Card(_("backward() needs a single number"), join(said, rule), fix or advice, advice=advice)


def _leaf_inplace(ctx: ErrorContext) -> Card:
    leaves = [n for n, v in ctx.tensors.items() if flag(v, "requires_grad") and flag(v, "is_leaf")]
    said = _("{facts}: a leaf tensor with requires_grad=True.").format(facts=ctx.describe(leaves[0])) if leaves else ""
    rule = _("Changing it in place (+=, add_, [...] =) would destroy the value autograd needs to compute its gradient. "
             "Update parameters outside the graph, inside torch.no_grad(), as optimizers do.")
    no_grad = spell("torch.no_grad", ctx.scopes)
    fix = f"with {no_grad}():\n    {ctx.statement_text}" if no_grad and ctx.statement is not None else None
    advice = comment_lines(_("do the update inside torch.no_grad()"))
    return Card(_("In-place change of a leaf that requires grad"), join(said, rule), fix or advice, advice=advice)


def _suspects(ctx: ErrorContext, shape: list[int], version: int) -> list[str]:
    """Tensors with the reported shape whose version counter matches (probable culprits)."""
    found = []
    for scope in ctx.scopes:
        for name, value in list(dict.items(scope)) if type(scope) is dict else []:
            if name.startswith("_") or name in found or not is_tensor(value):
                continue
            try:
                if shape_of(value) == shape and int(tensor_attr(value, "_version")) == version:
                    found.append(name)
            except Exception:  # noqa: BLE001
                continue
    return found[:3]


def _inplace_statement(ctx: ErrorContext, names: list[str]) -> tuple[int, str] | None:
    """(line, out-of-place code) of the last in-place change of a suspect before the failing line."""
    tree = parse(ctx.source)
    best = None
    for stmt in ast.walk(tree) if tree is not None else ():
        if isinstance(stmt, ast.stmt) and stmt.lineno < (ctx.line or 0):
            found = out_of_place(stmt)
            if found is not None and found[0] in names and (best is None or stmt.lineno > best[0]):
                best = (stmt.lineno, found[1])
    return best


def _change_fix(change: Change) -> tuple[str, str]:
    """(code, mode) changing a copy instead: ``out = out + x``, or ``att = att.clone()`` before ``att[:, 0] = 0``."""
    if change.kind == "item":
        return f"{change.name} = {change.name}.clone()  # " + _("a copy to change; the saved tensor stays as it was"), "before"
    found = out_of_place(change.changed)
    if found is not None:
        return found[1] + "  # " + _("a new tensor instead of an in-place change"), "replace"
    return "", "replace"


def _inplace_modified(ctx: ErrorContext) -> Card:
    shape = [int(x) for x in re.findall(r"\d+", ctx.g("shape"))]
    op, version = ctx.g("op", "?"), int(ctx.g("ver", "0") or 0)
    said = _("A tensor of shape {shape} made by {op} was saved for the backward pass, then changed in place "
             "(its version went from {was} to {now}).").format(shape=fmt_shape(shape), op=op, was=ctx.g("want", "0"),
                                                              now=version) if ctx.g("shape") else \
        _("A tensor saved for the backward pass was changed in place afterwards.")
    rule = _("backward() needs the value as it was when it was saved, so it refuses to go on.")
    torch = spell_torch(ctx.scopes)
    advice = comment_lines(_("write the change as a new tensor (y = y * 2) instead of in place (y *= 2, y.mul_(2))"))
    if torch:
        advice += "\n" + comment_lines(_("{code} shows the line that changed it").format(
            code=f"{torch}.autograd.set_detect_anomaly(True)"))
    title = _("A value needed for the gradient was changed in place")
    change = find_change(ctx.source, op, ctx.line or 0) if ctx.g("op") else None
    if change is not None:
        who = _("It is `{name}`: line {made} makes it with {op} (`{made_code}`), which keeps it for the backward "
                "pass, and line {changed} changes it in place (`{changed_code}`).").format(
            name=change.name, made=change.made.lineno, op=op_word(op), made_code=ast.unparse(change.made),
            changed=change.changed.lineno, changed_code=ast.unparse(change.changed))
        code, mode = _change_fix(change)
        if code:
            return Card(title, join(said, who, rule), code, mode=mode, fix_line=change.changed.lineno, advice=advice,
                        scopes=scopes_at(ctx, change.changed.lineno))
        return Card(title, join(said, who, rule), advice, advice=advice)
    suspects = _suspects(ctx, shape, version)
    who = _("Probably {names}.").format(names=", ".join(f"`{n}`" for n in suspects)) if suspects else ""
    found = _inplace_statement(ctx, suspects)
    if found is None:
        return Card(title, join(said, who, rule), advice, advice=advice)
    line, code = found
    fix = code + "  # " + _("a new tensor instead of an in-place change")
    return Card(title, join(said, who, rule), fix, fix_line=line, advice=advice)


def _requires_grad_nonleaf(ctx: ErrorContext) -> Card:
    call = next((c for c in ctx.calls("requires_grad_") if receiver(c) is not None), None)
    stmt = ctx.statement
    if call is not None:
        target = receiver(call)
    elif isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Attribute) and stmt.targets[0].attr == "requires_grad":
        target = stmt.targets[0].value
    else:
        target = None
    name = ast.unparse(target) if target is not None else None
    value = ctx.tensors.get(name or "")
    said = ""
    if value is not None and tensor_attr(value, "grad_fn") is not None:  # the claim is checked on the value
        grad_fn = type(tensor_attr(value, "grad_fn")).__name__
        said = _("`{name}` was computed from tensors that require grad (grad_fn={grad_fn}): it is not a leaf.").format(
            name=name, grad_fn=grad_fn)
    rule = _("requires_grad can only be switched on or off on a leaf, a tensor you created yourself. To use a "
             "computed value without its graph, take a detached copy: .detach() gives the same values, "
             "not tracked.")
    fix = f"{name} = {name}.detach()  # " + _("same values, no graph") if isinstance(target, ast.Name) else None
    advice = comment_lines(_("use {name}.detach() instead").format(name=name or "x"))
    return Card(_("requires_grad can only change on a leaf"), join(said, rule), fix or advice, advice=advice)


def _grad_none_update(ctx: ErrorContext) -> Card:
    grads: list[str] = []
    for node in ctx.nodes():
        if isinstance(node, ast.Attribute) and node.attr == "grad":
            grads.append(ast.unparse(node.value))
    name = grads[0] if grads else "w"
    found, value = ctx.value(name) if "." not in name else (False, None)
    if found and is_tensor(value) and not flag(value, "requires_grad"):
        cause = _("`{name}` does not require grad, so backward() never gives it a gradient: create it with "
                  "requires_grad=True.").format(name=name)
    elif found and is_tensor(value) and not flag(value, "is_leaf"):
        cause = _("`{name}` is not a leaf (it was computed from other tensors), and gradients are kept only on "
                  "leaves.").format(name=name)
    else:
        cause = _("There is no gradient yet: backward() has not been called on a loss computed from `{name}`, "
                  "or the gradients were cleared.").format(name=name)
    said = _("`{name}.grad` is None, and None cannot be used in arithmetic.").format(name=name) \
        if not (found and is_tensor(value)) or grad_of(value) is None else ""
    advice = comment_lines(_("{name} needs requires_grad=True, and loss.backward() must run before this update").format(
        name=name))
    return Card(_("The gradient is None"), join(said, cause), advice, advice=advice)


def _grad_attribute(ctx: ErrorContext) -> ast.Attribute | None:
    """The ``X.grad`` on the line whose value is None."""
    for node in ctx.nodes():
        if isinstance(node, ast.Attribute) and node.attr == "grad":
            found, value = ctx.value(ast.unparse(node.value)) if isinstance(node.value, ast.Name) else (False, None)
            if found and is_tensor(value) and grad_of(value) is None:
                return node
    return None


def _grad_missing(ctx: ErrorContext) -> Card:
    node = _grad_attribute(ctx)
    name = ast.unparse(node.value) if node is not None else "w"
    said = _("`{name}.grad` is None: no backward() has run yet on a loss computed from `{name}`, so there is no "
             "gradient to read or to zero. The first backward() creates it.").format(name=name)
    stmt = ctx.statement
    zeroing = _zeroed(stmt) == name
    rule = _("A gradient can be zeroed only once it exists; the usual place is after the update, at the end of the "
             "loop (or optimizer.zero_grad()). Before the first backward(), give it zeros to zero.") if zeroing else \
        _("Read .grad after loss.backward(), and only on tensors created with requires_grad=True.")
    torch = spell_torch(ctx.scopes)
    names = _zeroed_run(ctx, name) if zeroing else []
    fix = "\n".join(f"{n}.grad = {torch}.zeros_like({n})" for n in names) + "  # " + \
        _("a zero gradient to start from") if zeroing and torch else None
    advice = comment_lines(_("call loss.backward() before reading {name}.grad").format(name=name))
    return Card(_("The gradient is None"), join(said, rule), fix or advice, mode="before", advice=advice)


def _zeroed(stmt: ast.stmt | None) -> str | None:
    """'w' for ``w.grad.zero_()`` or ``w.grad.data.zero_()``."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Attribute) \
            and stmt.value.func.attr == "zero_":
        text = ast.unparse(stmt.value.func.value)
        for suffix in (".grad.data", ".grad"):
            if text.endswith(suffix) and text[: -len(suffix)].isidentifier():
                return text[: -len(suffix)]
    return None


def _zeroed_run(ctx: ErrorContext, first: str) -> list[str]:
    """The tensors whose gradients the failing line and the lines right after it zero (w1, w2, ...)."""
    names = [first]
    body = ctx.body
    start = next((i for i, s in enumerate(body) if s is ctx.statement), None)
    for stmt in body[start + 1:] if start is not None else []:
        name = _zeroed(stmt)
        if name is None:
            break
        found, value = ctx.value(name)
        if found and is_tensor(value) and grad_of(value) is None:
            names.append(name)
    return names


def _grad_on_line(ctx: ErrorContext) -> bool:
    return ".grad" in ctx.statement_text and "NoneType" in ctx.message


ENTRIES: list[Entry] = [
    Entry("backward_non_scalar", ("RuntimeError",), (
        r"grad can be implicitly created only for (?:real )?scalar outputs",
    ), _backward_nonscalar),
    Entry("leaf_inplace", ("RuntimeError",), (
        r"a leaf Variable that requires grad is being used in an in-place operation",
    ), _leaf_inplace),
    Entry("inplace_modified", ("RuntimeError",), (
        r"modified by an inplace operation: \[[\w.]+ (?P<shape>\[[\d, ]*\])\], which is output \d+ of (?P<op>\w+), "
        r"is at version (?P<ver>\d+); expected version (?P<want>\d+)",
        r"one of the variables needed for gradient computation has been modified by an inplace operation",
    ), _inplace_modified),
    Entry("requires_grad_non_leaf", ("RuntimeError",), (
        r"you can only change requires_grad flags of leaf variables",
    ), _requires_grad_nonleaf),
    Entry("grad_none_update", ("TypeError",), (
        r"unsupported operand type\(s\) for [^:]+: '[\w.]+' and 'NoneType'",
        r"unsupported operand type\(s\) for [^:]+: 'NoneType' and '[\w.]+'",
    ), _grad_none_update, when=_grad_on_line),
    Entry("grad_none_attribute", ("AttributeError",), (
        r"'NoneType' object has no attribute '(?:data|zero_|item|numpy|norm|clone|detach|abs)'",
    ), _grad_missing, when=lambda ctx: _grad_attribute(ctx) is not None),
]
