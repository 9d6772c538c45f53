"""Catalogue entries for layout errors: permute, cat/stack, imshow, cat without a list."""

from __future__ import annotations

import ast
import re

from explorer.core.errors.context import ErrorContext, call_name, fmt_shape, join
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.fixes import receiver_code, set_argument, swap, with_args
from explorer.core.errors.safe import is_ndarray, shape_of
from explorer.core.errors.source import comment_lines
from explorer.core.i18n import _, ngettext

_JOINS = {"cat": "dim", "concat": "dim", "concatenate": "axis", "stack": "dim", "hstack": None, "vstack": None}


def _ints(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"-?\d+", text)]


def _join_call(ctx: ErrorContext) -> tuple[ast.Call, list[str]] | None:
    """The cat/stack/concatenate call and the names of the tensors it joins."""
    for node in ctx.nodes():
        if isinstance(node, ast.Call) and call_name(node) in _JOINS and node.args:
            first = node.args[0]
            if isinstance(first, (ast.List, ast.Tuple)):
                items = [ast.unparse(e) for e in first.elts]
            else:
                name = ast.unparse(first)
                items = [n for n in ctx.tensors if n.startswith(name + "[")]
            if len(items) >= 2 and all(i in ctx.tensors for i in items):
                return node, items
    return None


def _differing_dim(shapes: list[list[int]]) -> int | None:
    """The single dimension in which same-rank shapes differ, or None."""
    if not shapes or len({len(s) for s in shapes}) != 1:
        return None
    differ = [d for d in range(len(shapes[0])) if len({s[d] for s in shapes}) > 1]
    return differ[0] if len(differ) == 1 else None


def _cat_fix(ctx: ErrorContext, call: ast.Call, items: list[str]) -> str | None:
    """The same call joining along the one dimension in which the shapes differ."""
    shapes = [shape_of(ctx.tensors[i]) or [] for i in items]
    dim = _differing_dim(shapes)
    word = _JOINS.get(call_name(call))
    if dim is None or word is None or call_name(call) == "stack":
        return None
    code = swap(ctx, call, set_argument(call, word, 1, str(dim)))
    joined = shapes[0][:dim] + [sum(s[dim] for s in shapes)] + shapes[0][dim + 1:]
    return f"{code}  # -> {fmt_shape(joined)}" if code else None


def _cat_stack(ctx: ErrorContext) -> Card:
    found = _join_call(ctx)
    call, items = found if found else (None, list(ctx.tensors))
    is_stack = "stack" in ctx.message or "same shape" in ctx.message
    said = ctx.facts_sentence(items)
    if is_stack:
        rule = _("stack puts the tensors on a new axis, so every shape must be identical.")
    elif ctx.g("n1"):
        rule = _("cat needs tensors with the same number of dimensions, but they have {n1} and {n2}.").format(
            n1=ctx.g("n1"), n2=ctx.g("n2"))
    elif ctx.g("odim"):
        rule = _("concatenate joins along one axis; every other axis must match, but along axis {axis} "
                 "the sizes are {a} and {b}.").format(axis=ctx.g("odim"), a=ctx.g("exp"), b=ctx.g("got"))
    else:
        rule = _("cat joins along dimension {dim}; every other dimension must have the same size, "
                 "but one is {a} and another {b}.").format(dim=ctx.g("dim", "?"), a=ctx.g("exp", "?"), b=ctx.g("got", "?"))
    fix = _cat_fix(ctx, call, items) if call is not None else None
    advice = comment_lines(_("stack needs equal shapes; cat needs equal sizes except along the joining dimension"))
    return Card(_("The tensors to join have different sizes"), join(said, rule), fix or advice, advice=advice)


def _cat_sequence(ctx: ErrorContext) -> Card:
    call = next((c for c in ctx.calls(ctx.g("op")) if len(c.args) >= 1), None)
    tensors = [ast.unparse(a) for a in call.args if ast.unparse(a) in ctx.tensors] if call is not None else []
    said = ctx.facts_sentence(tensors)
    rule = _("{op}() takes ONE argument holding all the tensors, a list or a tuple such as [a, b]; "
             "the tensors were passed one by one.").format(op=ctx.g("op"))
    fix = None
    if call is not None and len(tensors) == len(call.args) >= 2:
        joined = ast.List(elts=list(call.args), ctx=ast.Load())
        fix = swap(ctx, call, with_args(call, args=[ast.unparse(joined)]))
    advice = comment_lines(_("put the tensors in a list: {op}([a, b])").format(op=ctx.g("op")))
    return Card(_("{op}() wants a list of tensors").format(op=ctx.g("op")), join(said, rule), fix or advice, advice=advice)


def _imshow(ctx: ErrorContext) -> Card:
    shape = _ints(ctx.g("shape"))
    call = next((c for c in ctx.calls("imshow") if c.args), None)
    name = ast.unparse(call.args[0]) if call is not None else ctx.by_shape(shape)
    said = ctx.facts_sentence([name]) if name in ctx.tensors else ""
    rule = _("Matplotlib's imshow wants [H, W] or [H, W, 3 or 4] (channels last), but PyTorch images are "
             "usually [C, H, W] (channels first).")
    moved = None
    if name in ctx.tensors:
        numpy = is_ndarray(ctx.tensors[name])
        if len(shape) == 3 and shape[0] == 1:
            moved = f"{name}[0]"
        elif len(shape) == 3 and shape[0] in (3, 4):
            moved = f"{name}.transpose(1, 2, 0)" if numpy else f"{name}.permute(1, 2, 0)"
        elif len(shape) == 4 and shape[1] in (1, 3, 4):
            moved = f"{name}[0].transpose(1, 2, 0)" if numpy else f"{name}[0].permute(1, 2, 0)"
    fix = swap(ctx, call.args[0], moved) if call is not None and moved else None
    advice = comment_lines(_("move the channels last: [C, H, W] -> [H, W, C]"))
    return Card(_("The image has its channels first; imshow wants them last"), join(said, rule), fix or advice,
                advice=advice)


def _permute(ctx: ErrorContext) -> Card:
    nd, given = int(ctx.g("nd", "0")), int(ctx.g("nl", "0"))
    call = next((c for c in ctx.calls("permute") if isinstance(c.func, ast.Attribute)), None)
    name = receiver_code(call)
    said = ctx.facts_sentence([name]) if name in ctx.tensors else ""
    rule = ngettext("permute needs one entry per dimension, an order of 0 … {last}: the tensor has {nd} dimension "
                    "but {given} were given.",
                    "permute needs one entry per dimension, an order of 0 … {last}: the tensor has {nd} dimensions "
                    "but {given} were given.", nd).format(last=nd - 1, nd=nd, given=given)
    # Common intents: swap the two axes of a matrix, CHW -> HWC for images, NCHW -> NHWC for batches.
    orders = {2: [1, 0], 3: [1, 2, 0], 4: [0, 2, 3, 1]}
    order = orders.get(nd, list(reversed(range(nd))))
    fix = swap(ctx, call, with_args(call, args=[str(d) for d in order])) if call is not None and nd else None
    shape = shape_of(ctx.tensors.get(name or ""))
    if fix and shape:
        fix += f"  # {fmt_shape(shape)} -> {fmt_shape([shape[d] for d in order])}"
    advice = comment_lines(_("give permute one number for each of the {nd} dimensions").format(nd=nd))
    return Card(_("permute got the wrong number of dimensions"), join(said, rule), fix or advice, advice=advice)


ENTRIES: list[Entry] = [
    Entry("permute_dims", ("RuntimeError",), (
        r"number of dimensions in the tensor input does not match the length of the desired ordering of "
        r"dimensions i\.e\. input\.dim\(\) = (?P<nd>\d+) is not equal to len\(dims\) = (?P<nl>\d+)",
    ), _permute),
    Entry("cat_needs_sequence", ("TypeError",), (
        r"(?P<op>cat|stack|concat|hstack|vstack)\(\): argument 'tensors' \(position 1\) must be tuple of Tensors, not Tensor",
    ), _cat_sequence),
    Entry("cat_stack_size", ("RuntimeError", "ValueError"), (
        r"Sizes of tensors must match except in dimension (?P<dim>\d+)\. Expected size (?P<exp>\d+) but got size (?P<got>\d+)",
        r"stack expects each tensor to be equal size",
        r"Tensors must have same number of dimensions: got (?P<n1>\d+) and (?P<n2>\d+)",
        r"all the input array dimensions except for the concatenation axis must match exactly, but along "
        r"dimension (?P<odim>\d+), the array at index \d+ has size (?P<exp>\d+) and the array at index \d+ has size (?P<got>\d+)",
        r"all input arrays must have the same shape",
    ), _cat_stack),
    Entry("imshow_channels_first", ("TypeError",), (
        r"Invalid shape \((?P<shape>[\d, ]*)\) for image data",
    ), _imshow),
]
