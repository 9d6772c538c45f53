"""Catalogue entries for device errors and NumPy interop."""

from __future__ import annotations

import ast
import re
from typing import Any

from explorer.core.errors.context import ErrorContext, call_name, fmt_shape, join, lookup
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.fixes import node_for, receiver, receiver_code, swap, swap_name
from explorer.core.errors.safe import (
    array_attr,
    device_of,
    flag,
    is_ndarray,
    is_tensor,
    list_items,
    module_parameters,
    shape_of,
    short_dtype,
)
from explorer.core.errors.source import comment_lines, replaced
from explorer.core.errors.spelling import spell
from explorer.core.i18n import _

_DEVICE = re.compile(r"\b(cuda(?::\d+)?|cpu|mps|meta|xpu(?::\d+)?)\b")


def _module_device(module: Any) -> str | None:
    params = module_parameters(module, limit=1)
    return device_of(params[0][1]) if params else None


def _device_moves(ctx: ErrorContext, tensors: dict[str, str], modules: dict[str, str], target: str) -> str | None:
    """``b = b.to(a.device)`` lines moving everything onto the device of a tensor already there."""
    ref = next((n for n, d in tensors.items() if d == target and n.isidentifier()), None)
    if ref is None:
        return None
    moves = [f"{n} = {n}.to({ref}.device)" for n, d in tensors.items() if d != target and n.isidentifier()]
    moves += [f"{n}.to({ref}.device)" for n, d in modules.items() if d != target]
    return "\n".join(moves) or None


def _device_mismatch(ctx: ErrorContext) -> Card:
    tensors = {n: device_of(v) for n, v in ctx.tensors.items() if is_tensor(v)}
    modules = {n: d for n, d in ((n, _module_device(m)) for n, m in ctx.modules().items()) if d}
    seen = list(dict.fromkeys([*tensors.values(), *modules.values(), *_DEVICE.findall(ctx.message)]))
    parts = [_("`{name}` is on {device}").format(name=n, device=d) for n, d in tensors.items()]
    parts += [_("the weights of `{name}` are on {device}").format(name=n, device=d) for n, d in modules.items()]
    listed = (_("{listed}.").format(listed=_("; ").join(parts)) if parts
              else _("Devices in the message: {devices}.").format(devices=", ".join(seen)))
    rule = _("An operation can only combine tensors on the same device; PyTorch never moves data between the CPU "
             "and a GPU by itself. Put the model and every input on one device.")
    if "meta" in seen:
        meta = [n for n, d in tensors.items() if d == "meta"]
        note = _("`{name}` is a meta tensor: it has a shape but no values at all, so it cannot take part in a "
                 "computation with real data.").format(name=meta[0] if meta else "?")
        advice = comment_lines(_("create it on the CPU (the default device) to get values"))
        return Card(_("The tensors are on different devices"), join(listed, rule, note), advice, advice=advice)
    target = next((d for d in seen if d != "cpu"), seen[0] if seen else "cpu")
    fix = _device_moves(ctx, tensors, modules, target)
    advice = comment_lines(_("move the model and the inputs to one device with .to(device)"))
    return Card(_("The tensors are on different devices"), join(listed, rule), fix or advice, mode="before",
                advice=advice)


def _grad_receiver(ctx: ErrorContext) -> tuple[ast.Call | None, ast.expr | None, Any]:
    """The ``.numpy()`` call whose tensor requires grad (not a plain ``x.numpy()`` on the same line), its receiver and value."""
    fallback: tuple[ast.Call | None, ast.expr | None, Any] = (None, None, None)
    for call in ctx.calls("numpy"):
        target = receiver(call)
        if target is None:
            continue
        ok, value = lookup(target, ctx.scopes)
        if ok and is_tensor(value) and flag(value, "requires_grad"):
            return call, target, value
        if not ok and fallback[0] is None:
            fallback = (call, target, None)  # an expression: the message says it requires grad
    return fallback


def _grad_values(ctx: ErrorContext) -> list[str]:
    """Names on the line that hold tensors requiring grad, or lists of them (``np.sum(outputs)``)."""
    found = []
    for name, value in ctx.objects.items():
        items = list_items(value, 50)
        tracked = (is_tensor(value) and flag(value, "requires_grad")) or \
            (bool(items) and all(is_tensor(i) for i in items) and any(flag(i, "requires_grad") for i in items))
        if tracked and "[" not in name:  # xs[0] is listed as well as xs: name the list
            found.append(name)
    return found


def _numpy_grad(ctx: ErrorContext) -> Card:
    call, target, value = _grad_receiver(ctx)
    rule = _("A NumPy array cannot record the graph, so PyTorch refuses to hand out a tensor that is still tracked. "
             "Detach it first; the array then shares its memory.")
    advice = comment_lines(_("call .detach() before .numpy()"))
    title = _("A tensor that requires grad can't become a NumPy array")
    if call is None or target is None:
        names = _grad_values(ctx)
        if not names:
            return Card(title, rule, advice, advice=advice)
        name = names[0]
        held = ctx.objects[name]
        said = _("`{name}` holds tensors that require grad, and NumPy converts them with .numpy().").format(name=name)
        new = f"{name}.detach()" if is_tensor(held) else f"[t.detach() for t in {name}]"
        return Card(title, join(said, rule), swap_name(ctx, name, new) or advice, advice=advice)
    code = ast.unparse(target)
    if value is not None:
        leaf = _(" (a weight of the model, which training updates)") if flag(value, "is_leaf") else ""
        facts = ctx.describe(code) if code in ctx.tensors else _("`{name}` is {shape}").format(
            name=code, shape=fmt_shape(shape_of(value)))
        said = _("{facts}, and it requires grad{leaf}.").format(facts=facts, leaf=leaf)
    else:
        said = _("`{name}` is computed from tensors that require grad (the model's weights), so it requires grad "
                 "too.").format(name=code)
    wrapped = f"{code}.detach()" if isinstance(target, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)) else f"({code}).detach()"
    fix = swap(ctx, target, wrapped)
    return Card(title, join(said, rule), fix or advice, advice=advice)


def _numpy_device(ctx: ErrorContext) -> Card:
    device = ctx.g("dev", "cuda")
    call = next((c for c in ctx.calls("numpy") if receiver(c) is not None), None)
    name = receiver_code(call)
    said = ctx.facts_sentence([name]) if name in ctx.tensors else ""
    if device == "meta":
        detail = _("A meta tensor has a shape and a dtype but no data at all; create it on the CPU to get values.")
        advice = comment_lines(_("create the tensor on the CPU"))
        return Card(_("A {device} tensor can't become a NumPy array").format(device=device), join(said, detail), advice,
                    advice=advice)
    detail = _("NumPy only reads the CPU's memory, and this tensor is on {device}. Copy it to the CPU first.").format(
        device=device)
    value = ctx.tensors.get(name or "")
    moved = f"{name}.detach().cpu()" if value is not None and flag(value, "requires_grad") else f"{name}.cpu()"
    fix = swap(ctx, receiver(call), moved) if call is not None and name else None
    advice = comment_lines(_("copy it to the CPU first: .cpu().numpy()"))
    return Card(_("A {device} tensor can't become a NumPy array").format(device=device), join(said, detail),
                fix or advice, advice=advice)


def _numpy_not_tensor(ctx: ErrorContext) -> Card:
    arrays = [n for n, v in ctx.tensors.items() if is_ndarray(v)]
    floats = [short_dtype(v) for v in ctx.tensors.values() if is_tensor(v) and short_dtype(v).startswith("float")]
    rule = _("This torch function's argument '{arg}' must be a Tensor; it does not take NumPy arrays. Convert the "
             "array: torch.from_numpy shares its memory, torch.tensor copies it.").format(arg=ctx.g("arg"))
    from_numpy = spell("torch.from_numpy", ctx.scopes)
    fix = None
    if arrays and from_numpy and ctx.statement is not None:
        cast = ""
        if floats and any(short_dtype(ctx.tensors[a]) != floats[0] for a in arrays):
            cast = {"float32": ".float()", "float64": ".double()", "float16": ".half()"}.get(floats[0], "")
        nodes = [node_for(ctx, a) for a in arrays[:3]]
        swaps: dict[ast.AST, ast.AST | str] = {
            node: f"{from_numpy}({a}){cast}" for a, node in zip(arrays, nodes) if node is not None}
        fix = replaced(ctx.statement, swaps) if None not in nodes else None
    advice = comment_lines(_("turn the array into a tensor first: torch.from_numpy(array)"))
    return Card(_("A NumPy array was passed where a tensor is needed"), join(ctx.facts_sentence(arrays), rule),
                fix or advice, advice=advice)


_FLIPS = {"flip", "fliplr", "flipud", "rot90"}


def _reversed_input(ctx: ErrorContext) -> ast.expr | None:
    """The argument of from_numpy / as_tensor / tensor that reverses an axis (``img[:, :, ::-1]``, ``np.flip(a)``)."""
    for node in ctx.nodes():
        if isinstance(node, ast.Call) and call_name(node) in ("from_numpy", "as_tensor", "tensor", "Tensor") and node.args:
            arg = node.args[0]
            steps = [s for s in ast.walk(arg) if isinstance(s, ast.Slice) and s.step is not None
                     and isinstance(s.step, ast.UnaryOp) and isinstance(s.step.op, ast.USub)]
            flips = [c for c in ast.walk(arg) if isinstance(c, ast.Call) and call_name(c) in _FLIPS]
            ok, value = lookup(arg, ctx.scopes)
            negative = ok and is_ndarray(value) and any(s < 0 for s in array_attr(value, "strides"))
            if steps or flips or negative:
                return arg
    return None


def _negative_strides(ctx: ErrorContext) -> Card:
    arg = _reversed_input(ctx)
    name = ast.unparse(arg) if arg is not None else None
    said = ""
    ok, value = lookup(arg, ctx.scopes) if arg is not None else (False, None)
    if name and ok and is_ndarray(value):
        strides = tuple(int(s) for s in array_attr(value, "strides"))
        facts = ctx.describe(name) if name in ctx.tensors else f"`{name}`"
        said = _("{facts}, with strides {strides} (in bytes): a negative stride walks memory backwards, as "
                 "[::-1] makes.").format(facts=facts, strides=strides)
    elif name:
        said = _("`{name}` reverses an axis, which NumPy does without copying: it walks the same memory backwards, "
                 "with a negative stride.").format(name=name)
    rule = _("A PyTorch tensor cannot have negative strides, so torch cannot share this array's memory. Copy it "
             "first: .copy() makes a new array with ordinary, positive strides (the tensor then shares the copy, "
             "not the original).")
    simple = isinstance(arg, (ast.Name, ast.Attribute, ast.Subscript, ast.Call))
    fix = swap(ctx, arg, f"{name}.copy()" if simple else f"({name}).copy()") if arg is not None else None
    advice = comment_lines(_("copy the array first with .copy()"))
    return Card(_("NumPy array with negative strides"), join(said, rule), fix or advice, advice=advice)


ENTRIES: list[Entry] = [
    Entry("device_mismatch", ("RuntimeError",), (
        r"Expected all tensors to be on the same device",
        r"Tensor on device (?P<d1>\S+) is not on the expected device (?P<d2>[^\s!]+)",
        r"Input type \(torch\.cuda\.\w+\) and (?:weight|bias) type \(torch\.\w+\) should be the same",
        r"Input type \(torch\.\w+\) and (?:weight|bias) type \(torch\.cuda\.\w+\) should be the same",
    ), _device_mismatch),
    Entry("numpy_requires_grad", ("RuntimeError",), (
        r"Can't call numpy\(\) on Tensor that requires grad",
    ), _numpy_grad),
    Entry("numpy_device", ("TypeError", "RuntimeError"), (
        r"can't convert (?P<dev>[\w:]+) device type tensor to numpy",
    ), _numpy_device),
    Entry("numpy_not_tensor", ("TypeError",), (
        r"argument '(?P<arg>\w+)' \(position \d+\) must be Tensor, not numpy\.ndarray",
    ), _numpy_not_tensor),
    Entry("numpy_negative_strides", ("ValueError",), (
        r"At least one stride in the given numpy array is negative",
    ), _negative_strides),
]
