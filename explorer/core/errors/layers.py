"""Catalogue entries for layers: a missing batch dimension, Linear in_features, conv input rank and channels."""

from __future__ import annotations

import ast
import re
from typing import Any

from explorer.core.errors.context import ErrorContext, call_name, dotted_name, fmt_shape, join, resolve_callee
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.fixes import set_argument, swap
from explorer.core.errors.safe import class_name, shape_of, static_attr, walk_modules
from explorer.core.errors.source import comment_lines, parse, replaced
from explorer.core.i18n import _, ngettext

_CONV = {"Conv1d": 1, "Conv2d": 2, "Conv3d": 3}
_LAYOUTS = {1: "[N, C, L]", 2: "[N, C, H, W]", 3: "[N, C, D, H, W]"}
_MATMUL = (r"mat1 and mat2 shapes cannot be multiplied \((?P<m>\d+)x(?P<k1>\d+) and (?P<k2>\d+)x(?P<n>\d+)\)",)


def _ints(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"-?\d+", text)]


def _attr(module: Any, name: str, default: Any = None) -> Any:
    ok, value = static_attr(module, name)
    return value if ok else default


def module_calls(ctx: ErrorContext) -> list[tuple[str, Any, ast.Call]]:
    """(callee code, module, call) for each call of a module in the failing statement."""
    found = []
    modules = ctx.modules()
    for node in ctx.nodes():
        if isinstance(node, ast.Call):
            name = dotted_name(node.func)
            if name in modules:
                found.append((name, modules[name], node))
    return found


def creation(ctx: ErrorContext, path: str, module: Any) -> tuple[ast.stmt, ast.Call] | None:
    """The statement and call in the learner's file that made the layer at *path* (``model[2]``, ``model.fc``)."""
    tree = parse(ctx.source)
    if tree is None:
        return None
    index = re.fullmatch(r"(\w+)\[(\d+)\]", path)
    attribute = re.fullmatch(r"\w+\.(\w+)", path)
    found: tuple[ast.stmt, ast.Call] | None = None
    for stmt in ast.walk(tree):
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, ast.Call)):
            continue
        target = dotted_name(stmt.targets[0])
        if target == path or (attribute and target == f"self.{attribute.group(1)}"):
            candidate = (stmt, stmt.value)
        elif index and target == index.group(1) and len(stmt.value.args) > int(index.group(2)) \
                and isinstance(item := stmt.value.args[int(index.group(2))], ast.Call):
            candidate = (stmt, item)
        else:
            continue
        if not _makes(ctx, candidate[1], module):
            continue
        before = stmt.lineno < (ctx.line or 0)
        if found is None or (before and (found[0].lineno > (ctx.line or 0) or stmt.lineno > found[0].lineno)):
            found = candidate  # the last one made before the failing line
    return found


def _makes(ctx: ErrorContext, call: ast.Call, module: Any) -> bool:
    """True when the call is the layer's class itself (``nn.Linear(...)``), not a function that returns one."""
    found, callee = resolve_callee(call.func, ctx.scopes)
    if found:
        return callee is type(module)
    return call_name(call) == class_name(module)


def _unbatched(ctx: ErrorContext) -> tuple[ast.Call, str, list[int], Any] | None:
    """(call, input code, its shape, first conv) when a model starting with a conv got one sample without N."""
    for name, module, call in module_calls(ctx):
        if not call.args:
            continue
        x = ast.unparse(call.args[0])
        shape = shape_of(ctx.tensors.get(x))
        convs = [m for _, m in walk_modules(module, name) if class_name(m) in _CONV]
        if shape and convs:
            dims = _CONV[class_name(convs[0])]
            if len(shape) == dims + 1 and shape[0] == _attr(convs[0], "in_channels"):
                return call, x, shape, convs[0]
    return None


def _missing_batch(ctx: ErrorContext) -> Card:
    found = _unbatched(ctx)
    assert found is not None  # this card is chosen only when _unbatched found the call
    call, x, shape, conv = found
    dims = _CONV[class_name(conv)]
    said = _("`{x}` is {shape}: one sample, without the batch dimension N in front.").format(x=x, shape=fmt_shape(shape))
    rule = _("Layers work on batches shaped {layout}. {layer} also accepts a single sample, but the layers after it "
             "take its first size for the batch, so the sizes stop fitting further on.").format(
        layout=_LAYOUTS[dims], layer=class_name(conv))
    code = swap(ctx, call.args[0], f"{x}.unsqueeze(0)")
    fix = f"{code}  # {fmt_shape(shape)} -> {fmt_shape([1, *shape])}" if code else None
    advice = comment_lines(_("add a batch of one: {x}.unsqueeze(0)").format(x=x))
    return Card(_("The input has no batch dimension"), join(said, rule, _("Add a batch of one with unsqueeze(0).")),
                fix or advice, advice=advice)


def _linear_in(ctx: ErrorContext) -> tuple[str, Any, ast.Call, str] | None:
    """(path of the Linear layer, the layer, the call, callee) whose in_features is the message's k2."""
    k2 = int(ctx.g("k2", "0"))
    for name, module, call in module_calls(ctx):
        for path, layer in walk_modules(module, name):
            if class_name(layer) == "Linear" and _attr(layer, "in_features") == k2:
                return path, layer, call, name
    return None


def _linear(ctx: ErrorContext) -> Card:
    k1, k2 = int(ctx.g("k1", "0")), int(ctx.g("k2", "0"))
    linear = _linear_in(ctx)
    assert linear is not None  # this card is chosen only when _linear_in found the layer
    path, layer, call, _callee = linear
    out = _attr(layer, "out_features")
    x = ast.unparse(call.args[0]) if call.args else ""
    said = ctx.facts_sentence([x]) if x in ctx.tensors else ""
    made = _("`{layer}` is a Linear layer made for inputs whose last size is {want} (in_features={want}), "
             "but what reaches it has last size {got}.").format(layer=path, want=k2, got=k1)
    rule = _("A Linear layer multiplies the last dimension of its input by its weight, so that size must equal "
             "in_features ({got} != {want}).").format(got=k1, want=k2)
    note = comment_lines(_("in_features = {n}, the last size of what reaches the layer").format(n=k1))
    found = creation(ctx, path, layer)
    fix, mode, line = None, "replace", None
    if found is not None:
        stmt, made_by = found
        fix, line = replaced(stmt, {made_by: set_argument(made_by, "in_features", 0, str(k1))}) + "\n" + note, stmt.lineno
    else:
        spelled = ctx.spell("torch.nn.Linear")
        if spelled and out is not None:
            bias = "" if _attr(layer, "bias") is not None else ", bias=False"
            fix, mode = f"{path} = {spelled}({k1}, {out}{bias})\n{note}", "before"
    return Card(_("The layer's input size does not fit"), join(said, made, rule), fix or note, mode=mode,
                fix_line=line, advice=note)


def _conv_input(ctx: ErrorContext) -> Card:
    shape, op = _ints(ctx.g("shape")), ctx.g("op", "conv2d")
    unbatched, batched = int(ctx.g("u", "3")), int(ctx.g("b", "4"))
    calls = [(name, m, c) for name, m, c in module_calls(ctx) if class_name(m) in _CONV and c.args]
    given = calls[0][2].args[0] if calls else None
    x = ast.unparse(given) if given is not None else ctx.by_shape(shape)
    said = ctx.facts_sentence([x]) if x in ctx.tensors else ""
    one = "[" + _LAYOUTS[unbatched - 1][4:]
    rule = ngettext("{op} wants {one} for one sample or {batch} for a batch ({u} or {b} dimensions), "
                    "but the input has {n} dimension.",
                    "{op} wants {one} for one sample or {batch} for a batch ({u} or {b} dimensions), "
                    "but the input has {n} dimensions.", len(shape)).format(
        op=op, one=one, batch=_LAYOUTS[unbatched - 1], u=unbatched, b=batched, n=len(shape))
    fix = None
    if calls and given is not None:
        in_channels = _attr(calls[0][1], "in_channels")
        new = _conv_shape_fix(ast.unparse(given), shape, unbatched, in_channels)
        if new is not None:
            code = swap(ctx, given, new[0])
            fix = f"{code}  # {fmt_shape(shape)} -> {fmt_shape(new[1])}" if code else None
    advice = comment_lines(_("{x} must be {layout}").format(x=x or "x", layout=_LAYOUTS[unbatched - 1]))
    title = _("{op} got an input with the wrong number of dimensions").format(op=op)
    return Card(title, join(said, rule), fix or advice, advice=advice)


def _conv_shape_fix(x: str, shape: list[int], unbatched: int, in_channels: Any) -> tuple[str, list[int]] | None:
    """New input code and shape: a channel and a batch added to a plain picture, or a size-1 axis dropped."""
    if len(shape) == unbatched - 1 and in_channels == 1:
        return f"{x}.unsqueeze(0).unsqueeze(0)", [1, 1, *shape]
    if len(shape) == unbatched + 2:
        for k, size in enumerate(shape):
            rest = shape[:k] + shape[k + 1:]
            if size == 1 and rest[1] == in_channels:
                return f"{x}.squeeze({k})", rest
    return None


def _conv_channels(ctx: ErrorContext) -> Card:
    shape, expected, got = _ints(ctx.g("inp")), int(ctx.g("exp")), int(ctx.g("got"))
    calls = [(name, m, c) for name, m, c in module_calls(ctx) if class_name(m) in _CONV and c.args]
    x = ast.unparse(calls[0][2].args[0]) if calls else (ctx.by_shape(shape) or "")
    said = ctx.facts_sentence([x]) if x in ctx.tensors else ""
    rule = _("The layer's weight is [{weight}], so it wants {want} channels in dimension 1 (the C of [N, C, H, W]), "
             "but dimension 1 of the input has {got}.").format(weight=ctx.g("w"), want=expected, got=got)
    fix, mode, line = None, "replace", None
    orders = {4: ("0, 3, 1, 2", "NHWC -> NCHW"), 3: ("2, 0, 1", "HWC -> CHW")}
    if calls and shape and shape[-1] == expected and len(shape) in orders:
        order, note = orders[len(shape)]
        code = swap(ctx, calls[0][2].args[0], f"{x}.permute({order})")
        fix = f"{code}  # {note}" if code else None
    elif calls:
        name, conv, _call = calls[0]
        found = creation(ctx, name, conv)
        if found is not None:
            stmt, made_by = found
            fix, line = replaced(stmt, {made_by: set_argument(made_by, "in_channels", 0, str(got))}), stmt.lineno
            fix += "  # in_channels = " + str(got)
    advice = comment_lines(_("the input's dimension 1 must have {n} channels").format(n=expected))
    return Card(_("Wrong number of input channels"), join(said, rule), fix or advice, mode=mode, fix_line=line,
                advice=advice)


ENTRIES: list[Entry] = [
    Entry("missing_batch_dim", ("RuntimeError",), _MATMUL, _missing_batch, when=lambda ctx: _unbatched(ctx) is not None),
    Entry("linear_in_features", ("RuntimeError",), _MATMUL, _linear, when=lambda ctx: _linear_in(ctx) is not None),
    Entry("conv_input_dims", ("RuntimeError",), (
        r"Expected (?P<u>\d)D \(unbatched\) or (?P<b>\d)D \(batched\) input to (?P<op>\w+), but got input of size: \[(?P<shape>[\d, ]*)\]",
    ), _conv_input),
    Entry("conv_channels", ("RuntimeError",), (
        r"weight of size \[(?P<w>[\d, ]*)\], expected input\[(?P<inp>[\d, ]*)\] to have (?P<exp>\d+) channels, but got (?P<got>\d+) channels",
    ), _conv_channels),
]
