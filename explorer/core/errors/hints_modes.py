"""Hints on evaluating: a model with dropout or batch norm tested in training mode, training left in eval mode,
validation that records a graph, and a running total that keeps every iteration's graph alive.

The values confirm each: the model really has such layers, the tensors left after the run really carry
a graph, and the memory that graph holds is measured (saved tensors, the weights left out: they stay anyway).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from explorer.core.errors.context import join
from explorer.core.errors.entry import Card
from explorer.core.errors.hints_ast import (
    Loop,
    enclosing_function,
    eval_iterable,
    facts,
    holds,
    is_called,
    is_no_grad,
    loops,
    method,
    resolve,
    under_no_grad,
    value_of,
)
from explorer.core.errors.hints_base import Found, assignments
from explorer.core.errors.hints_events import Event, event_value, loop_events, switches_off
from explorer.core.errors.safe import (
    flag,
    instance_dict,
    is_module,
    is_tensor,
    list_items,
    tensor_attr,
    walk_modules,
)
from explorer.core.errors.source import comment_lines, replaced
from explorer.core.errors.spelling import spell
from explorer.core.files.common import human_bytes
from explorer.core.i18n import _, ngettext

_MODE_LAYERS = ("Dropout", "BatchNorm", "InstanceNorm")  # Dropout1d/2d/3d, AlphaDropout, BatchNorm1d/2d/3d, ...
_MAX_NODES = 20000
_MAX_ITEMS = 50


def mode_layers(module: Any) -> list[str]:
    """Class names of the layers that behave differently in train() and eval() mode."""
    return sorted({type(m).__name__ for _, m in walk_modules(module, "m", limit=500)
                   if any(word in type(m).__name__ for word in _MODE_LAYERS)})


def graph_memory(tensor: Any) -> tuple[int, int]:
    """(operations, bytes of saved tensors) of the autograd graph behind *tensor*; weights are not counted."""
    fn = tensor_attr(tensor, "grad_fn") if is_tensor(tensor) else None
    seen: set[int] = set()
    storages: set[int] = set()
    stack, total = [fn], 0
    while stack and len(seen) < _MAX_NODES:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        for attr in (a for a in dir(node) if a.startswith("_saved_")):
            try:
                saved = getattr(node, attr)
            except Exception:  # noqa: BLE001 - freed by a backward() already
                continue
            for item in saved if isinstance(saved, (tuple, list)) else (saved,):
                total += _activation_bytes(item, storages)
        stack += [child for child, _ in getattr(node, "next_functions", ()) or ()]
    return len(seen), total


def _activation_bytes(item: Any, storages: set[int]) -> int:
    """The bytes of a saved tensor's storage, once per storage; leaves (the weights) count nothing."""
    if not is_tensor(item) or (flag(item, "is_leaf") and flag(item, "requires_grad")):
        return 0
    try:
        storage = tensor_attr(item, "untyped_storage")
        key = int(storage.data_ptr())
        if key in storages:
            return 0
        storages.add(key)
        return int(storage.nbytes())
    except Exception:  # noqa: BLE001
        return 0


def _graph_words(tensor: Any) -> str:
    """``a graph of 9 operations and 1.2 kB of saved tensors``: what keeping *tensor* keeps."""
    ops, size = graph_memory(tensor)
    if size:
        return ngettext("a graph of {n} operation and {size} of saved tensors",
                        "a graph of {n} operations and {size} of saved tensors", ops).format(
            n=ops, size=human_bytes(size))
    return ngettext("a graph of {n} operation", "a graph of {n} operations", ops).format(n=ops)


# -- evaluation in training mode ------------------------------------------------------------------------
def _eval_blocks(tree: ast.AST, namespace: dict[str, Any]) -> list[ast.stmt]:
    """Code that only evaluates: ``with torch.no_grad():`` blocks, loops over test or validation data, and
    loops after ``model.eval()``, none of them running backward() (a function's only when it is called)."""
    known = facts(tree)
    key = ("eval_blocks", id(namespace))
    if key in known.cache:
        return known.cache[key]
    found = [n for n in known.nodes if isinstance(n, ast.stmt) and (
        (isinstance(n, (ast.With, ast.AsyncWith)) and is_no_grad(n)) or eval_iterable(n)
        or (isinstance(n, (ast.For, ast.While)) and _after_eval(tree, n, namespace)))]
    out = []
    for block in found:
        calls = {method(n) for n in ast.walk(block)}
        func = enclosing_function(tree, block)
        if "backward" in calls or "step" in calls or (func is not None and not is_called(tree, func.name)):
            continue
        if not any(holds(tree, other, block) for other in found if other is not block):
            out.append(block)
    known.cache[key] = sorted(out, key=lambda n: n.lineno)
    return known.cache[key]


def _after_eval(tree: ast.AST, loop: ast.stmt, namespace: dict[str, Any]) -> bool:
    """A loop that runs a module after that module's ``eval()`` was called earlier in the code."""
    return any(_mode_calls(tree, name, model, "eval", namespace, before=loop.lineno)
               for name, model in _called_modules(tree, loop, namespace, any_module=True))


def _called_modules(tree: ast.AST, block: ast.AST, namespace: dict[str, Any],
                    any_module: bool = False) -> list[tuple[str, Any]]:
    """Modules the block calls by name (with dropout or batch norm unless *any_module*)."""
    found = {}
    for call in ast.walk(block):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name):
            ok, value = resolve(tree, call, call.func.id, namespace)
            if ok and is_module(value) and (any_module or mode_layers(value)):
                found[call.func.id] = value
    return list(found.items())


def _mode_calls(tree: ast.AST, name: str, model: Any, mode: str, namespace: dict[str, Any],
                before: int | None = None) -> list[int]:
    """Lines of the calls that put *model* in *mode* (``eval()`` / ``train(False)``, or ``train()``)."""
    lines = []
    for node in facts(tree).calls:
        if not (isinstance(node.func, ast.Attribute) and node.func.attr in ("eval", "train")):
            continue
        kind = "eval" if node.func.attr == "eval" or switches_off(node) else "train"
        owner = ast.unparse(node.func.value)
        same = owner == name or resolve(tree, node, owner, namespace)[1] is model
        if kind == mode and same and (before is None or node.lineno < before):
            lines.append(node.lineno)
    return lines


def _tested_in_train_mode(tree: ast.AST, namespace: dict[str, Any]) -> list[Found]:
    for block in _eval_blocks(tree, namespace):
        for name, model in _called_modules(tree, block, namespace):
            if not _mode_calls(tree, name, model, "eval", namespace):
                return [_eval_hint(block, name, model)]
    return []


def _eval_hint(block: ast.stmt, name: str, model: Any) -> Found:
    layers = ", ".join(mode_layers(model))
    explanation = join(
        _("`{name}` has {layers}, which behave differently while training: dropout switches values off at "
          "random and batch norm uses the statistics of the batch it sees.").format(name=name, layers=layers),
        _("This code evaluates `{name}` without `{name}.eval()`, so it is still in training mode: the results "
          "change from run to run and batch norm keeps learning from the test data.").format(name=name),
        _("Call `{name}.eval()` before evaluating (and `{name}.train()` before training again).").format(name=name))
    return Found("eval_mode_missing", block.lineno, Card(
        _("Tested in training mode"), explanation, f"{name}.eval()", mode="before", fix_line=block.lineno))


# -- training left in eval mode ---------------------------------------------------------------------------
def _train_not_restored(tree: ast.AST, namespace: dict[str, Any]) -> list[Found]:
    for loop in loops(tree):
        events = loop_events(tree, loop, namespace)
        kinds = {e.kind for e in events}
        if not {"backward", "eval"} <= kinds or not _repeats(loop, namespace):
            continue
        for event in events:
            ok, model = event_value(tree, event, namespace)
            restored = any(e.kind == "train" and e.name == event.name for e in events)
            # The value confirms it: the model was left in eval mode by the run.
            if event.kind == "eval" and ok and is_module(model) and mode_layers(model) and not restored \
                    and instance_dict(model).get("training") is False:
                return [_train_hint(loop, str(event.name), model, event)]
    return []


def _repeats(loop: Loop, namespace: dict[str, Any]) -> bool:
    """False only for ``for _ in range(1)``: the loop runs once."""
    it = getattr(loop, "iter", None)
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and len(it.args) == 1:
        arg = it.args[0]
        count = arg.value if isinstance(arg, ast.Constant) else value_of(getattr(arg, "id", None), namespace)[1]
        return not (isinstance(count, int) and count <= 1)
    return True


def _train_hint(loop: Loop, name: str, model: Any, eval_event: Event) -> Found:
    first = loop.body[0]
    explanation = join(
        _("`{name}.eval()` on line {line} puts {layers} in evaluation mode, but nothing in the loop puts them back "
          "in training mode: from the second pass on, `{name}` trains in eval mode.").format(
            name=name, line=eval_event.line, layers=", ".join(mode_layers(model))),
        _("Call `{name}.train()` at the start of each pass.").format(name=name))
    return Found("train_mode_not_restored", first.lineno, Card(
        _("Training goes on in eval mode"), explanation, f"{name}.train()", mode="before", fix_line=first.lineno))


# -- validation that records a graph ---------------------------------------------------------------------
def _validation_with_graph(tree: ast.AST, namespace: dict[str, Any]) -> list[Found]:
    for block in _eval_blocks(tree, namespace):
        if isinstance(block, (ast.With, ast.AsyncWith)) or under_no_grad(tree, block):
            continue
        for stmt in (n for n in ast.walk(block) if isinstance(n, ast.Assign) and len(n.targets) == 1):
            target = stmt.targets[0]
            value = resolve(tree, stmt, target.id, namespace)[1] if isinstance(target, ast.Name) else None
            if isinstance(target, ast.Name) and _called_modules(tree, stmt, namespace, any_module=True) \
                    and is_tensor(value) \
                    and tensor_attr(value, "grad_fn") is not None:
                return [_graph_hint(block, stmt, target.id, value, namespace)]
    return []


def _graph_hint(block: ast.stmt, stmt: ast.Assign, name: str, value: Any, namespace: dict[str, Any]) -> Found:
    no_grad = spell("torch.no_grad", [namespace]) or "torch.no_grad"
    explanation = join(
        _("This loop only evaluates (no backward()), but it runs outside torch.no_grad(), so every pass records "
          "an autograd graph that nothing will use."),
        _("`{name}` still holds {graph}. Each pass builds one again, costing time and memory (on a GPU, often "
          "the out-of-memory error in validation).").format(name=name, graph=_graph_words(value)),
        _("Evaluate inside `with torch.no_grad():`."))
    fix = f"with {no_grad}():\n    {replaced(stmt)}"
    return Found("validation_records_graph", stmt.lineno, Card(
        _("Validation records a graph"), explanation, fix, fix_line=stmt.lineno,
        advice=comment_lines(_("run the evaluation inside with torch.no_grad():"))))


# -- a running total that keeps every graph ------------------------------------------------------------------
def _feeds_backward(tree: ast.AST) -> set[str]:
    """Names whose value a backward() call uses, through the assignments that compute it (``total`` in
    ``loss = total / n; loss.backward()``): a total kept for one backward() keeps its graph on purpose."""
    feeding = {n.id for call in facts(tree).calls if method(call) == "backward"
               and isinstance(call.func, ast.Attribute) for n in ast.walk(call.func.value) if isinstance(n, ast.Name)}
    feeding |= {n.id for call in facts(tree).calls if isinstance(call.func, ast.Name)
                and call.func.id == "backward" for a in call.args for n in ast.walk(a) if isinstance(n, ast.Name)}
    steps = [(t, s.value) for t, s in assignments(tree)]
    grown = True
    while grown:
        before = len(feeding)
        feeding |= {n.id for target, value in steps if target in feeding for n in ast.walk(value)
                    if isinstance(n, ast.Name)}
        grown = len(feeding) > before
    return feeding


def _running_total(tree: ast.AST, namespace: dict[str, Any]) -> list[Found]:
    backwarded = _feeds_backward(tree)
    for loop in loops(tree):
        for stmt in (n for n in ast.walk(loop) if isinstance(n, ast.stmt)):
            found = _accumulates(tree, stmt, namespace)
            if found is not None and found[0] not in backwarded:
                return [_total_hint(stmt, *found)]
    return []


def _accumulates(tree: ast.AST, stmt: ast.AST, namespace: dict[str, Any]) -> tuple[str, ast.AST, Any] | None:
    """(total's name, the added expression, the total's value) for ``total += loss`` / ``losses.append(loss)``."""
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Add) and isinstance(stmt.target, ast.Name):
        value = resolve(tree, stmt, stmt.target.id, namespace)[1]
        if is_tensor(value) and tensor_attr(value, "grad_fn") is not None and (tensor_attr(value, "dim") == 0):
            return stmt.target.id, stmt.value, value
    if isinstance(stmt, ast.Expr) and method(stmt.value) == "append" and isinstance(stmt.value, ast.Call):
        owner = stmt.value.func.value if isinstance(stmt.value.func, ast.Attribute) else None
        items = list_items(resolve(tree, stmt, owner.id, namespace)[1], _MAX_ITEMS) if isinstance(owner, ast.Name) else []
        graphs = [t for t in items if is_tensor(t) and tensor_attr(t, "grad_fn") is not None]
        if owner is not None and stmt.value.args and len(graphs) > 1 and len(graphs) == len(items):
            return ast.unparse(owner), stmt.value.args[0], items
    return None


def _total_hint(stmt: ast.stmt, name: str, added: ast.AST, value: Any) -> Found:
    if isinstance(value, list):
        graph = ngettext("{n} tensor, each with its own graph", "{n} tensors, each with its own graph",
                         len(value)).format(n=len(value))
    else:
        graph = _graph_words(value)
    text = ast.unparse(added)
    wrapped = text if isinstance(added, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)) else f"({text})"
    explanation = join(
        _("`{added}` is a tensor with its autograd graph, so adding it to `{name}` keeps that graph alive, and the "
          "next pass adds another: `{name}` now holds {graph}.").format(added=text, name=name, graph=graph),
        _("Memory grows with every pass. For a running total you need the number only: `{added}.item()`.").format(
            added=wrapped))
    return Found("running_total_keeps_graph", stmt.lineno, Card(
        _("The running total keeps every graph"), explanation, replaced(stmt, {added: f"{wrapped}.item()"}),
        fix_line=stmt.lineno))


def mode_checks() -> tuple[Callable[[ast.AST, dict[str, Any]], list[Found]], ...]:
    """The evaluation checks, in the order they run."""
    return (_tested_in_train_mode, _train_not_restored, _validation_with_graph, _running_total)

