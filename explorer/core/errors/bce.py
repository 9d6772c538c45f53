"""Catalogue entries for binary cross-entropy (BCELoss, BCEWithLogitsLoss): the target's shape and dtype.

A binary loss compares the output and the target number by number, so both must have the
same shape and the target must be float. The usual mistake is in the data: labels ``[N]``
next to an output ``[N, 1]``, or labels left as int64; the fix reshapes the target where
the loss is called, and says the output could be squeezed instead.
"""

from __future__ import annotations

import ast
from typing import Any

from explorer.core.errors.context import ErrorContext, fmt_shape, join
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.fixes import swap
from explorer.core.errors.frames import below
from explorer.core.errors.safe import dtype_of, is_float, is_tensor, shape_of
from explorer.core.errors.source import comment_lines
from explorer.core.i18n import _

_FRAMES = ("binary_cross_entropy", "binary_cross_entropy_with_logits")


def _in_bce(ctx: ErrorContext) -> bool:
    return any(name in ctx.frame_names for name in _FRAMES)


def _loss_values(ctx: ErrorContext) -> tuple[Any, Any] | None:
    """(input, target) as the binary loss function received them (its library frame)."""
    for loc in reversed(below(ctx, has="target")):
        if is_tensor(loc.get("input")) and is_tensor(loc.get("target")):
            return loc["input"], loc["target"]
    return None


def _call(ctx: ErrorContext, output: Any, target: Any) -> tuple[ast.Call, ast.expr, ast.expr] | None:
    """The loss call on the failing line whose two arguments are these very tensors."""
    for node in ctx.nodes():
        if isinstance(node, ast.Call) and len(node.args) >= 2:
            first, second = (ctx.tensors.get(ast.unparse(a)) for a in node.args[:2])
            if first is output and second is target:
                return node, node.args[0], node.args[1]
    return None


def _reshape(target: list[int], output: list[int]) -> str | None:
    """The method call that gives the target the output's shape: unsqueeze(k), squeeze(k) or view_as."""
    for k in range(len(output)):
        if output[k] == 1 and output[:k] + output[k + 1:] == target:
            return f".unsqueeze({k})"
    for k in range(len(target)):
        if target[k] == 1 and target[:k] + target[k + 1:] == output:
            return f".squeeze({k})"
    return None


def _wrap(node: ast.expr, method: str) -> str:
    text = ast.unparse(node)
    return text + method if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)) else f"({text}){method}"


def _bce(ctx: ErrorContext) -> Card:
    values = _loss_values(ctx)
    output, target = values if values is not None else (None, None)
    found = _call(ctx, output, target) if values is not None else None
    so, st = shape_of(output) or [], shape_of(target) or []
    out_name = ast.unparse(found[1]) if found else "output"
    tgt_name = ast.unparse(found[2]) if found else "target"
    said = join(ctx.facts_sentence([out_name, tgt_name]) if found else "")
    fix, other = None, ""
    shape_wrong = bool(so) and so != st
    method = (_reshape(st, so) or f".view_as({out_name})") if shape_wrong else ""
    if found is not None and target is not None and not is_float(target):
        method += ".float()"
    if found is not None and method:
        fix = swap(ctx, found[2], _wrap(found[2], method))
        if fix and shape_wrong:
            fix += f"  # {fmt_shape(st)} -> {fmt_shape(so)}"
            squeeze = _reshape(so, st)
            if squeeze:
                other = comment_lines(_("or give the loss the output without its extra axis: {code}").format(
                    code=_wrap(found[1], squeeze)))
    if shape_wrong:
        rule = _("A binary cross-entropy compares the output and the target number by number, so they must have the "
                 "same shape; here the output is {out} and the target {target}. (Broadcasting them would compare "
                 "every output with every target.)").format(out=fmt_shape(so), target=fmt_shape(st))
        if target is not None and not is_float(target):
            rule = join(rule, _("The target must also be float, and `{name}` is {dtype}.").format(
                name=tgt_name, dtype=dtype_of(target)))
        title = _("The target's shape differs from the output's")
    else:
        rule = _("A binary cross-entropy reads the target as a probability between 0 and 1, so the target must be a "
                 "float tensor like the output; whole-number labels (int64) need .float().")
        title = _("The target of a binary loss must be float")
    advice = comment_lines(_("give the target the output's shape and a float dtype: target.float().view_as(output)"))
    code = f"{fix}\n{other}" if fix and other else fix
    return Card(title, join(said, rule), code or advice, advice=advice)


ENTRIES: list[Entry] = [
    Entry("bce_target_shape", ("ValueError",), (
        r"Using a target size \(torch\.Size\(\[(?P<t>[\d, ]*)\]\)\) that is different to the input size",
        r"Target size \(torch\.Size\(\[(?P<t>[\d, ]*)\]\)\) must be the same as input size",
    ), _bce),
    Entry("bce_target_dtype", ("RuntimeError",), (
        r"result type Float can't be cast to the desired output type (?P<got>\w+)",
        r"Found dtype (?P<got>\w+) but expected Float",
    ), _bce, when=_in_bce),
]
