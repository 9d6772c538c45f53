"""Hints on the order of a training step: gradients never cleared, cleared too late, never computed, or handed
to an optimizer that holds another model's weights. Each is read from the loop's events (:mod:`hints_ast`)
and confirmed by the values after the run (the optimizer's parameters and their ``.grad``)."""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable
from typing import Any

from explorer.core.errors.context import join
from explorer.core.errors.entry import Card
from explorer.core.errors.hints_ast import Loop, loops, modules_called, resolve
from explorer.core.errors.hints_base import Found, assignments
from explorer.core.errors.hints_events import Event, event_value, loop_events
from explorer.core.errors.safe import (
    flag,
    grad_of,
    instance_dict,
    is_optimizer,
    is_tensor,
    module_parameters,
    no_torch_function,
    shape_of,
)
from explorer.core.errors.source import comment_lines
from explorer.core.i18n import _

_MAX_PARAMS = 200


def optimizer_params(opt: Any) -> list[Any]:
    """The tensors an optimizer holds, read from its ``param_groups`` (no method called)."""
    held: list[Any] = []
    for group in instance_dict(opt).get("param_groups") or []:
        if type(group) is dict:
            held += [p for p in list(group.get("params") or [])[:_MAX_PARAMS] if is_tensor(p)]
    return held


def _optimizers(tree: ast.AST, events: list[Event], namespace: dict[str, Any]) -> list[tuple[str, Any]]:
    """(name, optimizer) of the steps whose optimizer the namespace holds."""
    found = []
    for event in events:
        if event.kind == "step":
            ok, value = event_value(tree, event, namespace)
            if ok and is_optimizer(value):
                found.append((str(event.name), value))
    return found


def _any_grad(tensors: list[Any]) -> bool:
    return any(grad_of(t) is not None for t in tensors)


def training_loops(tree: ast.AST, namespace: dict[str, Any]) -> list[tuple[Loop, list[Event]]]:
    """Loops whose iteration calls backward() and steps, innermost only (an epoch loop around one is skipped)."""
    found = []
    for loop in loops(tree):
        events = loop_events(tree, loop, namespace)
        kinds = {e.kind for e in events}
        if {"backward", "step"} <= kinds:
            found.append((loop, events))
    ids = [{id(e.stmt) for e in events} for _, events in found]
    return [pair for pair, own in zip(found, ids) if not any(other < own for other in ids)]


def _ran(tree: ast.AST, events: list[Event], namespace: dict[str, Any]) -> bool:
    """The loop's values show it ran backward: its optimizer's (or hand-updated tensor's) ``.grad`` is filled."""
    held = [p for _, opt in _optimizers(tree, events, namespace) for p in optimizer_params(opt)]
    for event in events:
        ok, value = event_value(tree, event, namespace) if event.kind == "step" else (False, None)
        if ok and is_tensor(value):
            held.append(value)
    return _any_grad(held)


# -- gradients never cleared --------------------------------------------------------------------------
def _never_cleared(tree: ast.AST, namespace: dict[str, Any]) -> list[Found]:
    found = []
    for _loop, events in training_loops(tree, namespace):
        if any(e.kind == "zero" for e in events) or not _ran(tree, events, namespace):
            continue
        backward = next(e for e in events if e.kind == "backward")
        step = next(e for e in events if e.kind == "step")
        found.append(_cleared_hint(tree, backward, step, events, namespace))
    return found


def _cleared_hint(tree: ast.AST, backward: Event, step: Event, events: list[Event], namespace: dict[str, Any]) -> Found:
    opt = step.name if is_optimizer(event_value(tree, step, namespace)[1]) or "opt" in str(step.name) else None
    manual = [e.name for e in events if e.kind == "step" and e.name and e.name != opt
              and is_tensor(event_value(tree, e, namespace)[1])]
    if opt:
        zero, stepped = f"{opt}.zero_grad()", f"{opt}.step()"
    else:
        zero, stepped = "\n".join(f"{n}.grad = None" for n in dict.fromkeys(manual)), ast.unparse(step.stmt)
    explanation = join(
        _("backward() adds each new gradient to what .grad already holds. This loop runs {step} on every pass but "
          "never clears the gradients, so each step uses the sum of all the gradients so far: the steps grow and "
          "the training goes wrong.").format(step=stepped.splitlines()[0]),
        _("Running the cell again keeps adding to them. Clear them once per step, before backward()."))
    return Found("grad_never_zeroed", backward.line, Card(
        _("The gradients are never cleared"), explanation, zero or None, mode="before", fix_line=backward.line,
        advice=comment_lines(_("call optimizer.zero_grad() before loss.backward() in every pass of the loop"))))


# -- cleared between backward() and step() ----------------------------------------------------------
def _cleared_too_late(tree: ast.AST, namespace: dict[str, Any]) -> list[Found]:
    found = []
    for _loop, events in training_loops(tree, namespace):
        zero = _misplaced_zero(events)
        held = [p for _, opt in _optimizers(tree, events, namespace) for p in optimizer_params(opt)]
        if zero is None or not held or any(_nonzero_grad(p) for p in held):
            continue  # the values must show what the step saw: no gradient at all
        found.append(_late_hint(zero))
    return found


def _misplaced_zero(events: list[Event]) -> Event | None:
    """A clearing that comes after a backward() and before the step() that would use it."""
    for index, event in enumerate(events):
        if event.kind != "zero":
            continue
        before = next((e for e in reversed(events[:index]) if e.kind in ("backward", "step")), None)
        after = next((e for e in events[index + 1:] if e.kind in ("backward", "step")), None)
        if before is not None and before.kind == "backward" and after is not None and after.kind == "step":
            return event
    return None


def _nonzero_grad(tensor: Any) -> bool:
    grad = grad_of(tensor)
    if grad is None:
        return False
    torch = sys.modules.get("torch")
    try:
        with no_torch_function():
            return bool(torch.Tensor.any(grad)) if torch is not None else True
    except Exception:  # noqa: BLE001
        return True


def _late_hint(zero: Event) -> Found:
    call = ast.unparse(zero.stmt).strip()
    explanation = join(
        _("`{call}` runs after backward() and before step(): it throws the gradients away just before the step "
          "that needs them, so step() sees none and the weights never learn.").format(call=call),
        _("Clear the gradients before backward() (or after step()), never between the two."))
    advice = comment_lines(_("move {call} before loss.backward() (or after the optimizer's step())").format(call=call))
    return Found("grad_zeroed_before_step", zero.line, Card(
        _("The gradients are cleared before the step uses them"), explanation, advice, mode=None, advice=advice))


# -- step() without backward() ------------------------------------------------------------------------
def _step_without_backward(tree: ast.AST, namespace: dict[str, Any]) -> list[Found]:
    if any(isinstance(n, ast.Call) and (getattr(n.func, "attr", None) in ("backward", "grad")
                                        or getattr(n.func, "id", None) in ("backward", "grad")) for n in ast.walk(tree)):
        return []
    for loop in loops(tree):
        events = loop_events(tree, loop, namespace)
        for name, opt in _optimizers(tree, events, namespace):
            held = optimizer_params(opt)
            if held and not _any_grad(held) and any(flag(p, "requires_grad") for p in held):
                step = next(e for e in events if e.kind == "step" and e.name == name)
                return [_no_backward_hint(tree, loop, step, name, namespace)]
    return []


def _loss_name(tree: ast.AST, loop: Loop, before: int, namespace: dict[str, Any]) -> str | None:
    """The last name the loop assigns before *before* whose value is a scalar that requires grad."""
    found = None
    for name, stmt in assignments(loop):
        value = resolve(tree, stmt, name, namespace)[1]
        if stmt.lineno < before and is_tensor(value) and flag(value, "requires_grad") and shape_of(value) == []:
            found = name
    return found


def _no_backward_hint(tree: ast.AST, loop: Loop, step: Event, name: str, namespace: dict[str, Any]) -> Found:
    loss = _loss_name(tree, loop, step.line, namespace)
    explanation = join(
        _("`{name}.step()` moves each weight by its gradient, but nothing in this code calls backward(), so "
          "there are no gradients (every .grad is None) and step() changes nothing.").format(name=name),
        _("Compute the loss, call loss.backward(), then step()."))
    advice = comment_lines(_("call loss.backward() before {name}.step()").format(name=name))
    return Found("step_without_backward", step.line, Card(
        _("step() without backward(): the weights never change"), explanation,
        f"{loss}.backward()" if loss else advice, mode="before", fix_line=step.line, advice=advice))


# -- an optimizer over another model's parameters -------------------------------------------------------
def _other_model(tree: ast.AST, namespace: dict[str, Any]) -> list[Found]:
    """An optimizer that holds none of the weights of any model the loop runs (two models, two optimizers: fine)."""
    for loop, events in training_loops(tree, namespace):
        called = {name: [p for _, p in module_parameters(m, limit=_MAX_PARAMS)]
                  for name, m in modules_called(tree, list(loop.body), namespace).items()}
        called = {name: params for name, params in called.items() if params}
        for opt_name, opt in _optimizers(tree, events, namespace):
            held = {id(p) for p in optimizer_params(opt)}
            if not held or any(held & {id(p) for p in params} for params in called.values()):
                continue
            trained = [name for name, params in called.items() if _any_grad(params)]
            if trained:
                return [_other_hint(tree, loop, opt_name, trained[0])]
    return []


def _constructor(tree: ast.AST, name: str) -> ast.Assign | None:
    """The last ``name = torch.optim.X(...)`` statement."""
    found = [stmt for target, stmt in assignments(tree) if target == name and isinstance(stmt.value, ast.Call)
             and "optim" in ast.unparse(stmt.value.func)]
    return found[-1] if found else None


def _other_hint(tree: ast.AST, loop: Loop, opt: str, model: str) -> Found:
    made = _constructor(tree, opt)
    again = [s.lineno for t, s in assignments(tree) if t == model and made is not None and s.lineno > made.lineno
             and s.lineno < loop.lineno]
    if again:
        cause = _("`{model}` was made again on line {line}, after `{opt}` took the parameters of the model it had "
                  "before.").format(model=model, line=again[-1], opt=opt)
    else:
        cause = _("`{opt}` was given the parameters of another model.").format(opt=opt)
    explanation = join(
        cause, _("So `{opt}.step()` updates weights this loop never uses, and `{model}` keeps its first weights "
                 "however long it trains.").format(opt=opt, model=model),
        _("Build the optimizer from the model you train, after that model is made."))
    fix = None
    if made is not None and isinstance(made.value, ast.Call):
        call = made.value
        rest = [ast.unparse(a) for a in call.args[1:]] + [ast.unparse(k) for k in call.keywords]
        fix = f"{opt} = {ast.unparse(call.func)}({', '.join([f'{model}.parameters()', *rest])})"
    advice = comment_lines(_("make {opt} from {model}.parameters() after {model} is created").format(
        opt=opt, model=model))
    return Found("optimizer_other_model", loop.lineno, Card(
        _("The optimizer trains another model"), explanation, fix or advice, mode="before", fix_line=loop.lineno,
        advice=advice))


def train_checks() -> tuple[Callable[[ast.AST, dict[str, Any]], list[Found]], ...]:
    """The training-step checks, in the order they run."""
    return (_never_cleared, _cleared_too_late, _step_without_backward, _other_model)
