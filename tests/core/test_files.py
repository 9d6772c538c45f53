"""prepare_load's front door: paths and URLs, variable names, and one clear sentence for bad input."""

from __future__ import annotations

import builtins
import io
import json
import keyword
import os
import random
import zipfile
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image
from safetensors.torch import save_file

from explorer.core.files.prepare import FileLoadError, prepare_load, variable_name
from tests.agent_calls import call
from tests.core.files_helpers import assert_one_sentence, refused, run_snippet, write_npy_header

EXTENSIONS = [".npy", ".npz", ".pt", ".pth", ".safetensors", ".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".webp"]


# -- variable names -----------------------------------------------------------
@pytest.mark.parametrize(
    ("filename", "taken", "expected"),
    [
        ("2024 data-set.npy", set(), "data_set_2024"),
        ("batch.npy", set(), "batch"),
        ("My  Photo (1).PNG", set(), "my_photo_1"),
        ("3d_points.npy", set(), "points_3d"),
        ("2024.npy", set(), "data_2024"),
        ("list.npy", set(), "list_"),
        ("class.pt", set(), "class_"),
        ("np.npy", set(), "np_"),
        ("torch.pt", set(), "torch_"),
        ("数据.npy", set(), "数据"),
        ("###.npy", set(), "data"),
        ("weights.best.pt", set(), "weights_best"),
        ("batch.npy", {"batch"}, "batch_2"),
        ("batch.npy", {"batch", "batch_2"}, "batch_3"),
        ("/some/dir/x.npy", set(), "x"),
    ],
)
def test_variable_name_examples(filename: str, taken: set[str], expected: str) -> None:
    assert variable_name(filename, taken) == expected


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=30), st.sets(st.sampled_from(["a", "data", "data_2", "x", "list_", "_"])))
def test_variable_name_is_always_usable(stem: str, taken: set[str]) -> None:
    name = variable_name(stem.replace("/", "_") + ".npy", taken)
    assert name.isidentifier() and not keyword.iskeyword(name) and not keyword.issoftkeyword(name)
    assert name not in taken and not hasattr(builtins, name)
    assert name == name.lower() and len(name) <= 48


def test_derived_name_avoids_taken_through_prepare_load(tmp_path: Path) -> None:
    np.save(tmp_path / "x.npy", np.ones(2))
    assert prepare_load(str(tmp_path / "x.npy"), taken={"x"})["name"] == "x_2"


@pytest.mark.parametrize("bad", ["1abc", "class", "my var", "", "np", "a-b"])
def test_explicit_bad_name_refused(tmp_path: Path, bad: str) -> None:
    np.save(tmp_path / "x.npy", np.ones(2))
    refused(tmp_path / "x.npy", name=bad)


def test_explicit_name_used(tmp_path: Path) -> None:
    np.save(tmp_path / "x.npy", np.ones(2))
    result = prepare_load(str(tmp_path / "x.npy"), name="features", taken={"features"})
    assert result["name"] == "features" and run_snippet(result).shape == (2,)


# -- paths, URLs and file kinds ---------------------------------------------------
def test_file_url_with_escapes_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "my batch.npy"
    np.save(path, np.arange(3))
    result = prepare_load(path.as_uri())
    assert result["path"] == str(path) and result["name"] == "my_batch"
    np.testing.assert_array_equal(run_snippet(result), np.arange(3))


def test_file_url_with_localhost_and_whitespace(tmp_path: Path) -> None:
    np.save(tmp_path / "a.npy", np.arange(3))
    assert prepare_load(f"  file://localhost{tmp_path}/a.npy\n")["name"] == "a"


@pytest.mark.parametrize(
    "url",
    ["https://example.com/y.npy", "http://x/y.npy", "ftp://host/w.pt", "s3://bucket/w.pt", "file://otherhost/x.npy"],
)
def test_other_urls_refused(url: str) -> None:
    refused(url)


def test_several_dropped_paths_refused(tmp_path: Path) -> None:
    refused(f"{tmp_path}/a.npy\n{tmp_path}/b.npy")


def test_relative_and_home_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    np.save(tmp_path / "r.npy", np.ones(1))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert prepare_load("r.npy")["path"] == str(tmp_path / "r.npy")
    assert prepare_load("~/r.npy")["path"] == str(tmp_path / "r.npy")


def test_missing_directory_empty_and_device(tmp_path: Path) -> None:
    assert "no file" in str(refused(tmp_path / "absent.npy")).lower()
    assert "folder" in str(refused(tmp_path))
    (tmp_path / "empty.npy").write_bytes(b"")
    assert "empty" in str(refused(tmp_path / "empty.npy"))
    if os.path.exists("/dev/zero"):
        refused("/dev/zero")  # a device would never end: must be refused, not read
    os.mkfifo(tmp_path / "pipe.npy")
    refused(tmp_path / "pipe.npy")  # opening a pipe would block forever


def test_nul_in_path_and_empty_path() -> None:
    refused("bad\x00name.npy")
    refused("")
    refused("   ")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root can read any file")
def test_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "secret.npy"
    np.save(path, np.ones(2))
    path.chmod(0)
    try:
        assert "permission" in str(refused(path))
    finally:
        path.chmod(0o600)


@pytest.mark.parametrize("ext", EXTENSIONS)
def test_empty_file_each_extension(tmp_path: Path, ext: str) -> None:
    (tmp_path / f"e{ext}").write_bytes(b"")
    refused(tmp_path / f"e{ext}")


@pytest.mark.parametrize("ext", EXTENSIONS)
@pytest.mark.parametrize("seed", [0, 1])
def test_random_bytes_each_extension(tmp_path: Path, ext: str, seed: int) -> None:
    path = tmp_path / f"noise{ext}"
    path.write_bytes(random.Random(seed).randbytes(4096))
    assert not refused(path).needs_pickle


@pytest.mark.parametrize("ext", EXTENSIONS)
def test_random_bytes_after_a_valid_signature(tmp_path: Path, ext: str) -> None:
    signatures = {
        ".npy": b"\x93NUMPY\x01\x00", ".npz": b"PK\x03\x04", ".pt": b"\x80\x02", ".pth": b"PK\x03\x04",
        ".safetensors": (40).to_bytes(8, "little") + b"{", ".png": b"\x89PNG\r\n\x1a\n", ".jpg": b"\xff\xd8\xff",
        ".jpeg": b"\xff\xd8\xff", ".bmp": b"BM", ".gif": b"GIF89a", ".tif": b"II*\x00", ".webp": b"RIFF\0\0\0\0WEBP",
    }
    path = tmp_path / f"fake{ext}"
    path.write_bytes(signatures[ext] + random.Random(2).randbytes(300))
    refused(path)


# -- truncated and damaged files ----------------------------------------------------
def _cut(path: Path, keep: float) -> Path:
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])
    return path


def test_truncated_npy_data(tmp_path: Path) -> None:
    path = tmp_path / "t.npy"
    np.save(path, np.ones((100, 100)))
    assert "truncated" in str(refused(_cut(path, 0.5)))


def test_truncated_npy_header(tmp_path: Path) -> None:
    path = tmp_path / "t.npy"
    np.save(path, np.ones(3))
    path.write_bytes(path.read_bytes()[:30])
    refused(path)


@pytest.mark.parametrize("shape", ["(1000000000000000,)", "(-1,)", "(2, 3", "'x'", "(1e3,)", "(" * 50])
def test_npy_header_that_lies_or_is_garbage(tmp_path: Path, shape: str) -> None:
    header = f"{{'descr': '<f4', 'fortran_order': False, 'shape': {shape}, }}"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    path = tmp_path / "liar.npy"
    path.write_bytes(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode("latin1") + b"\0" * 64)
    message = str(refused(path))
    assert "truncated" in message or "damaged" in message


@pytest.mark.parametrize("make", ["npz", "pt", "legacy_pt", "safetensors", "png", "jpg"])
@pytest.mark.parametrize("keep", [0.3, 0.9])
def test_truncated_files(tmp_path: Path, make: str, keep: float) -> None:
    rng = np.random.default_rng(0)
    noise = rng.integers(0, 255, (64, 64, 3), dtype=np.uint8)
    path = tmp_path / {"legacy_pt": "t.pt", "jpg": "t.jpg"}.get(make, f"t.{make}")
    if make == "npz":
        np.savez(path, a=noise, b=noise)
    elif make in ("pt", "legacy_pt"):
        torch.save({"w": torch.from_numpy(noise)}, path, _use_new_zipfile_serialization=make == "pt")
    elif make == "safetensors":
        save_file({"w": torch.from_numpy(noise)}, str(path))
    else:
        Image.fromarray(noise).save(path)
    refused(_cut(path, keep))


def test_safetensors_header_lies(tmp_path: Path) -> None:
    header = {"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}
    raw = json.dumps(header).encode()
    path = tmp_path / "lie.safetensors"
    path.write_bytes(len(raw).to_bytes(8, "little") + raw + b"\0" * 8)  # 8 of the 16 bytes
    assert "truncated" in str(refused(path))
    header["w"]["shape"] = [5]
    raw = json.dumps(header).encode()
    path.write_bytes(len(raw).to_bytes(8, "little") + raw + b"\0" * 16)
    refused(path)
    header["w"] = {"dtype": "OBJ", "shape": [4], "data_offsets": [0, 16]}
    raw = json.dumps(header).encode()
    path.write_bytes(len(raw).to_bytes(8, "little") + raw + b"\0" * 16)
    refused(path)


def test_safetensors_deeply_nested_json(tmp_path: Path) -> None:
    raw = b"{" + b'"a":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    path = tmp_path / "deep.safetensors"
    path.write_bytes(len(raw).to_bytes(8, "little") + raw)
    refused(path)


def test_npz_without_arrays(tmp_path: Path) -> None:
    np.savez(tmp_path / "none.npz")
    assert "no arrays" in str(refused(tmp_path / "none.npz"))


def test_npz_member_running_past_the_end(tmp_path: Path) -> None:
    # The central directory claims a compressed size far beyond the file: reading would run off the end.
    path = tmp_path / "liar.npz"
    np.savez_compressed(path, a=np.ones(1000))
    data = bytearray(path.read_bytes())
    entry = data.rindex(b"PK\x01\x02")
    data[entry + 20 : entry + 24] = (10**9).to_bytes(4, "little")
    path.write_bytes(bytes(data))
    assert "past the end" in str(refused(path))


def test_npz_with_damaged_member(tmp_path: Path) -> None:
    path = tmp_path / "bad.npz"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("a.npy", b"not an array at all")
    refused(path)


def test_image_decompression_bomb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "bomb.png"
    Image.new("L", (200, 200)).save(path)
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 10_000)
    assert "decompression" in str(refused(path))


# -- wrong or unknown extensions -------------------------------------------------------
def _save(kind: str, path: Path) -> None:
    if kind == "npy":
        np.save(path, np.ones(2)) if path.suffix == ".npy" else path.write_bytes(_npy_bytes())
    elif kind == "npz":
        buf = io.BytesIO()
        np.savez(buf, a=np.ones(2))
        path.write_bytes(buf.getvalue())
    elif kind == "pt":
        buf = io.BytesIO()
        torch.save({"w": torch.ones(2)}, buf)
        path.write_bytes(buf.getvalue())
    elif kind == "safetensors":
        save_file({"w": torch.ones(2)}, str(path))
    else:
        buf = io.BytesIO()
        Image.new("RGB", (3, 3)).save(buf, format="PNG")
        path.write_bytes(buf.getvalue())


def _npy_bytes() -> bytes:
    buf = io.BytesIO()
    np.save(buf, np.ones(2))
    return buf.getvalue()


@pytest.mark.parametrize(
    ("kind", "ext", "says"),
    [
        ("png", ".npy", ".png"),
        ("npy", ".pt", ".npy"),
        ("npz", ".pt", ".npz"),
        ("pt", ".npz", ".pt"),
        ("safetensors", ".npy", ".safetensors"),
        ("npy", ".png", ".npy"),
        ("pt", ".safetensors", ".pt"),
        ("png", ".pt", "rename it to end in .png"),
    ],
)
def test_wrong_extension_names_the_content(tmp_path: Path, kind: str, ext: str, says: str) -> None:
    path = tmp_path / f"mislabelled{ext}"
    _save(kind, path)
    assert says in str(refused(path))


def test_jpeg_named_png_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "photo.png"
    Image.new("RGB", (4, 2)).save(path, format="JPEG")
    result = prepare_load(str(path))
    assert result["summary"].startswith("JPEG") and run_snippet(result).shape == (2, 4, 3)


def test_unknown_extension_says_what_it_looks_like(tmp_path: Path) -> None:
    path = tmp_path / "data.dat"
    path.write_bytes(_npy_bytes())
    assert ".npy array" in str(refused(path))
    (tmp_path / "notes.txt").write_text("hello")
    assert ".npy" in str(refused(tmp_path / "notes.txt"))  # lists what it can open


@pytest.mark.parametrize("name", ["train.py", "lesson.ipynb"])
def test_scripts_go_to_the_editor(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text("x = 1\n")
    assert "editor" in str(refused(tmp_path / name))


# -- hostile file names: the path must be a literal, never code -----------------------------
@pytest.mark.parametrize(
    "filename",
    ["a'); open('MARKER', 'w'); ('.npy", 'q"uote\\back.npy', "new\nline.npy", "空格 名字.npy", "-dash.npy", "$(x).npy"],
)
def test_hostile_file_names_are_quoted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, filename: str) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / filename
    np.save(path, np.arange(4))
    assert path.exists()
    result = prepare_load(str(path))
    assert result["name"].isidentifier()
    np.testing.assert_array_equal(run_snippet(result), np.arange(4))
    assert not (tmp_path / "MARKER").exists()


def test_message_quotes_control_characters(tmp_path: Path) -> None:
    path = tmp_path / "bad\nname.npy"
    path.write_bytes(b"junk")
    message = str(refused(path))
    assert "\\n" in message


# -- the agent request -------------------------------------------------------------
def test_agent_prepare_load_round_trip(tmp_path: Path) -> None:
    np.save(tmp_path / "batch.npy", np.ones((2, 3)))
    ns = {"batch": 1}
    reply = call(ns, "prepare_load", path=str(tmp_path / "batch.npy"))
    assert reply["result"]["name"] == "batch_2" and reply["result"]["format"] == "npy"
    bad = call(ns, "prepare_load", path=str(tmp_path / "none.npy"))["result"]
    assert bad["error"].startswith("There is no file at") and bad["needs_pickle"] is False
    assert_one_sentence(bad["error"])


def test_error_type_is_exception_with_flag() -> None:
    err = FileLoadError("line one\nline two")
    assert str(err) == "line one line two." and err.needs_pickle is False
    assert_one_sentence(str(err))


# -- files larger than memory: refused before anything is read --------------------------
@pytest.mark.parametrize("kind", ["npz", "safetensors", "legacy_pt"])
def test_eager_loads_bigger_than_memory_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    from explorer.core.files import common as files_common
    from explorer.core.files import safetensors_format as files_safetensors

    monkeypatch.setattr(files_common, "available_memory", lambda: 100)
    monkeypatch.setattr(files_safetensors, "maps_lazily", lambda: False)  # as in safetensors < 0.8
    path = tmp_path / {"npz": "a.npz", "safetensors": "a.safetensors", "legacy_pt": "a.pt"}[kind]
    if kind == "npz":
        np.savez_compressed(path, a=np.zeros(1000))
    elif kind == "safetensors":
        save_file({"a": torch.zeros(1000)}, str(path))
    else:
        torch.save({"a": torch.zeros(1000)}, path, _use_new_zipfile_serialization=False)
    assert "memory" in str(refused(path))


def test_mapped_loads_ignore_memory_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from explorer.core.files import common as files_common

    monkeypatch.setattr(files_common, "available_memory", lambda: 100)
    write_npy_header(tmp_path / "big.npy", (20_000_000,))
    torch.save({"a": torch.zeros(1000)}, tmp_path / "zip.pt")
    assert "mmap_mode='r'" in prepare_load(str(tmp_path / "big.npy"))["code"]
    assert "mmap=True" in prepare_load(str(tmp_path / "zip.pt"))["code"]
    from explorer.core.files.safetensors_format import maps_lazily

    if maps_lazily():
        save_file({"a": torch.zeros(1000)}, str(tmp_path / "a.safetensors"))
        assert "maps them" in prepare_load(str(tmp_path / "a.safetensors"))["hint"]
