"""Where a loss lost its graph: the step whose input was tracked and whose output is not (argmax, round, .long()).

Read from the live values: a step that reads a tensor with a ``grad_fn`` (or calls a model)
and leaves a tensor without one cut the graph there. ``argmax`` gives class numbers,
which have no gradient; making the target require grad would silence the error and
teach nothing. When the loss is a classification loss, it is given the scores instead.
"""

from __future__ import annotations

import ast

from explorer.core.errors.context import ErrorContext, call_name, lookup
from explorer.core.errors.flow import Step, has_grad_fn, reads
from explorer.core.errors.safe import flag, is_module, is_tensor, module_parameters
from explorer.core.errors.source import comment_lines, replaced
from explorer.core.i18n import _

_NO_GRADIENT = {"argmax", "argmin", "round", "floor", "ceil", "sign", "long", "int", "bool", "argsort", "indices"}
_CLASSIFY = {"cross_entropy", "CrossEntropyLoss", "nll_loss", "NLLLoss"}


def _tracked(ctx: ErrorContext, name: str) -> bool:
    """True for a tensor with a grad_fn or a model with trainable weights."""
    found, value = ctx.value(name)
    if not found:
        return False
    if is_module(value):
        return any(flag(p, "requires_grad") for _n, p in module_parameters(value, limit=20))
    return has_grad_fn(ctx.scopes, name) or (is_tensor(value) and flag(value, "requires_grad"))


def _why(node: ast.AST) -> str | None:
    """The operation in an expression whose result carries no gradient."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.Call) and call_name(inner) in _NO_GRADIENT:
            return call_name(inner)
        if isinstance(inner, ast.Attribute) and inner.attr == "indices":
            return "indices"
        if isinstance(inner, ast.Compare):
            return "comparison"
        if isinstance(inner, ast.Subscript) and isinstance(inner.value, ast.Call) and call_name(inner.value) == "max" \
                and isinstance(inner.slice, ast.Constant) and inner.slice.value == 1:
            return "max(...)[1]"
    return None


def cut_step(ctx: ErrorContext, steps: list[Step]) -> tuple[Step, str, str] | None:
    """(the step, the tracked name it read, the operation) where the graph stopped."""
    for step in steps:
        found, value = ctx.value(step.target)
        if not (found and is_tensor(value)) or has_grad_fn(ctx.scopes, step.target) or flag(value, "requires_grad"):
            continue
        source = next((n for n in sorted(reads(step.stmt.value)) if _tracked(ctx, n)), None)
        why = _why(step.stmt.value)
        if source is not None and why is not None:
            return step, source, why
    return None


def _classifies(ctx: ErrorContext, call: ast.Call) -> bool:
    """True for cross_entropy / nll_loss, or a call of a CrossEntropyLoss / NLLLoss module."""
    found, callee = lookup(call.func, ctx.scopes)
    if found and is_module(callee):
        return type(callee).__name__ in _CLASSIFY
    return call_name(call) in _CLASSIFY


def _loss_step(ctx: ErrorContext, steps: list[Step], name: str) -> tuple[Step, ast.Call] | None:
    """The later step that gives *name* to a classification loss, and that call."""
    for step in steps:
        for node in ast.walk(step.stmt.value):
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name) \
                    and node.args[0].id == name and _classifies(ctx, node):
                return step, node
    return None


def _scores(step: Step, source: str) -> str | None:
    """The code of the scores the cut step started from (``logits`` in ``pred = logits.argmax(1)``)."""
    for node in ast.walk(step.stmt.value):
        if isinstance(node, ast.Name) and node.id == source:
            return source
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == source:
            return ast.unparse(node)  # pred = model(x).argmax(1): the scores are model(x)
    return None


def explain_cut(ctx: ErrorContext, steps: list[Step], loss: str) -> tuple[str, str | None] | None:
    """(the cause in words, the fix code or None) when a step of the loss's computation cut the graph."""
    found = cut_step(ctx, steps)
    if found is None:
        return None
    step, source, why = found
    cause = _("`{name}` was made from `{source}` with {op}, which gives whole numbers (class indices, rounded or "
              "compared values): they have no gradient, so nothing before them can learn from `{loss}`. Making "
              "another tensor require grad would only hide this.").format(name=step.target, source=source, op=why,
                                                                           loss=loss)
    later = _loss_step(ctx, steps[steps.index(step) + 1:], step.target)
    scores = _scores(step, source)
    if later is None or scores is None:
        words = comment_lines(_("compute {loss} from the scores ({source}) with a loss made for them, such as "
                                "cross_entropy; use {op} only to measure accuracy").format(loss=loss, source=source, op=why))
        return cause, words
    loss_step, call = later
    twin = ast.Call(func=call.func, args=[ast.parse(scores, mode="eval").body, *call.args[1:]], keywords=call.keywords)
    fix = replaced(loss_step.stmt, {call: twin}) + "  # " + _("the loss reads the scores; {op} only for accuracy").format(op=why)
    return cause, fix
