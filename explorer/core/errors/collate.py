"""Catalogue entry for a DataLoader that cannot stack the items of a batch: they differ in size.

The error surfaces on the learner's ``for x, y in loader:``; the library frames below it
hold what went wrong: the indices of the batch (the fetcher), the samples the Dataset
returned, and the tensors ``torch.stack`` was given. The card names the Dataset, the
field of its items and the two shapes; for sequences of different lengths it writes a
``collate_fn`` that pads them, passed where the learner built the DataLoader.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from explorer.core.errors.context import ErrorContext, dotted_name, fmt_shape, join, lookup
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.fixes import with_args
from explorer.core.errors.frames import below
from explorer.core.errors.safe import class_name, instance_dict, is_tensor, list_items, shape_of
from explorer.core.errors.source import comment_lines, parse, replaced
from explorer.core.i18n import _

_ENTRIES = re.compile(r"but got \[(?P<a>[\d, ]*)\] at entry (?P<i>\d+) and \[(?P<b>[\d, ]*)\] at entry (?P<j>\d+)")


def _in_loader(ctx: ErrorContext) -> bool:
    return "collate_tensor_fn" in ctx.frame_names or "default_collate" in ctx.frame_names


def _batch_facts(ctx: ErrorContext) -> tuple[list[Any], list[Any], Any, list[Any]]:
    """(indices of the batch, the samples, the dataset, the tensors torch.stack got) from the library frames."""
    fetched = below(ctx, function="fetch", has="possibly_batched_index")
    indices = list_items(fetched[-1].get("possibly_batched_index"), 10_000) if fetched else []
    samples = list_items(fetched[-1].get("data"), 10_000) if fetched else []
    dataset = instance_dict(fetched[-1].get("self")).get("dataset") if fetched else None
    stacked = below(ctx, function="collate_tensor_fn", has="batch")
    tensors = list_items(stacked[-1]["batch"], 10_000) if stacked else []
    return indices, samples, dataset, tensors


def _field(samples: list[Any], tensors: list[Any]) -> int | None:
    """Which position of a (x, y, ...) sample holds the tensors torch.stack could not join."""
    first = list_items(samples[0], 20) if samples else []
    if not tensors:
        return None
    return next((k for k, item in enumerate(first) if item is tensors[0]), None)


def _loader(ctx: ErrorContext) -> tuple[str, Any] | None:
    """(code, DataLoader) the failing ``for`` statement iterates."""
    stmt = ctx.statement
    if isinstance(stmt, ast.For):
        ok, value = lookup(stmt.iter, ctx.scopes)
        if ok and class_name(value) == "DataLoader":
            return ast.unparse(stmt.iter), value
    for name, value in ctx.objects.items():
        if class_name(value) == "DataLoader":
            return name, value
    return None


def _creation(ctx: ErrorContext, name: str) -> tuple[ast.Assign, ast.Call] | None:
    """The ``loader = DataLoader(...)`` statement before the failing line."""
    tree = parse(ctx.source)
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
             and dotted_name(n.targets[0]) == name and isinstance(n.value, ast.Call)
             and n.lineno < (ctx.line or 0)] if tree else []
    stmt = max(found, key=lambda n: n.lineno) if found else None
    return (stmt, stmt.value) if stmt is not None and isinstance(stmt.value, ast.Call) else None


def _targets(ctx: ErrorContext, count: int) -> list[str] | None:
    """The learner's names for the parts of an item: ``images, targets`` in ``for images, targets in loader:``."""
    stmt = ctx.statement
    if isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Tuple) and len(stmt.target.elts) == count \
            and all(isinstance(e, ast.Name) for e in stmt.target.elts):
        return [e.id for e in stmt.target.elts if isinstance(e, ast.Name)]
    return None


def _pad_collate(ctx: ErrorContext, samples: list[Any], field: int) -> str | None:
    """A collate_fn padding field *field* (sequences differing only in length), stacking the others."""
    first = list_items(samples[0], 20)
    pad, torch = ctx.spell("torch.nn.utils.rnn.pad_sequence"), ctx.spell("torch.stack")
    if not first or pad is None or torch is None:
        return None
    shapes = [s for s in (shape_of(list_items(item, 20)[field]) for item in samples) if s]
    if len(shapes) != len(samples) or any(s[1:] != shapes[0][1:] for s in shapes):
        return None  # not sequences that differ only in their length
    names = _targets(ctx, len(first)) or [f"field_{k}" for k in range(len(first))]
    joined = []
    for k, item in enumerate(first):
        if k == field:
            joined.append(f"{pad}({names[k]}, batch_first=True)")
        elif is_tensor(item):
            joined.append(f"{torch}({names[k]})")
        else:
            tensor = ctx.spell("torch.tensor")
            if tensor is None:
                return None
            joined.append(f"{tensor}({names[k]})")
    return "\n".join([
        "def pad_batch(batch):",
        "    " + comment_lines(_("pad the shorter sequences with zeros to the longest one")),
        f"    {', '.join(names)} = zip(*batch)",
        f"    return {', '.join(joined)}",
    ])


def _stack_items(ctx: ErrorContext) -> Card:
    indices, samples, dataset, tensors = _batch_facts(ctx)
    entries = _ENTRIES.search(ctx.message)
    loader = _loader(ctx)
    field = _field(samples, tensors)
    name = loader[0] if loader else "DataLoader"
    data_class = class_name(dataset) if dataset is not None else "Dataset"
    said = _("`{loader}` joins the items of `{dataset}` into one batch with torch.stack, which needs every item to "
             "have the same shape.").format(loader=name, dataset=data_class)
    if entries:
        i, j = int(entries["i"]), int(entries["j"])
        where = lambda k: indices[k] if k < len(indices) else k  # noqa: E731
        count = len(list_items(samples[0], 20)) if samples else 0
        learner = _targets(ctx, count) if field is not None else None
        part = (f"`{learner[field]}`" if learner else _("part {k} of each item").format(k=field)) if field is not None \
            else _("one part of each item")
        said = join(said, _("In this batch, {part} is {a} for item {i} (dataset index {di}) but {b} for item {j} "
                            "(dataset index {dj}).").format(part=part, a=fmt_shape(_ints(entries["a"])), i=i,
                                                            di=where(i), b=fmt_shape(_ints(entries["b"])), j=j,
                                                            dj=where(j)))
    advice = comment_lines(_("make every item the same size in __getitem__ (resize, crop or pad), "
                             "or pass a collate_fn that pads them"))
    made = _creation(ctx, name) if loader else None
    pad = _pad_collate(ctx, samples, field) if made is not None and field is not None and samples else None
    if made is None or pad is None:
        rule = _("Images of different sizes have to be resized or cropped to one size in the Dataset's "
                 "__getitem__ before they can share a batch.")
        return Card(_("The DataLoader cannot stack items of different sizes"), join(said, rule), advice, advice=advice)
    stmt, call = made
    rule = _("Sequences of different lengths are padded to the longest one of their batch: a collate_fn tells the "
             "DataLoader how to join the items.")
    fix = pad + "\n" + replaced(stmt, {call: with_args(call, keywords={"collate_fn": "pad_batch"})})
    return Card(_("The DataLoader cannot stack items of different sizes"), join(said, rule), fix,
                fix_line=stmt.lineno, advice=advice)


def _ints(text: str) -> list[int]:
    return [int(d) for d in re.findall(r"\d+", text)]


ENTRIES: list[Entry] = [
    Entry("loader_stack_sizes", ("RuntimeError",), (r"stack expects each tensor to be equal size",), _stack_items,
          when=_in_loader),
]
