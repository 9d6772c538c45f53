"""Real files the loader refuses, for the tests of its sentences in English and Chinese (no tests here).

Each maker writes one bad file (or sets up one failure) and returns what to call and
the values (file names, sizes, keys) the sentence must carry; it may patch through
the ``MonkeyPatch`` it is given. The formats' own cases are in :mod:`tests.core.i18n_cases_formats`.
"""

from __future__ import annotations

import errno
import io
import os
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from PIL import Image
from safetensors.torch import save_file

from explorer.core.files import common, prepare, safetensors_format
from explorer.core.files.prepare import prepare_load

Case = tuple[Callable[[], Any], tuple[str, ...]]  # (what to call, values its sentence must carry)
Maker = Callable[[Path, pytest.MonkeyPatch], Case]
REFUSED: dict[str, Maker] = {}
LOADED: dict[str, Maker] = {}


def refusal(fn: Maker) -> Maker:
    REFUSED[fn.__name__.strip("_")] = fn
    return fn


def loaded(fn: Maker) -> Maker:
    LOADED[fn.__name__.strip("_")] = fn
    return fn


def file(tmp: Path, name: str, data: bytes) -> Path:
    path = tmp / name
    path.write_bytes(data)
    return path


def load(path: Path | str, **kwargs: Any) -> Callable[[], Any]:
    return lambda: prepare_load(str(path), **kwargs)


def npy_bytes(array: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, array, allow_pickle=True)
    return buf.getvalue()


def _raising(exc: BaseException) -> Callable[[str], Callable[..., Any]]:
    def planner(fmt: str) -> Callable[..., Any]:
        def plan(*args: Any) -> Any:
            raise exc
        return plan
    return planner


# -- where the file is and what it is -------------------------------------------------
@refusal
def _no_file(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(""), ()


@refusal
def _several_paths(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load("first.npy\nsecond.npy"), ()


@refusal
def _other_computer(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load("file://lab-server/data/x.npy"), ("'file://lab-server/data/x.npy'", "lab-server")


@refusal
def _web_address(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load("https://example.com/x.npy"), ("'https://example.com/x.npy'", "https")


@refusal
def _missing(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(tmp / "missing.npy"), (f"'{tmp / 'missing.npy'}'",)


@refusal
def _stat_refused(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    path, real = tmp / "locked.npy", os.stat

    def stat(p: Any, *args: Any, **kwargs: Any) -> Any:
        if str(p) == str(path):
            raise PermissionError(errno.EACCES, "Permission denied")
        return real(p, *args, **kwargs)

    mp.setattr(prepare.os, "stat", stat)
    return load(path), (f"'{path}'",)


@refusal
def _nul_in_name(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(str(tmp / "a\x00b.npy")), ("ValueError",)


@refusal
def _folder(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    (tmp / "folder").mkdir()
    return load(tmp / "folder"), (f"'{tmp / 'folder'}'",)


@refusal
def _pipe(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    os.mkfifo(tmp / "pipe.npy")
    return load(tmp / "pipe.npy"), (f"'{tmp / 'pipe.npy'}'",)


@refusal
def _empty(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "empty.npy", b"")), ("'empty.npy'", "0")


def _open_raising(mp: pytest.MonkeyPatch, exc: OSError) -> None:
    def fake_open(*args: Any, **kwargs: Any) -> Any:
        raise exc
    mp.setattr(prepare, "open", fake_open, raising=False)  # only the loader's own open()


@refusal
def _read_refused(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    path = file(tmp, "secret.npy", b"x")
    _open_raising(mp, PermissionError(errno.EACCES, "Permission denied"))
    return load(path), (f"'{path}'",)


@refusal
def _read_failed(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    path = file(tmp, "disk.npy", b"x")
    _open_raising(mp, OSError(errno.EIO, "Input/output error"))
    return load(path), (f"'{path}'", "Input/output error")


@refusal
def _script(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "train.py", b"x = 1\n")), ("'train.py'",)


@refusal
def _unknown_extension_known_content(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "data.txt", npy_bytes(np.ones(2)))), ("'.txt'",)


@refusal
def _unknown_extension(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "notes.txt", b"hello")), ("'.txt'",)


@refusal
def _broken_zip(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "cut.npz", b"PK\x03\x04" + b"\x07" * 40)), ("'cut.npz'",)


@refusal
def _wrong_signature(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "noise.npy", b"\x01\x02\x03" * 20)), ("'noise.npy'",)


@refusal
def _zip_of_something_else(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    with zipfile.ZipFile(tmp / "notes.safetensors", "w") as zf:
        zf.writestr("readme.txt", "hello")
    return load(tmp / "notes.safetensors"), ("'notes.safetensors'",)


@refusal
def _image_named_npy(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    Image.new("RGB", (3, 3)).save(tmp / "photo.npy", format="PNG")
    return load(tmp / "photo.npy"), ("'photo.npy'", ".png")


@refusal
def _out_of_memory(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    mp.setattr(prepare, "_planner", _raising(MemoryError()))
    return load(file(tmp, "huge.npy", npy_bytes(np.ones(2)))), ("'huge.npy'",)


@refusal
def _too_deep(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    mp.setattr(prepare, "_planner", _raising(RecursionError()))
    return load(file(tmp, "deep.npy", npy_bytes(np.ones(2)))), ("'deep.npy'",)


@refusal
def _unexpected(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    mp.setattr(prepare, "_planner", _raising(KeyError("x")))
    return load(file(tmp, "odd.npy", npy_bytes(np.ones(2)))), ("'odd.npy'", "KeyError")


@refusal
def _bad_name(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "a.npy", npy_bytes(np.ones(2))), name="1st"), ("'1st'",)


@refusal
def _reserved_name(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "a.npy", npy_bytes(np.ones(2))), name="np"), ("'np'",)


# -- memory --------------------------------------------------------------------------
@refusal
def _npz_too_big(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    mp.setattr(common, "available_memory", lambda: 100)
    np.savez_compressed(tmp / "big.npz", a=np.zeros(1000))
    return load(tmp / "big.npz"), ("'big.npz'", "7.8 KiB", "100 B", "np.load(path)['key']")


@refusal
def _safetensors_too_big(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    mp.setattr(common, "available_memory", lambda: 100)
    mp.setattr(safetensors_format, "maps_lazily", lambda: False)  # as in safetensors < 0.8
    save_file({"a": torch.zeros(1000)}, str(tmp / "big.safetensors"))
    return load(tmp / "big.safetensors"), ("'big.safetensors'", "safe_open(path, framework='pt').get_slice(key)")


@refusal
def _legacy_pt_too_big(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    mp.setattr(common, "available_memory", lambda: 100)
    torch.save({"a": torch.zeros(1000)}, tmp / "old.pt", _use_new_zipfile_serialization=False)
    return load(tmp / "old.pt"), ("'old.pt'", "torch.save")


# -- images --------------------------------------------------------------------------
@refusal
def _bomb(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    Image.new("L", (200, 200)).save(tmp / "bomb.png")
    mp.setattr(Image, "MAX_IMAGE_PIXELS", 10_000)
    return load(tmp / "bomb.png"), ("'bomb.png'", "10,000")


@refusal
def _not_for_pillow(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "fake.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 40)), ("'fake.png'",)


@refusal
def _truncated_image(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    buf = io.BytesIO()
    Image.new("RGB", (8, 8)).save(buf, format="PNG")
    return load(file(tmp, "cut.png", buf.getvalue()[:-20])), ("'cut.png'",)
