"""Memory components: which byte intervals chain together into one group.

Sort-and-sweep: after sorting by ``(space, start)``, an interval joins the
running component while it starts before the furthest end seen so far in its
space.  With numpy the sort and the sweep are a handful of vector operations
(a 10,000-view namespace takes about a millisecond instead of several); keys
that do not fit the vector form fall back to the same sweep in Python.
"""

from __future__ import annotations

import operator
from typing import cast

import numpy as np

from explorer.core.summary.static import PRISTINE_BUILTINS

globals()["__builtins__"] = PRISTINE_BUILTINS

#: Addresses at or above this go to the Python sweep (one space's span in the vector form).
_SPAN = 1 << 48
_MAX_SPACES = 1 << 14  # spaces * _SPAN must stay inside int64

Key = tuple[str, int, int]
_NO_KEY = (object(), 0, 0)  # stands in for a missing key: zero bytes, so it joins nothing
_SPACE, _START, _END = operator.itemgetter(0), operator.itemgetter(1), operator.itemgetter(2)


def memory_components(keys: list[Key | None]) -> list[int | None]:
    """Component id per ``(space, start, end)`` key; entries that overlap nobody (or have no key) get ``None``."""
    if len(keys) < 2:
        return [None] * len(keys)
    # C-level passes over the keys (this runs once per snapshot over every tensor/array).
    # cast: the test just made sure no key is None (the common case keeps the caller's list, no copy).
    filled = cast("list[tuple[object, int, int]]", keys) if None not in keys else \
        [_NO_KEY if k is None else k for k in keys]
    try:
        names = set(map(_SPACE, filled))
        names.discard(_NO_KEY[0])
        lo_all = np.array(list(map(_START, filled)), dtype=np.int64)
        hi_all = np.array(list(map(_END, filled)), dtype=np.int64)
    except (OverflowError, TypeError, ValueError):  # addresses beyond int64, odd key types
        return _python_sweep(keys)
    idx = np.flatnonzero(hi_all > lo_all)  # keys with at least one byte
    if len(idx) < 2:
        return [None] * len(keys)
    lo, hi = lo_all[idx], hi_all[idx]
    if len(names) == 1:  # the usual case: every key on the CPU
        space = np.zeros(len(idx), dtype=np.int64)
    else:
        try:
            number = {name: n for n, name in enumerate(sorted(names, key=str))}
            space = np.array([number[filled[i][0]] for i in idx.tolist()], dtype=np.int64)
        except (TypeError, KeyError):  # unhashable or odd spaces
            return _python_sweep(keys)
    if int(lo.min()) < 0 or int(hi.max()) >= _SPAN or len(names) >= _MAX_SPACES:
        return _python_sweep(keys)
    order = np.lexsort((lo, space))
    offset = space[order] * _SPAN  # spaces laid end to end never overlap
    start, end = lo[order] + offset, hi[order] + offset
    new = np.empty(len(idx), dtype=bool)
    new[0] = True
    new[1:] = start[1:] >= np.maximum.accumulate(end)[:-1]
    cid = np.cumsum(new) - 1
    shared = np.bincount(cid)[cid] > 1
    comp = np.full(len(keys), None, dtype=object)
    comp[idx[order][shared]] = cid[shared].tolist()
    return comp.tolist()


def _python_sweep(keys: list[Key | None]) -> list[int | None]:
    """The same sweep over Python ints (any address size, any hashable space)."""
    order = sorted((k[0], k[1], k[2], i) for i, k in enumerate(keys) if k is not None and k[2] > k[1])
    comp: list[int | None] = [None] * len(keys)
    run: list[int] = []
    space, end, next_id = None, 0, 0
    for sp, lo, hi, i in order:
        if sp != space or lo >= end:
            if len(run) > 1:
                for j in run:
                    comp[j] = next_id
                next_id += 1
            run, space, end = [], sp, hi
        run.append(i)
        end = max(end, hi)
    if len(run) > 1:
        for j in run:
            comp[j] = next_id
    return comp
