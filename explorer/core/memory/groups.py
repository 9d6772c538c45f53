"""Memory sharing: allocations, memory groups and exact byte overlaps.

Definitions (see docs/architecture.md, "Memory sharing"):

allocation
    Torch tensor: ``[untyped_storage().data_ptr(), + nbytes)``. NumPy array: the
    byte bounds of the outermost ndarray of its ``.base`` chain. Meta, sparse and
    other storage-less values have none.
memory_group
    Connected components of variables whose allocations overlap (a sort-and-sweep
    over intervals, so ``torch.from_numpy(a[2:])`` joins ``a``). Labels ``"M1"``,
    ``"M2"``, ... in order of first appearance; ``None`` for a variable that
    overlaps nobody.

:func:`assign_memory` writes these keys into each VAR dict:

``memory_group``
    the label or ``None``.
``overlaps``
    names of the other variables sharing at least one byte of the elements each
    can reach (the answer of ``np.shares_memory(a, b, max_work=None)``); ``None``
    for values that are not tensors/arrays.
``overlaps_exact``
    ``False`` when the bounded GUI mode skipped some exact checks for this
    variable (``overlaps`` then lists only the overlaps it confirmed).
``relation``
    ``None`` outside a group, else a dict of name lists about the other members:
    ``same_allocation`` (exactly the same allocation interval, e.g. two views of
    one storage), ``overlaps`` (as above) and ``same_elements`` (reach exactly
    the same bytes in the same layout, e.g. ``b = a`` or ``a.detach()``); the
    two hint lists hold at most ``RELATION_MAX_NAMES`` names. A member of the
    group that is not in ``overlaps`` while ``overlaps_exact`` is true shares
    the allocation but no byte (e.g. ``t[:4]`` vs ``t[4:]``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from explorer.core.memory.reach import (
    Reach,
    allocation_key,
    extent,
    is_array_like,
    is_dense,
    reach,
    shares_bytes,
)
from explorer.core.memory.sweep import memory_components
from explorer.core.resolve import resolve
from explorer.core.summary.static import (
    PRISTINE_BUILTINS,
    inspecting,
    remember,
)
from explorer.protocol.kinds import ARRAY_KINDS

globals()["__builtins__"] = PRISTINE_BUILTINS
remember("numpy", np)  # a later sys.modules['numpy'] = None is undone while inspecting

# GUI mode bounds: exact pair checks per call, and np.shares_memory's max_work.
GUI_MAX_PAIRS = 20_000
GUI_MAX_WORK = 100_000
# relation lists are hints for a sentence in the UI; keep snapshots small.
RELATION_MAX_NAMES = 16

class _PairChecker:
    """Exact pair checks with an optional budget (the GUI's bound)."""

    def __init__(self, exact: bool) -> None:
        self.budget = None if exact else GUI_MAX_PAIRS
        self.max_work = None if exact else GUI_MAX_WORK

    def check(self, a: Reach, b: Reach) -> bool | None:
        if self.budget is not None:
            if self.budget <= 0:
                return None
            self.budget -= 1
        return shares_bytes(a, b, self.max_work)


def _group_pairs(
    members: list[int], reaches: dict[int, Reach | None], checker: _PairChecker
) -> tuple[dict[int, set[int]], set[int]]:
    """Overlapping pairs within one group, plus the members whose checks were skipped."""
    over: dict[int, set[int]] = {i: set() for i in members}
    known = {i: r for i in members if (r := reaches[i]) is not None and not r.empty}
    live = sorted(known, key=lambda i: known[i].lo)
    active: list[int] = []
    for pos, i in enumerate(live):
        ri = known[i]
        active = [j for j in active if known[j].hi > ri.lo]
        for j in active:
            verdict = checker.check(known[j], ri)
            if verdict is None:  # budget spent: everything still open is unknown
                return over, set(active) | set(live[pos:])
            if verdict:
                over[i].add(j)
                over[j].add(i)
        active.append(i)
    return over, set()


def _relations(
    names: list[str], members: list[int], keys: list[Any], reaches: dict[int, Reach | None],
    over: dict[int, set[int]],
) -> dict[int, dict[str, list[str]]]:
    """The ``relation`` dict of each member of one group (name lists capped at ``RELATION_MAX_NAMES``)."""
    by_alloc: dict[Any, list[int]] = {}
    by_reach: dict[Any, list[int]] = {}
    for i in members:
        by_alloc.setdefault(keys[i], []).append(i)
        r = reaches[i]
        if r is not None and not r.empty:
            by_reach.setdefault((r.ptr, r.shape, r.strides, r.itemsize), []).append(i)
    out: dict[int, dict[str, list[str]]] = {}
    for i in members:
        r = reaches[i]
        twins = by_reach.get((r.ptr, r.shape, r.strides, r.itemsize), []) if r is not None else []
        out[i] = {
            "same_allocation": _others(names, by_alloc[keys[i]], i),
            "overlaps": [names[j] for j in sorted(over[i])],
            "same_elements": _others(names, twins, i),
        }
    return out


def _others(names: list[str], indices: list[int], me: int) -> list[str]:
    """Names of *indices* except *me*, at most ``RELATION_MAX_NAMES`` of them."""
    return [names[j] for j in indices[:RELATION_MAX_NAMES + 1] if j != me][:RELATION_MAX_NAMES]


def key_from_var(var: dict, value: Any) -> tuple[str, int, int] | None:
    """:func:`allocation_key` from the facts the summary already read (no torch calls)."""
    storage, device = var.get("storage"), var.get("device")
    if storage and type(device) is str and var.get("kind") in ARRAY_KINDS:
        start = storage["data_ptr"]
        return device, start, start + storage["nbytes"]
    return allocation_key(value)


def _keys(entries: list[tuple[dict, Any]]) -> list[tuple[str, int, int] | None]:
    """:func:`key_from_var` of every entry (inlined: this runs once per variable per snapshot)."""
    keys: list[tuple[str, int, int] | None] = []
    append = keys.append
    for var, value in entries:
        storage, device = var.get("storage"), var.get("device")
        if storage and type(device) is str and var.get("kind") in ARRAY_KINDS:
            start = storage["data_ptr"]
            append((device, start, start + storage["nbytes"]))
        else:
            append(allocation_key(value))
    return keys


def reach_from_var(var: dict, value: Any) -> Reach | None:
    """:func:`reach` from the summary's facts when they are all there, else from the value."""
    ptr, shape, strides, itemsize = (var.get(k) for k in ("data_ptr", "shape", "byte_strides", "itemsize"))
    device = var.get("device")
    if ptr is None or shape is None or strides is None or itemsize is None or device is None \
            or var.get("kind") not in ARRAY_KINDS or not ptr:
        return reach(value)
    shape, strides = tuple(shape), tuple(strides)
    lo, hi = extent(ptr, shape, strides, itemsize)
    return Reach(device, ptr, shape, strides, itemsize, lo, hi, hi > lo and is_dense(shape, strides, itemsize))


def assign_memory(entries: list[tuple[dict, Any]], *, exact_overlaps: bool = False,
                  overlaps: bool = True) -> None:
    """Fill ``memory_group``, ``overlaps``, ``overlaps_exact`` and ``relation`` in VAR dicts.

    Parameters
    ----------
    entries : list of (dict, Any)
        Each VAR dict (must hold ``"name"``) with its live value.
    exact_overlaps : bool, default False
        True (CLI): every overlap is exact. False (GUI): at most
        ``GUI_MAX_PAIRS`` exact checks with bounded ``max_work``; variables
        whose checks were skipped get ``overlaps_exact = False``.
    overlaps : bool, default True
        False: memory groups only; ``overlaps`` and ``relation`` stay ``None``
        (the GUI asks :func:`overlaps_of` for the selected variable instead,
        which keeps a snapshot of thousands of views within a few milliseconds).
    """
    keys = _keys(entries)
    comps = memory_components(keys)
    labels: dict[int, str] = {}  # numbered in order of each group's first member
    for c in comps:
        if c is not None and c not in labels:
            labels[c] = f"M{len(labels) + 1}"
    grouped: dict[str, str | bool | None] = {"relation": None, "memory_group": None, "overlaps": None,
                                             "overlaps_exact": False}
    alone = {"relation": None, "memory_group": None, "overlaps_exact": True}
    for (var, value), c in zip(entries, comps):
        if c is not None and not overlaps:  # groups only: the GUI asks for one variable's overlaps later
            grouped["memory_group"] = labels[c]
            var.update(grouped)
            continue
        kind = var.get("kind")  # the summary's verdict, when there is one, is cheaper than asking
        if kind in ARRAY_KINDS if kind is not None else is_array_like(value):
            var.update(alone)
            if var.get("overlaps") != []:
                var["overlaps"] = []
        else:
            var.update(relation=None, memory_group=None, overlaps=None, overlaps_exact=None)
    if not overlaps:
        return
    names = [var["name"] for var, _ in entries]
    groups: dict[int, list[int]] = {}
    for i, c in enumerate(comps):
        if c is not None:
            groups.setdefault(c, []).append(i)
    checker = _PairChecker(exact_overlaps)
    for c, members in groups.items():  # dicts keep insertion order: first member's order
        label = labels[c]
        reaches = {i: reach_from_var(*entries[i]) for i in members}
        over, unknown = _group_pairs(members, reaches, checker)
        rel = _relations(names, members, keys, reaches, over)
        for i in members:
            var = entries[i][0]
            var["memory_group"] = label
            var["overlaps"] = rel[i]["overlaps"]
            var["overlaps_exact"] = i not in unknown
            var["relation"] = rel[i]


# -- namespace walk -----------------------------------------------------------
def group_of(namespace: dict[str, Any], name: str) -> tuple[Any, list[tuple[str, Any]], str | None]:
    """The value of *name*, the members of its memory group (itself first) and the group label."""
    from explorer.core.summary.namespace import array_entries  # the snapshot's own names and order

    with inspecting():
        target = resolve(namespace, name)
        items = list(array_entries(namespace))
        if name not in {n for n, _ in items}:
            items.insert(0, (name, target))
        keys = [allocation_key(v) for _, v in items]
    comps = memory_components(keys)
    index = next(i for i, (n, _) in enumerate(items) if n == name)
    component = comps[index]
    if component is None:
        return target, [(name, target)], None
    numbers: dict[int, int] = {}  # component -> its label number, in order of first appearance
    for c in comps:
        if c is not None and c not in numbers:
            numbers[c] = len(numbers) + 1
    label = f"M{numbers[component]}"
    members = [items[i] for i, c in enumerate(comps) if c == component and i != index]
    return target, [(name, target)] + members, label


def overlaps_of(namespace: dict[str, Any], name: str) -> dict:
    """Exact overlaps of one variable with every other tensor/array in the namespace.

    Parameters
    ----------
    namespace : dict
        The user namespace.
    name : str
        An inspector name (``x``, ``sd['w']``, ``model.fc.weight``).

    Returns
    -------
    dict
        ``{"name", "memory_group", "same_allocation", "overlaps", "disjoint"}``;
        only the members of the memory group are checked, each exactly.
    """
    with inspecting():
        return _overlaps_of(namespace, name)


def _overlaps_of(namespace: dict[str, Any], name: str) -> dict:
    target, members, label = group_of(namespace, name)
    mine = reach(target)
    key = allocation_key(target)
    same: list[str] = []
    over: list[str] = []
    apart: list[str] = []
    for other_name, value in members[1:]:
        if allocation_key(value) == key:
            same.append(other_name)
        other = reach(value)
        shared = mine is not None and other is not None and shares_bytes(mine, other, None)
        (over if shared else apart).append(other_name)
    return {"name": name, "memory_group": label, "same_allocation": same,
            "overlaps": over, "disjoint": apart}
