"""Hand-written pickles and checkpoints for the tests of hostile files (no tests here).

Each helper returns the bytes of a few pickle opcodes (``pickletools`` names them),
so a test can say exactly what a hostile file does: call ``bytearray(2**31)``,
claim a storage bigger than its record, hash a deep tuple... without ever running
the pickle or allocating what it claims.
"""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path

PROTO2 = b"\x80\x02"
STOP = b"."
MARK, TUPLE, TUPLE1, TUPLE2, REDUCE, NEWOBJ, BUILD = b"(", b"t", b"\x85", b"\x86", b"R", b"\x81", b"b"
EMPTY_DICT, EMPTY_LIST, EMPTY_TUPLE, SETITEM, SETITEMS, APPENDS = b"}", b"]", b")", b"s", b"u", b"e"
NONE, FALSE, TRUE, BINPERSID = b"N", b"\x89", b"\x88", b"Q"
LEGACY_MAGIC = 0x1950A86A20F9469CFC6C


def glob(module: str, name: str) -> bytes:
    """GLOBAL: push module.name (the unpickler would import it)."""
    return b"c" + f"{module}\n{name}\n".encode()


def integer(n: int) -> bytes:
    """The shortest opcode for a non-negative int."""
    if n < 256:
        return b"K" + bytes([n])
    if n < 2**31:
        return b"J" + struct.pack("<i", n)
    raw = n.to_bytes((n.bit_length() + 8) // 8, "little", signed=True)
    return b"\x8a" + bytes([len(raw)]) + raw  # LONG1


def text(s: str) -> bytes:
    raw = s.encode()
    return b"X" + struct.pack("<I", len(raw)) + raw  # BINUNICODE


def put(i: int) -> bytes:
    return b"q" + bytes([i])  # BINPUT


def get(i: int) -> bytes:
    return b"h" + bytes([i])  # BINGET


def ints(*values: int) -> bytes:
    """A tuple of ints."""
    return MARK + b"".join(integer(v) for v in values) + TUPLE


def call(module: str, name: str, *args: bytes) -> bytes:
    """``module.name(*args)`` through REDUCE."""
    return glob(module, name) + MARK + b"".join(args) + TUPLE + REDUCE


def storage(key: str, numel: int, kind: str = "FloatStorage", legacy: bool = False) -> bytes:
    """A persistent id for storage *key*: ``('storage', torch.<kind>, key, 'cpu', numel)``, and ``None`` in legacy files."""
    view = NONE if legacy else b""
    return MARK + text("storage") + glob("torch", kind) + text(key) + text("cpu") + integer(numel) + view + TUPLE \
        + BINPERSID


def tensor(key: str, numel: int, size: tuple[int, ...], stride: tuple[int, ...], offset: int = 0,
           kind: str = "FloatStorage", legacy: bool = False) -> bytes:
    """``torch._utils._rebuild_tensor_v2(storage, offset, size, stride, False, OrderedDict())``."""
    hooks = call("collections", "OrderedDict")
    return call("torch._utils", "_rebuild_tensor_v2", storage(key, numel, kind, legacy), integer(offset),
                ints(*size), ints(*stride), FALSE, hooks)


def state_dict(items: dict[str, bytes]) -> bytes:
    """A pickle of ``{name: value}`` whose values are opcodes."""
    body = b"".join(text(k) + v for k, v in items.items())
    return PROTO2 + EMPTY_DICT + MARK + body + SETITEMS + STOP


def pickle_of(value: bytes) -> bytes:
    return PROTO2 + value + STOP


def write_zip(path: Path, data_pkl: bytes, records: dict[str, bytes] | None = None,
              compression: int = zipfile.ZIP_STORED) -> Path:
    """A checkpoint in torch's zip layout: ``archive/data.pkl``, ``archive/version``, ``archive/data/<key>``."""
    with zipfile.ZipFile(path, "w", compression=compression) as zf:
        zf.writestr("archive/data.pkl", data_pkl)
        zf.writestr("archive/byteorder", "little")
        for key, data in (records or {}).items():
            zf.writestr(f"archive/data/{key}", data)
        zf.writestr("archive/version", "3\n")
    return path


def write_legacy(path: Path, main: bytes, keys: list[str], blocks: list[tuple[int, bytes]]) -> Path:
    """A checkpoint in the legacy layout: five pickles, then each storage as (element count, bytes)."""
    info = PROTO2 + EMPTY_DICT + MARK + text("protocol_version") + integer(1001) + text("little_endian") + TRUE + \
        SETITEMS + STOP
    key_list = PROTO2 + EMPTY_LIST + MARK + b"".join(text(k) for k in keys) + APPENDS + STOP
    data = b"".join(struct.pack("<q", count) + raw for count, raw in blocks)
    path.write_bytes(pickle_of(integer(LEGACY_MAGIC)) + pickle_of(integer(1001)) + info + main + key_list + data)
    return path
