"""Where the learner built a layer: the module calls of a statement, and the line that made ``model.fc`` or ``self.net[2]``."""

from __future__ import annotations

import ast
import re
from typing import Any

from explorer.core.errors.context import ErrorContext, call_name, dotted_name, resolve_callee
from explorer.core.errors.safe import class_name, static_attr, walk_modules
from explorer.core.errors.source import parse

_INDEXED = re.compile(r"(.+)\[(\d+)\]")


def attr(module: Any, name: str, default: Any = None) -> Any:
    """A module's attribute read statically (``in_features``, ``num_embeddings``)."""
    ok, value = static_attr(module, name)
    return value if ok else default


def module_calls(ctx: ErrorContext) -> list[tuple[str, Any, ast.Call]]:
    """(callee code, module, call) for each call of a module in the failing statement."""
    found = []
    modules = ctx.modules()
    for node in ctx.nodes():
        if isinstance(node, ast.Call):
            name = dotted_name(node.func)
            if name in modules:
                found.append((name, modules[name], node))
    return found


def path_of(ctx: ErrorContext, layer: Any) -> str | None:
    """The code that reaches *layer* from a module called on the failing line or a caller's (``model[0]``, ``self.fc``)."""
    from explorer.core.errors.frames import outermost_calls

    for where in reversed(outermost_calls(ctx)):
        for name, module, _call in module_calls(where):
            for path, inner in walk_modules(module, name):
                if inner is layer:
                    return path
    return None


def _spellings(path: str) -> list[str]:
    """Targets an assignment may have made *path* with: itself, or ``self.<rest>`` inside a class."""
    out = [path]
    parts = path.split(".")
    for start in range(1, len(parts)):
        out.append("self." + ".".join(parts[start:]))
    return list(dict.fromkeys(out))


def _candidate(stmt: ast.stmt, path: str) -> ast.Call | None:
    """The call in an assignment that makes the layer at *path* (the layer itself, or an item of a Sequential)."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, ast.Call)):
        return None
    target = dotted_name(stmt.targets[0])
    if target in _spellings(path):
        return stmt.value
    indexed = _INDEXED.fullmatch(path)
    if indexed and target in _spellings(indexed.group(1)):
        index = int(indexed.group(2))
        args = stmt.value.args
        item = args[index] if len(args) > index else None
        if isinstance(item, ast.Call):
            return item
    return None


def creation(ctx: ErrorContext, path: str, module: Any) -> tuple[ast.stmt, ast.Call] | None:
    """The statement and call in the learner's file that made the layer at *path* (``model[2]``, ``self.net[2]``)."""
    tree = parse(ctx.source)
    if tree is None:
        return None
    found: tuple[ast.stmt, ast.Call] | None = None
    here = ctx.line or 0
    for stmt in ast.walk(tree):
        if not isinstance(stmt, ast.stmt):
            continue
        made = _candidate(stmt, path)
        if made is None or not makes(ctx, made, module):
            continue
        before = stmt.lineno < here
        if found is None or (before and (found[0].lineno > here or stmt.lineno > found[0].lineno)):
            found = (stmt, made)  # the last one made before the failing line
    return found


def scopes_at(ctx: ErrorContext, line: int) -> list[dict[str, Any]]:
    """Scopes a fix at *line* may read: the names its enclosing function binds (values unknown), then the globals.

    A layer made in ``__init__`` reads ``__init__``'s parameters, which no live frame holds any more.
    """
    tree = parse(ctx.source)
    local: dict[str, Any] = {}
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno <= line <= (node.end_lineno or 0):
            args = node.args
            local.update(dict.fromkeys(a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]))
            local.update(dict.fromkeys(a.arg for a in (args.vararg, args.kwarg) if a is not None))
            local.update(dict.fromkeys(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)))
    return [local, *ctx.scopes[1:]] if local else list(ctx.scopes)


def container(ctx: ErrorContext, path: str) -> tuple[ast.stmt, ast.Call, int] | None:
    """(statement, Sequential call, index) when the layer at *path* is item *index* of a Sequential the learner wrote."""
    indexed = _INDEXED.fullmatch(path)
    tree = parse(ctx.source)
    if indexed is None or tree is None:
        return None
    for stmt in ast.walk(tree):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, ast.Call) \
                and dotted_name(stmt.targets[0]) in _spellings(indexed.group(1)) \
                and call_name(stmt.value) == "Sequential" and len(stmt.value.args) > int(indexed.group(2)):
            return stmt, stmt.value, int(indexed.group(2))
    return None


def makes(ctx: ErrorContext, call: ast.Call, module: Any) -> bool:
    """True when the call is the layer's class itself (``nn.Linear(...)``), not a function that returns one."""
    found, callee = resolve_callee(call.func, ctx.scopes)
    if found:
        return callee is type(module)
    return call_name(call) == class_name(module)
