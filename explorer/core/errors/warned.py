"""Warnings the learner's code triggered, as quiet cards (``"severity": "warning"``): silent mistakes torch noticed."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from types import FrameType
from typing import Any

from explorer.core.errors.cards import card_dict, is_user_file, source_of
from explorer.core.errors.context import ErrorContext, call_name, context_for, fmt_shape, join
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.fixes import receiver, swap, with_args
from explorer.core.errors.safe import shape_of
from explorer.core.errors.shapes import broadcast_shape
from explorer.core.errors.source import cell_offset, comment_lines, parse
from explorer.core.i18n import _

_LOSSES = {"mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"}


def _ints(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"\d+", text)]


def _loss_args(ctx: ErrorContext) -> tuple[ast.Call, ast.AST, ast.AST] | None:
    for node in ctx.nodes():
        if isinstance(node, ast.Call) and len(node.args) >= 2:
            first, second = ast.unparse(node.args[0]), ast.unparse(node.args[1])
            if first in ctx.tensors and second in ctx.tensors:
                return node, node.args[0], node.args[1]
    return None


def _target_size(ctx: ErrorContext) -> Card:
    target, given = _ints(ctx.g("t")), _ints(ctx.g("i"))
    said = _("The prediction is {given} but the target is {target}.").format(given=fmt_shape(given), target=fmt_shape(target))
    rule = _("The loss compares them element by element, so broadcasting stretches both to {both}: every prediction is "
             "compared with every target, not with its own. The loss is wrong, silently.").format(
        both=fmt_shape(broadcast_shape(given, target)))
    found, fix = _loss_args(ctx), None
    if found is not None:
        _call, pred, goal = found
        name = ast.unparse(goal)
        if given == target + [1]:
            fix = swap(ctx, goal, f"{name}.unsqueeze(-1)")
        elif target == given + [1]:
            fix = swap(ctx, goal, f"{name}.squeeze(-1)")
        else:
            fix = swap(ctx, goal, f"{name}.view_as({ast.unparse(pred)})")
        fix = f"{fix}  # " + _("the same shape on both sides") if fix else None
    advice = comment_lines(_("give the prediction and the target the same shape"))
    return Card(_("Prediction and target have different shapes"), join(said, rule), fix or advice, advice=advice)


def _nonleaf_grad(ctx: ErrorContext) -> Card:
    node = next((n for n in ctx.nodes() if isinstance(n, ast.Attribute) and n.attr == "grad"), None)
    name = ast.unparse(node.value) if node is not None else "y"
    rule = _("`{name}` was computed from other tensors, so it is not a leaf, and backward() keeps gradients only on "
             "leaves: `{name}.grad` is None. To keep it, call {name}.retain_grad() before backward().").format(name=name)
    fix, line = None, None
    tree = parse(ctx.source)
    made = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Assign) and any(
        ast.unparse(t) == name for t in n.targets)] if tree is not None else []
    backward = sorted(n.lineno for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)
                      and call_name(n.value) == "backward") if tree is not None else []
    made_before = [m for m in made if m < (ctx.line or 0)]
    after = [b for b in backward if made_before and max(made_before) < b < (ctx.line or 0)]
    if after and node is not None:
        fix, line = f"{name}.retain_grad()  # " + _("keep the gradient of a non-leaf"), after[0]
    advice = comment_lines(_("call {name}.retain_grad() before backward()").format(name=name))
    return Card(_("Reading .grad of a tensor that is not a leaf"), rule, fix or advice, mode="before", fix_line=line,
                advice=advice)


def _softmax_dim(ctx: ErrorContext) -> Card:
    op = ctx.g("op")
    call = next(iter(ctx.calls(op)), None)
    value = None
    if call is not None:
        first = receiver(call) if receiver(call) is not None and not call.args else (call.args[0] if call.args else None)
        value = ctx.tensors.get(ast.unparse(first)) if first is not None else None
    shape = shape_of(value)
    rule = _("{op} turns numbers into probabilities along one dimension, and which one matters: along rows or along "
             "columns give different results. Without dim=, PyTorch guesses from the number of dimensions; that "
             "guess is deprecated. Say it.").format(op=op)
    fix = None
    if call is not None and shape is not None:
        dim = 0 if len(shape) in (0, 1, 3) else 1  # the guess PyTorch makes, so the values stay the same
        fix = swap(ctx, call, with_args(call, keywords={"dim": str(dim)}))
        fix = f"{fix}  # " + _("the dimension PyTorch guessed; -1 is the usual choice for [N, C]") if fix else None
    advice = comment_lines(_("pass dim=, e.g. dim=-1 for the last dimension"))
    return Card(_("{op} without dim").format(op=op), join(ctx.facts_sentence(), rule), fix or advice, advice=advice)


def _copy_construct(ctx: ErrorContext) -> Card:
    call = next((c for c in ctx.calls("tensor") if c.args and ast.unparse(c.args[0]) in ctx.tensors), None)
    name = ast.unparse(call.args[0]) if call is not None else "x"
    rule = _("torch.tensor() is meant for Python numbers and lists. Given a tensor, it copies it and drops its graph, "
             "which .detach().clone() says openly.")
    fix = None
    if call is not None and not call.keywords:
        fix = swap(ctx, call, f"{name}.detach().clone()")
    advice = comment_lines(_("copy a tensor with .detach().clone()"))
    return Card(_("torch.tensor() of a tensor"), join(ctx.facts_sentence([name] if name in ctx.tensors else []), rule),
                fix or advice, advice=advice)


def _transpose_nd(ctx: ErrorContext) -> Card:
    node = next((n for n in ctx.nodes() if isinstance(n, ast.Attribute) and n.attr == "T"), None)
    name = ast.unparse(node.value) if node is not None else "x"
    shape = shape_of(ctx.tensors.get(name))
    rule = _(".T reverses all the dimensions, which is only clear for a matrix; on other tensors it is deprecated. "
             "Use .mT to transpose the last two dimensions (a batch of matrices), or permute to say the order.")
    fix = None
    if node is not None and shape:
        order = ", ".join(str(d) for d in reversed(range(len(shape))))
        fix = swap(ctx, node, f"{name}.permute({order})")
        fix = f"{fix}  # " + _("the same result, said openly") if fix else None
    advice = comment_lines(_("use .mT or .permute(...)"))
    return Card(_(".T on a tensor that is not a matrix"), join(ctx.facts_sentence([name] if shape else []), rule),
                fix or advice, advice=advice)


ENTRIES: list[Entry] = [
    Entry("loss_shape_broadcast", ("UserWarning",), (
        r"Using a target size \(torch\.Size\(\[(?P<t>[\d, ]*)\]\)\) that is different to the input size "
        r"\(torch\.Size\(\[(?P<i>[\d, ]*)\]\)\)",
    ), _target_size),
    Entry("nonleaf_grad_read", ("UserWarning",), (
        r"The \.grad attribute of a Tensor that is not a leaf Tensor is being accessed",
    ), _nonleaf_grad),
    Entry("softmax_without_dim", ("UserWarning",), (
        r"Implicit dimension choice for (?P<op>softmax|log_softmax|softmin) has been deprecated",
    ), _softmax_dim),
    Entry("tensor_of_tensor", ("UserWarning",), (
        r"To copy construct from a tensor, it is recommended to use sourceTensor\.(?:detach\(\)\.)?clone\(\)",
    ), _copy_construct),
    Entry("transpose_not_matrix", ("UserWarning", "DeprecationWarning"), (
        r"The use of `x\.T` on tensors of dimension other than 2",
    ), _transpose_nd),
]


class _Warned(Warning):
    """Stands for a warning category given by name."""


def _user_frame(frame: FrameType | None, code_filenames: Iterable[str]) -> FrameType | None:
    while frame is not None and not is_user_file(frame.f_code.co_filename, code_filenames):
        frame = frame.f_back
    return frame


def warning_card(message: str, category: type | str, filename: str, lineno: int | None, namespace: dict,
                 code: str | None, code_filenames: Iterable[str], frame: FrameType | None = None) -> dict | None:
    """The card for one warning, or None when it did not come from the learner's code."""
    scopes: list[dict[str, Any]] = [namespace]
    if not is_user_file(filename, code_filenames):
        user = _user_frame(frame, code_filenames)
        if user is None:
            return None
        filename, lineno = user.f_code.co_filename, user.f_lineno
        # f_locals need not be a dict (a proxy on newer Pythons): only real dicts are searched.
        found: tuple[object, ...] = (user.f_locals, user.f_globals, namespace)
        scopes = [s for s in found if isinstance(s, dict)]
    source = source_of(filename)
    ctx = context_for(message, source, lineno, scopes, set())
    name = category if isinstance(category, str) else getattr(category, "__name__", "Warning")
    if isinstance(category, type) and issubclass(category, Warning):
        warning: Warning = category(message)
    else:
        warning = type(name, (_Warned,), {})(message)  # a category given by name: matched by that name
    key, card = "warning", None
    for entry in ENTRIES:
        match = entry.search(warning, ctx)
        if match is not None:
            ctx.match = match
            key, card = entry.key, entry.build(ctx)
            break
    if card is None:
        card = Card(_("Python warns: {kind}").format(kind=name), join(
            _("This is not an error: the code ran. The message above says what may be wrong."), ctx.facts_sentence()),
            None, mode=None)
    offset = (cell_offset(code, source) or 0) if code is not None and source else 0
    return {"type": name, "message": message[:2000], **card_dict(key, card, ctx, offset, "warning")}
