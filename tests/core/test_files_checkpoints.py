"""Valid checkpoints load, once, and a refusal names what the file needs (issue 20, items 4, 5 and 6).

The check reads the pickle and never calls ``torch.load``: the console's line is the one
load. A nested tensor and a zip whose records are compressed are valid files and load
(compressed records cannot be memory-mapped: torch would read compressed bytes as the
tensor's data). A refusal lists every class the pickle uses beyond tensors, sorted, the
same on every run, and always the libraries they come from.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path
from typing import Any

import pytest
import torch

import explorer
from explorer.core.files import common as files_common
from explorer.core.files.prepare import prepare_load
from tests.core import pickle_bytes as pb
from tests.core.files_helpers import refused, run_snippet

ROOT = Path(explorer.__file__).resolve().parent.parent


def _nested() -> torch.Tensor:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the strided nested layout is a prototype and says so
        return torch.nested.nested_tensor([torch.arange(2.0), torch.arange(3.0)])


def _rezip(source: Path, target: Path, compress: Any = lambda name: True) -> Path:
    """The same records, deflated where *compress(name)* says (as `zip -r` or a file manager would)."""
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(target, "w") as dst:
        for info in src.infolist():
            method = zipfile.ZIP_DEFLATED if compress(info.filename) else zipfile.ZIP_STORED
            dst.writestr(info.filename, src.read(info.filename), compress_type=method)
    return target


# -- item 4: the check loads nothing -----------------------------------------------------------
@pytest.mark.parametrize("legacy", [False, True])
def test_the_check_never_calls_torch_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, legacy: bool) -> None:
    path = tmp_path / "w.pt"
    torch.save({"w": torch.ones(3), "s": torch.eye(2).to_sparse()}, path, _use_new_zipfile_serialization=not legacy)
    calls: list[Any] = []
    real = torch.load
    monkeypatch.setattr(torch, "load", lambda *a, **k: calls.append(a) or real(*a, **k))
    result = prepare_load(str(path))
    assert calls == []
    assert torch.equal(run_snippet(result)["w"], torch.ones(3))
    assert len(calls) == 1  # the console's line is the one load


# -- item 5: valid files load -------------------------------------------------------------------
def _kinds() -> dict[str, Any]:
    """What torch.save writes for tensors: each goes through a different rebuild function or storage type."""
    model = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.BatchNorm2d(2), torch.nn.Linear(2, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    model[2](torch.randn(3, 2)).sum().backward()
    optimizer.step()
    tagged = torch.ones(2)
    tagged.note = "kept"  # a tensor with attributes: _rebuild_from_type_v2
    return {
        "module": model.state_dict(), "optimizer": optimizer.state_dict(),
        "parameter": torch.nn.Parameter(torch.ones(2), requires_grad=False), "tagged": tagged,
        "quantized": torch.quantize_per_tensor(torch.randn(4), 0.1, 0, torch.qint8),
        "per-channel": torch.quantize_per_channel(torch.randn(2, 3), torch.tensor([0.1, 0.2]), torch.tensor([0, 1]),
                                                  0, torch.quint8),
        "uint16": torch.ones(4, dtype=torch.uint16), "float8": torch.ones(2, dtype=torch.float8_e4m3fn),
        "conj": torch.ones(2, dtype=torch.complex64).conj(), "csr": torch.eye(3).to_sparse_csr(),
        "csc": torch.eye(3).to_sparse_csc(), "bsr": torch.eye(4).to_sparse_bsr((2, 2)),
        "view": torch.arange(10.0)[2:7:2], "keys": {0: torch.ones(1), 1.5: 2, (1, 2): 3, None: 4, b"k": 5},
    }


def _tensors(value: Any) -> list[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else []
    return [t for item in items for t in _tensors(item)]


def _plain(t: torch.Tensor) -> torch.Tensor:
    return t.dequantize() if t.is_quantized else t.to_dense().resolve_conj().float()


@pytest.mark.parametrize("kind", list(_kinds()))
def test_what_torch_save_writes_loads_unchanged(tmp_path: Path, kind: str) -> None:
    value = _kinds()[kind]
    torch.save(value, tmp_path / "k.pt")
    loaded = run_snippet(prepare_load(str(tmp_path / "k.pt")))
    before, after = _tensors(value), _tensors(loaded)
    assert len(before) == len(after) > 0
    for a, b in zip(before, after):
        assert (a.dtype, a.shape, a.layout) == (b.dtype, b.shape, b.layout)
        assert torch.equal(_plain(a), _plain(b))


def test_legacy_file_torch_cannot_read_is_refused_before_the_console(tmp_path: Path) -> None:
    """torch.save writes uint16 in the legacy format, but torch.load cannot read it back (no storage class)."""
    torch.save({"w": torch.ones(2, dtype=torch.uint16)}, tmp_path / "old.pt", _use_new_zipfile_serialization=False)
    with pytest.raises(AttributeError):
        torch.load(tmp_path / "old.pt", weights_only=True)
    assert str(refused(tmp_path / "old.pt")) == "'old.pt' could not be read as a PyTorch checkpoint."


def test_nested_tensor_loads(tmp_path: Path) -> None:
    nested = _nested()
    torch.save(nested, tmp_path / "nested.pt")
    result = prepare_load(str(tmp_path / "nested.pt"))
    assert result["summary"] == "nested float32 tensor of 2 tensors, 20 B"
    loaded = run_snippet(result)
    assert loaded.is_nested and [t.tolist() for t in loaded.unbind()] == [[0.0, 1.0], [0.0, 1.0, 2.0]]
    torch.save({"batch": nested, "w": torch.ones(2)}, tmp_path / "mixed.pt")
    assert prepare_load(str(tmp_path / "mixed.pt"))["summary"] == "state_dict with 2 tensors, 7 parameters, 28 B"


def test_nested_tensor_reaching_past_its_buffer_is_damaged(tmp_path: Path) -> None:
    """Its members' offsets are data, not pickle: read and checked, or torch.load fails in the console."""
    torch.save(_nested(), tmp_path / "nested.pt")
    data = bytearray((tmp_path / "nested.pt").read_bytes())
    start = torch._C.PyTorchFileReader(str(tmp_path / "nested.pt")).get_record_offset("data/3")  # the offsets
    data[start + 8:start + 16] = (10**6).to_bytes(8, "little")  # the second member starts far past the buffer
    (tmp_path / "nested.pt").write_bytes(bytes(data))
    assert "damaged" in str(refused(tmp_path / "nested.pt"))


@pytest.mark.parametrize("which", ["every record", "the tensors' records", "only data.pkl"])
def test_compressed_zip_loads_the_right_values(tmp_path: Path, which: str) -> None:
    original = {"w": torch.randn(100, 10), "b": torch.arange(7)}
    torch.save(original, tmp_path / "plain.pt")
    compress = {"every record": lambda n: True, "the tensors' records": lambda n: "/data/" in n,
                "only data.pkl": lambda n: n.endswith("data.pkl")}[which]
    path = _rezip(tmp_path / "plain.pt", tmp_path / "zipped.pt", compress)
    result = prepare_load(str(path))
    mapped = which == "only data.pkl"
    assert ("mmap=True" in result["code"]) is mapped  # mapping a deflated record would read compressed bytes
    assert ("memory-mapped" in (result["hint"] or "")) is mapped
    loaded = run_snippet(result)
    assert torch.equal(loaded["w"], original["w"]) and torch.equal(loaded["b"], original["b"])


def test_compressed_zip_must_fit_in_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    torch.save({"w": torch.zeros(1000)}, tmp_path / "plain.pt")
    path = _rezip(tmp_path / "plain.pt", tmp_path / "zipped.pt")
    monkeypatch.setattr(files_common, "available_memory", lambda: 1000)
    message = str(refused(path))
    assert "memory" in message and "uncompressed" in message


def test_damaged_compressed_record_is_refused(tmp_path: Path) -> None:
    torch.save({"w": torch.randn(50)}, tmp_path / "plain.pt")
    path = _rezip(tmp_path / "plain.pt", tmp_path / "zipped.pt")
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as zf:
        info = next(i for i in zf.infolist() if i.filename.endswith("/data/0"))
    data[info.header_offset + 30 + len(info.filename) + 5] ^= 0xFF  # inside the deflated bytes
    path.write_bytes(bytes(data))
    assert "damaged" in str(refused(path))


# -- item 6: the refusal names every class, sorted, the same each time --------------------------
def _objects(*names: str) -> bytes:
    """A dict of objects of the named classes (module.Class), each made by NEWOBJ."""
    items = {}
    for dotted in names:
        module, _, cls = dotted.rpartition(".")
        items[cls] = pb.glob(module, cls) + pb.EMPTY_TUPLE + pb.NEWOBJ
    return pb.state_dict(items)


def test_a_few_classes_are_all_named_in_order(tmp_path: Path) -> None:
    names = ["torch.nn.modules.linear.Linear", "mylib.layers.Head", "__main__.Net", "mylib.layers.Conv",
             "collections.deque"]
    error = refused(pb.write_zip(tmp_path / "model.pt", _objects(*names)))
    assert error.needs_pickle
    assert str(error) == ("'model.pt' holds pickled Python objects (__main__.Net, collections.deque, "
                          "mylib.layers.Conv, mylib.layers.Head, torch.nn.modules.linear.Linear), not just tensors, "
                          "so loading it would run code from the file; load it only if you trust where it came from.")


def test_many_classes_name_every_library(tmp_path: Path) -> None:
    """A YOLO-like model: 30 torch classes and one from the library that must be installed."""
    names = [f"torch.nn.modules.layer{i:02d}.Layer{i:02d}" for i in range(30)] + ["ultralytics.nn.tasks.DetectionModel"]
    message = str(refused(pb.write_zip(tmp_path / "yolo.pt", _objects(*names))))
    assert ("(31 classes and functions from ultralytics, torch, among them ultralytics.nn.tasks.DetectionModel, "
            "torch.nn.modules.layer00.Layer00)") in message


def test_legacy_checkpoints_name_their_classes_too(tmp_path: Path) -> None:
    main = _objects("mylib.Model")
    path = pb.write_legacy(tmp_path / "old.pt", main, [], [])
    assert "(mylib.Model)" in str(refused(path))


def test_the_refusal_is_the_same_under_every_hash_seed(tmp_path: Path) -> None:
    """Set order changes with PYTHONHASHSEED; the sentence must not."""
    names = [f"lib{i}.mod.Class{i}" for i in range(6)] + ["torch.nn.modules.linear.Linear"]
    path = pb.write_zip(tmp_path / "model.pt", _objects(*names))
    child = ("import sys\nfrom explorer.core.files.prepare import FileLoadError, prepare_load\n"
             "try:\n    prepare_load(sys.argv[1])\nexcept FileLoadError as exc:\n    print(exc)\n")
    said = set()
    for seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED=seed)
        done = subprocess.run([sys.executable, "-c", child, str(path)], capture_output=True, text=True, env=env,
                              cwd=ROOT, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        said.add(done.stdout.strip())
    assert len(said) == 1, said
    message = said.pop()
    assert all(name in message for name in names), message


def test_a_real_whole_model_names_its_classes(tmp_path: Path) -> None:
    model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
    buf = io.BytesIO()
    torch.save(model, buf)
    (tmp_path / "model.pt").write_bytes(buf.getvalue())
    message = str(refused(tmp_path / "model.pt"))
    for name in ("torch.nn.modules.activation.ReLU", "torch.nn.modules.container.Sequential",
                 "torch.nn.modules.linear.Linear"):
        assert name in message


@pytest.mark.parametrize(("size", "stride"), [((2**40, 2**40, 0), (0, 0, 1)), ((2**62, 4), (0, 0))])
def test_sizes_torch_cannot_count_are_damaged(tmp_path: Path, size: tuple[int, ...], stride: tuple[int, ...]) -> None:
    """torch multiplies the sizes in 64 bits and refuses an overflow, even when a later size is 0."""
    path = pb.write_zip(tmp_path / "huge.pt", pb.state_dict({"w": pb.tensor("0", 1, size, stride)}), {"0": b"\0" * 4})
    assert "damaged" in str(refused(path))


def test_a_path_that_is_not_utf8_loads_without_mapping(tmp_path: Path) -> None:
    """Linux allows any bytes in a name; torch.load(mmap=True) needs the path as UTF-8, a plain load does not."""
    path = os.path.join(os.fsencode(tmp_path), b"caf\xe9.pt")  # Latin-1 "café", as an old archive may name it
    try:
        torch.save({"w": torch.arange(3.0)}, os.fsdecode(path))
    except OSError:
        pytest.skip("this file system refuses names that are not UTF-8")
    result = prepare_load(os.fsdecode(path))
    assert "mmap" not in result["code"]
    assert torch.equal(run_snippet(result)["w"], torch.arange(3.0))
