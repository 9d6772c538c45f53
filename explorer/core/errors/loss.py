"""Catalogue entries for classification-loss targets (cross_entropy / nll_loss)."""

from __future__ import annotations

import ast
from typing import Any

from explorer.core.errors.context import ErrorContext, fmt_shape, join
from explorer.core.errors.entry import Card, Entry, in_loss
from explorer.core.errors.fixes import swap
from explorer.core.errors.safe import shape_of, short_dtype, tensor_attr
from explorer.core.errors.source import comment_lines
from explorer.core.i18n import _, ngettext


def _loss_call(ctx: ErrorContext) -> tuple[ast.Call, str, str] | None:
    """The loss call and the code of its (output, target) arguments, when both are tensors."""
    for node in ctx.nodes():
        if isinstance(node, ast.Call) and len(node.args) >= 2:
            out, target = ast.unparse(node.args[0]), ast.unparse(node.args[1])
            if out in ctx.tensors and target in ctx.tensors:
                return node, out, target
    return None


def _shapes(ctx: ErrorContext) -> tuple[ast.Call | None, str | None, str | None]:
    found = _loss_call(ctx)
    if found is not None:
        return found
    names = list(ctx.tensors)
    return None, (names[0] if len(names) >= 2 else None), (names[-1] if names else None)


def _shape_text(ctx: ErrorContext, out: str | None) -> str:
    """'`o` is [4, 3]: 4 samples, 3 classes.' when the output is known."""
    shape = shape_of(ctx.tensors.get(out or ""))
    if not shape or len(shape) < 2:
        return ""
    samples = ngettext("{n} sample", "{n} samples", shape[0]).format(n=shape[0])
    classes = ngettext("{n} class", "{n} classes", shape[1]).format(n=shape[1])
    return _("`{name}` is {shape}: {samples}, {classes}.").format(name=out, shape=fmt_shape(shape), samples=samples,
                                                                  classes=classes)


def _is_one_hot(value: Any) -> bool:
    """Rows of zeros with a single one (read with dispatch disabled)."""
    try:
        ones = tensor_attr(value, "eq", 1)
        zeros = tensor_attr(value, "eq", 0)
        rows = tensor_attr(tensor_attr(ones, "sum", -1), "eq", 1)
        return bool(tensor_attr(tensor_attr(tensor_attr(ones, "logical_or", zeros), "all"), "item")) and \
            bool(tensor_attr(tensor_attr(rows, "all"), "item"))
    except Exception:  # noqa: BLE001
        return False


def _as_indices(ctx: ErrorContext, call: ast.Call | None, out: str | None, target: str | None) -> str | None:
    """The loss call with the target turned into class indices: argmax of one-hot rows, or .long()."""
    if call is None or target is None:
        return None
    value, so = ctx.tensors[target], shape_of(ctx.tensors.get(out or ""))
    st = shape_of(value) or []
    if so and st == so and _is_one_hot(value):
        code = swap(ctx, call.args[1], f"{target}.argmax(dim=1)")
        return f"{code}  # " + _("one-hot rows {shape} -> class indices [{n}]").format(shape=fmt_shape(st), n=st[0])
    if so and len(st) == 2 and st[1] == 1 and st[0] == so[0]:
        code = swap(ctx, call.args[1], f"{target}.squeeze(1)")
        return f"{code}  # {fmt_shape(st)} -> [{st[0]}]" if code else None
    if so and st == [so[0]] and not short_dtype(value).startswith("int64"):
        code = swap(ctx, call.args[1], f"{target}.long()")
        return f"{code}  # " + _("class indices are int64")
    return None


def _rule() -> str:
    return _("cross_entropy and nll_loss read a target of shape [N] as class indices: int64 numbers from 0 to C-1, "
             "one per sample. (cross_entropy also accepts a float target with the same shape as the output, "
             "[N, C], read as the probability of each class.)")


def _target_dtype(ctx: ErrorContext) -> Card:
    call, out, target = _shapes(ctx)
    said = ctx.facts_sentence([target]) if target else ""
    fix = _as_indices(ctx, call, out, target)
    advice = comment_lines(_("class indices: .long()"))
    return Card(_("The loss target must hold class indices (int64)"), join(said, _shape_text(ctx, out), _rule()),
                fix or advice, advice=advice)


def _onehot_long(ctx: ErrorContext) -> Card:
    call, out, target = _shapes(ctx)
    said = ctx.facts_sentence([target]) if target else ""
    rule = _("A target with the same shape as the output is read as class probabilities, which must be float. "
             "Whole-number one-hot rows are better given as class indices: one int64 number per sample.")
    fix = _as_indices(ctx, call, out, target)
    if fix is None and call is not None and target:
        fix = swap(ctx, call.args[1], f"{target}.float()")
    advice = comment_lines(_("give class indices ({target}.argmax(dim=1)) or float probabilities ({target}.float())").format(
        target=target or "target"))
    return Card(_("Probability targets must be float"), join(said, _shape_text(ctx, out), rule), fix or advice,
                advice=advice)


def _classes_last(ctx: ErrorContext, call: ast.Call | None, out: str | None, target: str | None) -> str | None:
    """The loss call with the output's class axis moved to dim 1: [N, L, C] scores for an [N, L] target."""
    so, st = shape_of(ctx.tensors.get(out or "")), shape_of(ctx.tensors.get(target or ""))
    if call is None or not so or not st or len(so) != len(st) + 1 or so[:-1] != st or len(so) < 3:
        return None
    order = ", ".join(str(d) for d in [0, len(so) - 1, *range(1, len(so) - 1)])
    moved = [so[0], so[-1], *so[1:-1]]
    code = swap(ctx, call.args[0], f"{out}.permute({order})")
    return f"{code}  # {fmt_shape(so)} -> {fmt_shape(moved)}: " + _("the classes in dimension 1") if code else None


def _target_shape(ctx: ErrorContext) -> Card:
    call, out, target = _shapes(ctx)
    said = ctx.facts_sentence([target]) if target else ""
    rule = _("For an output [N, C] the target must be [N] (one class index per sample); for images an output "
             "[N, C, H, W] needs a target [N, H, W]. The batch sizes must agree.")
    moved = _classes_last(ctx, call, out, target)
    if moved is not None:
        shape = shape_of(ctx.tensors.get(out or "")) or []
        said = join(said, _("`{out}` is {shape}: its classes ({c}) are in the last dimension, but cross_entropy reads "
                            "the classes in dimension 1 and everything after it as positions.").format(
            out=out, shape=fmt_shape(shape), c=shape[-1] if shape else "?"))
    fix = moved or _as_indices(ctx, call, out, target)
    advice = comment_lines(_("target shape: [N], one class index per sample"))
    shape_text = "" if moved else _shape_text(ctx, out)
    return Card(_("The loss target has the wrong shape"), join(said, shape_text, rule), fix or advice, advice=advice)


ENTRIES: list[Entry] = [
    Entry("loss_target_dtype", ("RuntimeError",), (
        r"expected target dtype to be Long or Byte, but got (?P<got>\w+)",
        r"expected scalar type Long but found (?P<got>\w+)",
    ), _target_dtype, when=in_loss),
    Entry("loss_probabilities_dtype", ("RuntimeError",), (
        r"Expected floating point type for target with class probabilities, got (?P<got>\w+)",
    ), _onehot_long),
    Entry("loss_target_shape", ("RuntimeError", "ValueError"), (
        r"Expected input batch_size \((?P<n1>\d+)\) to match target batch_size \((?P<n2>\d+)\)",
        r"0D or 1D target tensor expected, multi-target not supported",
        r"Expected target size \[(?P<want>[\d, ]*)\], got \[(?P<got>[\d, ]*)\]",
        r"Expected target size \((?P<want>[\d, ]*)\), got",
        r"size mismatch \(got input: \[(?P<inp>[\d, ]*)\] ?, target: \[(?P<got>[\d, ]*)\]",
        r"only batches of spatial targets supported",
    ), _target_shape),
]
