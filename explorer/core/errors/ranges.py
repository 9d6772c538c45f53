"""Catalogue entries for values outside a table: an embedding index beyond num_embeddings, a class target beyond C.

The numbers are read from the library frame that raised (``embedding(input, weight)``,
``cross_entropy(input, target)``) and named as the learner named them. The values say
which side is wrong: labels 1 … C are one-based (the data), -1 marks "no label" (the
loss's ignore_index), 0/255 are mask grey levels (the data); indices just past the table
or labels 0 … C mean the layer is too small, and the card shows both readings.
"""

from __future__ import annotations

import ast
from typing import Any

from explorer.core.errors.built import attr, creation, path_of, scopes_at
from explorer.core.errors.context import ErrorContext, fmt_shape, join
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.fixes import set_argument, swap, with_args
from explorer.core.errors.frames import below, module_input, passed_at
from explorer.core.errors.safe import (
    is_module,
    is_tensor,
    module_children,
    shape_of,
    tensor_attr,
    walk_modules,
)
from explorer.core.errors.source import comment_lines, replaced
from explorer.core.i18n import _


def _stats(value: Any) -> tuple[int, int, list[int]]:
    """(min, max, the distinct values up to 20) of an integer tensor, read with dispatch disabled."""
    low = int(tensor_attr(tensor_attr(value, "min"), "item"))
    high = int(tensor_attr(tensor_attr(value, "max"), "item"))
    distinct = tensor_attr(value, "unique")
    values = [int(v) for v in tensor_attr(distinct, "tolist")[:20]] if int(tensor_attr(distinct, "numel")) <= 20 else []
    return low, high, values


def _named(ctx: ErrorContext, value: Any) -> tuple[ErrorContext, str] | None:
    """Where the learner names this tensor: the failing line, else the outermost call that passed it."""
    here = next((n for n, v in ctx.tensors.items() if v is value), None)
    return passed_at(ctx, value) or ((ctx, here) if here else None)


def _plus(node: ast.expr, value: int, wanted: int) -> str:
    """Code for *wanted* written from the learner's expression for *value* (``len(vocab) + 1``)."""
    if isinstance(node, ast.Constant):
        return str(wanted)
    return f"{ast.unparse(node)} + {wanted - value}"


def _embedding(ctx: ErrorContext) -> Card:
    reached = module_input(ctx, "Embedding")
    layer, indices = reached if reached is not None else (None, None)
    size = attr(layer, "num_embeddings")
    low, high, _values = _stats(indices)
    named = _named(ctx, indices)
    path = path_of(ctx, layer) or "nn.Embedding"
    who = f"`{named[1]}`" if named else _("the index tensor")
    said = _("{who} holds indices from {low} to {high}, but `{layer}` has num_embeddings={n}: one row per index, "
             "so it accepts 0 … {last} only.").format(who=who, low=low, high=high, layer=path, n=size, last=size - 1)
    advice = comment_lines(_("every index must be at least 0 and less than num_embeddings={n}").format(n=size))
    title = _("An index is outside the embedding table")
    if low < 0:
        why = _("{low} is not a row: negative numbers often mark padding or unknown words. Map them to a real row "
                "(the padding index) when the data is made.").format(low=low)
        return Card(title, join(said, why), advice, advice=advice)
    if high >= 2 * size:
        why = _("The indices go far beyond the table: they were made with another, larger vocabulary than the "
                "one the layer was built for. Build both from the same vocabulary.")
        return Card(title, join(said, why), advice, advice=advice)
    made = creation(ctx, path, layer)
    why = _("The largest index is {high}, so the table needs {need} rows. Either the vocabulary the layer was built "
            "with is too small (often by one: a padding or unknown token added later), or the indices were made "
            "with another vocabulary.").format(high=high, need=high + 1)
    if made is None:
        return Card(title, join(said, why), advice, advice=advice)
    stmt, call = made
    given = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "num_embeddings"), None)
    new = _plus(given, size, high + 1) if given is not None else str(high + 1)
    fix = replaced(stmt, {call: set_argument(call, "num_embeddings", 0, new)}) + "  # " + \
        _("rows for the indices 0 … {high}").format(high=high)
    return Card(title, join(said, why), fix, fix_line=stmt.lineno, advice=advice, scopes=scopes_at(ctx, stmt.lineno))


def _loss_values(ctx: ErrorContext) -> tuple[Any, Any] | None:
    for loc in reversed(below(ctx, has="target")):
        if is_tensor(loc.get("input")) and is_tensor(loc.get("target")):
            return loc["input"], loc["target"]
    return None


def _loss_call(ctx: ErrorContext, target: Any) -> tuple[ast.Call, ast.expr] | None:
    """The loss call on the failing line and its target argument."""
    for node in ctx.nodes():
        if isinstance(node, ast.Call) and len(node.args) >= 2 and ctx.tensors.get(ast.unparse(node.args[1])) is target:
            return node, node.args[1]
    return None


def _criterion(ctx: ErrorContext, call: ast.Call) -> tuple[ast.stmt, ast.Call] | None:
    """Where the learner built the loss module called on the failing line (``criterion = nn.CrossEntropyLoss()``)."""
    name = ast.unparse(call.func)
    modules = ctx.modules()
    return creation(ctx, name, modules[name]) if name in modules else None


def _last_linear(ctx: ErrorContext, classes: int) -> tuple[str, Any] | None:
    """(path, layer) of the last Linear with out_features == classes among the learner's models."""
    found = None
    for scope in ctx.scopes[1:]:
        for name, value in list(dict.items(scope)) if type(scope) is dict else []:
            if is_module(value) and module_children(value) and not name.startswith("_"):
                for path, layer in walk_modules(value, name):
                    if type(layer).__name__ == "Linear" and attr(layer, "out_features") == classes:
                        found = (path, layer)
        if found:
            return found
    return None


def _target_range(ctx: ErrorContext) -> Card:
    values = _loss_values(ctx)
    output, target = values if values is not None else (None, None)
    classes = (shape_of(output) or [0, 0])[1] if shape_of(output) and len(shape_of(output) or []) > 1 else None
    low, high, distinct = _stats(target) if target is not None else (0, int(ctx.g("t", "0")), [])
    found = _loss_call(ctx, target) if target is not None else None
    name = ast.unparse(found[1]) if found else "target"
    said = _("`{name}` ({shape}) holds class numbers from {low} to {high}, but the output {out} has {c} classes, so "
             "the targets must be 0 … {last}.").format(name=name, shape=fmt_shape(shape_of(target)), low=low, high=high,
                                                      out=fmt_shape(shape_of(output)), c=classes, last=(classes or 1) - 1)
    advice = comment_lines(_("every target must be at least 0 and less than the number of classes"))
    title = _("A class target is out of range")
    if found is None or classes is None:
        return Card(title, said, advice, advice=advice)
    call, arg = found
    if low < 0 and len({v for v in distinct if v < 0}) == 1:
        why = _("{low} is not a class: it marks samples without a label. Tell the loss to skip them with "
                "ignore_index={low}.").format(low=low)
        made = _criterion(ctx, call)
        if made is not None:
            stmt, built = made
            fix = replaced(stmt, {built: with_args(built, keywords={"ignore_index": str(low)})})
            return Card(title, join(said, why), fix, fix_line=stmt.lineno, advice=advice)
        return Card(title, join(said, why), swap(ctx, call, with_args(call, keywords={"ignore_index": str(low)})) or advice,
                    advice=advice)
    if low >= 1 and high == classes:
        why = _("The labels count from 1 to {c}; PyTorch counts classes from 0. Shift them down by one.").format(c=classes)
        shifted = swap(ctx, arg, f"{ast.unparse(arg)} - 1")
        return Card(title, join(said, why), (shifted + "  # " + _("classes 0 … {last}").format(last=classes - 1))
                    if shifted else advice, advice=advice)
    if distinct and set(distinct) <= {0, 255} and classes == 2:
        why = _("The values are 0 and 255: the grey levels of a black-and-white mask, not class numbers. Turn them "
                "into classes 0 and 1.")
        return Card(title, join(said, why), swap(ctx, arg, f"({ast.unparse(arg)} > 0).long()") or advice, advice=advice)
    return _layer_reading(ctx, title, said, classes, high, advice)


def _layer_reading(ctx: ErrorContext, title: str, said: str, classes: int, high: int, advice: str) -> Card:
    """Labels 0 … high with high >= classes: the output layer has too few classes, or the labels are wrong."""
    why = _("Either the model's last layer has too few outputs (it needs {need} for the classes 0 … {high}), or "
            "the labels are wrong.").format(need=high + 1, high=high)
    last = _last_linear(ctx, classes)
    made = creation(ctx, last[0], last[1]) if last else None
    if made is None:
        return Card(title, join(said, why), advice, advice=advice)
    stmt, call = made
    fix = replaced(stmt, {call: set_argument(call, "out_features", 1, str(high + 1))}) + "  # " + \
        _("one output per class 0 … {high}").format(high=high)
    return Card(title, join(said, why), fix, fix_line=stmt.lineno, advice=advice, scopes=scopes_at(ctx, stmt.lineno))


def _is_embedding(ctx: ErrorContext) -> bool:
    return module_input(ctx, "Embedding") is not None


ENTRIES: list[Entry] = [
    Entry("embedding_index", ("IndexError", "RuntimeError"), (r"index out of range in self",), _embedding,
          when=_is_embedding),
    Entry("loss_target_class", ("IndexError", "RuntimeError"), (r"Target (?P<t>-?\d+) is out of bounds",), _target_range),
]
