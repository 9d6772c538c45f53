"""Hints on what a model's outputs go through: softmax over the batch, a loss fed probabilities instead of
logits, and ``F.dropout`` that stays on in eval mode. Each is read from the calls and confirmed by the values
(the tensor's shape, rows that already sum to 1, a live instance of the model class)."""

from __future__ import annotations

import ast
import copy
import sys
from collections.abc import Callable
from typing import Any

from explorer.core.errors.context import join
from explorer.core.errors.entry import Card
from explorer.core.errors.hints_ast import facts, method, resolve, value_of
from explorer.core.errors.hints_base import Found, assignments
from explorer.core.errors.safe import (
    is_float,
    is_module,
    is_tensor,
    module_children,
    no_torch_function,
    shape_of,
    tensor_attr,
)
from explorer.core.errors.source import comment_lines, replaced, statement_at
from explorer.core.i18n import _

_SOFTMAX = ("softmax", "log_softmax")
_MAX_READ = 1 << 24  # elements read to tell probabilities from scores
_LOSSES = {"CrossEntropyLoss": "cross_entropy", "NLLLoss": "nll_loss", "BCEWithLogitsLoss": "bce_logits"}
_FUNCTIONAL = {"cross_entropy": "cross_entropy", "nll_loss": "nll_loss",
               "binary_cross_entropy_with_logits": "bce_logits"}


def _softmax_input(call: ast.Call) -> tuple[ast.AST, ast.AST | None] | None:
    """(input, dim) of ``F.softmax(x, dim)``, ``torch.softmax(x, dim)`` or ``x.softmax(dim)``; None otherwise."""
    name = method(call) or getattr(call.func, "id", "")
    if name not in _SOFTMAX:
        return None
    dim = next((k.value for k in call.keywords if k.arg == "dim"), None)
    owner = call.func.value if isinstance(call.func, ast.Attribute) else None
    spelled = ast.unparse(owner) if owner is not None else ""
    if spelled == "self" or spelled.startswith("self."):
        return None  # a module of the model (nn.Softmax): its dim is in the module
    if owner is not None and not _is_functional(spelled):
        return owner, dim if dim is not None else (call.args[0] if call.args else None)
    if not call.args:
        return None
    return call.args[0], dim if dim is not None else (call.args[1] if len(call.args) > 1 else None)


def _is_functional(spelled: str) -> bool:
    """``torch``, ``F``, ``nn.functional``, ``torch.nn.functional``: a library namespace, not a tensor."""
    return spelled in ("torch", "F") or spelled.endswith("functional")


def _zero(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value == 0 and not isinstance(node.value, bool)


# -- softmax over the batch ----------------------------------------------------------------------------
def _softmax_over_batch(tree: ast.AST, namespace: dict[str, Any]) -> list[Found]:
    outputs = _model_outputs(tree, namespace)
    for call in facts(tree).calls:
        found = _softmax_input(call)
        if found is None or not _zero(found[1]) or not isinstance(found[0], ast.Name):
            continue
        name = found[0].id
        shape = shape_of(resolve(tree, call, name, namespace)[1])
        if shape is not None and len(shape) == 2 and shape[0] > 1 and name in outputs:
            stmt, _body = statement_at(tree, call.lineno)
            if stmt is not None:
                return [_batch_hint(stmt, call, name, shape)]
    return []


def _model_outputs(tree: ast.AST, namespace: dict[str, Any]) -> set[str]:
    """Names assigned the output of a module call (``logits = model(x)``): [batch, classes] scores."""
    return {name for name, stmt in assignments(tree) if isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name) and is_module(resolve(tree, stmt, stmt.value.func.id, namespace)[1])}


def _batch_hint(stmt: ast.stmt, call: ast.Call, name: str, shape: list[int]) -> Found:
    twin = copy.deepcopy(call)
    for keyword in twin.keywords:
        if keyword.arg == "dim":
            keyword.value = ast.Constant(value=1)
    if not any(k.arg == "dim" for k in twin.keywords):
        index = 0 if isinstance(call.func, ast.Attribute) and len(call.args) == 1 else 1
        twin.args[index] = ast.Constant(value=1)
    explanation = join(
        _("`{name}` is [{batch}, {classes}]: {batch} samples, {classes} scores each. Softmax with dim=0 makes "
          "every column sum to 1, so each sample's probabilities depend on the other samples in the batch and do "
          "not sum to 1 themselves.").format(name=name, batch=shape[0], classes=shape[1]),
        _("The classes are dim=1: each row becomes one sample's probabilities."))
    return Found("softmax_over_batch", stmt.lineno, Card(
        _("Softmax over the batch"), explanation, replaced(stmt, {call: twin}), fix_line=stmt.lineno))


# -- a loss fed probabilities ----------------------------------------------------------------------------
def _loss_kind(tree: ast.AST, call: ast.Call, namespace: dict[str, Any]) -> str | None:
    """cross_entropy / nll_loss / bce_logits for a call of such a loss module or function."""
    if isinstance(call.func, ast.Name):
        ok, value = resolve(tree, call, call.func.id, namespace)
        if ok and is_module(value):
            return _LOSSES.get(type(value).__name__)
    name = method(call) or getattr(call.func, "id", "")
    return _FUNCTIONAL.get(str(name))


def _squashed(node: ast.AST, tree: ast.AST, namespace: dict[str, Any], line: int) -> tuple[ast.AST, str] | None:
    """(what was squashed, "softmax" | "sigmoid") when *node* is ``softmax(x)`` / ``sigmoid(x)`` or a name
    assigned one before *line* whose value really is probabilities."""
    if isinstance(node, ast.Call):
        found = _softmax_input(node)
        if found is not None and (method(node) or getattr(node.func, "id", "")) == "softmax":
            return found[0], "softmax"
        if (method(node) or getattr(node.func, "id", "")) == "sigmoid":
            owner = node.func.value if isinstance(node.func, ast.Attribute) else None
            inner = node.args[0] if node.args else owner
            return (inner, "sigmoid") if inner is not None else None
        return None
    if isinstance(node, ast.Name) and _probabilities(resolve(tree, node, node.id, namespace)[1]):
        made = [s for t, s in assignments(tree) if t == node.id and s.lineno < line]
        return _squashed(made[-1].value, tree, namespace, line) if made else None
    return None


def _probabilities(value: Any) -> bool:
    """A float tensor with every value in [0, 1] (softmax or sigmoid outputs)."""
    torch = sys.modules.get("torch")
    if torch is None or not is_tensor(value) or not is_float(value):
        return False
    try:
        if tensor_attr(value, "numel") > _MAX_READ:
            return False  # reading it all would cost more than a hint is worth
        with no_torch_function(), torch.no_grad():  # the base class's methods: a subclass's operators do not run
            return bool(torch.Tensor.all(torch.Tensor.ge(value, 0))) and bool(torch.Tensor.all(torch.Tensor.le(value, 1)))
    except Exception:  # noqa: BLE001
        return False


def _loss_after_squash(tree: ast.AST, namespace: dict[str, Any]) -> list[Found]:
    for call in (n for n in facts(tree).calls if n.args):
        kind = _loss_kind(tree, call, namespace)
        squashed = _squashed(call.args[0], tree, namespace, call.lineno) if kind else None
        if kind is None or squashed is None:
            continue
        inner, how = squashed
        if (kind == "bce_logits") != (how == "sigmoid"):
            continue
        stmt, _body = statement_at(tree, call.lineno)
        if stmt is not None:
            return [_squash_hint(stmt, call, kind, inner)]
    return []


def _squash_hint(stmt: ast.stmt, call: ast.Call, kind: str, inner: ast.AST) -> Found:
    given = ast.unparse(call.args[0])
    if kind == "nll_loss":
        title = _("NLLLoss wants log-probabilities")
        why = _("nll_loss expects log-probabilities (log_softmax), but `{given}` is softmax's probabilities: the "
                "loss is then wrong (it can go below zero) and the gradients are too.").format(given=given)
        swap: ast.AST | str = f"{_torch_functional(call)}.log_softmax({ast.unparse(inner)}, dim=1)"
    elif kind == "bce_logits":
        title = _("BCEWithLogitsLoss is given probabilities")
        why = _("BCEWithLogitsLoss applies the sigmoid itself, so `{given}` goes through sigmoid twice: the "
                "outputs are squeezed into 0.5…0.73 and the model learns slowly or not at all.").format(given=given)
        swap = inner
    else:
        title = _("CrossEntropyLoss is given probabilities")
        why = _("CrossEntropyLoss applies log_softmax itself and wants the raw scores (logits), so `{given}` goes "
                "through softmax twice: the gradients shrink and the loss gets stuck near its starting value.").format(
            given=given)
        swap = inner
    explanation = join(why, _("Give the loss the scores from before the softmax or sigmoid; use softmax only to "
                              "read probabilities."))
    fix = replaced(stmt, {call.args[0]: swap})
    return Found("loss_given_probabilities", stmt.lineno, Card(title, explanation, fix, fix_line=stmt.lineno,
                                                              advice=comment_lines(_("pass the logits to the loss"))))


def _torch_functional(call: ast.Call) -> str:
    """How the code spells torch.nn.functional (``F``), from the softmax call it made; torch otherwise."""
    text = ast.unparse(call.args[0])
    return text.split(".softmax(")[0] if ".softmax(" in text else "torch"


# -- F.dropout that never turns off --------------------------------------------------------------------------
def _dropout_always_on(tree: ast.AST, namespace: dict[str, Any]) -> list[Found]:
    classes = [n for n in facts(tree).nodes if isinstance(n, ast.ClassDef)]
    if not classes:  # the code defines no model: no need to look through the namespace
        return []
    live = {type(v).__name__ for v in list(dict.values(namespace)) if is_module(v)}
    live |= {type(m).__name__ for v in list(dict.values(namespace)) if is_module(v) for m in module_children(v).values()}
    for cls in (n for n in classes if n.name in live):
        for func in (f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "forward"):
            for call in (c for c in ast.walk(func) if isinstance(c, ast.Call)):
                if _functional_dropout(call, namespace) and len(call.args) < 3 \
                        and not any(k.arg == "training" for k in call.keywords):
                    stmt, _body = statement_at(tree, call.lineno)
                    if stmt is not None:
                        return [_dropout_hint(stmt, call, cls.name)]
    return []


def _functional_dropout(call: ast.Call, namespace: dict[str, Any]) -> bool:
    """``F.dropout(...)`` / ``torch.nn.functional.dropout(...)`` / a ``dropout`` imported from there."""
    if isinstance(call.func, ast.Attribute):
        return call.func.attr == "dropout" and _is_functional(ast.unparse(call.func.value)) \
            and ast.unparse(call.func.value) != "torch"  # torch.dropout(x, p, train) has no default
    if isinstance(call.func, ast.Name) and call.func.id == "dropout":
        ok, value = value_of("dropout", namespace)
        functional = sys.modules.get("torch.nn.functional")
        return ok and functional is not None and value is getattr(functional, "dropout", None)
    return False


def _dropout_hint(stmt: ast.stmt, call: ast.Call, cls: str) -> Found:
    twin = copy.deepcopy(call)
    twin.keywords.append(ast.keyword(arg="training", value=ast.parse("self.training", mode="eval").body))
    explanation = join(
        _("`{call}` in {cls}.forward drops values whether the model trains or not: the functional dropout's "
          "training argument is True unless you pass it, and model.eval() cannot reach it.").format(
            call=ast.unparse(call), cls=cls),
        _("Pass training=self.training (or use an nn.Dropout layer), so eval() turns it off."))
    return Found("functional_dropout_always_on", stmt.lineno, Card(
        _("Dropout stays on in eval mode"), explanation, replaced(stmt, {call: twin}), fix_line=stmt.lineno))


def output_checks() -> tuple[Callable[[ast.AST, dict[str, Any]], list[Found]], ...]:
    """The checks on outputs and losses, in the order they run."""
    return (_softmax_over_batch, _loss_after_squash, _dropout_always_on)
