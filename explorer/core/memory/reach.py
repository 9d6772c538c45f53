"""The bytes a tensor or array can reach: its allocation, its strided extent, byte overlaps.

The geometry under memory groups (:mod:`explorer.core.memory.groups`) and the memory
map: read from the type and the storage, never by running a value's own methods.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from explorer.core.summary.static import (
    PRISTINE_BUILTINS,
    has_python_dispatch,
    is_sub,
    library,
    outermost_array,
    plain_array,
    remember,
    tcall,
    tget,
)

globals()["__builtins__"] = PRISTINE_BUILTINS
remember("numpy", np)  # a later sys.modules['numpy'] = None is undone while inspecting

try:  # numpy >= 2.0
    from numpy.lib.array_utils import byte_bounds as _byte_bounds
except ImportError:  # pragma: no cover - numpy 1.x
    _byte_bounds = np.byte_bounds  # type: ignore[attr-defined]


class Reach(NamedTuple):
    """The bytes a strided view can reach: element [0, ..., 0] at ``ptr``, byte strides."""

    space: str
    ptr: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    itemsize: int
    lo: int
    hi: int
    dense: bool

    @property
    def empty(self) -> bool:
        return self.hi <= self.lo


def _torch() -> Any:
    """The torch module if the user's code imported it (never import it ourselves here)."""
    return library("torch")


def is_tensor(value: Any) -> bool:
    """True for torch tensors (including Parameters); decided from the type, never ``value.__class__``."""
    torch = _torch()
    return torch is not None and is_sub(value, torch.Tensor)


def is_array_like(value: Any) -> bool:
    """True for torch tensors and numpy arrays."""
    return is_sub(value, np.ndarray) or is_tensor(value)


def _has_strided_storage(t: Any) -> bool:
    """A strided tensor with real memory, read without running a subclass's code."""
    torch = _torch()
    try:
        return (tget(t, "layout") is torch.strided and not tget(t, "is_meta") and not tget(t, "is_nested")
                and (type(t) is torch.Tensor or type(t) is torch.nn.Parameter or not has_python_dispatch(t)))
    except Exception:  # noqa: BLE001 - exotic subclasses / wrappers
        return False


def outermost_ndarray(arr: np.ndarray) -> np.ndarray:
    """Follow ``.base`` while it is an ndarray; the last ndarray owns (or wraps) the buffer (a plain view)."""
    return outermost_array(arr)


def allocation(value: Any) -> tuple[int, int] | None:
    """Byte interval ``(start, end)`` of the memory block a tensor or array belongs to.

    Parameters
    ----------
    value : Any
        A torch tensor or numpy array (anything else gives ``None``).

    Returns
    -------
    tuple of int or None
        ``(start, end)`` with ``end`` exclusive; ``None`` without storage.
    """
    key = allocation_key(value)
    return None if key is None else (key[1], key[2])


def allocation_key(value: Any) -> tuple[str, int, int] | None:
    """``(space, start, end)`` of a value's allocation, or ``None`` (hot path: ~1 us)."""
    if is_sub(value, np.ndarray):
        try:
            lo, hi = _byte_bounds(outermost_ndarray(value))
        except Exception:  # noqa: BLE001 - a subclass with a broken array interface
            return None
        return "cpu", int(lo), int(hi)
    if not is_tensor(value) or not _has_strided_storage(value):
        return None
    try:
        storage = tcall(value, "untyped_storage")
        start = int(storage.data_ptr())
        space = "cpu" if tget(value, "is_cpu") else str(tget(value, "device"))
        return space, start, start + int(storage.nbytes())
    except Exception:  # noqa: BLE001 - functional / fake / wrapper tensors have no real storage
        return None


def extent(ptr: int, shape: tuple[int, ...], strides: tuple[int, ...], itemsize: int) -> tuple[int, int]:
    """First reachable byte and one past the last one; ``(ptr, ptr)`` when empty."""
    lo = hi = ptr
    for n, s in zip(shape, strides):
        if n == 0:
            return ptr, ptr
        if s < 0:
            lo += (n - 1) * s
        else:
            hi += (n - 1) * s
    return lo, hi + itemsize


def is_dense(shape: tuple[int, ...], strides: tuple[int, ...], itemsize: int) -> bool:
    """True when the elements tile their byte extent exactly (no gaps, no repeats)."""
    expected = itemsize
    for stride, size in sorted((abs(s), n) for n, s in zip(shape, strides) if n != 1):
        if stride != expected:
            return False
        expected *= size
    return True


def reach(value: Any) -> Reach | None:
    """Describe the bytes a tensor or array can reach, or ``None`` without storage."""
    if is_sub(value, np.ndarray):
        try:
            plain = plain_array(value)
            ptr = plain.__array_interface__["data"][0]
        except Exception:  # noqa: BLE001 - a subclass with a broken array interface
            return None
        shape, strides, itemsize = plain.shape, plain.strides, plain.itemsize
        space = "cpu"
    elif is_tensor(value) and _has_strided_storage(value):
        try:
            itemsize = tcall(value, "element_size")
            ptr = tcall(value, "data_ptr")
            shape = tuple(tget(value, "shape"))
            strides = tuple([s * itemsize for s in tcall(value, "stride")])
            space = "cpu" if tget(value, "is_cpu") else str(tget(value, "device"))
        except Exception:  # noqa: BLE001
            return None
    else:
        return None
    lo, hi = extent(ptr, shape, strides, itemsize)
    dense = hi > lo and is_dense(shape, strides, itemsize)
    return Reach(space, ptr, shape, strides, itemsize, lo, hi, dense)


class _Iface:
    """Carrier of an ``__array_interface__`` so numpy can describe memory it never touches."""

    def __init__(self, r: Reach) -> None:
        self.__array_interface__ = {
            "data": (r.ptr, True),
            "shape": r.shape,
            "strides": r.strides,
            "typestr": f"|V{r.itemsize}",
            "version": 3,
        }


def as_address_array(r: Reach) -> np.ndarray:
    """A read-only numpy array describing *r*'s bytes (no copy; the data is never read)."""
    return np.asarray(_Iface(r))


def shares_bytes(a: Reach, b: Reach, max_work: int | None = None) -> bool | None:
    """Whether two reaches share a byte; ``None`` when ``max_work`` was too small to tell."""
    if a.space != b.space or a.empty or b.empty or a.hi <= b.lo or b.hi <= a.lo:
        return False
    if a.dense and (a.lo <= b.lo < a.hi or a.lo < b.hi <= a.hi):
        return True  # a covers every byte of its extent and b has an end inside it
    if b.dense and (b.lo <= a.lo < b.hi or b.lo < a.hi <= b.hi):
        return True
    if (a.ptr, a.shape, a.strides, a.itemsize) == (b.ptr, b.shape, b.strides, b.itemsize):
        return True
    try:
        # numpy's stub names only -1 and 0; its docs (and the C code) take any positive bound, or None.
        return bool(np.shares_memory(as_address_array(a), as_address_array(b),
                                     max_work=max_work))  # type: ignore[arg-type]  # the stub is narrower than numpy
    except np.exceptions.TooHardError:
        return None
