"""Summary statistics and a histogram of a tensor or array, in a cancellable background job.

The budget is a few times one ``t.sum()``, so the work is one fused pass plus a cheap one:

* Data is read as 1-d blocks of at most ``CACHE_BLOCK`` elements, so the several
  reductions of a block hit the CPU cache; a non-dense tensor is copied one bounded
  block at a time, never whole.
* Pass 1 per block (ops in :mod:`explorer.core.stats.ops`): ``sum`` and ``dot(x, x)``
  in the block's own precision, merged in float64 with Chan's formula (blocks where
  that would lose precision or overflow are redone in float64); then min, max and
  "holds a zero?" from integer reductions over the float bits
  (:mod:`explorer.core.stats.bits`); zeros are counted only where there are some.
  NaN/Inf make the sum NaN/Inf, so only blocks that hold them pay for counting them
  (on the CPU, in the few segments whose partial sums show them); then the same pass
  runs over a copy where they hold a stand-in value inside the min/max so far (see
  ``_stand_in``), whose share of the sum of squares is taken out again.
* Pass 2: the histogram over the finite ``[min, max]``; above ``HIST_FULL_LIMIT``
  elements it bins evenly spread runs of about ``HIST_SAMPLE`` elements and says so.

Torch tensors use torch ops and, on the CPU, numpy reductions over zero-copy views;
both release the GIL, so the kernel stays responsive.
"""

from __future__ import annotations

import math
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from explorer.core.i18n import N_, _
from explorer.core.stats.ops import NumpyOps, TorchOps
from explorer.core.summary.sparse import check_sparse

#: Elements per block (4 MiB of float32): the block's reductions find it in the cache (L3 here), and
#: its fixed costs (a dozen calls, each torch op waking its threads) are spread thin.  2^20 beat
#: 2^18 (the size before), 2^19 and 2^21 on 2 cores with 1 MiB L2 each and 32 MiB L3.
CACHE_BLOCK = 1 << 20
#: Up to this many elements the histogram counts every element.
HIST_FULL_LIMIT = 1 << 24
#: Above HIST_FULL_LIMIT, the histogram reads about this many elements, in evenly spaced runs...
HIST_SAMPLE = 1 << 20
#: ...of this many contiguous elements (runs, not single elements, so skipped memory is never touched).
HIST_SEGMENT = 4096
_MAX_BINS = 1024
#: Result ``notes`` codes (the GUI translates them) and the sentence of each, for ``note``.
NOTES = {
    "nonfinite_ignored": N_("min, max, mean and std ignore NaN and Inf"),
    "complex_magnitude": N_("complex values: statistics of the magnitude |z|"),
    "sparse_implicit_zeros": N_("sparse: stored values plus implicit zeros"),
    "quantized_dequantized": N_("quantized: statistics of the dequantized values"),
    # TRANSLATORS: {step} is a whole number: one element in {step} is counted.
    "histogram_sampled": N_("the histogram counts a sample of about 1 in {step} elements"),
}


class _Cancelled(Exception):
    """Raised inside the job when :meth:`StatsJob.cancel` was called."""


class StatsJob:
    """Statistics of one tensor/array, computed by :meth:`run` (usually in a thread).

    Parameters
    ----------
    value : torch.Tensor or numpy.ndarray
        Any dtype with numbers (int, bool, float incl. bf16/fp16/fp8, complex
        as magnitude), any shape, contiguous or not; sparse tensors count their
        implicit zeros.
    bins : int
        Histogram bins (integer data with a small range gets one bin per value).
    chunk_elements : int
        Most elements processed between two progress updates / cancel checks.

    Notes
    -----
    ``status()`` may be called from any thread while ``run()`` works.
    """

    def __init__(self, value: Any, *, bins: int = 64, chunk_elements: int = 1 << 24) -> None:
        self._value = value
        self._bins = min(max(int(bins), 1), _MAX_BINS)
        self._unit = max(1, min(int(chunk_elements), CACHE_BLOCK))
        self._cancel = threading.Event()
        self._state = "running"
        self._progress = 0.0
        self._result: dict | None = None
        self._error: str | None = None

    def run(self) -> None:
        """Compute everything; on return ``status()`` is done, cancelled or failed."""
        try:
            result = self._compute()
        except _Cancelled:
            self._state = "cancelled"
        except Exception as exc:  # the GUI must get a sentence, not a dead thread  # noqa: BLE001
            self._error = str(exc) or type(exc).__name__
            self._state = "failed"
        else:
            self._result = result
            self._progress = 1.0
            self._state = "done"
        finally:
            # The agent may keep finished jobs (e.g. cancelled ones nobody polls): never pin the tensor.
            self._value = None

    def cancel(self) -> None:
        """Ask the job to stop at its next block."""
        self._cancel.set()

    def status(self) -> dict:
        """``{"state", "progress", "result", "error"}`` (a consistent snapshot)."""
        state = self._state
        return {
            "state": state,
            "progress": self._progress,
            "result": self._result if state == "done" else None,
            "error": self._error if state == "failed" else None,
        }

    # -- the two passes --------------------------------------------------------
    def _compute(self) -> dict:
        src = _source(self._value)
        acc = _Accumulator()
        numel = src.numel
        done = 0
        for block in src.blocks(self._unit, step=1):
            self._check()
            acc.add(src.ops, src.ops.work(block))
            done += _length(block)
            self._progress = 0.7 * done / max(numel, 1)
        acc.add_zeros(src.implicit_zeros)
        hist = self._histogram(src, acc)
        return _result(src, acc, hist)

    def _histogram(self, src: _Source, acc: _Accumulator) -> dict:
        if acc.finite == 0:
            return {"edges": [], "counts": [], "step": 1}
        lo, hi, nb = _hist_range(acc.lo, acc.hi, self._bins, src.integral)
        step = 1 if src.numel <= HIST_FULL_LIMIT else math.ceil(src.numel / HIST_SAMPLE)
        counts = np.zeros(nb, dtype=np.int64)
        done = 0
        clean = not (acc.nan or acc.posinf or acc.neginf)
        for block in src.blocks(self._unit, step=step):
            self._check()
            counts += src.ops.bin_counts(src.ops.work(block), lo, hi, nb, clean)
            done += math.prod(block.shape) * step
            self._progress = 0.7 + 0.3 * min(done / max(src.numel, 1), 1.0)
        if src.implicit_zeros and step == 1:
            counts[min(int((0.0 - lo) * nb / (hi - lo)), nb - 1)] += src.implicit_zeros
        edges = np.linspace(lo, hi, nb + 1).tolist()
        return {"edges": edges, "counts": counts.tolist(), "step": step}

    def _check(self) -> None:
        if self._cancel.is_set():
            raise _Cancelled()


def _length(block: Any) -> int:
    return int(block.shape[0])


# -- merging statistics ------------------------------------------------------------
#: The smallest normal float32 (a normal float64 too): see :func:`_stand_in`.
_TINY = 2.0**-126


class _Accumulator:
    """Counts, finite min/max and Chan-merged mean/M2 over all blocks."""

    def __init__(self) -> None:
        self.nan = self.posinf = self.neginf = self.zeros = self.finite = 0
        self.mean, self.m2 = 0.0, 0.0
        self.lo, self.hi = math.inf, -math.inf

    def add(self, ops: Any, x: Any) -> None:
        """Fold one 1-d block (already in its working float dtype) into the totals."""
        n = _length(x)
        if n == 0:
            return
        s = ops.total(x)
        if not math.isfinite(s):  # NaN or Inf in the block (or a float32 overflow)
            self._add_nonfinite(ops, x, n)
            return
        self._fold(ops, n, (s, ops.dot(x)), ops.scan(x, self.lo, self.hi), lambda: x)

    def _add_nonfinite(self, ops: Any, x: Any, n: int) -> None:
        """A block holding NaN/Inf: count them, then the usual pass over a copy where each of them
        holds a stand-in value that moves neither the min/max so far nor the zero count."""
        # Before any min/max, one of the block's own finite values will do.
        known = (self.lo, self.hi) if self.lo <= self.hi else (ops.finite_sample(x),) * 2
        value = None if known[0] is None else _stand_in(*known)
        if value is None:
            self._add_compacted(ops, x, n)
            return
        nan, pos, neg, s, q, (lo, hi, zeros, exact) = ops.nonfinite(x, value, self.lo, self.hi)
        k = self._count(nan, pos, neg)
        if k == n:
            return
        # Take the stand-ins' squares out of the sum of squares; where they are a good part of it,
        # what is left would be imprecise: a NaN there has the block redone in float64.
        out = k * value * value
        self._fold(ops, n - k, (s, q - out if out <= q / 2 else math.nan),
                   (lo, hi, zeros - (k if value == 0 else 0), exact), lambda: ops.finite_values(x))

    def _add_compacted(self, ops: Any, x: Any, n: int) -> None:
        """A block holding NaN/Inf when there is no stand-in (no finite value, or only subnormal
        ones of one sign so far): its finite values are copied out and added as a block of their
        own.  Without NaN/Inf after all (a float32 sum overflowed) the block is added as it is,
        its moments redone in float64."""
        if self._count(*ops.count_nonfinite(x)):
            self.add(ops, ops.finite_values(x))
        else:
            self._fold(ops, n, (math.inf, math.inf), ops.scan(x, self.lo, self.hi), lambda: x)

    def _count(self, nan: int, pos: int, neg: int) -> int:
        """Add a block's NaN/+Inf/-Inf counts; return their total."""
        self.nan, self.posinf, self.neginf = self.nan + nan, self.posinf + pos, self.neginf + neg
        return nan + pos + neg

    def _fold(self, ops: Any, n: int, sums: tuple[float, float], scan: tuple[float, float, int, bool],
              values: Callable[[], Any]) -> None:
        """Merge *n* finite values given their ``(sum, dot)`` and their scan ``(lo, hi, zeros, exact)``."""
        lo, hi, zeros, exact = scan
        self.zeros += zeros
        if exact:  # otherwise lo/hi are bounds that provably leave self.lo/self.hi as they are
            self.lo, self.hi = min(self.lo, lo), max(self.hi, hi)
        self._merge(n, *_block_moments(ops, n, lo, hi, sums, values))

    def add_zeros(self, k: int) -> None:
        """Account for a sparse tensor's implicit zeros."""
        if k:
            self.zeros += k
            self.lo, self.hi = min(self.lo, 0.0), max(self.hi, 0.0)
            self._merge(k, 0.0, 0.0)

    def _merge(self, n: int, mean: float, m2: float) -> None:
        """Chan et al.'s pairwise update of (count, mean, M2)."""
        total = self.finite + n
        delta = mean - self.mean
        self.mean += delta * n / total
        self.m2 += m2 + delta * delta * self.finite * n / total
        self.finite = total


def _block_moments(ops: Any, n: int, lo: float, hi: float, sums: tuple[float, float],
                   values: Callable[[], Any]) -> tuple[float, float]:
    """Mean and M2 of *n* finite values from their (sum, dot), or a float64 pass over ``values()``
    when those sums would mislead."""
    if lo == hi:  # (lo may be a bound of -0.0)
        return hi, 0.0
    s, q = sums
    if math.isfinite(s) and math.isfinite(q):
        mean = s / n
        m2 = q - s * mean
        # Sum-of-squares loses ~eps * mean^2 / var; only redo blocks where that is visible.
        if m2 > 1e-3 * q:
            return mean, m2
    scale = max(abs(lo), abs(hi)) or 1.0
    y = ops.as_float64(values()) / scale
    mean_y = ops.total(y) / n
    return mean_y * scale, ops.dot(y - mean_y) * scale * scale


def _stand_in(lo: float, hi: float) -> float | None:
    """What NaN/Inf become in a block's copy: a value in ``[lo, hi]``, the min/max so far, so it
    cannot move them; not 0 where the range allows, so it adds no zeros; normal (not subnormal),
    so a flush-to-zero mode cannot make it 0; else as near 0 as possible, so its square barely
    adds to the sum of squares.  None when there is no such value."""
    if lo > hi:
        return None
    if lo >= _TINY or hi <= -_TINY:
        return lo if lo >= _TINY else hi
    if hi >= _TINY:
        return _TINY
    if lo <= -_TINY:
        return -_TINY
    return 0.0 if lo <= 0 <= hi else None


def _hist_range(lo: float, hi: float, bins: int, integral: bool) -> tuple[float, float, int]:
    """Histogram range and bin count: one bin per value for small-range integers."""
    if integral and hi - lo + 1 <= bins:
        return lo - 0.5, hi + 0.5, int(hi - lo) + 1
    if hi == lo:
        return lo - 0.5, hi + 0.5, 1
    return lo, hi, bins


def _result(src: _Source, acc: _Accumulator, hist: dict) -> dict:
    """Assemble the JSON-able result."""
    has = acc.finite > 0
    conv = int if src.integral else float
    ddof = src.ddof
    std = math.sqrt(max(acc.m2, 0.0) / (acc.finite - ddof)) if acc.finite > ddof else None
    notes = list(src.notes)
    if acc.nan or acc.posinf or acc.neginf:
        notes.append("nonfinite_ignored")
    if hist["step"] > 1:
        notes.append("histogram_sampled")
    return {
        "count": src.numel, "min": conv(acc.lo) if has else None, "max": conv(acc.hi) if has else None,
        "mean": acc.mean if has else None, "std": std, "std_ddof": ddof,
        "nan": acc.nan, "posinf": acc.posinf, "neginf": acc.neginf, "zeros": acc.zeros, "finite": acc.finite,
        "histogram": hist, "dtype": src.dtype,
        "note": _note([_(NOTES[code]).format(step=hist["step"]) for code in notes]),
        "notes": [code for code in NOTES if code in notes],
    }


def _note(parts: list[str]) -> str | None:
    """The notes as one sentence of clauses ("a; b"), or None."""
    if not parts:
        return None
    text = parts[0]
    for part in parts[1:]:
        text = _("{first}; {second}").format(first=text, second=part)
    return text


# -- sources: what to read and with which ops --------------------------------------
class _Source:
    """A value prepared for reading: blocks, ops, and facts about it."""

    def __init__(self, data: Any, ops: Any, numel: int, dtype: str) -> None:
        self.data, self.ops, self.numel, self.dtype = data, ops, numel, dtype
        self.integral = False
        self.ddof = 0
        self.implicit_zeros = 0
        self.notes: list[str] = []  # codes of NOTES

    def blocks(self, unit: int, step: int) -> Iterator[Any]:
        """1-d blocks covering the data, or (step > 1) about 1/step of it in evenly spread runs
        (2-d blocks of runs where the data is dense)."""
        flat = self.ops.dense_flat(self.data)
        if step == 1:
            yield from _pieces(self.data, unit) if flat is None else _pieces(flat, unit)
            return
        runs = 0 if flat is None else _length(flat) // (HIST_SEGMENT * step)
        if runs == 0:  # not dense (or tiny): strided picks from the copied pieces
            for block in _pieces(self.data if flat is None else flat, unit * step):
                yield block[::step]
            return
        view = self.ops.runs(flat, runs, HIST_SEGMENT, HIST_SEGMENT * step)
        rows = max(1, unit // HIST_SEGMENT)
        for i in range(0, runs, rows):
            yield view[i : i + rows]  # 2-d: the histogram reads the runs where they are


def _source(value: Any) -> _Source:
    """Wrap a tensor or array; raise ValueError with a sentence for anything else."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        return _torch_source(torch, value)
    if isinstance(value, (np.ndarray, np.generic)):
        return _numpy_source(np.asarray(value))
    raise ValueError(_("A value of type {type} is not a tensor or an array, so it has no statistics.").format(
        type=type(value).__name__))


def _pieces(x: Any, unit: int) -> Iterator[Any]:
    """1-d blocks of a non-dense tensor/array; each copy is at most *unit* elements."""
    if x.ndim == 0:
        yield x.reshape(1)
    elif x.ndim == 1:
        for i in range(0, x.shape[0], unit):
            yield x[i : i + unit]
    elif math.prod(x.shape) <= unit:
        yield x.reshape(-1)
    else:
        rows = unit // math.prod(x.shape[1:])
        if rows == 0:  # one row is already too big: go one dim deeper
            for i in range(x.shape[0]):
                yield from _pieces(x[i], unit)
        else:
            for i in range(0, x.shape[0], rows):
                yield x[i : i + rows].reshape(-1)


# -- numpy -------------------------------------------------------------------------
def _numpy_source(a: np.ndarray) -> _Source:
    """Numpy arrays: numbers only; std with ddof=0 like ``a.std()``."""
    if a.dtype.kind not in "biufc":
        raise ValueError(_("Statistics need numbers; this array holds {dtype} values.").format(dtype=a.dtype))
    src = _Source(a, NumpyOps(), int(a.size), str(a.dtype))
    src.integral = a.dtype.kind in "biu"
    if a.dtype.kind == "c":
        src.notes.append("complex_magnitude")
    return src


# -- torch -------------------------------------------------------------------------
def _torch_source(torch: Any, t: Any) -> _Source:
    """Tensors: dense data, or a sparse tensor's stored values plus implicit zeros."""
    if t.is_meta or t.device.type == "meta":
        raise ValueError(_("This is a meta tensor: it has a shape and dtype but no values."))
    if getattr(t, "is_nested", False):
        raise ValueError(_("Statistics of nested tensors are not supported."))
    t = t.detach()
    notes: list[str] = []
    implicit, data = 0, t
    if t.layout != torch.strided:
        check_sparse(t)  # indices that do not fit the shape would make coalesce() and the reads crash Python
        data = (t.coalesce() if t.layout == torch.sparse_coo else t).values()
        implicit = t.numel() - data.numel()
        notes.append("sparse_implicit_zeros")
    if data.is_quantized:
        data = data.dequantize()
        notes.append("quantized_dequantized")
    src = _Source(data, TorchOps(torch), int(t.numel()), str(t.dtype))
    src.implicit_zeros = implicit
    src.integral = not (data.is_floating_point() or data.is_complex())
    src.ddof = 1  # like t.std()
    if data.is_complex():
        notes.append("complex_magnitude")
    src.notes = notes
    return src
