"""Catalogue entries for indexing and value-conversion errors."""

from __future__ import annotations

import ast

from explorer.core.errors.context import ErrorContext, call_name, join
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.fixes import receiver, receiver_code, swap
from explorer.core.errors.safe import shape_of
from explorer.core.errors.source import comment_lines, replaced
from explorer.core.errors.spelling import spell
from explorer.core.i18n import _, ngettext


def _index_oob(ctx: ErrorContext) -> Card:
    index, dim, size = ctx.g("idx"), int(ctx.g("dim", "0") or 0), int(ctx.g("size", "0") or 0)
    holder = next((n for n, v in ctx.tensors.items()
                   if (s := shape_of(v)) is not None and len(s) > dim and s[dim] == size), None)
    said = ctx.facts_sentence([holder]) if holder else ""
    if ctx.g("size"):
        rule = _("Dimension {dim} has size {size}, so the valid indices are 0 … {last} (or -{size} … -1), "
                 "but the code used {index}. Counting starts at 0.").format(dim=dim, size=size, last=size - 1, index=index)
        advice = comment_lines(_("an index into dimension {dim} must be between 0 and {last}").format(dim=dim, last=size - 1))
    else:
        rule = _("An index is larger than the size of what it selects from (counting starts at 0).")
        advice = comment_lines(_("indices must be smaller than the size"))
    return Card(_("Index out of range"), join(said, rule), advice, advice=advice)


def _dim_oob(ctx: ErrorContext) -> Card:
    if ctx.g("lo"):
        rule = _("The valid dimensions are {lo} … {hi}, but the code asked for dimension {got}.").format(
            lo=ctx.g("lo"), hi=ctx.g("hi"), got=ctx.g("got"))
    elif ctx.g("nd"):
        nd = int(ctx.g("nd"))
        rule = ngettext("The tensor has only {n} dimension, and more indices (or a larger dim) were given.",
                        "The tensor has only {n} dimensions, and more indices (or a larger dim) were given.", nd).format(n=nd)
    else:
        rule = _("A dimension number is larger than the number of dimensions.")
    advice = comment_lines(_("dim must be between -ndim and ndim - 1"))
    return Card(_("Dimension out of range"), join(ctx.facts_sentence(), rule), advice, advice=advice)


def _item_multi(ctx: ErrorContext) -> Card:
    call = next((c for c in ctx.calls("item") if receiver(c) is not None), None)
    name = receiver_code(call) if call is not None else next(iter(ctx.tensors), None)
    count = ctx.g("n")
    if count:
        many = ngettext("this one has {n} element.", "this one has {n} elements.", int(count)).format(n=int(count))
    else:
        many = _("this one has more than one.")
    rule = join(_("item(), float() and int() turn a tensor with exactly ONE element into a Python number;"), many)
    fix = swap(ctx, call, f"{name}.tolist()") if call is not None else None
    if fix:
        fix += "  # " + _("all the values, as a list")
    advice = comment_lines(_("reduce to one number first (.sum(), .mean()) or take all values with .tolist()"))
    return Card(_("Only a one-element tensor becomes a number"), join(ctx.facts_sentence([name] if name else []), rule),
                fix or advice, advice=advice)


def _tensor_list(ctx: ErrorContext) -> ast.Call | None:
    """The ``torch.tensor([a, b])`` call whose list holds tensors."""
    for node in ctx.nodes():
        if isinstance(node, ast.Call) and call_name(node) in ("tensor", "as_tensor") and node.args \
                and isinstance(node.args[0], (ast.List, ast.Tuple)) \
                and any(ast.unparse(e) in ctx.tensors for e in node.args[0].elts):
            return node
    return None


def _stack_instead(ctx: ErrorContext) -> Card:
    call = _tensor_list(ctx)
    first = call.args[0] if call is not None else None
    items = [ast.unparse(e) for e in first.elts] if isinstance(first, (ast.List, ast.Tuple)) else []
    rule = _("torch.tensor() builds a tensor from numbers; given a list of tensors with several elements each, it "
             "tries to turn each tensor into one number. To put tensors side by side use torch.stack (a new "
             "dimension) or torch.cat (along an existing one).")
    stack = spell("torch.stack", ctx.scopes)
    fix = None
    if call is not None and stack:
        fix = swap(ctx, call, ast.unparse(ast.Call(func=ast.parse(stack, mode="eval").body, args=[call.args[0]], keywords=[])))
    advice = comment_lines(_("join tensors with torch.stack([...]) instead of torch.tensor([...])"))
    return Card(_("torch.tensor() of a list of tensors"), join(ctx.facts_sentence(items), rule), fix or advice,
                advice=advice)


def _bool_ambiguous(ctx: ErrorContext) -> Card:
    rule = _("`if`, `while`, `and`, `or` and `not` need one True or False, but comparing a tensor of several elements "
             "gives one answer per element. Say whether you mean all of them or any of them.")
    stmt, fix = ctx.statement, None
    if isinstance(stmt, (ast.If, ast.While)) and not isinstance(stmt.test, ast.BoolOp):
        test = ast.unparse(stmt.test)
        fix = replaced(stmt, {stmt.test: f"({test}).all()"}) + "  # " + _("or .any(): at least one")
    advice = comment_lines(_("use .all() (every element) or .any() (at least one)"))
    return Card(_("True or False of many values is ambiguous"), join(ctx.facts_sentence(), rule), fix or advice,
                advice=advice)


def _batchnorm_one(ctx: ErrorContext) -> Card:
    rule = _("In training mode BatchNorm computes a mean and a variance over the batch; with a single value per "
             "channel there is nothing to average. Use a batch of 2 or more, or switch to evaluation mode with "
             ".eval() to run one sample.")
    layer = next(iter(ctx.modules()), None)
    fix = f"{layer}.eval()  # " + _("evaluation mode: uses the running statistics") if layer else None
    advice = comment_lines(_("use a batch of 2 or more, or call .eval() first"))
    return Card(_("BatchNorm needs more than one sample"), join(ctx.facts_sentence(), rule), fix or advice,
                mode="before", advice=advice)


ENTRIES: list[Entry] = [
    Entry("tensor_from_tensor_list", ("ValueError", "RuntimeError", "TypeError"), (
        r"only one element tensors can be converted to Python scalars",
        r"a Tensor with (?P<n>\d+) elements cannot be converted to Scalar",
    ), _stack_instead, when=lambda ctx: _tensor_list(ctx) is not None),
    Entry("index_out_of_range", ("IndexError", "RuntimeError"), (
        r"index (?P<idx>-?\d+) is out of bounds for (?:dimension|axis) (?P<dim>\d+) with size (?P<size>\d+)",
        r"index out of range in self",
        r"list index out of range", r"tuple index out of range",
    ), _index_oob),
    Entry("dim_out_of_range", ("IndexError", "ValueError"), (
        r"Dimension out of range \(expected to be in range of \[(?P<lo>-?\d+), (?P<hi>-?\d+)\], but got (?P<got>-?\d+)\)",
        r"too many indices for (?:tensor|array) of dimension (?P<nd>\d+)",
        r"axis (?P<got>-?\d+) is out of bounds for array of dimension (?P<nd>\d+)",
    ), _dim_oob),
    Entry("item_many_elements", ("RuntimeError", "ValueError", "TypeError"), (
        r"a Tensor with (?P<n>\d+) elements cannot be converted to Scalar",
        r"only one element tensors can be converted to Python scalars",
        r"only (?:length-1|size-1) arrays can be converted to Python scalars",
    ), _item_multi),
    Entry("bool_ambiguous", ("RuntimeError", "ValueError"), (
        r"Boolean value of Tensor with more than one value is ambiguous",
        r"The truth value of an array with more than one element is ambiguous",
    ), _bool_ambiguous),
    Entry("batchnorm_single_sample", ("ValueError",), (
        r"Expected more than 1 value per channel when training",
    ), _batchnorm_one),
]
