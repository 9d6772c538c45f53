"""BitScanner: min, max and zero counts read from float bits, against plain numpy."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from explorer.core.stats.bits import WIDTHS, BitScanner, NumpyBits, TorchBits, bits_dtype

NEG_NAN32 = np.array([0xFFC00001], dtype=np.uint32).view(np.float32)[0]
NEG_NAN64 = np.array([0xFFF8000000000001], dtype=np.uint64).view(np.float64)[0]


def _special(dtype: np.dtype) -> list[float]:
    info = np.finfo(dtype)
    neg_nan = NEG_NAN32 if dtype == np.float32 else NEG_NAN64
    return [0.0, -0.0, math.nan, float(neg_nan), math.inf, -math.inf,
            float(info.tiny), -float(info.tiny), float(info.smallest_subnormal), -float(info.smallest_subnormal),
            float(info.max), -float(info.max), 1.0, -1.0]


def _scanner(kind: str) -> BitScanner:
    return BitScanner(NumpyBits() if kind == "numpy" else TorchBits(torch))


def _block(arr: np.ndarray, kind: str) -> object:
    return arr if kind == "numpy" else torch.from_numpy(arr)


def _check_block(scanner: BitScanner, arr: np.ndarray, kind: str, lo_now: float, hi_now: float) -> tuple[float, float]:
    """Scan one block; check the answer against numpy; return the updated (lo_now, hi_now)."""
    lo, hi, zeros, exact = scanner.scan(_block(arr, kind), lo_now, hi_now)
    if not np.isfinite(arr).all():
        # The block holds NaN/Inf: min or max says so, and the caller splits them off.
        assert not (math.isfinite(lo) and math.isfinite(hi))
        if np.isnan(arr).any():
            assert math.isnan(lo) or math.isnan(hi)
        return lo_now, hi_now
    assert math.isfinite(lo) and math.isfinite(hi)
    assert zeros == int((arr == 0).sum())
    true_lo, true_hi = float(arr.min()), float(arr.max())
    if exact:
        # Each side is the block's own value, or the running one where the block cannot pass it.
        assert lo == true_lo or (lo == lo_now <= true_lo)
        assert hi == true_hi or (hi == hi_now >= true_hi)
        assert math.copysign(1.0, lo) == 1.0 or lo != 0  # -0.0 is reported as 0.0
        return min(lo_now, lo), max(hi_now, hi)
    # Bounds only: they must hold, and the block must not move the running min/max.
    assert lo <= true_lo and true_hi <= hi and lo == -hi
    assert lo_now <= true_lo and true_hi <= hi_now
    return lo_now, hi_now


@pytest.mark.parametrize("kind", ["numpy", "torch"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_each_special_value_alone_and_in_pairs(kind: str, dtype: type) -> None:
    values = _special(np.dtype(dtype))
    for a in values:
        for b in values:
            arr = np.array([a, b, a], dtype=dtype)
            _check_block(_scanner(kind), arr, kind, math.inf, -math.inf)
            after_mixed = _scanner(kind)  # the same block met in |x| mode, with a running min/max
            _check_block(after_mixed, np.array([-1.0, 1.0], dtype=dtype), kind, math.inf, -math.inf)
            assert after_mixed.magnitude
            _check_block(after_mixed, arr, kind, -1.0, 1.0)


@pytest.mark.parametrize("kind", ["numpy", "torch"])
def test_sign_classes(kind: str) -> None:
    """All positive, all negative, mixed, only zeros: exact answers and the zero count."""
    cases = {
        "positive": np.array([3.0, 0.5, 7.0], np.float32),
        "positive_with_zero": np.array([3.0, 0.0, 7.0, 0.0], np.float32),
        "negative": np.array([-3.0, -0.5, -7.0], np.float32),
        "negative_with_minus_zero": np.array([-3.0, -0.0, -7.0], np.float32),
        "mixed": np.array([-3.0, 0.5, 7.0, -0.25], np.float32),
        "mixed_both_zeros": np.array([-3.0, 0.0, -0.0, 7.0, -0.0], np.float32),
        "only_minus_zero": np.array([-0.0, -0.0], np.float32),
        "only_zeros": np.array([0.0, -0.0], np.float32),
    }
    for name, arr in cases.items():
        lo, hi, zeros, exact = _scanner(kind).scan(_block(arr, kind), math.inf, -math.inf)
        assert exact, name
        assert (lo, hi, zeros) == (float(arr.min()), float(arr.max()), int((arr == 0).sum())), name


@pytest.mark.parametrize("kind", ["numpy", "torch"])
def test_magnitude_mode_bounds_and_falls_back(kind: str) -> None:
    """After a mixed block the scanner uses |x| bounds; a block that could move min/max is scanned exactly."""
    sc = _scanner(kind)
    first = np.array([-5.0, 4.0, 1.0], np.float32)
    lo_now, hi_now = _check_block(sc, first, kind, math.inf, -math.inf)
    assert sc.magnitude and (lo_now, hi_now) == (-5.0, 4.0)
    inside = np.array([-3.0, 0.0, 2.0, -0.0], np.float32)
    lo, hi, zeros, exact = sc.scan(_block(inside, kind), lo_now, hi_now)
    assert (lo, hi, zeros, exact) == (-3.0, 3.0, 2, False)
    beyond = np.array([-1.0, 4.5], np.float32)  # |x| = 4.5 > 4.0 = hi so far; the min cannot pass -5
    lo, hi, zeros, exact = sc.scan(_block(beyond, kind), lo_now, hi_now)
    assert (lo, hi, zeros, exact) == (-5.0, 4.5, 0, True)
    below = np.array([-4.5, 0.0, 1.0], np.float32)  # the largest |x| is negative: it is the min
    assert sc.scan(_block(below, kind), -4.0, 4.0) == (-4.5, 1.0, 1, True)
    both = np.array([-4.25, 4.5], np.float32)  # both sides may move: the min needs the unsigned bits
    assert sc.scan(_block(both, kind), -4.0, 4.0) == (-4.25, 4.5, 0, True)
    positive = np.array([1.0, 2.0], np.float32)  # an exact scan of one-signed data leaves magnitude mode
    sc.scan(_block(np.array([9.0, -9.0], np.float32), kind), lo_now, hi_now)
    assert sc.magnitude
    sc.scan(_block(np.array([-9.5, 1.0], np.float32), kind), -9.0, 9.0)
    sc.scan(_block(np.array([10.0, 11.0], np.float32), kind), -9.5, 9.0)
    assert not sc.magnitude
    assert sc.scan(_block(positive, kind), -9.5, 11.0)[3]


def test_width_round_trip() -> None:
    for size, ftype, itype, utype in ((4, np.float32, np.int32, np.uint32), (8, np.float64, np.int64, np.uint64)):
        values = np.array([1.5, -2.25, 0.0, -0.0, np.inf, -np.inf], dtype=ftype)
        for value, signed, unsigned in zip(values, values.view(itype), values.view(utype)):
            assert WIDTHS[size].to_float(int(signed)) == WIDTHS[size].to_float(int(unsigned)) == value


def test_which_dtypes_are_read_as_bits() -> None:
    assert bits_dtype(np.dtype(np.float32)) and bits_dtype(np.dtype(np.float64))
    assert not bits_dtype(np.dtype(">f4" if np.little_endian else "<f4"))
    assert not bits_dtype(np.dtype(np.float16)) and not bits_dtype(np.dtype(np.int32))


_ELEMENTS = st.one_of(st.floats(width=32), st.sampled_from([0.0, -0.0, float(NEG_NAN32), -1e-45, 1e-45]))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(hnp.arrays(np.float32, st.integers(1, 12), elements=_ELEMENTS), min_size=1, max_size=6),
    st.sampled_from(["numpy", "torch"]),
)
def test_property_block_sequences(blocks: list[np.ndarray], kind: str) -> None:
    """Any sequence of blocks: exact answers or valid bounds, exact zero counts, NaN/Inf never hidden."""
    sc = _scanner(kind)
    lo_now, hi_now = math.inf, -math.inf
    for arr in blocks:
        lo_now, hi_now = _check_block(sc, arr, kind, lo_now, hi_now)


@settings(max_examples=30, deadline=None)
@given(st.lists(hnp.arrays(np.float64, st.integers(1, 9), elements=st.floats(-1e300, 1e300)), min_size=1, max_size=5))
def test_property_float64(blocks: list[np.ndarray]) -> None:
    for kind in ("numpy", "torch"):
        sc = _scanner(kind)
        lo_now, hi_now = math.inf, -math.inf
        for arr in blocks:
            lo_now, hi_now = _check_block(sc, arr, kind, lo_now, hi_now)
