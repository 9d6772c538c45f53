"""Blocks holding NaN/Inf: counted from the segments whose partial sums show them, then the pass
over a copy where they hold a stand-in value.  Every result against a plain numpy reference."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from explorer.core.stats import job as stats
from explorer.core.stats import ops as stats_ops
from tests.core.test_stats import check, reference, run
from tests.core.test_stats_histogram import KINDS, as_kind

TINY32 = float(np.finfo(np.float32).tiny)
SUB32 = float(np.finfo(np.float32).smallest_subnormal)


def _sprinkled(x: np.ndarray, count: int, seed: int = 0, values: tuple[float, ...] = (math.nan,)) -> np.ndarray:
    """*x* with *count* elements, spread at random, set to *values* in turn."""
    x = x.copy()
    where = np.random.default_rng(seed).choice(x.size, count, replace=False)
    for i, at in enumerate(where):
        x[at] = values[i % len(values)]
    return x


DATA = {
    "randn": lambda rng, n: rng.standard_normal(n),
    "rand": lambda rng, n: rng.uniform(0.0, 1.0, n),
    "negative": lambda rng, n: -rng.uniform(2.0, 5.0, n),
    "relu": lambda rng, n: np.maximum(rng.standard_normal(n), 0.0),
    "big_mean": lambda rng, n: rng.standard_normal(n) * 1e-3 + 1e4,
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("data", sorted(DATA))
@pytest.mark.parametrize("chunk", [4096, 1000, 999])
def test_nan_scattered_over_every_block(data: str, chunk: int, kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A few NaN in every block (the first block included), with block lengths that split into
    256, 8 or 1 segments."""
    x = DATA[data](np.random.default_rng(1), 20_000).astype(np.float32)
    value = as_kind(_sprinkled(x, 60), kind, monkeypatch)
    check(value, run(value, chunk_elements=chunk))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nan_and_inf_of_both_signs_and_zeros_of_both_signs(dtype: type, kind: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    x = np.random.default_rng(2).standard_normal(9000).astype(dtype)
    x = _sprinkled(x, 90, seed=3, values=(math.nan, math.inf, -math.inf, 0.0, -0.0, -math.nan))
    value = as_kind(x, kind, monkeypatch)
    res = run(value, chunk_elements=512)
    check(value, res)
    assert (res["nan"], res["posinf"], res["neginf"], res["zeros"]) == (30, 15, 15, 30)


@pytest.mark.parametrize("kind", KINDS)
def test_subnormals_next_to_nan(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Subnormal values are not zeros, and the stand-in never hides the smallest or largest of them."""
    x = np.full(3000, SUB32, dtype=np.float32)
    x[::3] = -SUB32
    x[1::7] = 2 * SUB32
    x = _sprinkled(x, 40, seed=4)
    value = as_kind(x, kind, monkeypatch)
    res = run(value, chunk_elements=256)
    check(value, res)
    assert (res["min"], res["max"], res["zeros"]) == (-SUB32, 2 * SUB32, 0)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("positive", [True, False])
def test_only_subnormals_of_one_sign_with_nan(positive: bool, kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """No normal stand-in lies in the range so far: those blocks are compacted instead."""
    x = np.linspace(SUB32, 100 * SUB32, 2000).astype(np.float32) * (1 if positive else -1)
    x = _sprinkled(x, 30, seed=5, values=(math.nan, math.inf))
    value = as_kind(x, kind, monkeypatch)
    check(value, run(value, chunk_elements=300))


@pytest.mark.parametrize("kind", KINDS)
def test_all_nan_blocks_between_finite_ones(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    x = np.random.default_rng(6).standard_normal(4096).astype(np.float32)
    x[:1024] = math.nan  # before any finite value: no stand-in yet
    x[2048:3072] = math.nan
    x[3072:3100] = math.inf
    value = as_kind(x, kind, monkeypatch)
    res = run(value, chunk_elements=1024)
    check(value, res)
    assert res["nan"] == 2048 and res["finite"] == 4096 - 2048 - 28


@pytest.mark.parametrize("kind", KINDS)
def test_zeros_only_with_nan(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The range so far is [0, 0]: the stand-in is 0 itself and is not counted as a zero."""
    x = np.zeros(2000, dtype=np.float32)
    x[1::5] = -0.0
    x = _sprinkled(x, 100, seed=7)
    value = as_kind(x, kind, monkeypatch)
    res = run(value, chunk_elements=200)
    check(value, res)
    assert (res["zeros"], res["min"], res["max"], res["std"]) == (1900, 0.0, 0.0, 0.0)


@pytest.mark.parametrize("kind", KINDS)
def test_stand_in_squares_that_would_swamp_the_sum_of_squares(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """After values near 77 the stand-in is 77; a later block of two tiny values among 2^17 NaN has
    its moments redone in float64 rather than from a sum of squares the stand-ins dominate (taking
    their squares out of it again here leaves a float32 rounding error that is 2/3 of the std)."""
    block = 1 << 17
    second = np.full(block, math.nan)
    second[[5, block - 9]] = 1e-3, 3e-3
    x = np.concatenate([np.random.default_rng(2).uniform(77.0, 78.0, block), second]).astype(np.float32)
    value = as_kind(x, kind, monkeypatch)
    check(value, run(value, chunk_elements=block), rtol=1e-6)


@pytest.mark.parametrize("kind", KINDS)
def test_float32_overflow_is_not_taken_for_inf(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A block whose float32 sum overflows looks like one holding Inf: counts stay 0 and the
    moments come from float64, before and after a min/max is known."""
    x = np.array([3e38, 3e38, 2e38, 1.0, 2.0, 3e38, 3e38, 3e38], dtype=np.float32)
    value = as_kind(x, kind, monkeypatch)
    res = run(value, chunk_elements=4)
    check(value, res, rtol=1e-6)
    assert (res["posinf"], res["finite"]) == (0, 8)


@pytest.mark.parametrize("kind", ["torch", "device_path"])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float64, torch.complex64])
def test_other_dtypes_with_nan_and_inf(dtype: torch.dtype, kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stats_ops.TorchOps, "cpu_fast_path", kind != "device_path")
    x = torch.randn(5000, generator=torch.Generator().manual_seed(9))
    x[::97], x[5::331], x[7::601] = math.nan, math.inf, -math.inf
    value = x.to(dtype)
    check(value, run(value, chunk_elements=700), rtol=1e-2 if dtype == torch.bfloat16 else 1e-5)


def test_non_contiguous_blocks_with_nan(monkeypatch: pytest.MonkeyPatch) -> None:
    """Strided tensors reach the ops as strided 1-d blocks (or copied pieces)."""
    base = torch.randn(64, 300, generator=torch.Generator().manual_seed(10))
    base[::5, ::7] = math.nan
    for value in (base[:, ::3], base.t(), base.reshape(-1)[::2]):
        check(value, run(value, chunk_elements=1000))


@pytest.mark.parametrize("kind", KINDS)
def test_nan_block_with_new_records_on_both_sides(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A block with NaN, met in |x| mode, whose largest magnitude is a new max and which also has a
    new min of smaller magnitude: both sides need the signs (a filled copy, then the unsigned bits)."""
    rng = np.random.default_rng(13)
    first = rng.uniform(-1.0, 1.0, 4096)
    second = rng.uniform(-0.5, 0.5, 4096)
    second[[10, 20, 30]] = 5.0, -2.0, math.nan
    x = np.concatenate([first, second]).astype(np.float32)
    value = as_kind(x, kind, monkeypatch)
    res = run(value, chunk_elements=4096)
    check(value, res)
    assert (res["min"], res["max"], res["nan"]) == (-2.0, 5.0, 1)


def test_nan_blocks_of_both_signs_need_no_filled_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the CPU, once blocks have both signs, a block with NaN is scanned from its magnitude bits
    with the NaN parts patched, not from a filled copy, except where its bounds cannot settle the
    min/max so far (a few early blocks)."""
    fills = []
    nan_to_num = torch.nan_to_num
    monkeypatch.setattr(torch, "nan_to_num", lambda *a, **k: fills.append(1) or nan_to_num(*a, **k))
    x = _sprinkled(np.random.default_rng(11).standard_normal(64 * 4096).astype(np.float32), 640, seed=12)
    value = torch.from_numpy(x)
    check(value, run(value, chunk_elements=4096))
    assert len(fills) < 16


@pytest.mark.parametrize(
    ("lo", "hi", "expected"),
    [
        (math.inf, -math.inf, None),  # no finite value yet
        (-3.0, 5.0, TINY32),
        (-3.0, 0.0, -TINY32),
        (2.5, 9.0, 2.5),
        (-9.0, -2.5, -2.5),
        (SUB32, 5.0, TINY32),
        (-5.0, -SUB32, -TINY32),
        (0.0, 0.0, 0.0),
        (-SUB32, SUB32, 0.0),
        (SUB32, 3 * SUB32, None),  # only subnormals of one sign: a stand-in could be flushed to 0
        (-3 * SUB32, -SUB32, None),
    ],
)
def test_stand_in_lies_in_the_range_and_is_normal(lo: float, hi: float, expected: float | None) -> None:
    value = stats._stand_in(lo, hi)
    assert value == expected
    if value is not None:
        assert lo <= value <= hi and (value == 0 or abs(value) >= TINY32)


def _check_with_formula_bins(value: object, res: dict, rtol: float) -> None:
    """Like ``check``, but the histogram against the bin formula itself, floor((x - lo) * nb / (hi - lo))
    clipped, in float64: np.histogram also moves values that round across an edge into the bin the
    edge says, which the stats histogram has never done (a value a few ulps below an edge may be
    counted in the bin above it)."""
    ref = reference(value)
    for key in ("count", "nan", "posinf", "neginf", "zeros", "finite"):
        assert res[key] == ref[key], key
    for key in ("min", "max", "mean", "std"):
        assert (res[key] is None) if ref[key] is None else res[key] == pytest.approx(ref[key], rel=rtol, abs=1e-9), key
    hist = res["histogram"]
    if ref["finite"]:
        lo, hi, nb = hist["edges"][0], hist["edges"][-1], len(hist["counts"])
        bins = np.clip(np.floor((ref["values"] - lo) * (nb / (hi - lo))), 0, nb - 1).astype(np.intp)
        assert hist["counts"] == np.bincount(bins, minlength=nb).tolist()


#: Quarter steps, so float32 sums of a few thousand of them are exact and the mean is compared,
#: not float32 rounding; with the specials around them.
_ELEMENTS = st.one_of(
    st.integers(-4000, 4000).map(lambda i: i / 4),
    st.sampled_from([0.0, -0.0, math.nan, -math.nan, math.inf, -math.inf, SUB32, -SUB32, TINY32]),
)


@settings(max_examples=40, deadline=None)
@given(
    hnp.arrays(np.float32, st.integers(1, 3000), elements=_ELEMENTS),
    st.sampled_from([64, 256, 1000, 1 << 18]),
    st.sampled_from(KINDS),
)
def test_property_blocks_of_any_length_match_numpy(arr: np.ndarray, chunk: int, kind: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        value = as_kind(arr, kind, monkeypatch)
        _check_with_formula_bins(value, run(value, chunk_elements=chunk), rtol=1e-5)
