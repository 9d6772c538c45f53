"""``--lang zh_CN``: inspect and render write in Chinese like the window; English stays the default."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.cli.helpers import cli

CJK = re.compile(r"[\u4e00-\u9fff]")
# A hint (torch.Tensor(2, 3)), a note (a sparse tensor has no strides) and an image with a layout reason.
NOTES = ("import torch\nx = torch.Tensor(2, 3)\ns = torch.eye(3).to_sparse()\nimg = torch.rand(3, 8, 8)\n")
MATMUL = "import torch\na = torch.ones(4, 3)\nb = torch.ones(4, 5)\nc = a @ b\n"


def _inspect(tmp_path: Path, code: str, *args: str) -> tuple[int, dict]:
    script = tmp_path / "lesson.py"
    script.write_text(code)
    out = cli(tmp_path, "inspect", str(script), "--json", "--no-proof", *args)
    return out.returncode, json.loads(out.stdout)


def _note(payload: dict, name: str) -> str:
    return next(v["note"] for v in payload["variables"] if v["name"] == name)


def test_inspect_speaks_chinese_hints_and_notes(tmp_path: Path) -> None:
    status, payload = _inspect(tmp_path, NOTES, "--lang", "zh_CN")
    assert status == 0
    [hint] = payload["hints"]
    assert CJK.search(hint["title"]) and CJK.search(hint["explanation"]), hint
    assert hint["fix"].startswith("x = torch.zeros(2, 3)")  # the code stays code
    assert CJK.search(_note(payload, "s"))


def test_inspect_stays_english_by_default(tmp_path: Path) -> None:
    status, payload = _inspect(tmp_path, NOTES)
    assert status == 0
    [hint] = payload["hints"]
    assert hint["title"] == "torch.Tensor(2, 3) is not zeros"
    assert not CJK.search(json.dumps(payload, ensure_ascii=False))


def test_inspect_error_card_in_chinese(tmp_path: Path) -> None:
    status, payload = _inspect(tmp_path, MATMUL, "--lang", "zh_CN")
    error = payload["error"]
    assert status == 1 and error["line"] == 4 and error["type"] == "RuntimeError"
    assert CJK.search(error["title"]) and CJK.search(error["explanation"]), error
    assert "mat1 and mat2" in error["message"]  # Python's own message is not ours to translate


def test_the_table_labels_follow_the_language(tmp_path: Path) -> None:
    script = tmp_path / "lesson.py"
    script.write_text(MATMUL)
    table = cli(tmp_path, "inspect", str(script), "--no-proof", "--lang", "zh_CN").stdout
    assert "错误（第 4 行）: RuntimeError" in table, table
    script.write_text(NOTES)
    table = cli(tmp_path, "inspect", str(script), "--lang", "zh_CN").stdout
    assert "提示（第 2 行）: " in table, table


def test_render_speaks_chinese(tmp_path: Path) -> None:
    script = tmp_path / "lesson.py"
    script.write_text(NOTES)
    out = cli(tmp_path, "render", str(script), "--var", "img", "--out", str(tmp_path / "img.png"), "--json",
              "--lang", "zh_CN")
    assert out.returncode == 0, out.stderr
    facts = json.loads(out.stdout)
    assert facts["layout"] == "CHW" and CJK.search(facts["reason"]), facts
    text = cli(tmp_path, "render", str(script), "--var", "img", "--out", str(tmp_path / "img.png"), "--lang", "zh_CN")
    assert CJK.search(text.stdout), text.stdout
    english = cli(tmp_path, "render", str(script), "--var", "img", "--out", str(tmp_path / "img.png"), "--json")
    assert not CJK.search(json.loads(english.stdout)["reason"])


@pytest.mark.parametrize("command", ["inspect", "render"])
def test_an_unknown_language_is_a_usage_error(tmp_path: Path, command: str) -> None:
    script = tmp_path / "lesson.py"
    script.write_text(NOTES)
    extra = ["--out", str(tmp_path / "x.png")] if command == "render" else []
    out = cli(tmp_path, command, str(script), *extra, "--lang", "fr")
    assert out.returncode == 2 and out.stdout == ""
    [line] = out.stderr.strip().splitlines()
    assert "--lang" in line and "'fr'" in line and "zh_CN" in line


LOOP = ("import torch\nx = torch.randn(16, 4)\ny = x.sum(dim=1, keepdim=True)\nmodel = torch.nn.Linear(4, 1)\n"
        "optimizer = torch.optim.SGD(model.parameters(), lr=0.05)\nfor step in range(10):\n"
        "    loss = torch.nn.functional.mse_loss(model(x), y)\n    loss.backward()\n    optimizer.step()\n")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_training_loop_hint_reaches_the_cli(tmp_path: Path, lang: str) -> None:
    status, payload = _inspect(tmp_path, LOOP, "--lang", lang)
    assert status == 0 and payload["error"] is None
    [hint] = payload["hints"]
    assert hint["key"] == "grad_never_zeroed" and hint["line"] == 8 and hint["fix"] == "optimizer.zero_grad()"
    assert bool(CJK.search(hint["explanation"])) == (lang == "zh_CN"), hint
