"""Files holding pickled code: refused with the opt-in offered; with --allow-pickle, a warning says what runs."""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import numpy as np
import pytest
import torch

from tests.cli.helpers import cli


class _RunsCommand:
    """The classic malicious pickle: unpickling it calls os.system."""

    def __init__(self, command: str) -> None:
        self.command = command

    def __reduce__(self):
        return (os.system, (self.command,))


def _system_pickles(tmp_path: Path, proof: Path) -> dict[str, Path]:
    command = f"touch {proof}"
    files = {"zip": tmp_path / "model.pt", "legacy": tmp_path / "legacy.pt", "plain": tmp_path / "plain.pt"}
    torch.save({"weights": torch.zeros(2), "payload": _RunsCommand(command)}, files["zip"])
    torch.save(_RunsCommand(command), files["legacy"], _use_new_zipfile_serialization=False)
    with open(files["plain"], "wb") as handle:
        pickle.dump(_RunsCommand(command), handle, protocol=2)
    return files


@pytest.mark.parametrize("kind", ["zip", "legacy", "plain"])
def test_an_os_system_pickle_is_called_pickled_code_not_damaged(tmp_path: Path, kind: str) -> None:
    proof = tmp_path / "ran"
    path = _system_pickles(tmp_path, proof)[kind]
    out = cli(tmp_path, "inspect", str(path), "--json")
    assert out.returncode == 2
    message = json.loads(out.stdout)["error"]["message"]
    assert "damaged" not in message and "truncated" not in message
    assert "pickled" in message and "--allow-pickle" in message
    assert not proof.exists()


def test_the_zip_refusal_names_the_function_it_would_call(tmp_path: Path) -> None:
    path = _system_pickles(tmp_path, tmp_path / "ran")["zip"]
    out = cli(tmp_path, "inspect", str(path))
    assert "posix.system" in out.stderr or "os.system" in out.stderr


def test_allow_pickle_warns_on_stderr_naming_the_file_and_the_objects(tmp_path: Path) -> None:
    proof = tmp_path / "ran"
    path = _system_pickles(tmp_path, proof)["zip"]
    out = cli(tmp_path, "inspect", str(path), "--json", "--allow-pickle")
    assert proof.exists()  # the user allowed it, so the file's code did run ...
    warning = [line for line in out.stderr.splitlines() if "warning" in line.lower()]
    assert len(warning) == 1, out.stderr  # ... and was told so
    assert "model.pt" in warning[0] and "system" in warning[0] and "--allow-pickle" in warning[0]
    assert json.loads(out.stdout)["variables"]


def test_allow_pickle_warns_for_numpy_object_arrays(tmp_path: Path) -> None:
    path = tmp_path / "objects.npy"
    np.save(path, np.array([{"a": 1}, None], dtype=object), allow_pickle=True)
    out = cli(tmp_path, "inspect", str(path), "--json", "--allow-pickle")
    assert out.returncode == 0, out.stderr
    [warning] = [line for line in out.stderr.splitlines() if "warning" in line.lower()]
    assert "objects.npy" in warning and "Python objects" in warning


def test_allow_pickle_on_a_plain_file_says_nothing(tmp_path: Path) -> None:
    path = tmp_path / "plain.npy"
    np.save(path, np.arange(3))
    out = cli(tmp_path, "inspect", str(path), "--json", "--allow-pickle")
    assert out.returncode == 0 and out.stderr == ""


def test_pickle_messages_escape_control_characters_in_file_names(tmp_path: Path) -> None:
    path = tmp_path / "bad\x1b]0;title\x07.pt"
    torch.save(_RunsCommand("true"), path)
    out = cli(tmp_path, "inspect", str(path), "--allow-pickle")
    assert "\x1b" not in out.stderr and "\x07" not in out.stderr
    assert "\\x1b]0;title\\x07.pt" in out.stderr
