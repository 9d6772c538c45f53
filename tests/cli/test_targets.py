"""Hostile targets and wrong arguments: one sentence on stderr, exit 2, never a hang or a traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.cli.helpers import cli, leftovers


def _one_sentence(out) -> str:
    assert out.returncode == 2, out.stdout + out.stderr
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    return lines[0]


def test_a_fifo_script_is_refused_instead_of_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "x.py"
    os.mkfifo(fifo)
    line = _one_sentence(cli(tmp_path, "inspect", str(fifo), "--json", timeout=60))
    assert "not a regular file" in line
    assert leftovers(tmp_path) == []


def test_a_script_linked_to_dev_zero_is_refused_instead_of_read_forever(tmp_path: Path) -> None:
    link = tmp_path / "x.py"
    link.symlink_to("/dev/zero")
    line = _one_sentence(cli(tmp_path, "inspect", str(link), timeout=60))
    assert "not a regular file" in line


def test_a_huge_script_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.py"
    with open(big, "wb") as handle:
        handle.truncate(200 * 1024 * 1024)  # sparse: no disk used
    line = _one_sentence(cli(tmp_path, "render", str(big), "--out", str(tmp_path / "o.png"), timeout=60))
    assert "too large" in line


def test_an_empty_script_still_runs(tmp_path: Path) -> None:
    empty = tmp_path / "empty.py"
    empty.write_text("")
    out = cli(tmp_path, "inspect", str(empty), "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["variables"] == []


@pytest.mark.parametrize(("args", "command"), [
    (("inspect",), "inspect"), (("render", "x.py"), "render"), (("inspect", "x.py", "--bogus"), "inspect"),
])
def test_the_usage_error_names_the_command(tmp_path: Path, args: tuple[str, ...], command: str) -> None:
    line = _one_sentence(cli(tmp_path, *args))
    assert f"see tensor-explorer {command} --help" in line
    assert "tensor-explorer tensor-explorer" not in line


def test_file_names_in_messages_have_control_characters_escaped(tmp_path: Path) -> None:
    name = "evil\x1b[31mred\rx.py"
    out = cli(tmp_path, "inspect", str(tmp_path / name))
    line = _one_sentence(out)
    assert "\x1b" not in out.stderr and "\r" not in out.stderr
    assert "\\x1b[31mred\\rx.py" in line


def test_the_table_escapes_control_characters_the_script_printed_into_values(tmp_path: Path) -> None:
    script = tmp_path / "shouts.py"
    script.write_text("class Loud:\n    def __repr__(self):\n        return '\\x1b[2Jgone'\n\n"
                      "loud = Loud()\nraise ValueError('\\x1b]0;owned\\x07')\n")
    out = cli(tmp_path, "inspect", str(script))
    assert out.returncode == 1, out.stderr
    assert "\x1b" not in out.stdout and "\x07" not in out.stdout
    assert "\\x1b[2Jgone" in out.stdout and "\\x1b]0;owned\\x07" in out.stdout


@pytest.mark.parametrize("value", ["0", "-5", "nan", "inf", "soon"])
def test_timeout_must_be_a_positive_number_of_seconds(tmp_path: Path, value: str) -> None:
    line = _one_sentence(cli(tmp_path, "inspect", "x.py", "--timeout", value))
    assert "--timeout" in line
