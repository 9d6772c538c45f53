"""Catalogue entry for a state carried across loop iterations with its graph: backward() through the graph twice.

The classic RNN loop ``out, h = rnn(x, h)`` feeds each iteration the hidden state the last
one computed. Unless it is detached, the new loss's graph reaches back into the previous
iteration's graph, which its backward() already freed. Found from the loop's AST (a name
read before it is assigned in the body, and assigned in it) and the live value (it has a
grad_fn); the fix detaches it right where each iteration makes it.
"""

from __future__ import annotations

import ast
from typing import Any

from explorer.core.errors.context import ErrorContext, join
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.safe import is_tensor, list_items, tensor_attr
from explorer.core.errors.source import comment_lines, parse
from explorer.core.i18n import _


def _loop(ctx: ErrorContext) -> ast.For | ast.While | None:
    """The innermost loop whose body holds the failing line."""
    tree = parse(ctx.source)
    loops = [n for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While))] if tree is not None else []
    inside = [n for n in loops if n.body and n.body[0].lineno <= (ctx.line or 0) <= (n.end_lineno or 0)]
    return max(inside, key=lambda n: n.lineno) if inside else None


def _stores(stmt: ast.stmt) -> set[str]:
    return {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _loads(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _tracked(value: Any) -> bool:
    """A tensor with a grad_fn, or a tuple of them (an LSTM's (h, c))."""
    items = [value] if is_tensor(value) else list_items(value, 8)
    try:
        return bool(items) and all(is_tensor(i) for i in items) and any(tensor_attr(i, "grad_fn") is not None for i in items)
    except Exception:  # noqa: BLE001
        return False


def carried(ctx: ErrorContext) -> tuple[str, ast.stmt, Any] | None:
    """(name, the statement of the loop that makes it from itself, its value) for a state carried with its graph."""
    loop = _loop(ctx)
    if loop is None:
        return None
    assigned: set[str] = set()
    for stmt in loop.body:
        value = stmt.value if isinstance(stmt, (ast.Assign, ast.AugAssign)) else stmt
        for name in sorted(_loads(value) - assigned):
            if name in _stores(stmt) or any(name in _stores(s) for s in loop.body if s.lineno > stmt.lineno):
                found, held = ctx.value(name)
                if found and _tracked(held):
                    maker = stmt if name in _stores(stmt) else next(s for s in loop.body if name in _stores(s))
                    return name, maker, held
        assigned |= _stores(stmt)
    return None


def _carried_card(ctx: ErrorContext) -> Card:
    found = carried(ctx)
    assert found is not None  # chosen only when carried() found the state
    name, maker, value = found
    loss = ctx.receiver("backward") or "loss"
    said = _("`{name}` is carried from one iteration to the next: line {line} makes it from its own value of the "
             "previous iteration, graph included. So `{loss}`'s graph reaches back into the previous iteration's "
             "graph, which that iteration's backward() already freed.").format(name=name, line=maker.lineno, loss=loss)
    rule = _("Detach the state each time it is made: it keeps its values, and every backward() stays within its own "
             "iteration (truncated backpropagation through time). retain_graph=True would instead make every "
             "backward() walk all the iterations so far, slower and slower.")
    detached = f"{name} = {name}.detach()" if is_tensor(value) else f"{name} = tuple(s.detach() for s in {name})"
    note = "  # " + _("same values, without the previous iteration's graph")
    advice = comment_lines(_("detach the state after each step: {code}").format(code=detached))
    title = _("A state carries its graph into the next iteration")
    loop = _loop(ctx)
    used_later = loop is not None and any(name in _loads(s) for s in loop.body if s.lineno > maker.lineno)
    if used_later:  # this iteration's loss reads the state: cut the old graph before it is used, not after
        if _starts_as_none(ctx, loop, name):
            detached = f"{detached.split(' = ', 1)[0]} = {detached.split(' = ', 1)[1]} if {name} is not None else None"
        return Card(title, join(said, rule), detached + note, mode="before", fix_line=maker.lineno, advice=advice)
    if isinstance(maker, (ast.If, ast.For, ast.While, ast.With, ast.Try)):
        return Card(title, join(said, rule), advice, advice=advice)
    fix = "\n".join([ast.unparse(maker), detached + note])
    return Card(title, join(said, rule), fix, fix_line=maker.lineno, advice=advice)


def _starts_as_none(ctx: ErrorContext, loop: ast.For | ast.While | None, name: str) -> bool:
    """True when the last assignment of *name* before the loop is ``name = None``."""
    tree = parse(ctx.source)
    before = [n for n in ast.walk(tree) if isinstance(n, ast.Assign) and loop is not None and n.lineno < loop.lineno
              and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)] if tree is not None else []
    last = max(before, key=lambda n: n.lineno) if before else None
    return last is not None and isinstance(last.value, ast.Constant) and last.value.value is None


ENTRIES: list[Entry] = [
    Entry("state_carried_across_iterations", ("RuntimeError",), (
        r"Trying to backward through the graph a second time",
    ), _carried_card, when=lambda ctx: carried(ctx) is not None),
]
