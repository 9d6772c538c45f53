"""PyTorch checkpoints the loader refuses or loads, for the tests of its sentences (no tests here).

They reach the sentences of the pickle scan (:mod:`explorer.core.files.torch_pickle`) and of the
archive checks (:mod:`explorer.core.files.torch_archive`, :mod:`explorer.core.files.torch_zip`).
"""

from __future__ import annotations

import pickle
import warnings
import zipfile
from pathlib import Path

import pytest
import torch

from explorer.core.files import common
from tests.core import pickle_bytes as pb
from tests.core.i18n_cases_files import Case, file, load, loaded, refusal


def _objects(*names: str) -> bytes:
    items = {}
    for dotted in names:
        module, _, cls = dotted.rpartition(".")
        items[cls] = pb.glob(module, cls) + pb.EMPTY_TUPLE + pb.NEWOBJ
    return pb.state_dict(items)


def _rezip(source: Path, target: Path) -> Path:
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info.filename, src.read(info.filename))
    return target


@refusal
def _pt_newer_protocol(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    torch.save({"w": torch.ones(2)}, tmp / "p4.pt", pickle_protocol=4)
    return load(tmp / "p4.pt"), ("'p4.pt'", "torch.load(weights_only=True)")


@refusal
def _pt_many_classes(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    names = [f"torch.nn.modules.layer{i:02d}.Layer{i:02d}" for i in range(30)] + ["ultralytics.nn.tasks.DetectionModel"]
    path = pb.write_zip(tmp / "yolo.pt", _objects(*names))
    return load(path), ("'yolo.pt'", "31", "ultralytics, torch", "ultralytics.nn.tasks.DetectionModel")


@refusal
def _pt_odd_key(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    """A dict keyed by a list: no class is named, but it is no plain container either."""
    data = pb.PROTO2 + pb.EMPTY_DICT + pb.EMPTY_LIST + pb.NONE + pb.SETITEM + pb.STOP
    return load(pb.write_zip(tmp / "keys.pt", data)), ("'keys.pt'",)


@refusal
def _pt_missing_data(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    path = pb.write_zip(tmp / "short.pt", pb.state_dict({"w": pb.tensor("0", 1000, (1000,), (1,))}), {"0": b"\0" * 16})
    return load(path), ("'short.pt'",)


@refusal
def _pt_key_list(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    path = pb.write_legacy(tmp / "old.pt", pb.state_dict({"w": pb.tensor("k", 4, (4,), (1,), legacy=True)}), [], [])
    return load(path), ("'old.pt'",)


@refusal
def _pt_encrypted(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    torch.save({"w": torch.ones(2)}, tmp / "locked.pt")
    raw = bytearray((tmp / "locked.pt").read_bytes())
    at = raw.index(b"PK\x01\x02")  # the first record's central directory entry: set its "encrypted" flag
    raw[at + 8] |= 0x01
    (tmp / "locked.pt").write_bytes(bytes(raw))
    return load(tmp / "locked.pt"), ("'locked.pt'",)


@refusal
def _pt_other_pickle(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "one.pt", pickle.dumps([1, 2], protocol=2))), ("'one.pt'",)


@refusal
def _pt_cut_legacy(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    torch.save({"w": torch.ones(100)}, tmp / "cut.pt", _use_new_zipfile_serialization=False)
    (tmp / "cut.pt").write_bytes((tmp / "cut.pt").read_bytes()[:-40])
    return load(tmp / "cut.pt"), ("'cut.pt'",)


@refusal
def _pt_compressed_too_big(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    torch.save({"w": torch.zeros(1000)}, tmp / "plain.pt")
    path = _rezip(tmp / "plain.pt", tmp / "zipped.pt")
    mp.setattr(common, "available_memory", lambda: 100)
    return load(path), ("'zipped.pt'", "torch.save", "100 B")


@refusal
def _pt_legacy_untyped(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    torch.save({"w": torch.ones(2, dtype=torch.uint16)}, tmp / "u16.pt", _use_new_zipfile_serialization=False)
    return load(tmp / "u16.pt"), ("'u16.pt'",)


@loaded
def _pt_nested(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.save(torch.nested.nested_tensor([torch.ones(2), torch.ones(3)]), tmp / "nested.pt")
    return load(tmp / "nested.pt"), ("float32", "2", "20 B")
