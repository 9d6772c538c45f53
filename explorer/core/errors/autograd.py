"""Catalogue entries for a backward() with no graph to walk: the graph was freed, or never recorded."""

from __future__ import annotations

import ast
import types
from typing import Any

from explorer.core.errors.carried import ENTRIES as CARRIED_ENTRIES
from explorer.core.errors.context import ErrorContext, join
from explorer.core.errors.cut import explain_cut
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.flow import (
    Step,
    chain,
    converts_out,
    cuts_graph,
    has_grad_fn,
    reads,
    steps_before,
    uncut,
)
from explorer.core.errors.inplace import ENTRIES as INPLACE_ENTRIES
from explorer.core.errors.safe import (
    flag,
    grad_of,
    instance_dict,
    is_float,
    is_module,
    is_optimizer,
    is_tensor,
    module_parameters,
    tensor_attr,
)
from explorer.core.errors.source import comment_lines
from explorer.core.i18n import _


def _backward_name(ctx: ErrorContext) -> str | None:
    """The expression ``.backward()`` is called on, e.g. 'loss'."""
    return ctx.receiver("backward")


def _steps(ctx: ErrorContext) -> list[Step]:
    return steps_before(ctx.body, ctx.statement.lineno) if ctx.statement is not None else []


def _tracked_leaf(value: Any) -> bool:
    return is_tensor(value) and flag(value, "requires_grad") and flag(value, "is_leaf")


def _clear_lines(ctx: ErrorContext, names: list[str]) -> list[str]:
    """``w.grad = None`` / ``model.zero_grad()`` for the leaves and modules that already hold a gradient."""
    lines = []
    for name in names:
        found, value = ctx.value(name)
        if found and _tracked_leaf(value) and grad_of(value) is not None:
            lines.append(f"{name}.grad = None")
        elif found and is_module(value) and any(grad_of(p) is not None for _, p in module_parameters(value)):
            lines.append(f"{name}.zero_grad()")
    return lines


def _ordered(names: set[str], steps: list[Step]) -> list[str]:
    """Names in the order the steps first read them."""
    seen: list[str] = []
    for step in steps:
        for node in ast.walk(step.stmt.value):
            if isinstance(node, ast.Name) and node.id in names and node.id not in seen:
                seen.append(node.id)
    return seen


def _doubling(ctx: ErrorContext, leaves: list[str]) -> str:
    """'`w.grad` is 4.0 now; a second backward() would make it 8.0.' for one scalar leaf, else ''."""
    for name in leaves:
        found, value = ctx.value(name)
        grad = grad_of(value) if found else None
        if grad is not None and tensor_attr(grad, "numel") == 1:
            now = float(tensor_attr(grad, "item"))
            return _("`{name}.grad` is {now} now; a second backward() would make it {twice}.").format(
                name=name, now=f"{now:g}", twice=f"{2 * now:g}")
    return ""


def _backward_twice(ctx: ErrorContext) -> Card:
    name = _backward_name(ctx) or "loss"
    graph = _("`{name}`'s graph was already used by an earlier backward(). To save memory, backward() frees the "
              "values the graph kept, so the same graph cannot be walked a second time.").format(name=name)
    steps = _steps(ctx)
    recompute, starts = chain(name, steps, keep=lambda s: has_grad_fn(ctx.scopes, s.target))
    leaves = _ordered(starts, recompute)
    adds = _("Gradients also add up: every backward() adds into .grad. With retain_graph=True a second call would "
             "run, but it would double the gradient.")
    rule = _("Clear the old gradients, then compute {name} again: a new graph for each backward().").format(name=name)
    fix = None
    clear = _clear_lines(ctx, leaves)
    if recompute and clear:
        fix = "\n".join([comment_lines(_("gradients add up: start again from zero")), *clear,
                         comment_lines(_("a new graph: compute {name} again").format(name=name)),
                         *(ast.unparse(s.stmt) for s in recompute)])
    advice = comment_lines(_("clear the gradients (.grad = None or zero_grad()), then run the lines that "
                             "compute {name} again before this backward()").format(name=name))
    return Card(_("backward() through the same graph twice"), join(graph, adds, _doubling(ctx, leaves), rule),
                fix or advice, mode="before", advice=advice)


def _computed(ctx: ErrorContext, step: Step) -> bool:
    """True when the step computes from existing tensors or modules (not a fresh tensor from numbers)."""
    for name in reads(step.stmt.value):
        found, value = ctx.value(name)
        if found and type(value) is not types.ModuleType and (is_tensor(value) or is_module(value)):
            return True
    return False


def _weights(ctx: ErrorContext, names: list[str]) -> list[str]:
    """The float leaves to switch on: those an optimizer holds, else every float leaf the loss starts from."""
    held: set[int] = set()
    for scope in ctx.scopes:
        for value in list(dict.values(scope)) if type(scope) is dict else []:
            if is_optimizer(value):
                for group in instance_dict(value).get("param_groups") or []:
                    held |= {id(p) for p in (group.get("params") or [])} if isinstance(group, dict) else set()
    leaves = [n for n in names if (v := ctx.value(n))[0] and is_tensor(v[1]) and is_float(v[1])
              and flag(v[1], "is_leaf") and not flag(v[1], "requires_grad")]
    if held:  # an optimizer says which tensors are the weights: never switch on the data or the target
        return [n for n in leaves if id(ctx.value(n)[1]) in held][:3]
    return leaves[:3]


def _untracked_cause(ctx: ErrorContext, name: str) -> tuple[str, str | None]:
    """(the cause in words, the fix code or None) for a loss that has no grad_fn."""
    everything = chain(name, _steps(ctx), keep=lambda s: True)[0]
    if any(converts_out(s) for s in everything):
        return _("The values went through .item(), .numpy() or .tolist(): plain numbers remember no graph."), None
    steps = [s for s in _steps(ctx) if _computed(ctx, s) or s.in_no_grad]
    flow, starts = chain(name, steps, keep=lambda s: True)
    cut = next((i for i, s in enumerate(flow) if cuts_graph(s)), None)
    if cut is not None:
        step = flow[cut]
        if step.in_no_grad:
            cause = _("`{name}` was computed inside torch.no_grad(), where nothing is recorded.").format(name=step.target)
        else:
            cause = _("`{name}` was computed with .detach() or .data, which cut it off the graph.").format(name=step.target)
        lines = [comment_lines(_("compute it again without the cut"))] + [uncut(s.stmt)[0] for s in flow[cut:]]
        return cause, "\n".join(lines)
    found = explain_cut(ctx, flow, name)
    if found is not None:
        return found
    weights = _weights(ctx, _ordered(starts, flow))
    if not weights or not flow:
        return "", None
    cause = _("None of the tensors it was computed from requires grad ({names}), so no graph was recorded.").format(
        names=", ".join(f"`{w}`" for w in weights))
    lines = [f"{w}.requires_grad_(True)" for w in weights]
    lines += [comment_lines(_("then compute {name} again").format(name=name))] + [ast.unparse(s.stmt) for s in flow]
    return cause, "\n".join(lines)


def _no_grad_fn(ctx: ErrorContext) -> Card:
    name = _backward_name(ctx) or "loss"
    found, value = ctx.value(name)
    untracked = found and is_tensor(value) and not flag(value, "requires_grad") and tensor_attr(value, "grad_fn") is None
    said = _("`{name}` has requires_grad=False and grad_fn=None.").format(name=name) if untracked else ""
    rule = _("backward() walks back along the graph of operations that made the value, but nothing in this "
             "computation was recorded, so there is no graph.")
    cause, fix = _untracked_cause(ctx, name)
    usual = "" if cause else _("Usual causes: no input was created with requires_grad=True, the value was computed "
                               "inside torch.no_grad(), or .detach() / .data / .item() / NumPy broke the chain.")
    advice = comment_lines(_("compute {name} from tensors that require grad, outside torch.no_grad() "
                             "and without .detach()").format(name=name))
    return Card(_("Nothing here requires grad"), join(said, rule, cause, usual), fix or advice, mode="before",
                advice=advice)


ENTRIES: list[Entry] = [
    *CARRIED_ENTRIES,
    Entry("backward_twice", ("RuntimeError",), (
        r"Trying to backward through the graph a second time",
    ), _backward_twice),
    Entry("no_grad_fn", ("RuntimeError",), (
        r"element 0 of tensors does not require grad and does not have a grad_fn",
    ), _no_grad_fn),
    *INPLACE_ENTRIES,
]
