"""Tests for explorer.core.stats.job.StatsJob against numpy/torch reference computations."""

from __future__ import annotations

import threading

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from explorer.core.stats import job as stats
from explorer.core.stats import ops as stats_ops
from explorer.core.stats.job import StatsJob


def run(value: object, **kw: object) -> dict:
    """Run a job synchronously and return its result (asserting it finished)."""
    job = StatsJob(value, **kw)
    job.run()
    status = job.status()
    assert status["state"] == "done", status
    assert status["progress"] == 1.0
    return status["result"]


def reference(value: object) -> dict:
    """Statistics computed the plain way with numpy (float64, finite values only)."""
    if isinstance(value, torch.Tensor):
        v = value.detach()
        v = v.to_dense() if v.layout != torch.strided else v
        v = (v.abs() if v.is_complex() else v).resolve_neg()
        arr = v.to(torch.float64).numpy().ravel()
        ddof = 1
    else:
        arr = np.asarray(value)
        arr = (np.abs(arr) if arr.dtype.kind == "c" else arr).astype(np.float64).ravel()
        ddof = 0
    fin = arr[np.isfinite(arr)]
    return {
        "count": arr.size,
        "nan": int(np.isnan(arr).sum()),
        "posinf": int((arr == np.inf).sum()),
        "neginf": int((arr == -np.inf).sum()),
        "zeros": int((arr == 0).sum()),
        "finite": fin.size,
        "min": fin.min() if fin.size else None,
        "max": fin.max() if fin.size else None,
        "mean": fin.mean() if fin.size else None,
        "std": fin.std(ddof=ddof) if fin.size > ddof else None,
        "values": fin,
    }


def check(value: object, res: dict, rtol: float = 1e-5) -> None:
    """Compare every statistic and the histogram with the reference."""
    ref = reference(value)
    for key in ("count", "nan", "posinf", "neginf", "zeros", "finite"):
        assert res[key] == ref[key], key
    for key in ("min", "max", "mean", "std"):
        if ref[key] is None:
            assert res[key] is None, key
        else:
            assert res[key] == pytest.approx(ref[key], rel=rtol, abs=1e-9), key
    hist = res["histogram"]
    if ref["finite"] == 0:
        assert hist["counts"] == []
        return
    edges = np.asarray(hist["edges"])
    expected, _ = np.histogram(ref["values"], bins=len(hist["counts"]), range=(edges[0], edges[-1]))
    assert hist["counts"] == expected.tolist()
    assert sum(hist["counts"]) == ref["finite"]


def _cases() -> dict[str, object]:
    g = torch.Generator().manual_seed(3)
    special = torch.randn(50, generator=g)
    special[[3, 17, 40]] = float("nan")
    special[[5, 33]] = float("inf")
    special[8] = -float("inf")
    special[[1, 2, 44]] = 0.0
    base = torch.randn(4, 6, 5, generator=g)
    return {
        "randn": torch.randn(1000, generator=g),
        "special": special,
        "all_nan": torch.full((7,), float("nan")),
        "transposed": base.permute(2, 0, 1),
        "sliced": base[:, ::2, 1:],
        "expanded": torch.arange(5.0).expand(4, 5),
        "zero_d": torch.tensor(-2.5),
        "empty": torch.empty(0, 3),
        "bf16": torch.randn(300, generator=g).bfloat16(),
        "fp16": torch.randn(300, generator=g).half(),
        "int64": torch.randint(-1000, 1000, (257,), generator=g),
        "uint8": torch.randint(0, 256, (100,), generator=g, dtype=torch.uint8),
        "bool": torch.rand(99, generator=g) > 0.3,
        "complex": torch.randn(40, dtype=torch.complex64, generator=g),
        "requires_grad": torch.randn(20, generator=g, requires_grad=True) * 3,
        "sparse": torch.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]]).to_sparse(),
        "constant": torch.full((33,), 4.0),
        "conj_view": torch.randn(9, dtype=torch.complex128, generator=g).conj(),
        "neg_bit_view": torch.randn(9, dtype=torch.complex128, generator=g).conj().imag,
        "int_range_wide": torch.randint(-10**6, 10**6, (500,), generator=g),
        "np_float32": np.random.default_rng(0).standard_normal(500).astype(np.float32),
        "np_neg_strides": np.random.default_rng(1).standard_normal((6, 8))[::-1, ::-3],
        "np_fortran": np.asfortranarray(np.random.default_rng(2).standard_normal((5, 7))),
        "np_special": np.array([np.nan, 0.0, np.inf, -3.0, 0.0, 2.0, -np.inf]),
        "np_int32": np.arange(-50, 77, dtype=np.int32),
        "np_bool": np.array([True, False, True]),
        "np_complex": np.array([3 + 4j, 0j, 1j]),
        "np_float16": np.linspace(-2, 2, 21).astype(np.float16),
        "np_zero_d": np.array(5.5),
    }


CASES = _cases()


@pytest.mark.parametrize("chunk", [1 << 24, 7, 1])
@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_reference(name: str, chunk: int) -> None:
    value = CASES[name]
    tol = 1e-2 if name in ("bf16",) else 1e-5
    check(value, run(value, chunk_elements=chunk), rtol=tol)


@pytest.mark.parametrize("chunk", [1 << 24, 7])
@pytest.mark.parametrize("name", sorted(n for n, v in CASES.items() if isinstance(v, torch.Tensor)))
def test_device_path_matches_reference(name: str, chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The plain-torch path that GPU tensors take, run here on CPU tensors."""
    monkeypatch.setattr(stats_ops.TorchOps, "cpu_fast_path", False)
    value = CASES[name]
    tol = 1e-2 if name in ("bf16",) else 1e-5
    check(value, run(value, chunk_elements=chunk), rtol=tol)


def test_integer_histogram_has_one_bin_per_value() -> None:
    res = run(torch.tensor([1, 1, 2, 5, 5, 5]))
    assert res["histogram"]["counts"] == [2, 1, 0, 0, 3]
    assert res["histogram"]["edges"][0] == 0.5 and res["histogram"]["edges"][-1] == 5.5
    assert (res["min"], res["max"]) == (1, 5) and isinstance(res["min"], int)


def test_std_follows_the_library_convention() -> None:
    x = [1.0, 2.0, 4.0, 8.0]
    assert run(torch.tensor(x))["std"] == pytest.approx(torch.tensor(x).std().item())
    assert run(np.array(x))["std"] == pytest.approx(np.array(x).std())


def test_notes_explain_nan_complex_and_sparse() -> None:
    special, cplx, sparse, plain = (run(CASES[k]) for k in ("special", "complex", "sparse", "randn"))
    assert "NaN" in special["note"] and special["notes"] == ["nonfinite_ignored"]
    assert "|z|" in cplx["note"] and cplx["notes"] == ["complex_magnitude"]
    assert "implicit zeros" in sparse["note"] and sparse["notes"] == ["sparse_implicit_zeros"]
    assert plain["note"] is None and plain["notes"] == []


def test_large_mean_small_spread_keeps_precision() -> None:
    x = np.random.default_rng(5).standard_normal(10_000) * 1e-3 + 1e4
    res = run(x.astype(np.float32), chunk_elements=1000)
    assert res["std"] == pytest.approx(x.astype(np.float32).astype(np.float64).std(), rel=1e-3)
    res64 = run(torch.from_numpy(x), chunk_elements=999)
    assert res64["std"] == pytest.approx(np.std(x, ddof=1), rel=1e-9)


def test_float32_sums_that_would_overflow() -> None:
    t = torch.tensor([3e38, 3e38, 2e38], dtype=torch.float32)
    res = run(t)
    assert res["mean"] == pytest.approx(float(t.double().mean()), rel=1e-6)
    assert res["posinf"] == 0 and res["finite"] == 3


def test_histogram_of_a_big_value_is_sampled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stats, "HIST_FULL_LIMIT", 1000)
    monkeypatch.setattr(stats, "HIST_SAMPLE", 100)
    monkeypatch.setattr(stats, "HIST_SEGMENT", 10)
    t = torch.arange(5000, dtype=torch.float32)
    res = run(t, chunk_elements=64)
    hist = res["histogram"]
    assert hist["step"] == 50 and "1 in 50" in res["note"] and res["notes"] == ["histogram_sampled"]
    assert sum(hist["counts"]) == 100  # 10 runs of 10 elements, one run every 500 elements
    starts = np.arange(0, 5000, 500)
    expected, _ = np.histogram(np.concatenate([np.arange(s, s + 10) for s in starts]), bins=64, range=(0, 4999))
    assert hist["counts"] == expected.tolist()
    assert res["count"] == 5000 and res["max"] == 4999.0  # statistics still read everything
    strided = run(t[::2], chunk_elements=64)  # not dense: strided picks instead of runs
    assert strided["histogram"]["step"] == 25 and sum(strided["histogram"]["counts"]) == 100


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (torch.empty(3, device="meta"), "meta"),
        (np.array(["a", "b"]), "numbers"),
        (np.array([object()]), "numbers"),
        ([1.0, 2.0], "not a tensor"),
    ],
)
def test_values_without_numbers_fail_with_a_sentence(value: object, message: str) -> None:
    job = StatsJob(value)
    job.run()
    status = job.status()
    assert status["state"] == "failed" and status["result"] is None
    assert message in status["error"]


def test_cancel_before_run() -> None:
    job = StatsJob(torch.arange(100.0), chunk_elements=10)
    job.cancel()
    job.run()
    assert job.status()["state"] == "cancelled"
    assert job.status()["result"] is None


def test_cancel_in_the_middle(monkeypatch: pytest.MonkeyPatch) -> None:
    job = StatsJob(torch.arange(1000.0), chunk_elements=10)
    seen: list[float] = []
    original = stats._Accumulator.add

    def add_then_cancel(self: stats._Accumulator, ops: object, x: object) -> None:
        original(self, ops, x)
        seen.append(job.status()["progress"])
        if len(seen) == 5:
            job.cancel()

    monkeypatch.setattr(stats._Accumulator, "add", add_then_cancel)
    job.run()
    assert job.status()["state"] == "cancelled"
    assert len(seen) == 5  # it stopped at the next block
    assert seen == sorted(seen) and 0 < seen[-1] < 1


def test_run_in_a_thread_like_the_agent() -> None:
    job = StatsJob(torch.randn(10_000), chunk_elements=100)
    thread = threading.Thread(target=job.run)
    thread.start()
    while thread.is_alive():
        status = job.status()
        assert status["state"] in ("running", "done") and 0 <= status["progress"] <= 1
        thread.join(0.001)
    assert job.status()["state"] == "done"


_FLOATS = st.one_of(
    st.floats(-1e6, 1e6, width=32),
    st.sampled_from([0.0, -0.0, float("nan"), -float("nan"), float("inf"), -float("inf")]),
)


@settings(max_examples=40, deadline=None)
@given(
    hnp.arrays(np.float32, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=6), elements=_FLOATS),
    st.integers(1, 20),
    st.booleans(),
)
def test_property_matches_numpy(arr: np.ndarray, chunk: int, as_torch: bool) -> None:
    value = torch.from_numpy(arr.copy()) if as_torch else arr
    check(value, run(value, chunk_elements=chunk), rtol=1e-4)


@pytest.mark.parametrize("cancel", [False, True])
def test_finished_job_does_not_keep_the_value_alive(cancel: bool) -> None:
    import gc
    import weakref

    t = torch.randn(1000)
    ref = weakref.ref(t)
    job = StatsJob(t, chunk_elements=100)
    if cancel:
        job.cancel()
    job.run()
    del t
    gc.collect()
    assert ref() is None
    assert job.status()["state"] == ("cancelled" if cancel else "done")


@pytest.mark.parametrize("zeros_at", [[], [3], [0, 517, 999]])
def test_zero_count_in_blocks_that_straddle_zero(zeros_at: list[int]) -> None:
    """Blocks of both signs are settled by one |x| reduction; the zero count must stay exact."""
    x = torch.linspace(-1.0, 1.0, 1000) + 1e-4  # no exact zero unless placed
    x[zeros_at] = 0.0
    job = StatsJob(x, chunk_elements=64)
    job.run()
    assert job.status()["result"]["zeros"] == int((x == 0).sum()) == len(zeros_at)


@pytest.mark.parametrize("as_torch", [False, True, "device_path"])
def test_mixed_sign_blocks_with_zeros_nan_and_late_records(as_torch: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of both signs take the |x| shortcut; zeros, NaN and a late new max/min must still be exact."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal(5000).astype(np.float32)
    x[rng.choice(5000, 40, replace=False)] = 0.0
    x[rng.choice(5000, 20, replace=False)] = -0.0
    x[[17, 2500]] = np.nan
    x[4000] = -np.inf
    x[4900], x[4901] = 50.0, -60.0  # records long after the |x| bounds settled
    value = torch.from_numpy(x) if as_torch else x
    monkeypatch.setattr(stats_ops.TorchOps, "cpu_fast_path", as_torch != "device_path")
    res = run(value, chunk_elements=64)
    check(value, res)
    assert (res["min"], res["max"], res["zeros"]) == (-60.0, 50.0, 60)


@pytest.mark.parametrize("as_torch", [False, True, "device_path"])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_one_signed_values_with_nan_and_inf_holes(as_torch: object, sign: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """NaN/Inf are set to 0 for the sums; that 0 must not become the min of positive (max of negative) data."""
    rng = np.random.default_rng(9)
    x = (sign * rng.uniform(2.0, 5.0, 3000)).astype(np.float32)
    x[rng.choice(3000, 300, replace=False)] = np.nan
    x[[5, 700]] = np.inf
    x[[6, 2900]] = -np.inf
    value = torch.from_numpy(x) if as_torch else x
    monkeypatch.setattr(stats_ops.TorchOps, "cpu_fast_path", as_torch != "device_path")
    res = run(value, chunk_elements=100)
    check(value, res)
    assert res["zeros"] == 0 and (res["min"] > 0 if sign > 0 else res["max"] < 0)
