"""Bad .npy, .npz, .safetensors and .pt files, and files under the wrong name, for the tests of the loader's sentences (no tests here).

Refusals register with :func:`~tests.core.i18n_cases_files.refusal`; the files that load
are in :mod:`tests.core.i18n_cases_loaded`.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from explorer.core.files.safetensors_format import read_header
from tests.core.i18n_cases_files import Case, file, load, npy_bytes, refusal


class Payload:
    """A pickled object of a class the weights-only loader does not know."""


def _npy_header(shape_text: str, pad: int = 0) -> bytes:
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape_text + ", }"
    header += " " * (pad + 63 - (10 + len(header)) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode("latin1")


def _patched_zip(path: Path, member: int, offset: int, data: bytes, signature: bytes = b"PK\x01\x02") -> None:
    """Overwrite bytes of the *member*-th zip record with *signature* (central directory by default)."""
    raw = bytearray(path.read_bytes())
    at = -1
    for _ in range(member + 1):
        at = raw.index(signature, at + 1)
    raw[at + offset : at + offset + len(data)] = data
    path.write_bytes(bytes(raw))


# -- .npy and .npz ---------------------------------------------------------------------
@refusal
def _npy_huge_header(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "wide.npy", _npy_header("(2,)", pad=20_000) + b"\0" * 8)), ("'wide.npy'",)


@refusal
def _npy_cut_header(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "cut.npy", npy_bytes(np.ones(3))[:30])), ("'cut.npy'",)


@refusal
def _npy_negative(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "neg.npy", _npy_header("(-1,)") + b"\0" * 64)), ("'neg.npy'",)


@refusal
def _npy_objects(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "objs.npy", npy_bytes(np.array([{}, []], dtype=object)))), ("'objs.npy'",)


@refusal
def _npy_short(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "short.npy", npy_bytes(np.ones(100))[:-400])), ("'short.npy'", "800 B", "400 B")


@refusal
def _npz_encrypted(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    np.savez(tmp / "locked.npz", w=np.ones(2))
    _patched_zip(tmp / "locked.npz", 0, 8, b"\x01")
    return load(tmp / "locked.npz"), ("'locked.npz'", "'w'")


@refusal
def _npz_member_past_end(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    np.savez_compressed(tmp / "liar.npz", w=np.ones(1000))
    _patched_zip(tmp / "liar.npz", 0, 20, (10**9).to_bytes(4, "little"))
    return load(tmp / "liar.npz"), ("'liar.npz'", "'w'")


@refusal
def _npz_member_short(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": "<f8", "fortran_order": False, "shape": (100,)})
    with zipfile.ZipFile(tmp / "thin.npz", "w") as zf:
        zf.writestr("w.npy", buf.getvalue())
    return load(tmp / "thin.npz"), ("'thin.npz'", "'w'")


@refusal
def _npz_member_garbage(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    with zipfile.ZipFile(tmp / "junk.npz", "w") as zf:
        zf.writestr("w.npy", b"not an array at all")
    return load(tmp / "junk.npz"), ("'junk.npz'", "'w'")


@refusal
def _npz_empty(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    np.savez(tmp / "none.npz")
    return load(tmp / "none.npz"), ("'none.npz'",)


@refusal
def _npz_unreadable(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    np.savez(tmp / "broken.npz", a=np.ones(2), b=np.ones(3))
    _patched_zip(tmp / "broken.npz", 1, 0, b"XXXX", signature=b"PK\x03\x04")  # the second member's local header
    return load(tmp / "broken.npz"), ("'broken.npz'",)


@refusal
def _npz_objects(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    np.savez(tmp / "objs.npz", a=np.array([{}, []], dtype=object), b=np.ones(2))
    return load(tmp / "objs.npz"), ("'objs.npz'",)


# -- .safetensors --------------------------------------------------------------------------
def _safetensors(tmp: Path, name: str, header: Any, data: bytes = b"", reader: bool = False) -> Case:
    raw = header if isinstance(header, bytes) else json.dumps(header).encode()
    path = file(tmp, name, len(raw).to_bytes(8, "little") + raw + data)
    return (lambda: read_header(str(path))) if reader else load(path), (f"'{name}'",)


_F32 = {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}
_BAD_HEADERS = {  # name -> (header, data after it, the values the sentence carries besides the name)
    "entry": ({"w": 1}, b"", ("'w'",)),
    "dtype": ({"w": dict(_F32, dtype="F8_X")}, b"\0" * 4, ("'w'", "'F8_X'")),
    "shape": ({"w": dict(_F32, shape="x")}, b"\0" * 4, ("'w'",)),
    "offsets": ({"w": dict(_F32, data_offsets=[0])}, b"\0" * 4, ("'w'",)),
    "range": ({"w": dict(_F32, shape=[2])}, b"\0" * 4, ("'w'",)),
    "metadata": ({"__metadata__": {"a": 1}}, b"", ()),
    "gap": ({"w": dict(_F32, data_offsets=[4, 8])}, b"\0" * 8, ()),
    "short": ({"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}, b"\0" * 8, ("16 B", "8 B")),
    "extra": ({"w": _F32}, b"\0" * 12, ("8 B",)),
    "json": (b'{"a": [1,', b"", ()),
}


def _bad_safetensors(kind: str) -> None:
    header, data, values = _BAD_HEADERS[kind]

    def make(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
        call, name = _safetensors(tmp, f"{kind}.safetensors", header, data)
        return call, name + values

    make.__name__ = f"_safetensors_{kind}"
    refusal(make)


for _kind in _BAD_HEADERS:
    _bad_safetensors(_kind)


@refusal
def _safetensors_header_too_big(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    with open(tmp / "vast.safetensors", "wb") as fh:  # sparse on disk
        fh.write((100_000_001).to_bytes(8, "little") + b"{")
        fh.truncate(100_000_200)
    return load(tmp / "vast.safetensors"), ("'vast.safetensors'", "95.4 MiB")


@refusal
def _safetensors_tiny(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    path = file(tmp, "tiny.safetensors", b"\x01\x02")  # prepare_load's sniffing would stop it first
    return (lambda: read_header(str(path))), ("'tiny.safetensors'",)


@refusal
def _safetensors_header_past_end(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    path = file(tmp, "long.safetensors", (50).to_bytes(8, "little") + b"{}")
    return (lambda: read_header(str(path))), ("'long.safetensors'",)


@refusal
def _safetensors_not_an_object(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return _safetensors(tmp, "list.safetensors", [1, 2], reader=True)


# -- .pt -----------------------------------------------------------------------------------
@refusal
def _pt_pickle(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "raw.pt", b"\x80\x02" + b"garbage" * 10)), ("'raw.pt'",)


@refusal
def _pt_pickle_names_classes(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    torch.save({"model": Payload()}, tmp / "model.pt")
    return load(tmp / "model.pt"), ("'model.pt'", f"{__name__}.Payload")


@refusal
def _pt_bad_index(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "index.pt", b"\x80\x02]q\x00K\x01K\x02s.")), ("'index.pt'",)  # SETITEM on a list


@refusal
def _pt_bad_zip(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    buf = io.BytesIO()
    torch.save({"w": torch.ones(2)}, buf)
    return load(file(tmp, "shifted.pt", b"PK\x03\x04" + b"\0" * 26 + buf.getvalue())), ("'shifted.pt'",)


@refusal
def _pt_unreadable(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    with zipfile.ZipFile(tmp / "odd.pt", "w") as zf:
        zf.writestr("archive/data.pkl", b"garbage")
    return load(tmp / "odd.pt"), ("'odd.pt'",)


@refusal
def _pt_damaged(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "stub.pt", b"\x80\x02\x8a\x0a")), ("'stub.pt'",)


@refusal
def _pt_garbled(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    """A legacy checkpoint whose pickle holds a byte that is no pickle opcode at all: damage, not code."""
    data = b"\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19\x00\x00"
    return load(file(tmp, "garbled.pt", data)), ("'garbled.pt'",)


@refusal
def _pt_bad_sparse(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    bad = torch.sparse_coo_tensor(torch.tensor([[0, 2**30]]), torch.tensor([1.0, 2.0]), (4,), check_invariants=False)
    torch.save({"s": bad}, tmp / "sparse.pt")
    return load(tmp / "sparse.pt"), ("'sparse.pt'",)


def _wrong_name(name: str, kind: str, values: tuple[str, ...]) -> None:
    """A refusal naming what the content is: *kind* of file saved under *name*."""
    def make(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
        buf = io.BytesIO()
        if kind == "npz":
            np.savez(buf, a=np.ones(2))
        elif kind == "pt":
            torch.save({"w": torch.ones(2)}, buf)
        elif kind == "zip":
            with zipfile.ZipFile(buf, "w") as zf:
                zf.writestr("readme.txt", "hello")
        else:
            buf.write(b"PK\x03\x04" + b"\x07" * 40)  # a zip cut short
        return load(file(tmp, name, buf.getvalue())), values

    make.__name__ = f"_{kind}_named_{name.replace('.', '_')}"
    refusal(make)


_wrong_name("weights.npz", "pt", ("'weights.npz'", ".pt"))
_wrong_name("arrays.pt", "npz", ("'arrays.pt'", ".npz"))
_wrong_name("archive.zip", "zip", ("'.zip'",))
_wrong_name("cut.zip", "broken_zip", ("'.zip'",))
