"""``inspect`` proves the error card's fix by default and puts the verdict in ``error.fix_proof``."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.helpers import cli

MATMUL_THEN_VIEW = "import torch\na = torch.ones(4, 3)\nb = torch.ones(4, 5)\nc = a @ b\nd = c.view(7)\n"
PROOF_KEYS = {"status", "past_line", "error", "stopped_at", "budget", "seconds", "reason", "detail"}


def _error(tmp_path: Path, code: str, *args: str) -> dict:
    script = tmp_path / "lesson.py"
    script.write_text(code)
    out = cli(tmp_path, "inspect", str(script), "--json", *args)
    assert out.returncode == 1, out.stderr
    return json.loads(out.stdout)["error"]


def test_inspect_proves_the_fix_by_default(tmp_path: Path) -> None:
    error = _error(tmp_path, MATMUL_THEN_VIEW)
    assert error["line"] == 4 and error["fix"].startswith("c = a.T @ b")
    proof = error["fix_proof"]
    assert set(proof) == PROOF_KEYS
    assert proof["status"] == "fails" and proof["past_line"] == 4, proof
    assert proof["error"]["line"] == 5 and proof["error"]["type"] == "RuntimeError"
    assert 0 < proof["budget"] <= 60 and proof["seconds"] > 0


def test_a_fix_that_runs_says_so(tmp_path: Path) -> None:
    proof = _error(tmp_path, MATMUL_THEN_VIEW.replace("c.view(7)", "c.view(15)"))["fix_proof"]
    assert proof["status"] == "runs" and proof["past_line"] == 4 and proof["error"] is None


def test_no_proof_opts_out(tmp_path: Path) -> None:
    proof = _error(tmp_path, MATMUL_THEN_VIEW, "--no-proof")["fix_proof"]
    assert proof["status"] == "not_checked" and proof["reason"] == "disabled" and proof["seconds"] is None


def test_advice_in_words_is_not_run(tmp_path: Path) -> None:
    proof = _error(tmp_path, "x = 1\nraise ValueError('no')\n")["fix_proof"]
    assert proof["status"] == "not_checked" and proof["reason"] == "no_fix"


def test_the_proof_fits_inside_timeout(tmp_path: Path) -> None:
    code = MATMUL_THEN_VIEW.replace("d = c.view(7)", "while True:\n    c = c + 1")
    error = _error(tmp_path, code, "--timeout", "40")
    proof = error["fix_proof"]
    assert proof["status"] == "timeout" and proof["past_line"] == 4 and proof["stopped_at"] in (5, 6), proof
    assert proof["budget"] < 40


def test_the_table_says_what_the_fix_did(tmp_path: Path) -> None:
    script = tmp_path / "lesson.py"
    script.write_text(MATMUL_THEN_VIEW)
    table = cli(tmp_path, "inspect", str(script)).stdout
    assert "fix checked: with this fix your script runs past line 4; then line 5 fails: RuntimeError" in table, table
    chinese = cli(tmp_path, "inspect", str(script), "--lang", "zh_CN").stdout
    assert "改成这样以后，你的脚本能越过第 4 行" in chinese, chinese
