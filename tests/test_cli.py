"""The CLI contract of docs/architecture.md, through the real console script and a real kernel."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

CONTRACT_KEYS = {
    "name", "kind", "type", "shape", "dtype", "device", "strides", "byte_strides", "storage_offset",
    "data_ptr", "itemsize", "numel", "nbytes", "is_contiguous", "requires_grad", "is_leaf", "grad_fn",
    "grad", "storage", "memory_group", "overlaps", "note",
}


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run([sys.executable, "-m", "explorer", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=300)


def test_inspect_script_json(tmp_path: Path) -> None:
    script = tmp_path / "views.py"
    script.write_text(
        "import torch, numpy as np\n"
        "t = torch.arange(10).reshape(2, 5)\n"
        "cols = t[:, 1:3]\n"
        "arr = np.ones(4)\n"
        "t2 = torch.from_numpy(arr)\n"
        "c = t.clone()\n"
        "sd = {'w': torch.zeros(2)}\n"
        "label = 'hello'\n"
    )
    out = cli("inspect", str(script), "--json")
    assert out.returncode == 0, out.stderr
    payload = json.loads(out.stdout)
    assert payload["error"] is None
    names = [v["name"] for v in payload["variables"]]
    assert names == ["t", "cols", "arr", "t2", "c", "sd", "label"]
    by = {v["name"]: v for v in payload["variables"]}
    for name in ("t", "cols", "arr", "t2", "c"):
        assert set(by[name]) >= CONTRACT_KEYS, name
    assert by["cols"]["strides"] == [5, 1] and by["cols"]["storage_offset"] == 1
    assert by["cols"]["memory_group"] == by["t"]["memory_group"] is not None
    assert by["t2"]["memory_group"] == by["arr"]["memory_group"] is not None
    assert by["c"]["memory_group"] is None
    assert by["arr"]["dtype"] == "float64" and by["t2"]["dtype"] == "torch.float64"
    assert by["sd"]["kind"] == "dict" and by["sd"]["children"][0]["name"] == "sd['w']"
    assert by["label"]["kind"] == "other" and "hello" in by["label"]["repr"]


def test_inspect_script_that_raises(tmp_path: Path) -> None:
    script = tmp_path / "fails.py"
    script.write_text("import torch\na = torch.ones(4, 3)\nb = torch.ones(4, 5)\nc = a @ b\n")
    out = cli("inspect", str(script), "--json")
    assert out.returncode == 1
    payload = json.loads(out.stdout)
    assert [v["name"] for v in payload["variables"]] == ["a", "b"]
    error = payload["error"]
    assert {"type", "message", "line", "title", "explanation", "fix"} <= set(error)
    assert error["line"] == 4 and error["type"] == "RuntimeError"


def test_script_reading_stdin_fails_fast_instead_of_hanging(tmp_path: Path) -> None:
    script = tmp_path / "asks.py"
    script.write_text("kept = 1\nanswer = input('name? ')\n")
    out = cli("inspect", str(script), "--json", "--timeout", "120")
    assert out.returncode == 1
    payload = json.loads(out.stdout)
    assert [v["name"] for v in payload["variables"]] == ["kept"]
    assert payload["error"]["line"] == 2


def test_script_runs_as_python_would_run_it(tmp_path: Path) -> None:
    (tmp_path / "helper_mod.py").write_text("VALUE = 42\n")
    script = tmp_path / "uses_helper.py"
    script.write_text("import os, helper_mod\nvalue = helper_mod.VALUE\nhere = os.path.basename(__file__)\n")
    out = cli("inspect", str(script), "--json", cwd=Path("/"))
    assert out.returncode == 0, out.stdout
    by = {v["name"]: v for v in json.loads(out.stdout)["variables"]}
    assert by["value"]["repr"] == "42" and by["here"]["repr"] == "'uses_helper.py'"


def test_inspect_readable_table(tmp_path: Path) -> None:
    script = tmp_path / "table.py"
    script.write_text("import numpy as np\nrev = np.arange(6)[::-1]\n")
    out = cli("inspect", str(script))
    assert out.returncode == 0
    assert "rev" in out.stdout and "(-1)" in out.stdout


@pytest.mark.parametrize("args", [("inspect",), ("inspect", "missing_file.py"), ("render", "x.py")])
def test_bad_arguments_exit_2_with_one_sentence(args: tuple[str, ...], tmp_path: Path) -> None:
    out = cli(*args, "--json", cwd=tmp_path)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert json.loads(out.stdout)["error"]["message"]


def test_unloadable_data_file_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "broken.npy"
    bad.write_bytes(b"\x93NUMPY garbage")
    out = cli("inspect", str(bad), "--json")
    assert out.returncode == 2
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert json.loads(out.stdout)["error"]["message"]


def test_web_address_is_refused_in_one_sentence() -> None:
    out = cli("inspect", "https://example.org/batch.npy", "--json")
    assert out.returncode == 2
    assert "address" in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_inspect_data_file(tmp_path: Path) -> None:
    path = tmp_path / "2024 batch-data.npy"
    np.save(path, np.arange(12, dtype=np.int16).reshape(3, 4))
    out = cli("inspect", str(path), "--json")
    assert out.returncode == 0, out.stderr
    var = json.loads(out.stdout)["variables"][0]
    assert var["name"].isidentifier() and var["shape"] == [3, 4] and var["dtype"] == "int16"


def test_render_chw_tensor(tmp_path: Path) -> None:
    script = tmp_path / "img.py"
    script.write_text("import torch\nimg = torch.rand(3, 32, 48)\n")
    png = tmp_path / "img.png"
    out = cli("render", str(script), "--out", str(png), "--json")
    assert out.returncode == 0, out.stderr
    facts = json.loads(out.stdout)
    assert facts["layout"] == "CHW" and facts["permute"] == "img.permute(1, 2, 0)"
    assert facts["display_shape"][:2] == [32, 48]
    from PIL import Image

    with Image.open(png) as image:
        assert image.size == (48, 32)


def test_inspect_json_lists_hints(tmp_path: Path) -> None:
    script = tmp_path / "garbage.py"
    script.write_text("import torch\nx = torch.Tensor(2, 3)\nok = torch.zeros(2)\n")
    out = cli("inspect", str(script), "--json")
    assert out.returncode == 0, out.stderr
    payload = json.loads(out.stdout)
    assert payload["error"] is None
    [hint] = payload["hints"]
    assert list(hint)[:4] == ["line", "title", "explanation", "fix"]
    assert hint["line"] == 2 and hint["title"] == "torch.Tensor(2, 3) is not zeros"
    assert hint["fix"].startswith("x = torch.zeros(2, 3)")
    table = cli("inspect", str(script))
    assert "Hint (line 2): torch.Tensor(2, 3) is not zeros" in table.stdout


def test_inspect_json_hints_empty_and_present_after_an_error(tmp_path: Path) -> None:
    script = tmp_path / "fine.py"
    script.write_text("import torch\nx = torch.zeros(2)\n")
    payload = json.loads(cli("inspect", str(script), "--json").stdout)
    assert payload["hints"] == [] and payload["error"] is None


MATMUL = "import torch\na = torch.ones(4, 3)\nb = torch.ones(4, 5)\nc = a @ b\n"


@pytest.mark.parametrize(("content", "line"), [
    pytest.param(b"\n\n\n" + MATMUL.encode(), 7, id="leading-blank-lines"),
    pytest.param(("\r\n" + MATMUL.replace("\n", "\r\n\r\n")).encode(), 8, id="crlf"),
    pytest.param(b"\xef\xbb\xbf" + MATMUL.encode(), 4, id="bom"),
    pytest.param(b"\n\nimport torch\n\n\ndef mul(p, q):\n    return p @ q\n\n\nc = mul(torch.ones(4, 3), torch.ones(4, 5))\n", 7,
                 id="inside-a-function"),
    pytest.param(b"\n\n# %%\nimport torch\n\n# %% second cell\na = torch.ones(4, 3)\nc = a @ torch.ones(4, 5)\n", 8,
                 id="cells"),
    pytest.param(b"\n\nx = 1\ny = (2 +\nz = 3\n", 4, id="syntax-error"),
    pytest.param(b"\n\n\nif True:\n  x = 1\n    y = 2\n", 6, id="indentation-error"),
])
def test_error_line_is_the_line_of_the_file(tmp_path: Path, content: bytes, line: int) -> None:
    script = tmp_path / "shaped.py"
    script.write_bytes(content)
    out = cli("inspect", str(script), "--json")
    assert out.returncode == 1, out.stderr
    error = json.loads(out.stdout)["error"]
    assert error["line"] == line, error
    text = content.decode("utf-8-sig").splitlines()[line - 1].strip()
    assert error["code_line"] == text


@pytest.mark.parametrize(("ending", "status"), [
    ("sys.exit()", 0), ("sys.exit(0)", 0), ("raise SystemExit(None)", 0), ("sys.exit(3)", 1), ("sys.exit('stopped')", 1),
])
def test_sys_exit(tmp_path: Path, ending: str, status: int) -> None:
    script = tmp_path / "ends.py"
    script.write_text(f"import sys\nimport torch\nkept = torch.Tensor(2, 3)\n{ending}\nnever = 1\n")
    out = cli("inspect", str(script), "--json")
    assert out.returncode == status, out.stdout + out.stderr
    payload = json.loads(out.stdout)
    assert [v["name"] for v in payload["variables"]] == ["kept"]
    if status == 0:
        assert payload["error"] is None
        assert [h["line"] for h in payload["hints"]] == [3]  # the run ended normally: its hints are there
    else:
        assert payload["error"]["type"] == "SystemExit" and payload["error"]["line"] == 4
