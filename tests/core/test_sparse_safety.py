"""A checkpoint whose sparse tensors have out-of-range indices never crashes the kernel (issue 10, item 3).

``torch.load(..., weights_only=True)`` accepts such a file (torch skips the
invariant check by default) and densifying, slicing or summing the tensors then
writes or reads out of bounds. Everything runs in a child process, so a crash
shows as a failed test instead of killing the test run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import torch

import explorer
from explorer.core.summary.sparse import invalid_sparse_text

ROOT = Path(explorer.__file__).resolve().parent.parent

_CHILD = r"""
import json, sys, warnings
warnings.simplefilter("ignore")
import torch
from explorer.core.files.prepare import FileLoadError, prepare_load
from explorer.core.image.payload import image_payload
from explorer.core.stats.job import StatsJob
from explorer.core.summary.dispatch import summarize
from explorer.core.values.window import value_window

path = sys.argv[1]
out = {}
try:
    plan = prepare_load(path)
    out["prepare"] = "planned: " + plan["code"]
except FileLoadError as exc:
    out["prepare"] = str(exc)
tensors = torch.load(path, weights_only=True)  # a learner's own load: torch does not check the indices


def attempt(key, fn):
    try:
        out[key] = fn()
    except ValueError as exc:
        out[key] = "ValueError: " + str(exc)


def stats(t):
    job = StatsJob(t)
    job.run()
    status = job.status()
    return status["error"] if status["state"] == "failed" else "count %d" % status["result"]["count"]


for name, t in tensors.items():
    attempt(name + ".values", lambda: value_window(t)["rows"])
    attempt(name + ".image", lambda: image_payload(t, name=name)["display_shape"])
    attempt(name + ".stats", lambda: stats(t))
    attempt(name + ".summary", lambda: summarize(name, t)["note"])
print("RESULT " + json.dumps(out))
"""


def _bad_tensors() -> dict[str, torch.Tensor]:
    """Sparse tensors with indices outside their shape (torch builds them when told not to check)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            # drawing this one dies with SIGSEGV in to_dense() when nothing checks it first
            "coo": torch.sparse_coo_tensor(torch.tensor([[0, 1], [0, 2**30]]), torch.tensor([1.0, 2.0]), (64, 64),
                                           check_invariants=False),
            "coo_negative": torch.sparse_coo_tensor(torch.tensor([[-(2**40), 0]]), torch.tensor([1.0, 2.0]), (4,),
                                                    check_invariants=False),
            "csr": torch.sparse_csr_tensor(torch.tensor([0, 1, 2, 2]), torch.tensor([0, 2**40]), torch.tensor([1.0, 2.0]),
                                           (3, 3), check_invariants=False),
            "csc": torch.sparse_csc_tensor(torch.tensor([0, 1, 2]), torch.tensor([2**40, 0]), torch.tensor([1.0, 2.0]),
                                           (3, 2), check_invariants=False),
            "bsr": torch.sparse_bsr_tensor(torch.tensor([0, 1]), torch.tensor([5]), torch.ones(1, 2, 2), (2, 4),
                                           check_invariants=False),
        }


def _run_child(path: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-c", _CHILD, str(path)], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, f"the child died (exit {done.returncode}): {done.stderr[-2000:]}"
    line = next(x for x in done.stdout.splitlines() if x.startswith("RESULT "))
    return json.loads(line.removeprefix("RESULT "))


@pytest.fixture(scope="module")
def bad_checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sparse") / "bad_sparse.pt"
    torch.save(_bad_tensors(), path)
    return path


def test_bad_sparse_checkpoint_is_refused_and_never_read(bad_checkpoint: Path) -> None:
    out = _run_child(bad_checkpoint)
    assert out["prepare"] == ("'bad_sparse.pt' holds a sparse tensor whose indices do not fit its shape; "
                              "loading it could crash Python, so it is not loaded.")
    sentence = invalid_sparse_text()
    for name in _bad_tensors():
        for what in ("values", "image", "stats"):
            assert out[f"{name}.{what}"] in (sentence, "ValueError: " + sentence), (name, what, out[f"{name}.{what}"])
        assert sentence in out[f"{name}.summary"], (name, out[f"{name}.summary"])


def test_valid_sparse_checkpoint_still_loads_and_reads(tmp_path: Path) -> None:
    path = tmp_path / "good_sparse.pt"
    torch.save({"coo": torch.eye(3).to_sparse(), "csr": torch.eye(3).to_sparse_csr()}, path)
    out = _run_child(path)
    assert out["prepare"].startswith("planned: import torch")
    assert out["coo.values"] == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    assert out["csr.stats"] == "count 9" and out["coo.summary"].startswith("sparse_coo tensor: no strides")
