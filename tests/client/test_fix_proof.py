"""The proof of a fix: the learner's script runs again with the fix, in a separate kernel, seeded and bounded."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from explorer.client import fix_proof
from explorer.client.fix_proof import ProofJob, ProofRequest, got_past, original_line, prove, run_budget

MATMUL_THEN_VIEW = "import torch\na = torch.ones(4, 3)\nb = torch.ones(4, 5)\nc = a @ b\nd = c.view(7)\n"
FIX_T = {"line": 4, "fix": "c = a.T @ b", "fix_mode": "replace", "fix_line": 4}
TOP = [{"in_code": True, "line": 4, "function": "<module>"}]


def _request(script: str, card: dict, frames: list | None = None, **extra) -> ProofRequest:
    return ProofRequest(script, card, TOP if frames is None else frames, **extra)


# -- the pieces, no kernel ---------------------------------------------------------------------------
def test_the_budget_grows_with_the_learners_run_and_has_a_ceiling() -> None:
    assert run_budget(None) == run_budget(0) == fix_proof.MIN_BUDGET
    assert run_budget(5) == fix_proof.MIN_BUDGET + 10
    assert run_budget(30) == run_budget(3600) == fix_proof.MAX_BUDGET  # a 30 s training script: one minute at most


def test_the_proof_is_seeded_like_step_back() -> None:
    from explorer.client.step import STEP_SEED

    assert fix_proof.PROOF_SEED == STEP_SEED


@pytest.mark.parametrize(("line", "expected"), [(3, 3), (4, 4), (5, 4), (6, 5), (9, 8)])
def test_lines_of_the_patched_script_map_back_around_a_replacement(line: int, expected: int) -> None:
    patch = {"code": "", "first": 4, "last": 4, "lines": 2}  # line 4 became lines 4-5
    assert original_line(line, patch) == expected


@pytest.mark.parametrize(("line", "expected"), [(2, 2), (3, 3), (4, 3), (5, 3), (6, 4)])
def test_lines_map_back_around_an_insertion(line: int, expected: int) -> None:
    patch = {"code": "", "first": 3, "last": 2, "lines": 2}  # two lines inserted before line 3
    assert original_line(line, patch) == expected


def test_a_multiline_statement_replaced_by_one_line_maps_back() -> None:
    patch = {"code": "", "first": 2, "last": 4, "lines": 1}  # lines 2-4 became line 2
    assert [original_line(n, patch) for n in (1, 2, 3, 4)] == [1, 2, 5, 6]


@pytest.mark.parametrize(("before", "after", "past"), [
    ([4], [5], True),          # a later top-level line
    ([4], [4], False),         # the same line still fails
    ([4], [2], False),         # the fix broke something earlier
    ([10, 8], [12], True),     # the call on line 10 returned, line 12 fails
    ([10, 8], [10, 9], True),  # inside the same call, further on
    ([10, 8], [10, 8, 3], False),  # deeper inside the very line that failed
    ([10], [10, 3], False),
])
def test_got_past_compares_call_by_call(before: list[int], after: list[int], past: bool) -> None:
    assert got_past(before, after) is past


def test_advice_is_not_proved() -> None:
    card = {"line": 4, "fix": "# read the message", "fix_mode": None, "fix_line": None}
    assert prove(_request(MATMUL_THEN_VIEW, card))["status"] == "not_checked"
    assert prove(_request(MATMUL_THEN_VIEW, card))["reason"] == "no_fix"


# -- in a real background kernel ------------------------------------------------------------------
def test_a_fix_that_runs_to_the_end() -> None:
    script = MATMUL_THEN_VIEW.replace("c.view(7)", "c.view(15)")
    result = prove(_request(script, FIX_T))
    assert result["status"] == "runs" and result["past_line"] == 4 and result["error"] is None, result
    assert result["budget"] == fix_proof.MIN_BUDGET and result["seconds"] > 0


def test_a_fix_that_gets_past_its_line_and_the_next_error_in_the_files_lines() -> None:
    # Two lines inserted before line 4: the next error, on the patched script's line 7, is the file's line 5.
    card = {"line": 4, "fix": "a = a.T\n# a is now [3, 4]", "fix_mode": "before", "fix_line": 4}
    result = prove(_request(MATMUL_THEN_VIEW, card))
    assert result["status"] == "fails" and result["past_line"] == 4, result
    error = result["error"]
    assert error["line"] == 5 and error["type"] == "RuntimeError" and "[7]" in error["message"], error
    assert error["title"]


def test_a_fix_that_still_fails_on_its_line_is_not_past() -> None:
    card = {"line": 4, "fix": "c = a @ b.T.T", "fix_mode": "replace", "fix_line": 4}
    result = prove(_request(MATMUL_THEN_VIEW, card))
    assert result["status"] == "fails" and result["past_line"] is None, result
    assert result["error"]["line"] == 4 and "cannot be multiplied" in result["error"]["message"]


def test_a_fix_inside_a_function_is_judged_by_the_call() -> None:
    script = ("import torch\n\ndef scores(a, b):\n    return a @ b\n\n"
              "a = torch.ones(4, 3)\nb = torch.ones(4, 5)\nc = scores(a, b)\nd = c.view(7)\n")
    frames = [{"in_code": True, "line": 8, "function": "<module>"}, {"in_code": True, "line": 4, "function": "scores"}]
    card = {"line": 4, "fix": "return a.T @ b", "fix_mode": "replace", "fix_line": 4}
    result = prove(_request(script, card, frames))
    assert result["status"] == "fails" and result["past_line"] == 8 and result["error"]["line"] == 9, result


def test_the_proof_run_is_seeded_and_runs_as_the_script(tmp_path: Path) -> None:
    out = tmp_path / "drawn.txt"
    script = (f"import os, torch\nv = torch.rand(1).item()\nc = torch.ones(4, 3) @ torch.ones(4, 5)\n"
              f"open({str(out)!r}, 'w').write(f'{{v!r}} {{__file__}} {{os.nice(0)}}')\n")
    card = {"line": 3, "fix": "c = torch.ones(4, 3).T @ torch.ones(4, 5)", "fix_mode": "replace", "fix_line": 3}
    path = tmp_path / "lesson.py"
    result = prove(_request(script, card, [{"in_code": True, "line": 3}], path=str(path), cwd=str(tmp_path)))
    assert result["status"] == "runs", result
    import torch

    torch.manual_seed(fix_proof.PROOF_SEED)
    drawn, file, nice = out.read_text().split()
    assert float(drawn) == torch.rand(1).item()
    assert file == str(path)
    if hasattr(os, "setpriority"):
        assert int(nice) >= os.nice(0) + fix_proof.NICENESS  # the background kernel yields to the learner's


def test_a_script_that_runs_on_is_stopped_at_its_budget() -> None:
    script = MATMUL_THEN_VIEW.replace("d = c.view(7)", "while True:\n    c = c + 1")
    result = prove(_request(script, FIX_T, budget=3))
    assert result["status"] == "timeout" and result["budget"] == 3, result
    assert result["past_line"] == 4 and result["stopped_at"] in (5, 6)


def test_a_deadline_too_close_is_no_time() -> None:
    import time

    result = prove(_request(MATMUL_THEN_VIEW, FIX_T, deadline=time.monotonic() + 4))
    assert result["status"] == "not_checked" and result["reason"] == "no_time", result


def test_cancel_kills_the_proof_kernel() -> None:
    script = MATMUL_THEN_VIEW.replace("d = c.view(7)", "while True:\n    c = c + 1")
    job = ProofJob(_request(script, FIX_T, budget=600))
    results: list[dict] = []
    worker = threading.Thread(target=lambda: results.append(job.run()))
    worker.start()
    while job._pid is None and worker.is_alive():  # the kernel is up and running the script
        worker.join(0.05)
    pid = job._pid
    job.cancel()
    worker.join(60)
    assert not worker.is_alive() and results == [fix_proof.not_checked("cancelled")]
    assert pid is not None
    with pytest.raises(OSError):
        os.kill(pid, 0)  # the kernel process is gone


def test_an_unexpected_failure_is_not_checked_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args):
        raise ValueError("a reply we cannot read")

    monkeypatch.setattr(fix_proof, "_prove_in", broken)
    result = prove(_request(MATMUL_THEN_VIEW, FIX_T))
    assert result["status"] == "not_checked" and result["reason"] == "kernel"
    assert "a reply we cannot read" in result["detail"]
