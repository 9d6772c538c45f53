"""Nothing from a file runs code unless allow_pickle: hostile pickles are refused with needs_pickle."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from explorer.core.files.prepare import FileLoadError, prepare_load
from tests.core.files_helpers import Evil, refused, run_snippet


class Net(torch.nn.Module):
    """A whole model: torch.save(model) pickles its class, so loading needs pickle."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = torch.nn.Linear(2, 2)


def _pt_zip(path: Path, marker: Path) -> None:
    torch.save({"weights": torch.ones(2), "payload": Evil(str(marker))}, path)


def _pt_legacy(path: Path, marker: Path) -> None:
    torch.save({"payload": Evil(str(marker))}, path, _use_new_zipfile_serialization=False)


def _npy_object(path: Path, marker: Path) -> None:
    np.save(path, np.array([Evil(str(marker)), 1], dtype=object), allow_pickle=True)


def _npz_object(path: Path, marker: Path) -> None:
    np.savez(path, fine=np.ones(2), bad=np.array([Evil(str(marker))], dtype=object))


def _raw_pickle_as_pt(path: Path, marker: Path) -> None:
    path.write_bytes(pickle.dumps(Evil(str(marker)), protocol=2))


HOSTILE: dict[str, tuple[str, Callable[[Path, Path], None]]] = {
    "pt-zip": ("evil.pt", _pt_zip),
    "pt-legacy": ("evil.pth", _pt_legacy),
    "npy-object": ("evil.npy", _npy_object),
    "npz-object": ("evil.npz", _npz_object),
}


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_hostile_pickle_refused_and_never_run(tmp_path: Path, kind: str) -> None:
    filename, make = HOSTILE[kind]
    marker = tmp_path / "marker"
    path = tmp_path / filename
    make(path, marker)
    assert not marker.exists()  # saving must not have triggered the payload
    error = refused(path)
    assert error.needs_pickle
    assert "code" in str(error)
    assert not marker.exists()


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_allow_pickle_code_really_runs_the_payload(tmp_path: Path, kind: str) -> None:
    # Proves the files above are truly hostile: the explicit opt-in path executes them.
    filename, make = HOSTILE[kind]
    marker = tmp_path / "marker"
    path = tmp_path / filename
    make(path, marker)
    result = prepare_load(str(path), allow_pickle=True)
    assert not marker.exists()  # preparing never runs it, even when allowed
    assert "weights_only=False" in result["code"] or "allow_pickle=True" in result["code"]
    run_snippet(result)
    assert marker.exists()


def test_raw_pickle_named_pt_is_refused(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    path = tmp_path / "raw.pt"
    _raw_pickle_as_pt(path, marker)
    with pytest.raises(FileLoadError) as info:
        prepare_load(str(path))
    assert not marker.exists()
    assert "\n" not in str(info.value)


def test_whole_model_needs_pickle_and_names_the_class(tmp_path: Path) -> None:
    path = tmp_path / "model.pt"
    torch.save(Net(), path)
    error = refused(path)
    assert error.needs_pickle and "Net" in str(error)
    result = prepare_load(str(path), allow_pickle=True)
    assert "weights_only=False" in result["code"] and result["hint"]
    model = run_snippet(result)
    assert isinstance(model, torch.nn.Module) and model.fc.weight.shape == (2, 2)


def test_allow_pickle_keeps_safe_code_for_safe_files(tmp_path: Path) -> None:
    path = tmp_path / "plain.pt"
    torch.save({"w": torch.ones(2)}, path)
    assert "weights_only=True" in prepare_load(str(path), allow_pickle=True)["code"]
    np.save(tmp_path / "plain.npy", np.ones(2))
    assert "allow_pickle=True" not in prepare_load(str(tmp_path / "plain.npy"), allow_pickle=True)["code"]


@pytest.mark.parametrize("value", [{"a": 1, "b": [1.5, "text", None]}, (torch.ones(1), 3), {"t": torch.Size([2, 3])}])
def test_weights_only_allows_plain_python_values(tmp_path: Path, value: Any) -> None:
    path = tmp_path / "plain.pt"
    torch.save(value, path)
    loaded = run_snippet(prepare_load(str(path)))
    assert type(loaded) is type(value)


def test_code_never_allows_pickle_by_default(tmp_path: Path) -> None:
    np.save(tmp_path / "a.npy", np.ones(2))
    torch.save(torch.ones(1), tmp_path / "b.pt")
    for filename in ("a.npy", "b.pt"):
        code = prepare_load(str(tmp_path / filename))["code"]
        assert "allow_pickle=True" not in code and "weights_only=False" not in code


@pytest.mark.parametrize(("body", "needs_pickle"), [
    (b"cposix\nsystem\nX\x02\x00\x00\x00ls\x85R", True),  # a real call: code
    (b"\x00", False),  # a byte that is no pickle opcode at all: damage
    (b"\x95\x01\x00\x00\x00\x00\x00\x00\x00N", True),  # FRAME (protocol 4): weights_only cannot read it
])
def test_a_real_opcode_refused_is_code_and_a_garbage_byte_is_damage(tmp_path: Path, body: bytes,
                                                                   needs_pickle: bool) -> None:
    """The pickle's opcodes are read, not run: a genuine call needs pickle, a stray byte is damage."""
    from tests.core import pickle_bytes as pb

    error = refused(pb.write_zip(tmp_path / "odd.pt", b"\x80\x02" + body + b"."))
    assert error.needs_pickle is needs_pickle
    assert ("posix.system" in str(error)) is body.startswith(b"cposix"), str(error)
    assert ("damaged" in str(error)) is not needs_pickle
