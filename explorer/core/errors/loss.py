"""Catalogue entries for classification-loss targets (cross_entropy / nll_loss)."""

from __future__ import annotations

import ast

from explorer.core.errors.context import ErrorContext, fmt_shape, parse_line, shape_of
from explorer.core.errors.dtype import short_dtype
from explorer.core.errors.entry import Card, Entry, in_loss


def _output_and_target(ctx: ErrorContext) -> tuple[str | None, str | None]:
    """Names of the loss call's two tensor arguments (output, target) when they are variables."""
    tree = parse_line(ctx.code_line)
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.Call) and len(node.args) >= 2:
            out, target = ast.unparse(node.args[0]), ast.unparse(node.args[1])
            if out in ctx.tensors and target in ctx.tensors:
                return out, target
    names = list(ctx.tensors)
    return (names[0], names[1]) if len(names) >= 2 else (None, names[-1] if names else None)


def _shape_text(ctx: ErrorContext, out: str | None) -> str:
    """'`o` is [4, 3]: 4 samples, 3 classes.' when the output is known."""
    shape = shape_of(ctx.objects[out]) if out else None
    if not shape or len(shape) < 2:
        return ""
    return ctx.t(f"`{out}` is {fmt_shape(shape)}: {shape[0]} samples, {shape[1]} classes. ",
                 f"`{out}` 的形状是 {fmt_shape(shape)}：{shape[0]} 个样本、{shape[1]} 个类别。")


def _target_fix(ctx: ErrorContext, out: str | None, target: str | None) -> str:
    """argmax for one-hot/probability targets, long() for float labels, flatten for extra dims."""
    if target is None:
        return "target = target.long()  # class indices, shape [N]"
    so = shape_of(ctx.objects[out]) if out else None
    st = shape_of(ctx.objects[target]) or []
    if so and st == so:
        return f"{target} = {target}.argmax(dim=1)  # one-hot {fmt_shape(st)} -> {ctx.t('class indices', '类别下标')} [{st[0]}]"
    if so and len(st) > 1 and 1 in st and (st[0] * st[-1]) == so[0]:
        return f"{target} = {target}.reshape(-1)  # {fmt_shape(st)} -> [{so[0]}]"
    if not short_dtype(ctx.objects[target]).startswith("int64"):
        return f"{target} = {target}.long()  # {ctx.t('class indices must be int64', '类别下标必须是 int64')}"
    return f"print({out or 'output'}.shape, {target}.shape)  # [N, C] {ctx.t('and', '和')} [N]"


def _target_dtype(ctx: ErrorContext) -> Card:
    out, target = _output_and_target(ctx)
    said = ctx.describe(target) + ctx.t(". ", "。") if target else ""
    explanation = said + _shape_text(ctx, out) + ctx.t(
        "cross_entropy / nll_loss want the target as class indices: an int64 (Long) tensor of shape [N] "
        "with values 0 … C-1, not floats or one-hot rows.",
        "cross_entropy / nll_loss 要求目标是类别下标：形状为 [N]、取值 0 … C-1 的 int64（Long）张量，"
        "而不是浮点数或 one-hot 行。",
    )
    return ctx.t("Loss target must hold class indices (int64)", "损失函数的目标必须是类别下标（int64）"), \
        explanation, _target_fix(ctx, out, target)


def _target_shape(ctx: ErrorContext) -> Card:
    out, target = _output_and_target(ctx)
    said = ctx.describe(target) + ctx.t(". ", "。") if target else ""
    explanation = said + _shape_text(ctx, out) + ctx.t(
        "For output [N, C] the target must be [N] (one class index per sample); for images, "
        "output [N, C, H, W] needs target [N, H, W]. The batch sizes must agree.",
        "输出是 [N, C] 时，目标必须是 [N]（每个样本一个类别下标）；图像分割中输出 [N, C, H, W] 对应目标 [N, H, W]。"
        "两者的批大小必须一致。",
    )
    return ctx.t("Loss target has the wrong shape", "损失函数的目标形状不对"), explanation, _target_fix(ctx, out, target)


def _target_class(ctx: ErrorContext) -> Card:
    out, target = _output_and_target(ctx)
    shape = shape_of(ctx.objects[out]) if out else None
    classes = shape[1] if shape and len(shape) >= 2 else None
    bad = ctx.g("t")
    limit = ctx.t(f"so targets must be 0 … {classes - 1}", f"所以目标只能是 0 … {classes - 1}") if classes else ""
    explanation = _shape_text(ctx, out) + ctx.t(
        f"A target value is {bad}, which is not a valid class; {limit}.",
        f"目标中有值 {bad}，它不是合法的类别；{limit}。",
    )
    fix = f"print({target or 'target'}.min(), {target or 'target'}.max())  # 0 <= target < {classes or 'C'}"
    return ctx.t("Class index out of range in the loss target", "损失函数目标中的类别下标越界"), explanation, fix


ENTRIES: list[Entry] = [
    Entry("loss_target_dtype", ("RuntimeError",), (
        r"expected target dtype to be Long or Byte, but got (?P<got>\w+)",
        r"expected scalar type Long but found (?P<got>\w+)",
    ), _target_dtype, when=in_loss),
    Entry("loss_target_shape", ("RuntimeError", "ValueError"), (
        r"Expected input batch_size \((?P<n1>\d+)\) to match target batch_size \((?P<n2>\d+)\)",
        r"0D or 1D target tensor expected, multi-target not supported",
        r"Expected target size \[(?P<want>[\d, ]*)\], got \[(?P<got>[\d, ]*)\]",
        r"Expected target size \((?P<want>[\d, ]*)\), got",
        r"size mismatch \(got input: \[(?P<inp>[\d, ]*)\] ?, target: \[(?P<got>[\d, ]*)\]",
        r"only batches of spatial targets supported",
    ), _target_shape),
    Entry("loss_target_class", ("IndexError", "RuntimeError"), (
        r"Target (?P<t>-?\d+) is out of bounds",
    ), _target_class),
]
