"""Catalogue entry for a Linear layer whose input does not fit: the data was not flattened, or in_features is wrong.

The tensor that reached the layer is read from the library frame that ran it. Its values
say which reading is right: a ``[100, 1, 28, 28]`` batch into ``nn.Linear(784, 10)`` holds
1 × 28 × 28 = 784 numbers per sample, so the images were never flattened (the data is
fixed where the learner passed it); a ``[N, 256]`` input into ``nn.Linear(400, 120)`` was
computed by the model, so in_features is what must change.
"""

from __future__ import annotations

import ast
import math
from typing import Any

from explorer.core.errors.built import attr, container, creation, module_calls, path_of, scopes_at
from explorer.core.errors.context import ErrorContext, fmt_shape, join
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.fixes import set_argument, swap, swap_name
from explorer.core.errors.frames import module_input, passed_at
from explorer.core.errors.safe import class_name, shape_of, walk_modules
from explorer.core.errors.source import comment_lines, replaced
from explorer.core.i18n import _

_MATMUL = (r"mat1 and mat2 shapes cannot be multiplied \((?P<m>\d+)x(?P<k1>\d+) and (?P<k2>\d+)x(?P<n>\d+)\)",)


def reached(ctx: ErrorContext) -> tuple[str | None, Any, Any] | None:
    """(path of the layer, the Linear layer, the tensor that reached it) for the Linear whose in_features is k2."""
    k2 = int(ctx.g("k2", "0"))
    found = module_input(ctx, "Linear")
    if found is not None and attr(found[0], "in_features") == k2:
        return path_of(ctx, found[0]), found[0], found[1]
    for name, module, call in module_calls(ctx):
        for path, layer in walk_modules(module, name):
            if class_name(layer) == "Linear" and attr(layer, "in_features") == k2:
                given = ctx.tensors.get(ast.unparse(call.args[0])) if call.args and module is layer else None
                return path, layer, given
    return None


def _reading(shape: list[int] | None, want: int) -> str:
    """'flatten' (samples not flattened), 'one' (one sample without a batch) or 'layer' (in_features is wrong)."""
    if shape and len(shape) > 2 and math.prod(shape[1:]) == want:
        return "flatten"
    if shape and len(shape) >= 2 and math.prod(shape) == want:
        return "one"
    return "layer"


def _data_fix(ctx: ErrorContext, path: str | None, given: Any, reading: str) -> tuple[str | None, int | None, Any]:
    """(code, line, scopes) reshaping the data where it was made: the learner's call, the layer's call, or its Sequential."""
    shape = shape_of(given) or []
    new_shape = [shape[0], math.prod(shape[1:])] if reading == "flatten" else [1, math.prod(shape)]
    method = ".flatten(1)" if reading == "flatten" else ".reshape(1, -1)"
    note = f"  # {fmt_shape(shape)} -> {fmt_shape(new_shape)}"
    passed = passed_at(ctx, given)
    if passed is not None:
        where, name = passed
        code = swap_name(where, name, name + method)
        line = where.statement.lineno if where is not ctx and where.statement is not None else None
        return (code + note if code else None), line, where.scopes
    for callee, _module, call in module_calls(ctx):
        if callee == path and call.args:
            arg = call.args[0]
            text = ast.unparse(arg)
            wrapped = text + method if isinstance(arg, (ast.Name, ast.Attribute, ast.Subscript)) else f"({text}){method}"
            code = swap(ctx, arg, wrapped)
            return (code + note if code else None), None, ctx.scopes
    held = container(ctx, path or "")
    flatten = ctx.spell("torch.nn.Flatten")
    if held is not None and flatten and reading == "flatten":
        stmt, sequential, index = held
        items = [ast.unparse(a) for a in sequential.args]
        items.insert(index, f"{flatten}()")
        twin = ast.Call(func=sequential.func, args=[ast.parse(i, mode="eval").body for i in items], keywords=sequential.keywords)
        return replaced(stmt, {sequential: twin}) + "  # " + _("flatten each sample before the Linear layer"), \
            stmt.lineno, scopes_at(ctx, stmt.lineno)
    return None, None, ctx.scopes


def _layer_fix(ctx: ErrorContext, path: str | None, layer: Any, k1: int) -> tuple[str | None, str, int | None]:
    """(code, mode, line) making in_features fit what reaches the layer, at the line that built it."""
    note = comment_lines(_("in_features = {n}, the last size of what reaches the layer").format(n=k1))
    found = creation(ctx, path, layer) if path else None
    if found is not None:
        stmt, made_by = found
        return replaced(stmt, {made_by: set_argument(made_by, "in_features", 0, str(k1))}) + "\n" + note, "replace", stmt.lineno
    spelled, out = ctx.spell("torch.nn.Linear"), attr(layer, "out_features")
    # A layer built again inside a function would be a new random layer on every call: only at the top level.
    if spelled and out is not None and path and ctx.function == "<module>":
        bias = "" if attr(layer, "bias") is not None else ", bias=False"
        return f"{path} = {spelled}({k1}, {out}{bias})\n{note}", "before", None
    return None, "replace", None


def _facts(ctx: ErrorContext, path: str, given: Any) -> str:
    """What reached the layer, named as the learner named it."""
    passed = passed_at(ctx, given) if given is not None else None
    param = next((p for p, (_o, _c, same) in ctx.aliases.items() if same and ctx.objects.get(p) is given), None)
    if param is not None:
        return ctx.facts_sentence([param])  # "`images` is [...], which `forward` calls `x`."
    if passed is not None:
        where, name = passed
        return where.facts_sentence([name]) if where is not ctx else ctx.facts_sentence([name])
    named = next((n for n, v in ctx.tensors.items() if v is given), None) if given is not None else None
    if named is not None:
        return ctx.facts_sentence([named])
    if given is not None:
        said = _("What reaches `{layer}` is {shape}.").format(layer=path, shape=fmt_shape(shape_of(given)))
        called = next(iter(ctx.aliases.values()), None)
        passed = called[1].objects.get(called[0]) if called is not None else None
        if called is not None and passed is not None:
            said = join(said, _("`{function}` was called with `{outer}`, which is {shape}, on line {line}.").format(
                function=ctx.function, outer=called[0], shape=fmt_shape(shape_of(passed)), line=called[1].line))
        return said
    return ""


def _linear(ctx: ErrorContext) -> Card:
    k1, k2 = int(ctx.g("k1", "0")), int(ctx.g("k2", "0"))
    found = reached(ctx)
    assert found is not None  # this card is chosen only when reached() found the layer
    path, layer, given = found
    shape = shape_of(given)
    reading = _reading(shape, k2)
    name = path or "Linear"
    made = _("`{layer}` is a Linear layer made for inputs whose last size is {want} (in_features={want}), "
             "but what reaches it has last size {got}.").format(layer=name, want=k2, got=k1)
    note = comment_lines(_("in_features = {n}, the last size of what reaches the layer").format(n=k1))
    if reading != "layer" and shape:
        fix, line, scopes = _data_fix(ctx, path, given, reading)
        if reading == "flatten":
            why = _("{sizes} = {want}: the layer was made for these samples flattened into rows of {want} numbers. "
                    "A Linear layer reads only the last dimension, so each sample must become one row first. "
                    "(in_features={got} would also run, but then every row of {got} numbers would count as a "
                    "sample.)").format(sizes=" × ".join(str(d) for d in shape[1:]), want=k2, got=k1)
        else:
            why = _("{shape} holds {want} numbers in all: one sample without its batch dimension. Make it a batch "
                    "of one row, [1, {want}].").format(shape=fmt_shape(shape), want=k2)
        advice = comment_lines(_("flatten each sample: x.flatten(1) turns {shape} into [N, {want}]").format(
            shape=fmt_shape(shape), want=k2))
        return Card(_("The data was not flattened for the Linear layer"), join(_facts(ctx, name, given), made, why),
                    fix or advice, fix_line=line, advice=advice, scopes=scopes)
    rule = _("A Linear layer multiplies the last dimension of its input by its weight, so that size must equal "
             "in_features ({got} != {want}).").format(got=k1, want=k2)
    computed = given is not None and passed_at(ctx, given) is None
    why = _("What reaches it is computed by the model itself, so the layer's in_features is what must change.") \
        if computed else ""
    fix, mode, line = _layer_fix(ctx, path, layer, k1)
    return Card(_("The layer's input size does not fit"), join(_facts(ctx, name, given), made, rule, why),
                fix or note, mode=mode, fix_line=line, advice=note, scopes=scopes_at(ctx, line) if line else None)


ENTRIES: list[Entry] = [
    Entry("linear_in_features", ("RuntimeError",), _MATMUL, _linear, when=lambda ctx: reached(ctx) is not None),
]
