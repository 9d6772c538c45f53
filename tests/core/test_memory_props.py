"""Property tests: overlaps agree with np.shares_memory, groups with the allocation definition.

Random chains of views and copies over torch and numpy values. ~200 examples by
default; ``HYPOTHESIS_PROFILE=thorough`` runs thousands.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.core.memory.groups import assign_memory

_THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"
_SETTINGS = settings(max_examples=4000 if _THOROUGH else 200, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

_TORCH_DTYPES = [torch.float32, torch.bfloat16, torch.int64, torch.bool, torch.complex64, torch.uint8]
_NUMPY_DTYPES = [np.float32, np.int16, np.float64, np.uint8, np.complex64]
_SAME_SIZE_INT = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}
_EXPECTED = (RuntimeError, ValueError, TypeError, IndexError)


def as_numpy(value: Any) -> np.ndarray:
    """The oracle's view of a value: a real ndarray on the same memory (torch's own .numpy())."""
    if isinstance(value, np.ndarray):
        return value
    t = value.detach()
    if t.dtype in (torch.bfloat16, torch.float8_e4m3fn):
        t = t.view(_SAME_SIZE_INT[t.element_size()])  # same itemsize: same shape and strides
    return t.numpy()


def true_allocation(value: Any) -> tuple[int, int]:
    """Allocation per docs/architecture.md, computed independently of explorer.core.memory.groups."""
    if isinstance(value, np.ndarray):
        while isinstance(value.base, np.ndarray):
            value = value.base
        lo = value.__array_interface__["data"][0]
        extent = sum((n - 1) * abs(s) for n, s in zip(value.shape, value.strides))
        low = lo + sum((n - 1) * s for n, s in zip(value.shape, value.strides) if s < 0)
        return (low, low + extent + value.itemsize) if value.size else (lo, lo)
    s = value.untyped_storage()
    return s.data_ptr(), s.data_ptr() + s.nbytes()


def true_components(values: list[Any]) -> list[int | None]:
    """Pairwise interval overlap + union-find (quadratic on purpose: the slow truth)."""
    allocs = [true_allocation(v) for v in values]
    parent = list(range(len(values)))

    def find(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i, (a0, a1) in enumerate(allocs):
        for j, (b0, b1) in enumerate(allocs[:i]):
            if a0 < a1 and b0 < b1 and a0 < b1 and b0 < a1:
                parent[find(i)] = find(j)
    roots = [find(i) for i in range(len(values))]
    return [r if roots.count(r) > 1 else None for r in roots]


# -- random operations --------------------------------------------------------------
def _slice(v: Any, data: st.DataObject) -> Any:
    if v.ndim == 0:
        return v[()]
    dim = data.draw(st.integers(0, v.ndim - 1))
    n = v.shape[dim]
    start = data.draw(st.integers(0, max(n, 0)))
    stop = data.draw(st.integers(start, max(n, start)))
    step = data.draw(st.integers(1, 3))
    if isinstance(v, np.ndarray) and data.draw(st.booleans()):
        step = -step
        start, stop = (stop - 1 if stop > 0 else None), (start - 1 if start > 0 else None)
    index = [slice(None)] * v.ndim
    index[dim] = slice(start, stop, step)
    return v[tuple(index)]


def _interleave(v: Any, data: st.DataObject) -> list[Any]:
    """Two sibling views taking every k-th element from different starts: they interleave."""
    if v.ndim == 0:
        return [v[()]]
    dim = data.draw(st.integers(0, v.ndim - 1))
    step = data.draw(st.integers(2, 4))
    flip = isinstance(v, np.ndarray) and data.draw(st.booleans())
    out = []
    for start in data.draw(st.lists(st.integers(0, step - 1), min_size=2, max_size=2)):
        index = [slice(None)] * v.ndim
        index[dim] = slice(-1 - start, None, -step) if flip else slice(start, None, step)
        out.append(v[tuple(index)])
    return out


def _permute(v: Any, data: st.DataObject) -> Any:
    order = data.draw(st.permutations(list(range(v.ndim))))
    return v.transpose(order) if isinstance(v, np.ndarray) else v.permute(*order)


def _transpose(v: Any, data: st.DataObject) -> Any:
    if isinstance(v, np.ndarray):
        return v.T
    return v.mT if v.ndim >= 2 else v.t()


def _expand(v: Any, data: st.DataObject) -> Any:
    k = data.draw(st.integers(1, 3))
    if isinstance(v, np.ndarray):
        return np.broadcast_to(v[None], (k,) + v.shape)
    return v.unsqueeze(0).expand(k, *v.shape)


def _unfold(v: Any, data: st.DataObject) -> Any:
    dim = data.draw(st.integers(0, max(v.ndim - 1, 0)))
    size = data.draw(st.integers(1, 3))
    if isinstance(v, np.ndarray):
        return np.lib.stride_tricks.sliding_window_view(v, size, axis=dim)
    return v.unfold(dim, size, data.draw(st.integers(1, 3)))


def _reshape(v: Any, data: st.DataObject) -> Any:
    numel = v.size if isinstance(v, np.ndarray) else v.numel()
    if numel == 0 or data.draw(st.booleans()):
        return v.reshape(-1)
    first = data.draw(st.sampled_from([d for d in range(1, 7) if numel % d == 0]))
    return v.reshape(first, -1)


def _view(v: Any, data: st.DataObject) -> Any:
    return v.view() if isinstance(v, np.ndarray) else v.view(-1)


def _view_dtype(v: Any, data: st.DataObject) -> Any:
    if isinstance(v, np.ndarray):
        return v.view(data.draw(st.sampled_from([np.uint8, np.int16, np.int32, np.float64])))
    return v.view(data.draw(st.sampled_from([torch.uint8, torch.int16, torch.float32, torch.int64])))


def _bridge(v: Any, data: st.DataObject) -> Any:
    if isinstance(v, np.ndarray):
        fn = data.draw(st.sampled_from([torch.from_numpy, torch.as_tensor]))
        return fn(v)
    return v.numpy()


def _copy(v: Any, data: st.DataObject) -> Any:
    if isinstance(v, np.ndarray):
        return data.draw(st.sampled_from([np.copy, np.ascontiguousarray]))(v)
    return v.clone() if data.draw(st.booleans()) else v.contiguous()


_OPS: list[Callable[[Any, st.DataObject], Any]] = [
    _slice, _interleave, _interleave, _permute, _transpose, _expand, _unfold, _reshape, _view, _view_dtype,
    _bridge, _bridge, _copy,
]


def _base(data: st.DataObject) -> Any:
    rows = data.draw(st.integers(1, 4))
    n = rows * data.draw(st.integers(0, 8))
    if data.draw(st.booleans()):
        dtype = data.draw(st.sampled_from(_TORCH_DTYPES))
        t = torch.arange(n) % 2 == 0 if dtype == torch.bool else torch.arange(n).to(dtype)
        return t.reshape(rows, -1) if n else t
    a = np.arange(n).astype(data.draw(st.sampled_from(_NUMPY_DTYPES)))
    return a.reshape(rows, -1) if n else a


def _pool(data: st.DataObject) -> list[Any]:
    pool = [_base(data) for _ in range(data.draw(st.integers(1, 2)))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(data.draw(st.integers(1, 8))):
            src = pool[data.draw(st.integers(0, len(pool) - 1))]
            op = data.draw(st.sampled_from(_OPS))
            try:
                made = op(src, data)
            except _EXPECTED:
                continue
            pool.extend(made if isinstance(made, list) else [made])
    return pool


def _run(pool: list[Any], exact: bool) -> list[dict]:
    entries = [({"name": f"v{i}"}, v) for i, v in enumerate(pool)]
    assign_memory(entries, exact_overlaps=exact)
    return [var for var, _ in entries]


@_SETTINGS
@given(st.data())
def test_overlaps_match_shares_memory(data: st.DataObject) -> None:
    pool = _pool(data)
    arrays = [as_numpy(v) for v in pool]
    for i, var in enumerate(_run(pool, exact=True)):
        truth = [f"v{j}" for j in range(len(pool))
                 if j != i and np.shares_memory(arrays[i], arrays[j], max_work=None)]
        assert sorted(var["overlaps"]) == sorted(truth), (i, pool)
        assert var["overlaps_exact"] is True


@_SETTINGS
@given(st.data())
def test_groups_match_allocation_overlap(data: st.DataObject) -> None:
    pool = _pool(data)
    truth = true_components(pool)
    labels = [var["memory_group"] for var in _run(pool, exact=False)]
    for i in range(len(pool)):
        assert (labels[i] is None) == (truth[i] is None)
        for j in range(i):
            assert (labels[i] is not None and labels[i] == labels[j]) == (
                truth[i] is not None and truth[i] == truth[j])
    seen = [g for k, g in enumerate(labels) if g is not None and g not in labels[:k]]
    assert seen == [f"M{k + 1}" for k in range(len(seen))]


@_SETTINGS
@given(st.data())
def test_gui_mode_agrees_where_exact(data: st.DataObject) -> None:
    pool = _pool(data)
    exact = _run(pool, exact=True)
    for var, ref in zip(_run(pool, exact=False), exact):
        assert set(var["overlaps"]) <= set(ref["overlaps"])
        if var["overlaps_exact"]:
            assert sorted(var["overlaps"]) == sorted(ref["overlaps"])


def test_as_numpy_oracle_is_a_real_view() -> None:
    t = torch.arange(12, dtype=torch.bfloat16).view(3, 4)[:, 1::2]
    n = as_numpy(t)
    assert n.__array_interface__["data"][0] == t.data_ptr()
    assert n.strides == tuple(s * 2 for s in t.stride())
