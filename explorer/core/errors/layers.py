"""Catalogue entries for convolution layers: a missing batch dimension, the input's rank and its channels.

The data that reached the layer is read from the library frame that ran it; a fix that
changes the data goes where the learner passed that data (``model(img)``), never inside
``forward``, which every batched call also runs.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from explorer.core.errors.built import attr, creation, module_calls, path_of, scopes_at
from explorer.core.errors.context import ErrorContext, fmt_shape, join
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.fixes import set_argument, swap, swap_name
from explorer.core.errors.frames import module_input, outermost_calls, passed_at
from explorer.core.errors.linear import ENTRIES as LINEAR_ENTRIES
from explorer.core.errors.safe import class_name, shape_of, walk_modules
from explorer.core.errors.source import comment_lines, replaced
from explorer.core.i18n import _, ngettext

_CONV = {"Conv1d": 1, "Conv2d": 2, "Conv3d": 3}
_LAYOUTS = {1: "[N, C, L]", 2: "[N, C, H, W]", 3: "[N, C, D, H, W]"}
_MATMUL = (r"mat1 and mat2 shapes cannot be multiplied \((?P<m>\d+)x(?P<k1>\d+) and (?P<k2>\d+)x(?P<n>\d+)\)",)


def _ints(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"-?\d+", text)]


def _unbatched(ctx: ErrorContext) -> tuple[ErrorContext, ast.Call, str, list[int], Any] | None:
    """(where, call, input code, its shape, first conv): the learner's outermost call of a conv model with one sample."""
    for where in outermost_calls(ctx):
        for name, module, call in module_calls(where):
            if not call.args:
                continue
            x = ast.unparse(call.args[0])
            shape = shape_of(where.tensors.get(x))
            convs = [m for _, m in walk_modules(module, name) if class_name(m) in _CONV]
            if shape and convs:
                dims = _CONV[class_name(convs[0])]
                if len(shape) == dims + 1 and shape[0] == attr(convs[0], "in_channels"):
                    return where, call, x, shape, convs[0]
    return None


def _missing_batch(ctx: ErrorContext) -> Card:
    found = _unbatched(ctx)
    assert found is not None  # this card is chosen only when _unbatched found the call
    where, call, x, shape, conv = found
    dims = _CONV[class_name(conv)]
    said = _("`{x}` is {shape}: one sample, without the batch dimension N in front.").format(x=x, shape=fmt_shape(shape))
    rule = _("Layers work on batches shaped {layout}. {layer} also accepts a single sample, but the layers after it "
             "take its first size for the batch, so the sizes stop fitting further on.").format(
        layout=_LAYOUTS[dims], layer=class_name(conv))
    code = swap(where, call.args[0], f"{x}.unsqueeze(0)")
    fix = f"{code}  # {fmt_shape(shape)} -> {fmt_shape([1, *shape])}" if code else None
    advice = comment_lines(_("add a batch of one: {x}.unsqueeze(0)").format(x=x))
    here = where.statement.lineno if where is not ctx and where.statement is not None else None
    return Card(_("The input has no batch dimension"), join(said, rule, _("Add a batch of one with unsqueeze(0).")),
                fix or advice, advice=advice, fix_line=here, scopes=where.scopes)


def _conv_call(ctx: ErrorContext) -> tuple[ErrorContext, str, Any, Any] | None:
    """(where, the learner's code for the input, the conv, the input) for the conv that failed."""
    reached = module_input(ctx, *_CONV)
    if reached is not None:
        conv, given = reached
        passed = passed_at(ctx, given)
        if passed is not None:
            return passed[0], passed[1], conv, given
    calls = [(name, m, c) for name, m, c in module_calls(ctx) if class_name(m) in _CONV and c.args]
    if calls:
        _name, conv, call = calls[0]
        x = ast.unparse(call.args[0])
        return ctx, x, conv, ctx.tensors.get(x)
    return None


def _fix_at(ctx: ErrorContext, where: ErrorContext, x: str, new: str, note: str) -> tuple[str | None, int | None]:
    """(the statement of *where* with *x* replaced by *new*, its line when it is not the failing one)."""
    code = swap_name(where, x, new)
    line = where.statement.lineno if where is not ctx and where.statement is not None else None
    return (f"{code}  # {note}" if code else None), line


def _conv_input(ctx: ErrorContext) -> Card:
    shape, op = _ints(ctx.g("shape")), ctx.g("op", "conv2d")
    unbatched, batched = int(ctx.g("u", "3")), int(ctx.g("b", "4"))
    found = _conv_call(ctx)
    where, x = (found[0], found[1]) if found else (ctx, ctx.by_shape(shape))
    said = where.facts_sentence([x]) if x in where.tensors else ""
    one = "[" + _LAYOUTS[unbatched - 1][4:]
    rule = ngettext("{op} wants {one} for one sample or {batch} for a batch ({u} or {b} dimensions), "
                    "but the input has {n} dimension.",
                    "{op} wants {one} for one sample or {batch} for a batch ({u} or {b} dimensions), "
                    "but the input has {n} dimensions.", len(shape)).format(
        op=op, one=one, batch=_LAYOUTS[unbatched - 1], u=unbatched, b=batched, n=len(shape))
    fix, line = None, None
    if found is not None and x:
        new = _conv_shape_fix(x, shape, unbatched, attr(found[2], "in_channels"))
        if new is not None:
            fix, line = _fix_at(ctx, where, x, new[0], f"{fmt_shape(shape)} -> {fmt_shape(new[1])}")
    advice = comment_lines(_("{x} must be {layout}").format(x=x or "x", layout=_LAYOUTS[unbatched - 1]))
    title = _("{op} got an input with the wrong number of dimensions").format(op=op)
    return Card(title, join(said, rule), fix or advice, advice=advice, fix_line=line, scopes=where.scopes)


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


def _other_reading(x: str, expected: int, got: int) -> str:
    """The data-side answer to a channel mismatch that a layer change also answers."""
    if got == 1 and expected == 3:
        return comment_lines(_("or keep the layer and repeat the grey channel: {code}").format(
            code=f"{x}.expand(-1, 3, -1, -1)"))
    if got == 3 and expected == 1:
        return comment_lines(_("or keep the layer and make the images grey: {code}").format(
            code=f"{x}.mean(dim=1, keepdim=True)"))
    return ""


def _conv_channels(ctx: ErrorContext) -> Card:
    shape, expected, got = _ints(ctx.g("inp")), int(ctx.g("exp")), int(ctx.g("got"))
    found = _conv_call(ctx)
    where, x = (found[0], found[1]) if found else (ctx, ctx.by_shape(shape) or "")
    said = where.facts_sentence([x]) if x in where.tensors else ""
    rule = _("The layer's weight is [{weight}], so it wants {want} channels in dimension 1 (the C of [N, C, H, W]), "
             "but dimension 1 of the input has {got}.").format(weight=ctx.g("w"), want=expected, got=got)
    fix, line, scopes = None, None, where.scopes
    orders = {4: ("0, 3, 1, 2", "NHWC -> NCHW"), 3: ("2, 0, 1", "HWC -> CHW")}
    given = shape_of(found[3]) if found is not None else None
    if found is not None and shape and shape[-1] == expected and len(shape) in orders:
        order, note = orders[len(shape)]
        fix, line = _fix_at(ctx, where, x, f"{x}.permute({order})", note)
    elif found is not None and given and expected == 1 and len(given) == _CONV[class_name(found[2])] + 1 \
            and given[0] == got and shape[:1] == [1]:
        rule = _("A batch of {n} one-channel images without its channel axis: with 3 dimensions the input is taken "
                 "for ONE image [C, H, W], so its {n} images were read as {n} channels. Add the channel axis "
                 "in dimension 1.").format(n=got)
        fix, line = _fix_at(ctx, where, x, f"{x}.unsqueeze(1)", f"{fmt_shape(given)} -> {fmt_shape([given[0], 1, *given[1:]])}")
    elif found is not None:
        conv = found[2]
        path = path_of(ctx, conv)
        made = creation(ctx, path, conv) if path else None
        if made is not None:
            stmt, made_by = made
            fix, line = replaced(stmt, {made_by: set_argument(made_by, "in_channels", 0, str(got))}), stmt.lineno
            scopes = scopes_at(ctx, stmt.lineno)
            fix += "  # in_channels = " + str(got)
            other = _other_reading(x, expected, got) if found[3] is not None and passed_at(ctx, found[3]) else ""
            fix = f"{fix}\n{other}" if other else fix
            if other:
                rule = join(rule, _("Two readings fit these values: the model was built for {want}-channel images "
                                    "and `{x}` has {got} (change the data), or the first layer should take {got} "
                                    "(change the layer, as below, when you train it yourself).").format(
                    want=expected, x=x, got=got))
    advice = comment_lines(_("the input's dimension 1 must have {n} channels").format(n=expected))
    return Card(_("Wrong number of input channels"), join(said, rule), fix or advice, fix_line=line, advice=advice,
                scopes=scopes)


ENTRIES: list[Entry] = [
    Entry("missing_batch_dim", ("RuntimeError",), _MATMUL, _missing_batch, when=lambda ctx: _unbatched(ctx) is not None),
    *LINEAR_ENTRIES,
    Entry("conv_input_dims", ("RuntimeError",), (
        r"Expected (?P<u>\d)D \(unbatched\) or (?P<b>\d)D \(batched\) input to (?P<op>\w+), but got input of size: \[(?P<shape>[\d, ]*)\]",
    ), _conv_input),
    Entry("conv_channels", ("RuntimeError",), (
        r"weight of size \[(?P<w>[\d, ]*)\], expected input\[(?P<inp>[\d, ]*)\] to have (?P<exp>\d+) channels, but got (?P<got>\d+) channels",
    ), _conv_channels),
]
