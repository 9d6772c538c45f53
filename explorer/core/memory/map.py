"""The memory map of one variable: its allocation as a strip of cells, and who reaches which cell.

Payload of :func:`memory_map` (all plain JSON):

``allocation``
    ``{"data_ptr", "nbytes"}`` of the selected variable, or ``None`` (then
    ``note`` says why, e.g. a meta or sparse tensor).
``span``
    ``{"data_ptr", "nbytes"}`` the strip covers: the union of the group's
    allocations (wider than ``allocation`` when e.g. ``torch.from_numpy(a[2:])``
    is selected while ``a`` is in the namespace).
``unit`` / ``unit_bytes``
    ``"element"`` (every row has the same itemsize and is aligned to it) with
    ``unit_bytes = itemsize``, else ``"byte"`` with ``unit_bytes = 1``.
``bin`` / ``cell_bytes`` / ``cells``
    ``bin`` units per cell (1 = one element or byte per cell; more means
    binned so that ``cells <= max_cells``), ``cell_bytes = bin * unit_bytes``.
``values``
    one string per cell (the selected variable's dtype; hex bytes when the unit
    is bytes) or ``None`` everywhere when binned or unreadable.
``rows``
    one per group member, the selected variable first: ``name``,
    ``color_index``, ``data_ptr``, ``storage_ptr``, ``storage_offset``
    (elements, ``None`` if not a whole number of elements), ``byte_offset``,
    ``itemsize``, ``dtype``, ``shape``, ``strides`` (elements or ``None``),
    ``byte_strides``, ``numel``, ``reached`` (the first cell of each element in
    the order the view visits them, C order; repeats kept unless binned),
    ``cell_span`` (cells one element covers), ``flat`` (``None``, or the flat
    indices of the visited elements when the visit order was sampled),
    ``sampled``, ``counts`` ({cell: times reached} where more than once, only
    when not binned) and ``formula``.

Hover positions: a row's element at multi-index ``i`` sits at storage position
``storage_offset + sum(i_k * strides_k)`` (:mod:`explorer.protocol.positions`, the
rule the GUI's tooltip uses on a row); :func:`element_position` returns that
arithmetic for a VAR dict or a value.
"""

from __future__ import annotations

import ctypes
import math
from collections import Counter
from typing import Any

import numpy as np

from explorer.core.i18n import _
from explorer.core.memory.groups import group_of
from explorer.core.memory.reach import Reach, allocation_key, is_array_like, is_tensor, reach
from explorer.core.summary.static import (
    PRISTINE_BUILTINS,
    inspecting,
    is_sub,
    plain_array,
    plain_tensor,
    tget,
)
from explorer.protocol.positions import position_formula, storage_position

globals()["__builtins__"] = PRISTINE_BUILTINS

MAX_ROWS = 8
MAX_VISITS = 4096


def memory_map(namespace: dict[str, Any], name: str, *, max_cells: int = 256,
               max_rows: int = MAX_ROWS, max_visits: int = MAX_VISITS) -> dict:
    """Draw data for the memory map of *name* and the other members of its memory group.

    Parameters
    ----------
    namespace : dict
        The user namespace.
    name : str
        Inspector name of the selected variable.
    max_cells : int, default 256
        Most cells in the strip; larger allocations are binned.
    max_rows, max_visits : int
        Bounds on the rows drawn and on the visits listed per row (sampled above).

    Returns
    -------
    dict
        See the module docstring.
    """
    with inspecting():
        target, members, label = group_of(namespace, name)
        key = allocation_key(target)
        if key is None or reach(target) is None:
            return _empty_payload(name, label, target)
        members = [(n, readable(v)) for n, v in members if reach(v) is not None][:max_rows]
        return _payload(name, label, readable(target), key, members, max_cells, max_visits)


def readable(value: Any) -> Any:
    """A plain tensor/ndarray with the same memory as *value*: what follows reads it with no user code."""
    if is_tensor(value):
        return plain_tensor(value)
    return plain_array(value) if is_sub(value, np.ndarray) else value


def _member_reach(value: Any) -> Reach:
    """:func:`reach` of a group member (:func:`memory_map` keeps only the members that have one)."""
    r = reach(value)
    if r is None:
        raise ValueError(_("no storage"))
    return r


def _member_key(value: Any) -> tuple[str, int, int]:
    """:func:`allocation_key` of a value with storage (every member of a memory group has one)."""
    key = allocation_key(value)
    if key is None:
        raise ValueError(_("no storage"))
    return key


def _payload(name: str, label: str | None, target: Any, key: tuple, members: list[tuple[str, Any]],
             max_cells: int, max_visits: int) -> dict:
    """The payload of a value with storage (*target* and *members* already plain)."""
    keys = [_member_key(v) for _, v in members]
    lo, hi = min(k[1] for k in keys), max(k[2] for k in keys)
    unit_bytes = _unit_bytes(members, lo, hi)
    units = (hi - lo) // unit_bytes
    bin_ = max(1, math.ceil(units / max(1, max_cells)))
    geometry = (lo, unit_bytes, bin_)
    return {
        "name": name, "memory_group": label, "note": None,
        "allocation": {"data_ptr": key[1], "nbytes": key[2] - key[1]},
        "span": {"data_ptr": lo, "nbytes": hi - lo},
        "unit": "element" if unit_bytes > 1 or _itemsize(target) == 1 else "byte",
        "unit_bytes": unit_bytes, "itemsize": _itemsize(target),
        "cells": math.ceil(units / bin_), "bin": bin_, "cell_bytes": bin_ * unit_bytes,
        "values": _cell_values(target, key[0], lo, hi, unit_bytes, bin_),
        "rows": [_row(n, v, k, i, geometry, max_visits) for i, ((n, v), k) in
                 enumerate(zip(members, keys))],
    }


def _empty_payload(name: str, label: str | None, target: Any) -> dict:
    """The payload for a value with nothing to draw."""
    return {"name": name, "memory_group": label, "allocation": None, "span": None,
            "note": _no_storage_note(target), "unit": "element", "unit_bytes": 1,
            "itemsize": None, "cells": 0, "bin": 1, "cell_bytes": 1, "values": [], "rows": []}


def _no_storage_note(value: Any) -> str:
    """Why a value has no memory map."""
    if not is_array_like(value):
        return _("a value of type {type} is not a tensor or an array").format(type=type(value).__name__)
    if is_tensor(value) and tget(value, "is_meta"):
        return _("meta tensor: shape and dtype only, no storage")
    if is_tensor(value) and str(tget(value, "layout")) != "torch.strided":
        # TRANSLATORS: {layout} is a tensor layout such as "sparse_coo" or "sparse_csr".
        return _("{layout} tensor: no strided storage").format(layout=str(tget(value, "layout")).replace("torch.", ""))
    return _("no storage")


def _itemsize(value: Any) -> int:
    return int(value.itemsize if isinstance(value, np.ndarray) else value.element_size())


def _unit_bytes(members: list[tuple[str, Any]], lo: int, hi: int) -> int:
    """The itemsize when every member shares it and is aligned to it, else 1 (bytes)."""
    sizes = {_itemsize(v) for _, v in members}
    if len(sizes) != 1:
        return 1
    size = sizes.pop()
    if (hi - lo) % size:
        return 1
    for _name, value in members:
        r = _member_reach(value)
        if (r.ptr - lo) % size or any(s % size for s in r.strides):
            return 1
    return size


def _read_bytes(target: Any, space: str, lo: int, hi: int) -> bytes:
    """Raw bytes of ``[lo, hi)`` (bounded by the caller: only unbinned strips are read)."""
    if space == "cpu":
        return ctypes.string_at(lo, hi - lo)
    import torch

    whole = torch.empty(0, dtype=torch.uint8, device=target.device).set_(target.untyped_storage())
    start = lo - target.untyped_storage().data_ptr()
    return whole[start:start + (hi - lo)].cpu().numpy().tobytes()


def _cell_values(target: Any, space: str, lo: int, hi: int, unit_bytes: int, bin_: int) -> list:
    """One display string per cell, or ``None`` per cell when binned or unreadable."""
    cells = math.ceil((hi - lo) // unit_bytes / bin_)
    if bin_ != 1 or cells == 0:
        return [None] * cells
    try:
        raw = _read_bytes(target, space, lo, hi)
        if unit_bytes == 1 and _itemsize(target) != 1:
            return [f"{b:02x}" for b in raw]
        return [_fmt(x) for x in _decode(target, raw)]
    except Exception:  # object arrays, quantized tensors, odd dtypes: draw without values  # noqa: BLE001
        return [None] * cells


def _decode(target: Any, raw: bytes) -> list:
    if isinstance(target, np.ndarray):
        if target.dtype.hasobject:
            raise TypeError("object array")
        return np.frombuffer(raw, dtype=target.dtype).tolist()
    import torch

    return torch.frombuffer(bytearray(raw), dtype=target.dtype).tolist()


def _fmt(x: Any) -> str:
    """Compact text for one cell."""
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, float):
        return f"{x:.4g}"
    if isinstance(x, complex):
        return f"{x.real:.3g}{x.imag:+.3g}j"
    return str(x)


def _layout(value: Any, r: Reach, storage_ptr: int) -> tuple[int | None, int, list[int] | None]:
    """(storage offset in elements or None, byte offset, element strides or None); *r* is the value's reach."""
    size = r.itemsize
    if is_tensor(value):
        return int(value.storage_offset()), r.ptr - storage_ptr, list(value.stride())
    byte_off = r.ptr - storage_ptr
    whole = byte_off % size == 0 and all(s % size == 0 for s in r.strides)
    strides = [s // size for s in r.strides] if whole else None
    return (byte_off // size if byte_off % size == 0 else None), byte_off, strides


def _formula(ptr: int, storage_ptr: int, offset: int | None, byte_off: int, size: int) -> str:
    # TRANSLATORS: arithmetic under the memory map; data_ptr, storage.data_ptr and itemsize are names in code.
    if offset is not None:
        return _("data_ptr = storage.data_ptr + offset × itemsize = {storage_ptr} + {offset} × {size} = {ptr}").format(
            storage_ptr=f"0x{storage_ptr:x}", offset=offset, size=size, ptr=f"0x{ptr:x}")
    # Addresses in hex, as the inspector's data_ptr column shows them; offsets stay counts.
    return _("data_ptr = storage.data_ptr + byte offset = {storage_ptr} + {offset} = {ptr}").format(
        storage_ptr=f"0x{storage_ptr:x}", offset=byte_off, ptr=f"0x{ptr:x}")


def _visit_offsets(shape: tuple[int, ...], strides: tuple[int, ...], max_visits: int
                   ) -> tuple[np.ndarray, np.ndarray | None]:
    """Byte offsets of the visited elements in C order, and their flat indices when sampled."""
    numel = math.prod(shape)
    if numel <= max_visits:
        offs: np.ndarray = np.zeros((), dtype=np.int64)
        for n, s in zip(shape, strides):
            offs = offs[..., None] + np.arange(n, dtype=np.int64) * s
        return offs.reshape(-1), None
    flat = np.unique(np.linspace(0, numel - 1, max_visits).astype(np.int64))
    idx = np.unravel_index(flat, shape)
    offs = np.zeros(len(flat), np.int64)
    for i, s in zip(idx, strides):
        offs = offs + i.astype(np.int64) * s
    return offs, flat


def _row(name: str, value: Any, key: tuple, color: int, geometry: tuple[int, int, int],
         max_visits: int) -> dict:
    """Everything the GUI draws for one member of the group."""
    lo, unit_bytes, bin_ = geometry
    r = _member_reach(value)
    offset, byte_off, strides = _layout(value, r, key[1])
    offs, flat = _visit_offsets(r.shape, r.strides, max_visits)
    starts = r.ptr - lo + offs
    cells = (starts // unit_bytes) // bin_
    cell_span = max(1, r.itemsize // unit_bytes) if bin_ == 1 else 1
    counts: dict[int, int] = {}
    if bin_ == 1:
        for start, times in Counter(starts.tolist()).items():
            if times > 1:
                for c in range(start // unit_bytes, start // unit_bytes + cell_span):
                    counts[c] = max(counts.get(c, 0), times)
    reached = cells.tolist()
    if bin_ != 1:  # a binned strip only needs where the view goes next
        reached = [c for k, c in enumerate(reached) if k == 0 or c != reached[k - 1]]
    return {
        "name": name, "color_index": color, "data_ptr": r.ptr, "storage_ptr": key[1],
        "storage_offset": offset, "byte_offset": byte_off, "itemsize": r.itemsize,
        "dtype": str(value.dtype), "shape": list(r.shape), "strides": strides,
        "byte_strides": list(r.strides), "numel": math.prod(r.shape), "reached": reached,
        "cell_span": cell_span, "flat": None if flat is None else flat.tolist(),
        "sampled": flat is not None, "counts": counts,
        "formula": _formula(r.ptr, key[1], offset, byte_off, r.itemsize),
    }


def element_position(var_or_value: Any, index: list[int]) -> dict:
    """Storage position of one element: ``storage_offset + sum(i_k * stride_k)``.

    Parameters
    ----------
    var_or_value : dict or tensor or ndarray
        A VAR dict (``shape``, ``strides``, ``storage_offset``) or a live value.
    index : list of int
        One non-negative index per dimension.

    Returns
    -------
    dict
        ``{"index", "offset", "strides", "terms", "position", "formula"}``;
        the formula reads e.g. ``"1 + 1×5 + 0×1 = 6"``.
    """
    if isinstance(var_or_value, dict):
        shape, strides = var_or_value["shape"], var_or_value["strides"]
        offset = var_or_value["storage_offset"]
    else:
        with inspecting():
            value = readable(var_or_value)
            r = None if value is None else reach(value)
            if r is None:
                raise ValueError(_("no storage"))
            offset, _bytes, strides = _layout(value, r, _member_key(value)[1])
        shape = list(r.shape)
    if offset is None or strides is None:
        raise ValueError(_("strides are not a whole number of elements"))
    if len(index) != len(shape) or any(not 0 <= i < n for i, n in zip(index, shape)):
        raise IndexError(_("index {index} out of range for shape {shape}").format(index=index, shape=list(shape)))
    terms = [int(i) * int(s) for i, s in zip(index, strides)]
    return {"index": list(index), "offset": offset, "strides": list(strides), "terms": terms,
            "position": storage_position(int(offset), strides, index),
            "formula": position_formula(offset, strides, index)}
