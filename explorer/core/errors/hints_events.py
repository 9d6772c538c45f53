"""One pass of a training loop as a sequence of *events*, in execution order.

``backward`` (``loss.backward()``, ``scaler.scale(loss).backward()``), ``step`` (an optimizer's
``step()``, or a hand-written update that reads ``.grad``), ``zero`` (``zero_grad()``, ``p.grad = None``,
``w.grad.zero_()``), ``eval`` / ``train`` (a module's mode). Functions and methods the script defines and
the loop calls are read as if written in place (a ``train_one_epoch(...)`` helper), three deep, each
parameter standing for the name the call passes.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from explorer.core.errors.context import dotted_name
from explorer.core.errors.hints_ast import (
    Scope,
    decorated_no_grad,
    facts,
    global_name,
    is_no_grad,
    method,
    receiver,
    trusted_value,
    under_no_grad,
    value_of,
)
from explorer.core.errors.safe import is_optimizer

_INLINE_DEPTH = 3
_ZERO_METHODS = ("zero_", "fill_", "detach_")


@dataclass(frozen=True)
class Event:
    """One thing an iteration does: *kind*, the statement's *line*, the receiver's name (``optimizer``)."""

    kind: str
    line: int
    name: str | None
    stmt: ast.stmt
    in_no_grad: bool = False
    glob: str | None = None  # the namespace's name for *name* (a function's parameter read through its call)


def event_value(tree: ast.AST, event: Event, namespace: dict[str, Any]) -> tuple[bool, Any]:
    """The value of what an event acts on (the optimizer of a step, the model of an eval())."""
    return trusted_value(tree, event.stmt, event.glob, namespace)


# -- events ------------------------------------------------------------------------------------------
class _Reader:
    """Reads the events of statements in execution order, looking into the script's own functions."""

    def __init__(self, tree: ast.AST, namespace: dict[str, Any]) -> None:
        self.facts = facts(tree)
        self.functions = self.facts.functions
        self.namespace = namespace

    def events(self, stmts: list[ast.stmt], scope: Scope, no_grad: bool = False, depth: int = 0,
               seen: frozenset[str] = frozenset()) -> list[Event]:
        out: list[Event] = []
        for stmt in stmts:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue  # defined here, run later (or never)
            inner = no_grad or is_no_grad(stmt)
            out += self._own(stmt, scope, inner, depth, seen)
            for field in ("body", "orelse", "finalbody"):
                out += self.events(list(getattr(stmt, field, []) or []), scope, inner, depth, seen)
            for handler in getattr(stmt, "handlers", []) or []:
                out += self.events(handler.body, scope, inner, depth, seen)
        return out

    def _own(self, stmt: ast.stmt, scope: Scope, no_grad: bool, depth: int, seen: frozenset[str]) -> list[Event]:
        """The events of the statement itself (a compound statement's header only), then its calls' bodies."""
        out: list[Event] = []
        for node in _header_walk(stmt):
            kind = self._kind(node, scope)
            if kind is not None:
                out.append(Event(kind[0], stmt.lineno, kind[1], stmt, no_grad, global_name(scope, kind[1])))
            if isinstance(node, ast.Call) and depth < _INLINE_DEPTH:
                # The script's functions, and its classes' methods (``trainer.train_step()``), read in place.
                called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                func = self.functions.get(called) if isinstance(called, str) else None
                if func is not None and func.name not in seen:
                    inner = self._call_scope(func, node, scope)
                    out += self.events(func.body, inner, no_grad or decorated_no_grad(func), depth + 1,
                                       seen | {func.name})
        if isinstance(stmt, (ast.AugAssign, ast.Assign)) and _manual_update(stmt):
            target = _target(stmt)
            out.append(Event("step", stmt.lineno, target, stmt, no_grad, global_name(scope, target)))
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "grad" for t in stmt.targets):
            out.append(Event("zero", stmt.lineno, None, stmt, no_grad))
        return out

    def _call_scope(self, func: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call, scope: Scope) -> Scope:
        """The scope of *func* as this *call* enters it: each parameter is the name passed for it, if plain."""
        inner: Scope = dict.fromkeys(self.facts.local_names(func))
        params = [a.arg for a in [*func.args.posonlyargs, *func.args.args]]
        if isinstance(call.func, ast.Attribute) and params:
            params = params[1:]  # a method: self is the object, not a namespace name
        pairs = list(zip(params, call.args)) + [(k.arg, k.value) for k in call.keywords if k.arg]
        for param, arg in pairs:
            if param in inner and isinstance(arg, ast.Name):
                inner[param] = global_name(scope, arg.id)
        return inner

    def _kind(self, node: ast.AST, scope: Scope) -> tuple[str, str | None] | None:
        name = method(node)
        if name is None:
            func = getattr(node, "func", None)
            return ("backward", None) if isinstance(func, ast.Name) and func.id == "backward" else None
        assert isinstance(node, ast.Call)
        owner = receiver(node)
        if name == "backward":
            return "backward", owner
        if name == "zero_grad":
            return "zero", owner
        if name in _ZERO_METHODS and isinstance(node.func, ast.Attribute) and _reads_grad(node.func.value):
            return "zero", owner
        if name == "step" and self._is_optimizer_step(node, owner, scope):
            return "step", owner
        if name == "eval" and not node.args:
            return "eval", owner
        if name == "train":
            return ("eval" if switches_off(node) else "train"), owner
        return None

    def _is_optimizer_step(self, call: ast.Call, owner: str | None, scope: Scope) -> bool:
        """``optimizer.step()``, ``scaler.step(optimizer)``; never a scheduler's step."""
        found, value = value_of(global_name(scope, owner), self.namespace)
        if found:
            if is_optimizer(value):
                return True
            arg = call.args[0] if call.args else None
            return isinstance(arg, ast.Name) and is_optimizer(value_of(global_name(scope, arg.id), self.namespace)[1])
        last = (owner or "").split(".")[-1].lower()
        return "opt" in last and "sched" not in last


def switches_off(call: ast.Call) -> bool:
    """``train(False)`` / ``train(mode=False)``: eval mode by another name."""
    given = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "mode"), None)
    return isinstance(given, ast.Constant) and given.value is False


def _header_walk(stmt: ast.stmt) -> Iterator[ast.AST]:
    """The nodes of a statement outside the bodies of a compound one, in source order."""
    skip = {"body", "orelse", "finalbody", "handlers", "cases"}
    for field, value in ast.iter_fields(stmt):
        if field in skip:
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, ast.AST):
                yield from sorted(ast.walk(item), key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))


def _reads_grad(node: ast.AST) -> bool:
    """``w.grad`` or ``w.grad.data``."""
    while isinstance(node, ast.Attribute) and node.attr == "data":
        node = node.value
    return isinstance(node, ast.Attribute) and node.attr == "grad"


def _manual_update(stmt: ast.stmt) -> bool:
    """``w -= lr * w.grad``, ``w.data = w.data - lr * w.grad``: a hand-written optimizer step."""
    value = getattr(stmt, "value", None)
    if value is None or not any(_reads_grad(n) for n in ast.walk(value)):
        return False
    if isinstance(stmt, ast.AugAssign):
        return not _reads_grad(stmt.target)
    return isinstance(stmt, ast.Assign) and not any(isinstance(t, ast.Attribute) and t.attr == "grad"
                                                    for t in stmt.targets)


def _target(stmt: ast.stmt) -> str | None:
    target = stmt.target if isinstance(stmt, ast.AugAssign) else getattr(stmt, "targets", [None])[0]
    name = dotted_name(target) if target is not None else None
    return name[:-5] if name and name.endswith(".data") else name


def loop_events(tree: ast.AST, loop: ast.AST, namespace: dict[str, Any]) -> list[Event]:
    """What one iteration of *loop* does, in order (computed once per loop)."""
    known = facts(tree)
    key = ("events", id(loop), id(namespace))
    if key not in known.cache:
        reader = _Reader(tree, namespace)
        known.cache[key] = reader.events(list(getattr(loop, "body", [])), known.scope_at(loop),
                                         no_grad=under_no_grad(tree, loop))
    return known.cache[key]


