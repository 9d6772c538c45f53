"""Catalogue entries for many values where Python wants one: ``.item()``, ``torch.tensor`` of tensors, ``if`` of a tensor.

The fix follows what the learner meant, read from the statement and the value: a count
of matches (``(pred == y).item()`` -> ``.sum().item()``), a running total of a loss
left unreduced (``.mean().item()``), all the values (``.tolist()``), a list of tensors
to join (``torch.stack``), a range test written ``0 < x < 1`` (``(0 < x) & (x < 1)``).
When the intent cannot be read (``int(boxes[:, 0].item())``), the choices are given in words.
"""

from __future__ import annotations

import ast
from typing import Any

from explorer.core.errors.context import ErrorContext, call_name, fmt_shape, join, lookup
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.fixes import receiver, swap
from explorer.core.errors.safe import is_float, is_tensor, list_items, shape_of, short_dtype, tensor_attr
from explorer.core.errors.source import comment_lines, replaced
from explorer.core.errors.spelling import spell
from explorer.core.i18n import _, ngettext

_CASTS = ("int", "float", "bool", "complex")
_COMPARISONS = {"eq", "ne", "lt", "le", "gt", "ge", "isclose", "logical_and", "logical_or", "logical_not", "isnan"}


def _scalar_call(ctx: ErrorContext) -> tuple[ast.Call, ast.expr] | None:
    """The ``X.item()`` or ``float(X)`` call on the failing line and its X."""
    for call in ctx.calls("item"):
        if (target := receiver(call)) is not None:
            return call, target
    for node in ctx.nodes():
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CASTS and node.args:
            ok, value = lookup(node.args[0], ctx.scopes)
            if ok and is_tensor(value):
                return node, node.args[0]
    return None


def _parent_cast(ctx: ErrorContext, call: ast.Call) -> ast.Call | None:
    """``int(...)`` / ``float(...)`` around the ``.item()`` call."""
    for node in ctx.nodes():
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CASTS \
                and node.args and node.args[0] is call:
            return node
    return None


def _intent(ctx: ErrorContext, target: ast.expr, value: Any) -> str | None:
    """'count' (matches to add up), 'mean' (a loss to average), 'all' (keep every value) or None (unclear)."""
    compares = isinstance(target, ast.Compare) or (isinstance(target, ast.Call) and call_name(target) in _COMPARISONS)
    if compares or (value is not None and short_dtype(value) == "bool"):
        return "count"
    stmt = ctx.statement
    if isinstance(stmt, ast.AugAssign) and (value is None or is_float(value)):
        return "mean"
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return "all"
    return None


def _item_multi(ctx: ErrorContext) -> Card:
    found = _scalar_call(ctx)
    call, target = found if found else (None, None)
    name = ast.unparse(target) if target is not None else next(iter(ctx.tensors), "x")
    ok, value = lookup(target, ctx.scopes) if target is not None else (False, None)
    count = int(ctx.g("n") or (tensor_attr(value, "numel") if ok and is_tensor(value) else 0))
    many = ngettext("`{name}` has {n} element.", "`{name}` has {n} elements.", count).format(name=name, n=count) \
        if count else _("`{name}` has more than one element.").format(name=name)
    rule = join(_("item(), float() and int() turn a tensor with exactly ONE element into a Python number;"), many)
    said = ctx.facts_sentence([name]) if name in ctx.tensors else ctx.facts_sentence()
    intent = _intent(ctx, target, value if ok else None) if target is not None else None
    is_item = call is not None and call_name(call) == "item"
    wrapped = _parent_cast(ctx, call) if is_item and call is not None else None
    text = ast.unparse(target) if target is not None else name
    base = text if isinstance(target, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)) else f"({text})"
    choices = {"count": (".sum().item()", _("how many are True")), "mean": (".mean().item()", _("the mean over the batch")),
               "all": (".tolist()", _("all the values, as a list"))}
    chosen = choices.get(intent or "")
    fix = None
    if call is not None and chosen is not None and wrapped is None and (intent != "all" or is_item):
        new = swap(ctx, call, base + chosen[0])
        fix = f"{new}  # {chosen[1]}" if new else None
    advice = comment_lines(_("{name} has {n} values: pick one ({name}[0].item()), reduce them ({name}.sum().item(), "
                             "{name}.mean().item()) or take them all ({name}.tolist())").format(name=base, n=count or "several"))
    return Card(_("Only a one-element tensor becomes a number"), join(said, rule), fix or advice, advice=advice)


def _listed(ctx: ErrorContext, node: ast.expr) -> list[Any] | None:
    """The tensors in a list literal, or in the list a name holds."""
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [lookup(e, ctx.scopes) for e in node.elts]
        return [v for ok, v in items if ok and is_tensor(v)] or None
    ok, value = lookup(node, ctx.scopes)
    items = list_items(value, 10_000) if ok else []
    return items if items and all(is_tensor(i) for i in items) else None


def _tensor_list(ctx: ErrorContext) -> tuple[ast.Call, list[Any]] | None:
    """The ``torch.tensor(...)`` call given a list of tensors, and those tensors."""
    for node in ctx.nodes():
        if isinstance(node, ast.Call) and call_name(node) in ("tensor", "as_tensor") and node.args:
            items = _listed(ctx, node.args[0])
            if items:
                return node, items
    return None


def _stack_instead(ctx: ErrorContext) -> Card:
    found = _tensor_list(ctx)
    assert found is not None  # chosen only when _tensor_list found the call
    call, items = found
    given = ast.unparse(call.args[0])
    shapes = [shape_of(t) for t in items]
    first = call.args[0]
    if isinstance(first, (ast.List, ast.Tuple)):
        said = ctx.facts_sentence([ast.unparse(e) for e in first.elts])
    else:
        said = ngettext("`{name}` is a list of {n} tensor, the first {shape}.",
                        "`{name}` is a list of {n} tensors, the first {shape}.", len(items)).format(
            name=given, n=len(items), shape=fmt_shape(shapes[0]))
    rule = _("torch.tensor() builds a tensor from numbers; given a list of tensors with several elements each, it "
             "tries to turn each tensor into one number. To put tensors side by side use torch.stack (a new "
             "dimension) or torch.cat (along an existing one).")
    stack = spell("torch.stack", ctx.scopes)
    advice = comment_lines(_("join tensors with torch.stack([...]) instead of torch.tensor([...])"))
    if stack is None or any(s != shapes[0] for s in shapes):
        differ = _("They do not all have the same shape, so they must be padded or cut to one size first.") \
            if any(s != shapes[0] for s in shapes) else ""
        return Card(_("torch.tensor() of a list of tensors"), join(said, rule, differ), advice, advice=advice)
    dtype = next((k.value for k in call.keywords if k.arg == "dtype"), None)
    code = f"{stack}({given})" + (f".to({ast.unparse(dtype)})" if dtype is not None else "")
    fix = swap(ctx, call, code)
    if fix:
        fix += f"  # {len(items)} × {fmt_shape(shapes[0])} -> {fmt_shape([len(items), *(shapes[0] or [])])}"
    return Card(_("torch.tensor() of a list of tensors"), join(said, rule), fix or advice, advice=advice)


def _chained(nodes: list[ast.AST]) -> ast.Compare | None:
    """A comparison chain such as ``0 < x < 1`` in the statement."""
    return next((n for n in nodes if isinstance(n, ast.Compare) and len(n.ops) > 1), None)


def _split_chain(chain: ast.Compare) -> str:
    """``0 < x < 1`` -> ``(0 < x) & (x < 1)``: one comparison per pair, joined element by element."""
    operands = [chain.left, *chain.comparators]
    parts = [ast.unparse(ast.Compare(left=a, ops=[op], comparators=[b]))
             for a, op, b in zip(operands, chain.ops, operands[1:])]
    return " & ".join(f"({p})" for p in parts)


def _bool_ambiguous(ctx: ErrorContext) -> Card:
    stmt, fix = ctx.statement, None
    chain = _chained(ctx.nodes())
    advice = comment_lines(_("use .all() (every element) or .any() (at least one)"))
    if chain is not None and stmt is not None:
        split = _split_chain(chain)
        rule = _("Python reads `{code}` as `{pairs}`, and `and` needs one True or False, but a "
                 "comparison of a tensor gives one answer per element. Compare each pair and join the answers "
                 "element by element with &.").format(code=ast.unparse(chain), pairs=split.replace(" & ", " and "))
        if isinstance(stmt, (ast.If, ast.While)) and stmt.test is chain:
            fix = replaced(stmt, {chain: f"({split}).all()"}) + "  # " + _("or .any(): at least one")
        else:
            fix = replaced(stmt, {chain: split}) + "  # " + _("True where every comparison holds")
        return Card(_("A chained comparison of a tensor"), join(ctx.facts_sentence(), rule), fix, advice=advice)
    rule = _("`if`, `while`, `and`, `or` and `not` need one True or False, but comparing a tensor of several elements "
             "gives one answer per element. Say whether you mean all of them or any of them.")
    if isinstance(stmt, (ast.If, ast.While)) and not isinstance(stmt.test, ast.BoolOp):
        test = ast.unparse(stmt.test)
        fix = replaced(stmt, {stmt.test: f"({test}).all()"}) + "  # " + _("or .any(): at least one")
    return Card(_("True or False of many values is ambiguous"), join(ctx.facts_sentence(), rule), fix or advice,
                advice=advice)


ENTRIES: list[Entry] = [
    Entry("tensor_from_tensor_list", ("ValueError", "RuntimeError", "TypeError"), (
        r"only one element tensors can be converted to Python scalars",
        r"only integer tensors of a single element can be converted to an index",
        r"a Tensor with (?P<n>\d+) elements cannot be converted to Scalar",
    ), _stack_instead, when=lambda ctx: _tensor_list(ctx) is not None),
    Entry("item_many_elements", ("RuntimeError", "ValueError", "TypeError"), (
        r"a Tensor with (?P<n>\d+) elements cannot be converted to Scalar",
        r"only one element tensors can be converted to Python scalars",
        r"only (?:length-1|size-1) arrays can be converted to Python scalars",
    ), _item_multi),
    Entry("bool_ambiguous", ("RuntimeError", "ValueError"), (
        r"Boolean value of Tensor with more than one value is ambiguous",
        r"The truth value of an array with more than one element is ambiguous",
    ), _bool_ambiguous),
]
