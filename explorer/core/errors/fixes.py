"""Building a fix from the learner's own statement: swap one expression, change a call's arguments."""

from __future__ import annotations

import ast
import copy

from explorer.core.errors.context import ErrorContext, dotted_name
from explorer.core.errors.source import replaced


def node_for(ctx: ErrorContext, name: str) -> ast.AST | None:
    """The first node of the failing statement whose code is *name* (``a``, ``model.fc``, ``xs[0]``)."""
    for node in ctx.nodes():
        if isinstance(getattr(node, "ctx", None), (ast.Store, ast.Del)):
            continue
        if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)) and dotted_name(node) == name:
            return node
        if isinstance(node, ast.expr) and not isinstance(node, ast.Name) and ast.unparse(node) == name:
            return node
    return None


def swap(ctx: ErrorContext, old: ast.AST | None, new: ast.AST | str) -> str | None:
    """The failing statement with one expression replaced, or None without a statement."""
    if ctx.statement is None or old is None:
        return None
    return replaced(ctx.statement, {old: new})


def swap_name(ctx: ErrorContext, name: str, new: str) -> str | None:
    """The failing statement with the first use of *name* replaced by the code *new*."""
    return swap(ctx, node_for(ctx, name), new)


def with_args(call: ast.Call, args: list[str] | None = None, keywords: dict[str, str] | None = None,
              method: str | None = None) -> ast.Call:
    """A copy of the call with new positional arguments, keywords set (code strings) or the method renamed."""
    twin = copy.copy(call)
    if args is not None:
        twin.args = [ast.parse(a, mode="eval").body for a in args]
    if keywords:
        new = {k: ast.parse(v, mode="eval").body for k, v in keywords.items()}
        twin.keywords = [ast.keyword(arg=k.arg, value=new.pop(k.arg)) if k.arg in new else k for k in call.keywords]
        twin.keywords += [ast.keyword(arg=k, value=v) for k, v in new.items()]
    if method is not None and isinstance(call.func, ast.Attribute):
        twin.func = ast.Attribute(value=call.func.value, attr=method, ctx=ast.Load())
    return twin


def set_argument(call: ast.Call, name: str, position: int, value: str) -> ast.Call:
    """A copy of the call with the argument *name* (keyword, or positional at *position*) set to *value*."""
    if any(k.arg == name for k in call.keywords) or len(call.args) <= position:
        return with_args(call, keywords={name: value})
    args = [ast.unparse(a) for a in call.args]
    args[position] = value
    return with_args(call, args=args)


def receiver(call: ast.Call) -> ast.expr | None:
    """The expression a method is called on (``x`` in ``x.view(3)``)."""
    return call.func.value if isinstance(call.func, ast.Attribute) else None


def receiver_code(call: ast.Call | None) -> str | None:
    """The code of the expression a method is called on; None without a call or for a plain function call."""
    target = receiver(call) if call is not None else None
    return ast.unparse(target) if target is not None else None
