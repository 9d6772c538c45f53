"""Where an element of a strided tensor or array sits in its storage: one rule for the kernel and the memory map.

Element ``index`` of a view with ``storage_offset`` and ``strides`` (both in elements)
is at storage position ``storage_offset + sum(index_k * strides_k)``; the memory map
visits elements in C order, so the k-th visit is the multi-index :func:`unravel` gives.
"""

from __future__ import annotations

from collections.abc import Sequence


def unravel(flat: int, shape: Sequence[int]) -> list[int]:
    """The C-order multi-index of flat index *flat* in *shape* (the last dimension varies fastest)."""
    index = []
    for n in reversed(shape):
        index.append(flat % n if n else 0)
        flat = flat // n if n else 0
    return index[::-1]


def storage_position(offset: int, strides: Sequence[int], index: Sequence[int]) -> int:
    """The storage position of the element at *index*: ``offset + sum(index_k * strides_k)``."""
    return offset + sum(i * s for i, s in zip(index, strides))


def position_formula(offset: int, strides: Sequence[int], index: Sequence[int]) -> str:
    """That arithmetic written out, e.g. ``"1 + 1×5 + 0×1 = 6"`` (``"4 = 4"`` for a 0-d value)."""
    parts = " + ".join([str(offset)] + [f"{i}×{s}" for i, s in zip(index, strides)])
    return f"{parts} = {storage_position(offset, strides, index)}"
