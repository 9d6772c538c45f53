"""The calls of a traceback: the learner's own frames above the failing line, and the library frames below it.

An error often surfaces far from where the learner made it: inside ``forward``, a
library or a DataLoader. :func:`attach` gives the failing line's context the outer
calls of the learner's code (``out = net(images)`` above ``return self.fc(x)``) and
the locals of the library frames under it (the tensor that reached ``nn.Linear``,
the batch ``default_collate`` could not stack). Entries use them to name the
learner's own variable and to put a fix where the mistake was made.
"""

from __future__ import annotations

import ast
import itertools
import traceback
import types
from collections.abc import Iterable
from types import CodeType, FrameType, TracebackType
from typing import Any

from explorer.core.errors.context import ErrorContext, context_for, dotted_name, lookup
from explorer.core.errors.safe import is_array, is_module

_MAX_LIBRARY_FRAMES = 40


def _locals(frame: FrameType) -> dict[str, Any]:
    """A frame's locals as a plain dict (newer Pythons give a proxy); {} when they cannot be read."""
    try:
        found = frame.f_locals
        return found if type(found) is dict else dict(found)
    except Exception:  # noqa: BLE001
        return {}


def _params(code: CodeType) -> tuple[str, ...]:
    """The parameter names of a function, in order (``self`` included)."""
    count = code.co_argcount + code.co_kwonlyargcount
    return tuple(code.co_varnames[:count])


def attach(ctx: ErrorContext, tb: TracebackType | None, is_user: Any, namespace: dict[str, Any]) -> None:
    """Give *ctx* (the failing frame's context) its callers in the same file and the library frames below it."""
    walked = list(traceback.walk_tb(tb))
    users = [i for i, (frame, _) in enumerate(walked) if is_user(frame.f_code.co_filename)]
    if not users:
        return
    last = users[-1]
    failing = walked[last][0]
    ctx.function = failing.f_code.co_name
    ctx.params = _params(failing.f_code) if ctx.function != "<module>" else ()
    ctx.code = failing.f_code
    callers: list[ErrorContext] = []
    for index in users[:-1]:
        frame, lineno = walked[index]
        if frame.f_code.co_filename != failing.f_code.co_filename:
            continue  # another cell or file counts its lines differently: no fix can point there
        scopes: list[dict[str, Any]] = [_locals(frame), frame.f_globals, namespace]
        caller = context_for(ctx.message, ctx.source, lineno, scopes, ctx.frame_names)
        caller.function = frame.f_code.co_name
        caller.params = _params(frame.f_code) if caller.function != "<module>" else ()
        caller.code = frame.f_code
        callers.append(caller)
    ctx.callers = callers
    ctx.aliases = learner_names(ctx, [n for n, v in ctx.objects.items() if n in ctx.params and is_array(v)])
    ctx.below = [(frame.f_code.co_name, _locals(frame)) for frame, _ in walked[last + 1:][-_MAX_LIBRARY_FRAMES:]]


def below(ctx: ErrorContext, function: str | None = None, has: str | None = None) -> list[dict[str, Any]]:
    """Locals of the library frames under the failing line (deepest last), filtered by function name or a local's name."""
    return [loc for name, loc in ctx.below if (function is None or name == function) and (has is None or has in loc)]


def module_input(ctx: ErrorContext, *classes: str) -> tuple[Any, Any] | None:
    """(layer, what reached it) for the deepest library ``forward`` of a module of one of these classes."""
    for loc in reversed(below(ctx, "forward")):
        layer, given = loc.get("self"), loc.get("input")
        if is_module(layer) and type(layer).__name__ in classes and is_array(given):
            return layer, given
    return None


def _calls_into(caller: ErrorContext, code: CodeType | None) -> list[ast.Call]:
    """Calls in the caller's statement whose callee runs *code* (a function, or a module whose forward it is)."""
    found = []
    for node in caller.nodes():
        if not isinstance(node, ast.Call):
            continue
        ok, callee = lookup(node.func, caller.scopes)
        if not ok:
            continue
        if is_module(callee):
            forward = next((vars(k)["forward"] for k in type(callee).__mro__ if "forward" in vars(k)), None)
            target = forward.__code__ if isinstance(forward, types.FunctionType) else None
        elif isinstance(callee, types.MethodType) and isinstance(callee.__func__, types.FunctionType):
            target = callee.__func__.__code__
        else:
            target = callee.__code__ if isinstance(callee, types.FunctionType) else None
        if code is not None and target is code:
            found.append(node)
    return found


def _argument(call: ast.Call, params: tuple[str, ...], name: str, method: bool) -> ast.expr | None:
    """The expression the call passes for parameter *name* (``self`` skipped for a method or a module)."""
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    positional = params[1:] if method and params and params[0] == "self" else params
    if name in positional and positional.index(name) < len(call.args):
        arg = call.args[positional.index(name)]
        return None if isinstance(arg, ast.Starred) else arg
    return None


def origin(ctx: ErrorContext, name: str) -> tuple[str, ErrorContext, bool] | None:
    """Where a parameter of the failing function came from: (the caller's code for it, the caller, same object).

    Walks up while the value is itself a parameter of the caller. *same object* tells whether the
    value the failing line sees is still the one the learner passed (not reassigned since).
    """
    if name not in ctx.params or not ctx.callers:
        return None
    ok, value = ctx.value(name)
    current, code, found = name, ctx.code, None
    frames = [ctx, *reversed(ctx.callers)]
    for inner, caller in itertools.pairwise(frames):
        calls = _calls_into(caller, code)
        if not calls:
            break
        method = inner.params[:1] == ("self",)
        arg = _argument(calls[0], inner.params, current, method)
        if arg is None:
            break
        spelled = dotted_name(arg) or ast.unparse(arg)
        held, passed = lookup(arg, caller.scopes)
        found = (spelled, caller, bool(ok and held and passed is value))
        if not (isinstance(arg, ast.Name) and arg.id in caller.params):
            break
        current, code = arg.id, caller.code
    return found


def outermost_calls(ctx: ErrorContext) -> list[ErrorContext]:
    """The failing context and its callers, the learner's outermost call first."""
    return [*ctx.callers, ctx]


def inside_model(ctx: ErrorContext) -> bool:
    """True when the frame runs a method of an nn.Module (``forward``): its locals are the model's, not the learner's data."""
    return ctx.params[:1] == ("self",) and is_module(ctx.value("self")[1])


def passed_at(ctx: ErrorContext, value: Any) -> tuple[ErrorContext, str] | None:
    """The learner's outermost statement that names this very object, and its name there (the data they passed).

    A model's own methods are skipped: a tensor ``forward`` computed is the model's, and one it was given
    is named by its caller.
    """
    for context in outermost_calls(ctx):
        if inside_model(context):
            continue  # what the learner passed in is named by the caller, found first
        for name, held in context.tensors.items():
            if held is value:
                return context, name
    return None


def learner_names(ctx: ErrorContext, names: Iterable[str]) -> dict[str, tuple[str, ErrorContext, bool]]:
    """For each parameter among *names*: the learner's own name for it (see :func:`origin`)."""
    out = {}
    for name in names:
        found = origin(ctx, name)
        if found is not None and found[0] != name:
            out[name] = found
    return out
