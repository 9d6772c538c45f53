"""Per-block operations behind :mod:`explorer.core.stats.job`, for numpy arrays and torch tensors.

Every block reaching these ops is already in its working float dtype (float32 or
float64; see ``work``).  The pass over a block is:

1. ``total``: ``sum`` reads the block from memory; ``dot(x, x)`` and the rest of
   the pass find it in the CPU cache.  A NaN/Inf sum sends the block to step 3.
2. ``scan``: min, max and the zero count.  On the CPU this is
   :class:`~explorer.core.stats.bits.BitScanner` (integer reductions over the
   float bits, no allocation); zeros are counted only in blocks that hold one.
3. Only blocks that hold NaN/Inf pay for ``nonfinite``: their counts and the sum
   of the finite values, then ``dot`` and ``scan`` as if each NaN/Inf held a
   stand-in value.  On the CPU the partial sums of step 1 point at the few parts
   to read again, and in |x| mode no filled copy of the block is made.
4. ``bin_counts`` (the histogram pass): numpy arithmetic in small reused scratch blocks.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from explorer.core.stats.bits import WIDTHS, BitScanner, NumpyBits, TorchBits, bits_dtype

#: What ``nonfinite(x, value, lo_now, hi_now)`` gives for a block holding NaN/Inf: their counts (NaN,
#: +Inf, -Inf), the sum of the finite values, then ``dot`` and ``scan`` of x with each NaN/Inf
#: replaced by *value*.
Nonfinite = tuple[int, int, int, float, float, tuple[float, float, int, bool]]

#: CPU tensor blocks are summed as this many parts (fewer when the length has fewer factors 2): the
#: partial sums show which parts hold NaN/Inf, so only those are read again to count them.
SEGMENTS = 4096


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

    def scan(self, x: np.ndarray, lo_now: float, hi_now: float) -> tuple[float, float, int, bool]:
        """``(lo, hi, zeros, exact)``: see :meth:`BitScanner.scan`."""
        if bits_dtype(x.dtype):
            return self._bits.scan(x, lo_now, hi_now)
        lo, hi = float(x.min()), float(x.max())
        return lo, hi, (x.size - int(np.count_nonzero(x)) if lo <= 0 <= hi else 0), True

    def total(self, x: np.ndarray) -> float:
        """``sum(x)``: NaN/Inf when the block holds NaN/Inf (without warnings)."""
        with np.errstate(all="ignore"):
            return float(x.sum())

    def dot(self, x: np.ndarray) -> float:
        with np.errstate(all="ignore"):
            return float(np.dot(x, x))

    def nonfinite(self, x: np.ndarray, value: float, lo_now: float, hi_now: float) -> Nonfinite:
        """See :data:`Nonfinite`."""
        finite = np.isfinite(x)
        filled = x.copy()
        np.copyto(filled, value, where=~finite)
        with np.errstate(all="ignore"):
            s = float(np.add.reduce(x, where=finite))
        return (*_count_nonfinite(x, finite), s, self.dot(filled), self.scan(filled, lo_now, hi_now))

    def count_nonfinite(self, x: np.ndarray) -> tuple[int, int, int]:
        return _count_nonfinite(x)

    def finite_sample(self, x: np.ndarray) -> float | None:
        return _finite_sample(x)

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
        self._parts: tuple[Any, Any] = (None, None)  # the last block summed, and its parts' sums
        self._converted: Any = None
        self._bins = Binner()

    #: CPU blocks use numpy views and integer reductions over the bits; other devices (and
    #: tests of that path, which set this False) use plain torch ops.
    cpu_fast_path = True

    def _on_cpu(self, x: Any) -> bool:
        return self.cpu_fast_path and x.is_cpu

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

    def scan(self, x: Any, lo_now: float, hi_now: float) -> tuple[float, float, int, bool]:
        """``(lo, hi, zeros, exact)``: see :meth:`BitScanner.scan`."""
        if self._on_cpu(x):
            return self._bits.scan(x, lo_now, hi_now)
        lo_t, hi_t = self.torch.aminmax(x)
        lo, hi = float(lo_t), float(hi_t)
        # Off the CPU: one min|x| settles most blocks that straddle 0 without counting.
        zero = lo <= 0 <= hi and not float(x.abs().amin())
        return lo, hi, (x.numel() - int(self.torch.count_nonzero(x)) if zero else 0), True

    def total(self, x: Any) -> float:
        """``sum(x)``: NaN/Inf when the block holds NaN/Inf.  It reads the block from memory; the
        rest of the pass finds it in the cache.  On the CPU it is the sum of the block's sums over
        ``SEGMENTS`` parts, kept for :meth:`nonfinite`."""
        if not self._on_cpu(x):
            return float(x.sum())
        self._parts = (x, _part_sums(x))
        return float(self._parts[1].sum())

    def dot(self, x: Any) -> float:
        return float(self.torch.dot(x, x))

    def nonfinite(self, x: Any, value: float, lo_now: float, hi_now: float) -> Nonfinite:
        """See :data:`Nonfinite`.  On the CPU only the parts whose sums (from :meth:`total`) are not
        finite are read again, to count the NaN/Inf (torch's ``isnan`` is many times slower than
        that); the copy with the stand-in is a reused scratch block, or in |x| mode none at all."""
        if not self._on_cpu(x):
            finite = self.torch.isfinite(x)
            filled = self.torch.nan_to_num(x, value, value, value)
            return (*self.count_nonfinite(x), float(x[finite].sum()), self.dot(filled), self.scan(filled, lo_now, hi_now))
        parts = (self._parts[1] if self._parts[0] is x else _part_sums(x)).numpy()
        held = np.flatnonzero(~np.isfinite(parts))  # the parts with NaN/Inf (or whose float32 sum overflowed)
        patch = x.numpy().reshape(parts.shape[0], -1)[held]  # a copy: those parts, soon as in the filled copy
        finite = np.isfinite(patch)
        counts = _count_nonfinite(patch, finite)
        np.copyto(patch, value, where=~finite)
        parts[held] = 0
        # float64 sums of finite float32 values cannot overflow
        s = float(np.add.reduce(parts, dtype=np.float64) + np.add.reduce(patch, None, np.float64)) - sum(counts) * value
        if self._bits.magnitude:
            return (*counts, s, *self._magnitudes_pass(x, value, held, patch, lo_now, hi_now))
        filled = self._fill(x, value)
        return (*counts, s, self.dot(filled), self.scan(filled, lo_now, hi_now))

    def _fill(self, x: Any, value: float) -> Any:
        """x with NaN/Inf replaced by value, in a reused scratch block."""
        n = x.shape[0]
        if self._filled is None or self._filled.dtype != x.dtype or self._filled.shape[0] < n:
            self._filled = self.torch.empty(n, dtype=x.dtype)
        return self.torch.nan_to_num(x, value, value, value, out=self._filled[:n])

    def _magnitudes_pass(self, x: Any, value: float, held: np.ndarray, patch: np.ndarray, lo_now: float,
                         hi_now: float) -> tuple[float, tuple[float, float, int, bool]]:
        """``(dot, scan)`` of x with NaN/Inf as the stand-in, in |x| mode: the magnitude bits of x
        (the one pass the scan makes anyway), with the parts *held* overwritten by those of *patch*,
        are the magnitudes of that copy, so they give its dot and its |x| bounds; the copy itself is
        made only where the bounds do not settle the min/max so far (that needs the signs)."""
        bits = self._bits.backend
        keys = bits.magnitudes(x)
        w = WIDTHS[x.element_size()]
        magnitudes = patch.view(w.signed_t)
        keys.numpy().reshape(_parts(x), -1)[held] = np.bitwise_and(magnitudes, w.smax, out=magnitudes)
        kmin, kmax, _ = bits.keys_minmax(keys)
        q = self.dot(keys.view(x.dtype))  # before the scan may reuse the scratch block
        return q, self._bits.from_magnitudes(kmin, kmax, w, lo_now, hi_now, lambda: self._fill(x, value))

    def count_nonfinite(self, x: Any) -> tuple[int, int, int]:
        """``(NaN count, +Inf count, -Inf count)``."""
        if self._on_cpu(x):
            return _count_nonfinite(x.numpy())
        return int(self.torch.isnan(x).sum()), int((x == math.inf).sum()), int((x == -math.inf).sum())

    def finite_sample(self, x: Any) -> float | None:
        """One finite value of the block, or None."""
        if self._on_cpu(x):
            return _finite_sample(x.numpy())
        finite = x[self.torch.isfinite(x)]
        return float(finite[0]) if finite.numel() else None

    def finite_values(self, x: Any) -> Any:
        if self._on_cpu(x):  # numpy's boolean indexing is several times faster
            a = x.numpy()
            return self.torch.from_numpy(a[np.isfinite(a)])
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


def _parts(x: Any) -> int:
    """How many parts of equal length a block is summed in (see ``SEGMENTS``)."""
    return math.gcd(x.shape[0], SEGMENTS)


def _part_sums(x: Any) -> Any:
    return x.reshape(_parts(x), -1).sum(1)


def _finite_sample(a: np.ndarray) -> float | None:
    """The first finite value of a numpy block, or None."""
    value = float(a[0])
    if not math.isfinite(value):
        value = float(a[int(np.argmax(np.isfinite(a)))])
    return value if math.isfinite(value) else None


def _count_nonfinite(a: np.ndarray, finite: np.ndarray | None = None) -> tuple[int, int, int]:
    """NaN, +Inf and -Inf counts of a numpy float block (*finite*: its ``isfinite``, if at hand)."""
    nonfinite = a.size - int(np.count_nonzero(np.isfinite(a) if finite is None else finite))
    nan = int(np.count_nonzero(np.isnan(a))) if nonfinite else 0
    pos = int(np.count_nonzero(a == np.inf)) if nonfinite > nan else 0
    return nan, pos, nonfinite - nan - pos


def torch_dense_flat(t: Any) -> Any:
    """A zero-copy 1-d view of all elements when they fill their memory exactly once."""
    dims = sorted((d for d in range(t.dim()) if t.shape[d] > 1), key=lambda d: -t.stride(d))
    expected = 1
    for d in reversed(dims):
        if t.stride(d) != expected:
            return None  # gaps, overlaps or stride 0 (expand): read it in copied pieces
        expected *= t.shape[d]
    return t.as_strided((t.numel(),), (1,), t.storage_offset())
