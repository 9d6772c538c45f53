"""Catalogue entries for indexing and value-conversion errors."""

from __future__ import annotations

import ast

from explorer.core.errors.context import ErrorContext, join, lookup
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.fixes import with_args
from explorer.core.errors.safe import class_name, instance_dict, list_items, shape_of
from explorer.core.errors.source import comment_lines, parse, replaced
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


def _last_batch(ctx: ErrorContext) -> tuple[str, int, int] | None:
    """(loader, samples, batch size) when the loop's DataLoader ends with a batch of one."""
    tree = parse(ctx.source)
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.For) and node.body and node.body[0].lineno <= (ctx.line or 0) <= (node.end_lineno or 0):
            ok, loader = lookup(node.iter, ctx.scopes)
            if ok and class_name(loader) == "DataLoader":
                inner = instance_dict(loader)
                size, dataset = inner.get("batch_size"), inner.get("dataset")
                count = _length(dataset)
                if isinstance(size, int) and isinstance(count, int) and size > 1 and count % size == 1 \
                        and not inner.get("drop_last"):
                    return ast.unparse(node.iter), count, size
    return None


def _length(dataset: object) -> int | None:
    """How many samples a TensorDataset or a list holds (a learner's __len__ is not called)."""
    if class_name(dataset) == "TensorDataset":
        tensors = list_items(instance_dict(dataset).get("tensors"), 1)
        shape = shape_of(tensors[0]) if tensors else None
        return shape[0] if shape else None
    return len(dataset) if isinstance(dataset, (list, tuple)) else None


def _batchnorm_one(ctx: ErrorContext) -> Card:
    rule = _("In training mode BatchNorm computes a mean and a variance over the batch; with a single value per "
             "channel there is nothing to average. Use a batch of 2 or more, or switch to evaluation mode with "
             ".eval() to run one sample.")
    advice = comment_lines(_("use a batch of 2 or more, or call .eval() first"))
    ones = [n for n, v in ctx.tensors.items() if (shape_of(v) or [0])[:1] == [1]]
    title = _("BatchNorm needs more than one sample")
    last = _last_batch(ctx)
    if last is not None:
        loader, count, size = last
        said = _("`{loader}` has {n} samples in batches of {size}, so its last batch holds only one.").format(
            loader=loader, n=count, size=size)
        made = _creation(ctx, loader)
        if made is not None:
            stmt, call = made
            fix = replaced(stmt, {call: with_args(call, keywords={"drop_last": "True"})}) + "  # " + \
                _("skip the last, incomplete batch")
            return Card(title, join(ctx.facts_sentence(ones), said, rule), fix, fix_line=stmt.lineno, advice=advice)
    layer = next(iter(ctx.modules()), None)
    code = f"{layer}.eval()  # " + _("evaluation mode: uses the running statistics") if layer else None
    return Card(title, join(ctx.facts_sentence(ones), rule), code or advice, mode="before", advice=advice)


def _creation(ctx: ErrorContext, name: str) -> tuple[ast.Assign, ast.Call] | None:
    """The ``name = DataLoader(...)`` statement."""
    tree = parse(ctx.source)
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
             and ast.unparse(n.targets[0]) == name and isinstance(n.value, ast.Call)] if tree else []
    return (found[-1], found[-1].value) if found and isinstance(found[-1].value, ast.Call) else None


ENTRIES: list[Entry] = [
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
    Entry("batchnorm_single_sample", ("ValueError",), (
        r"Expected more than 1 value per channel when training",
    ), _batchnorm_one),
]
