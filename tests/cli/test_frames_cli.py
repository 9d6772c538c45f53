"""``inspect --json``: an error inside functions lists each call of the traceback with its locals (``error.frames``)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.helpers import cli

SCRIPT = "\r\n".join([
    "",
    "",
    "import numpy as np",
    "",
    "def h(c):",
    "    d = c * 2",
    "    return d @ np.ones((4, 2))",
    "",
    "def g(b):",
    "    part = b[:2]",
    "    return h(part)",
    "",
    "def f(a):",
    "    return g(a.T)",
    "",
    "x = np.arange(12.0).reshape(3, 4)",
    "f(x)",
    "",
])


def test_error_frames_name_file_function_line_and_locals(tmp_path: Path) -> None:
    script = tmp_path / "deep.py"
    script.write_bytes(b"\xef\xbb\xbf" + SCRIPT.encode())  # a BOM, CRLF and blank lines: lines still count in the file
    done = cli(tmp_path, "inspect", str(script), "--json")
    assert done.returncode == 1, done.stderr
    error = json.loads(done.stdout)["error"]
    assert error["line"] == 7
    frames = [(f["file"], f["function"], f["line"], [v["name"] for v in f["variables"]]) for f in error["frames"]]
    assert frames == [(str(script), "<module>", 17, ["x"]), (str(script), "f", 14, ["a"]),
                      (str(script), "g", 11, ["b", "part"]), (str(script), "h", 7, ["c", "d"])]
    part = error["frames"][2]["variables"][1]
    assert part["shape"] == [2, 3] and part["overlaps"] == ["b"]  # exact overlaps, within the frame
    table = cli(tmp_path, "inspect", str(script))
    assert "frames: top level line 17 (x) -> f() line 14 (a) -> g() line 11 (b, part) -> h() line 7 (c, d)" in table.stdout


def test_an_error_at_the_top_level_has_one_frame(tmp_path: Path) -> None:
    script = tmp_path / "flat.py"
    script.write_text("a = [1]\nb = a[3]\n")
    error = json.loads(cli(tmp_path, "inspect", str(script), "--json").stdout)["error"]
    assert [(f["function"], f["line"]) for f in error["frames"]] == [("<module>", 2)]
    assert [v["name"] for v in error["frames"][0]["variables"]] == ["a"]


def test_every_error_object_has_frames_even_the_ones_the_cli_writes(tmp_path: Path) -> None:
    missing = json.loads(cli(tmp_path, "inspect", str(tmp_path / "none.npy"), "--json").stdout)["error"]
    assert missing["frames"] == []
    script = tmp_path / "loop.py"
    script.write_text("while True:\n    pass\n")
    timed_out = json.loads(cli(tmp_path, "inspect", str(script), "--json", "--timeout", "8").stdout)["error"]
    assert timed_out["type"] == "Timeout" and timed_out["frames"] == []
