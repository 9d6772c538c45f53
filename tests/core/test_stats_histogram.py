"""The histogram pass: Binner against the bin formula, and the sampled runs read in place."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from explorer.core.stats import job as stats
from explorer.core.stats import ops as stats_ops
from tests.core.test_stats import run

#: "torch" is the CPU fast path, "device_path" the plain torch ops that GPU tensors take.
KINDS = ["numpy", "torch", "device_path"]


def as_kind(arr: np.ndarray, kind: str, monkeypatch: pytest.MonkeyPatch) -> object:
    """*arr* as the value a test of *kind* passes to the job (a tensor copy for the torch kinds)."""
    monkeypatch.setattr(stats_ops.TorchOps, "cpu_fast_path", kind != "device_path")
    return arr if kind == "numpy" else torch.from_numpy(arr.copy())


def _formula(a: np.ndarray, lo: float, hi: float, nb: int) -> list[int]:
    """The stats histogram's bins, the plain way: floor((x - lo) * nb / (hi - lo)), clipped, in float64."""
    x = a[np.isfinite(a)].astype(np.float64)
    bins = np.clip(np.floor((x - lo) * (nb / (hi - lo))), 0, nb - 1).astype(np.intp)
    return np.bincount(bins, minlength=nb).tolist()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(1000,), (7, 150)])
@pytest.mark.parametrize("holes", [False, True])
def test_binner_is_the_bin_formula(dtype: type, shape: tuple[int, ...], holes: bool,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """In pieces (1-d or rows of 2-d blocks), with the edges themselves and values a rounding away."""
    monkeypatch.setattr(stats_ops.Binner, "PIECE", 64)
    lo, hi, nb = -3.0, 5.0, 16
    edges = np.linspace(lo, hi, nb + 1)
    near = np.concatenate([edges, np.nextafter(edges, -np.inf), np.nextafter(edges, np.inf)])
    a = np.random.default_rng(1).uniform(lo, hi, math.prod(shape))
    a[: near.size] = np.clip(near, lo, hi)
    a = a.astype(dtype)
    if holes:
        a[[3, 50, 700]] = math.nan, math.inf, -math.inf
    a = a.reshape(shape)
    assert stats_ops.Binner().counts(a, lo, hi, nb, clean=not holes).tolist() == _formula(a.ravel(), lo, hi, nb)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("holes", [True, False])
def test_sampled_histogram_reads_runs_in_place(holes: bool, kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Above HIST_FULL_LIMIT the histogram bins runs read as 2-d views; NaN/Inf in them are left out."""
    monkeypatch.setattr(stats, "HIST_FULL_LIMIT", 1000)
    monkeypatch.setattr(stats, "HIST_SAMPLE", 100)
    monkeypatch.setattr(stats, "HIST_SEGMENT", 10)
    monkeypatch.setattr(stats_ops.Binner, "PIECE", 16)  # several pieces per block of runs
    x = np.arange(5000, dtype=np.float32)
    if holes:
        x[[3, 505, 1007, 4002]] = math.nan, math.inf, -math.inf, math.nan  # inside sampled runs
    value = as_kind(x, kind, monkeypatch)
    hist = run(value, chunk_elements=64)["histogram"]
    sample = np.concatenate([x[s : s + 10] for s in range(0, 5000, 500)])
    expected, _ = np.histogram(sample[np.isfinite(sample)], bins=64, range=(0, 4999))
    assert hist["step"] == 50 and hist["counts"] == expected.tolist()
