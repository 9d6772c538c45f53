"""Per-block operations behind :mod:`explorer.core.stats.job`, for numpy arrays and torch tensors.

Every block reaching these ops is 1-d and already in its working float dtype
(float32 or float64; see ``work``).  The pass over a block is:

1. ``sums``: ``sum`` reads the block from memory; ``dot(x, x)`` and the rest of
   the pass find it in the CPU cache.
2. ``scan``: min, max and the zero count.  On the CPU this is
   :class:`~explorer.core.stats.bits.BitScanner` (integer reductions over the
   float bits, no allocation); zeros are counted only in blocks that hold one.
3. Only blocks that hold NaN/Inf pay for ``zero_nonfinite``: counts, then the same
   pass over a copy with those values replaced by 0 (no compaction).
4. ``bin_counts`` (the histogram pass): numpy arithmetic in small reused scratch blocks.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from explorer.core.stats.bits import BitScanner, NumpyBits, TorchBits, bits_dtype


class NumpyOps:
    """Block operations for numpy arrays."""

    def __init__(self) -> None:
        self._bits = BitScanner(NumpyBits())
        self._bins = Binner()

    def dense_flat(self, a: np.ndarray) -> np.ndarray | None:
        """A 1-d view of every element (order does not matter for statistics)."""
        return a.ravel(order="K") if (a.flags.c_contiguous or a.flags.f_contiguous) else None

    def runs(self, flat: np.ndarray, runs: int, length: int, every: int) -> np.ndarray:
        """A (runs, length) view of *flat* starting a run every *every* elements."""
        item = flat.itemsize
        return np.lib.stride_tricks.as_strided(flat, (runs, length), (every * item, item), writeable=False)

    def work(self, x: np.ndarray) -> np.ndarray:
        k, size = x.dtype.kind, x.dtype.itemsize
        if k == "c":
            x = np.abs(x)
            return x if x.dtype.isnative else x.astype(x.dtype.newbyteorder("="))
        if x.dtype in (np.float32, np.float64):
            return x
        small = k == "b" or (k in "iu" and size <= 2) or (k == "f" and size <= 2)
        return x.astype(np.float32 if small else np.float64)

    def scan(self, x: np.ndarray, lo_now: float, hi_now: float, count: bool = True) -> tuple[float, float, int, bool]:
        """``(lo, hi, zeros, exact)``: see :meth:`BitScanner.scan`."""
        if bits_dtype(x.dtype):
            return self._bits.scan(x, lo_now, hi_now, count)
        lo, hi = float(x.min()), float(x.max())
        return lo, hi, (x.size - int(np.count_nonzero(x)) if count and lo <= 0 <= hi else 0), True

    def sums(self, x: np.ndarray) -> tuple[float, float]:
        """``(sum(x), dot(x, x))`` (NaN/Inf in the block give NaN/Inf, without warnings)."""
        with np.errstate(all="ignore"):
            return float(x.sum()), float(np.dot(x, x))

    def zero_nonfinite(self, x: np.ndarray) -> tuple[int, int, int, np.ndarray]:
        """``(NaN count, +Inf count, -Inf count, x with those replaced by 0)``."""
        return (*_count_nonfinite(x), np.nan_to_num(x, nan=0.0, posinf=0.0, neginf=0.0))

    def min_magnitude(self, x: np.ndarray) -> tuple[float, int]:
        """The smallest ``|x|`` among the finite values, and the number of zeros."""
        if bits_dtype(x.dtype):
            return self._bits.min_magnitude(x)
        return float(np.abs(x[np.isfinite(x)]).min()), int(np.count_nonzero(x == 0))

    def finite_values(self, x: np.ndarray) -> np.ndarray:
        return x[np.isfinite(x)]

    def as_float64(self, x: np.ndarray) -> np.ndarray:
        return x.astype(np.float64)

    def bin_counts(self, x: np.ndarray, lo: float, hi: float, nb: int, clean: bool) -> np.ndarray:
        return self._bins.counts(x, lo, hi, nb, clean)


class TorchOps:
    """Block operations for torch tensors (torch ops and numpy reductions run without the GIL)."""

    def __init__(self, torch: Any) -> None:
        self.torch = torch
        self._bits = BitScanner(TorchBits(torch))
        self._filled: Any = None
        self._mask: np.ndarray = np.empty(0, dtype=bool)  # made with _filled, to its size
        self._converted: Any = None
        self._bins = Binner()

    #: CPU blocks use numpy views and integer reductions over the bits; other devices (and
    #: tests of that path, which set this False) use plain torch ops.
    cpu_fast_path = True

    def _on_cpu(self, x: Any) -> bool:
        return self.cpu_fast_path and x.device.type == "cpu"

    dense_flat = staticmethod(lambda t: torch_dense_flat(t))

    @staticmethod
    def runs(flat: Any, runs: int, length: int, every: int) -> Any:
        return flat.as_strided((runs, length), (every, 1), flat.storage_offset())

    def work(self, x: Any) -> Any:
        """The block in float32/float64 (complex: its magnitude); CPU conversions reuse one scratch block."""
        torch = self.torch
        if x.is_complex():
            return (x.to(torch.complex64) if x.dtype == torch.complex32 else x).abs()
        if x.dtype in (torch.float32, torch.float64):
            return x.resolve_neg()
        small = x.is_floating_point() or x.dtype in (torch.bool, torch.int8, torch.uint8, torch.int16)
        dtype = torch.float32 if small else torch.float64
        if not self._on_cpu(x) or x.dim() != 1:
            return x.to(dtype)
        n = x.shape[0]
        conv = self._converted
        if conv is None or conv.dtype != dtype or conv.shape[0] < n:
            self._converted = conv = torch.empty(n, dtype=dtype)
        return conv[:n].copy_(x)  # no fresh allocation (and page faults) per block

    def scan(self, x: Any, lo_now: float, hi_now: float, count: bool = True) -> tuple[float, float, int, bool]:
        """``(lo, hi, zeros, exact)``: see :meth:`BitScanner.scan`."""
        if self._on_cpu(x):
            return self._bits.scan(x, lo_now, hi_now, count)
        lo_t, hi_t = self.torch.aminmax(x)
        lo, hi = float(lo_t), float(hi_t)
        # Off the CPU: one min|x| settles most blocks that straddle 0 without counting.
        zero = count and lo <= 0 <= hi and not float(x.abs().amin())
        return lo, hi, (x.numel() - int(self.torch.count_nonzero(x)) if zero else 0), True

    def sums(self, x: Any) -> tuple[float, float]:
        """``(sum(x), dot(x, x))``; the sum reads the block from memory, the dot finds it in the cache."""
        return float(x.sum()), float(self.torch.dot(x, x))

    def zero_nonfinite(self, x: Any) -> tuple[int, int, int, Any]:
        """``(NaN count, +Inf count, -Inf count, x with those replaced by 0)``."""
        torch = self.torch
        if self._on_cpu(x):  # count on numpy views; fill a reused scratch block
            n = x.shape[0]
            if self._filled is None or self._filled.dtype != x.dtype or self._filled.shape[0] < n:
                self._filled, self._mask = torch.empty_like(x), np.empty(n, dtype=bool)
            filled = torch.nan_to_num(x, 0.0, 0.0, 0.0, out=self._filled[:n])  # reads x into the cache
            return (*_count_nonfinite(x.numpy(), self._mask[:n]), filled)
        nan = int(torch.isnan(x).sum())
        pos, neg = int((x == math.inf).sum()), int((x == -math.inf).sum())
        return nan, pos, neg, torch.nan_to_num(x, 0.0, 0.0, 0.0)

    def min_magnitude(self, x: Any) -> tuple[float, int]:
        """The smallest ``|x|`` among the finite values, and the number of zeros."""
        if self._on_cpu(x):
            return self._bits.min_magnitude(x)
        return float(x[self.torch.isfinite(x)].abs().amin()), int((x == 0).sum())

    def finite_values(self, x: Any) -> Any:
        return x[self.torch.isfinite(x)]

    def as_float64(self, x: Any) -> Any:
        # MPS has no float64: those (rare, small) blocks are finished on the CPU.
        return (x.cpu() if x.device.type == "mps" else x).to(self.torch.float64)

    def bin_counts(self, x: Any, lo: float, hi: float, nb: int, clean: bool) -> np.ndarray:
        if self._on_cpu(x):
            return self._bins.counts(x.numpy(), lo, hi, nb, clean)
        x = self.as_float64(x).reshape(-1)
        x = x if clean else x[self.torch.isfinite(x)]
        idx = ((x - lo) * (nb / (hi - lo))).floor_().clamp_(0, nb - 1)
        return self.torch.bincount(idx.to(self.torch.int64), minlength=nb).cpu().numpy()


class Binner:
    """Histogram counts of numpy blocks, in float64 and index scratch blocks reused from block to block.

    The bin of x is ``floor((x - lo) * (nb / (hi - lo)))`` clipped to ``[0, nb - 1]``, in float64,
    as before (and as np.histogram's equal-width bins, less its fix-up of values that round across
    an edge); numpy does it several times faster than torch's kernels.
    """

    def __init__(self) -> None:
        self._scaled = np.empty(0)
        self._index = np.empty(0, dtype=np.intp)

    #: Elements binned at a time: the float64 and index scratch blocks stay small (and in the cache).
    PIECE = 1 << 16

    def counts(self, a: np.ndarray, lo: float, hi: float, nb: int, clean: bool) -> np.ndarray:
        """Counts of a 1-d block, or of a 2-d one (the histogram's strided runs, never copied whole)."""
        counts = np.zeros(nb, dtype=np.intp)
        rows = a.reshape(1, -1) if a.ndim == 1 else a
        step = max(1, self.PIECE // max(rows.shape[1], 1))
        for row in range(0, rows.shape[0], step):
            for col in range(0, rows.shape[1], self.PIECE):
                piece = rows[row : row + step, col : col + self.PIECE]
                counts += self._piece(piece if clean else piece[np.isfinite(piece)], lo, hi, nb)
        return counts

    def _piece(self, a: np.ndarray, lo: float, hi: float, nb: int) -> np.ndarray:
        n = a.size
        if self._scaled.shape[0] < n:
            self._scaled, self._index = np.empty(n), np.empty(n, dtype=np.intp)
        scaled, index = self._scaled[:n], self._index[:n]
        np.subtract(a, lo, out=scaled.reshape(a.shape), dtype=np.float64)
        np.multiply(scaled, nb / (hi - lo), out=scaled)
        np.clip(scaled, 0, nb - 1, out=scaled)
        np.copyto(index, scaled, casting="unsafe")  # after the clip, truncation is the floor
        return np.bincount(index, minlength=nb)


def _count_nonfinite(a: np.ndarray, mask: np.ndarray | None = None) -> tuple[int, int, int]:
    """NaN, +Inf and -Inf counts of a numpy float block (*mask*: optional bool scratch of its length)."""
    mask = np.empty(a.shape, dtype=bool) if mask is None else mask
    nan = int(np.count_nonzero(np.isnan(a, out=mask)))
    inf = int(np.count_nonzero(np.isinf(a, out=mask)))
    pos = int(np.count_nonzero(np.equal(a, np.inf, out=mask))) if inf else 0
    return nan, pos, inf - pos


def torch_dense_flat(t: Any) -> Any:
    """A zero-copy 1-d view of all elements when they fill their memory exactly once."""
    dims = sorted((d for d in range(t.dim()) if t.shape[d] > 1), key=lambda d: -t.stride(d))
    expected = 1
    for d in reversed(dims):
        if t.stride(d) != expected:
            return None  # gaps, overlaps or stride 0 (expand): read it in copied pieces
        expected *= t.shape[d]
    return t.as_strided((t.numel(),), (1,), t.storage_offset())
