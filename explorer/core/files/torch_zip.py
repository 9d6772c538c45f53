"""The zip format of ``torch.save`` (since 1.6), read through torch's own archive reader.

Two zip readers can disagree about one file (duplicate names, odd headers): a
check that read the pickle with Python's ``zipfile`` could see a harmless
pickle where ``torch.load`` finds another. So the pickle bytes, record sizes
and offsets come from ``torch._C.PyTorchFileReader``, the reader ``torch.load``
uses; ``zipfile`` only says how each record is stored, and must agree with it.
Nothing is unpickled and no storage is read, except in a compressed archive
(which cannot be mapped): its records are decompressed, a chunk at a time to
check their CRC, then one at a time by torch's reader, which checks their size
as ``torch.load`` will; nothing is kept. That is where damage to a compressed
archive shows.
"""

from __future__ import annotations

import io
import zipfile
from typing import IO, Any

from explorer.core.files.common import FileLoadError, check_fits_in_memory
from explorer.core.files.pickle_machine import PickleMachine
from explorer.core.files.torch_pickle import Checkpoint, TorchPolicy
from explorer.core.i18n import _


def scan_zip(path: str, fh: IO[bytes], label: str) -> Checkpoint:
    """Read the pickle and check every storage it names; return a ``Checkpoint``."""
    size = fh.seek(0, 2)
    members = _members(fh, label)
    if any(info.flag_bits & 0x1 for info in members.values()):
        raise FileLoadError(_("{file} is encrypted, which PyTorch cannot read.").format(file=label))
    with open(path, "rb") as own:  # torch's reader gets a file of its own: it seeks as it reads
        return _scan(path, fh, own, members, size, label)


def _scan(path: str, fh: IO[bytes], own: IO[bytes], members: dict[str, zipfile.ZipInfo], size: int,
          label: str) -> Checkpoint:
    """The scan itself: *fh* is read with zipfile, *own* by torch's reader."""
    reader = _reader(own)
    info = _agreeing(members, reader, "data.pkl", fh, size, label)
    if info.compress_type != zipfile.ZIP_STORED:
        # A compressed pickle may be far bigger than the file; reading it takes its bytes and as much again
        # for what they stand for (the scan here, the unpickler in the console).
        fits_in_memory(2 * info.file_size, label)
    policy = TorchPolicy()
    root = PickleMachine(policy).load(io.BytesIO(reader.get_record("data.pkl")))
    checkpoint = Checkpoint(root, policy, is_zip=True, big_endian=_big_endian(reader, label),
                            mappable=_utf8(path))  # torch.load(mmap=True) passes the path on as UTF-8
    for key, ref in policy.storages.items():
        name = f"data/{key}"
        if not reader.has_record(name) or reader.get_record_size(name) < ref.nbytes:
            raise FileLoadError(_("{file} is damaged or truncated: the data of some tensors is missing.").format(
                file=label))
        info = _agreeing(members, reader, name, fh, size, label)
        stored = info.compress_type == zipfile.ZIP_STORED
        checkpoint.mappable &= stored
        checkpoint.places[key] = reader.get_record_offset(name) if stored else name
    _check_compressed(fh, members)
    if not checkpoint.mappable:
        names = [f"data/{key}" for key in policy.storages]
        fits_in_memory(sum(reader.get_record_size(n) for n in names), label)
        for name in names:
            reader.get_record(name)  # decompressed as the load will (miniz checks the size), then dropped
    return checkpoint


def _check_compressed(fh: IO[bytes], members: dict[str, zipfile.ZipInfo]) -> None:
    """Decompress every compressed record once, a chunk at a time, to check its size and CRC.

    torch's reader does not check the CRC, and hands back stray bytes for a damaged record
    (its serialization id then fails to decode in torch.load).
    """
    compressed = [info for info in members.values() if info.compress_type != zipfile.ZIP_STORED]
    if not compressed:
        return
    with zipfile.ZipFile(fh) as zf:
        for info in compressed:
            with zf.open(info) as member:
                while member.read(1 << 20):
                    pass


def _members(fh: IO[bytes], label: str) -> dict[str, zipfile.ZipInfo]:
    """The records by their name inside the archive folder; torch needs that folder, a data.pkl and a version."""
    with zipfile.ZipFile(fh) as zf:
        infos = zf.infolist()
    archive, slash, _rest = (infos[0].filename if infos else "").partition("/")
    members = {i.filename.removeprefix(f"{archive}/"): i for i in infos if i.filename.startswith(f"{archive}/")}
    if len({i.filename for i in infos}) != len(infos):  # two records of one name: readers may pick different ones
        raise zipfile.BadZipFile("duplicate record names")
    if not slash or "data.pkl" not in members or not ({"version", ".data/version"} & set(members)):
        raise FileLoadError(_("{file} is a zip archive but not {kind}.").format(
            file=label, kind=_("a PyTorch checkpoint")))
    return members


def _reader(fh: IO[bytes]) -> Any:
    """torch's archive reader on *fh* (it checks the directory and the format version as torch.load will).

    A file, not a path: a path that is not UTF-8 (a byte the file system allows) cannot be passed as text.
    """
    import torch

    try:
        return torch._C.PyTorchFileReader(fh)
    except RuntimeError as exc:
        raise zipfile.BadZipFile(str(exc)[:200]) from None


def _utf8(path: str) -> bool:
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _agreeing(members: dict[str, zipfile.ZipInfo], reader: Any, name: str, fh: IO[bytes], size: int,
              label: str) -> zipfile.ZipInfo:
    """*name*'s zipfile entry, checked to describe the same bytes as torch's reader, inside the file."""
    info = members.get(name)
    if info is None or info.file_size != reader.get_record_size(name):
        raise zipfile.BadZipFile(f"the zip readers disagree about {name}")
    fh.seek(info.header_offset)
    local = fh.read(30)
    if len(local) != 30 or local[:4] != b"PK\x03\x04":
        raise zipfile.BadZipFile("bad local header")
    start = info.header_offset + 30 + int.from_bytes(local[26:28], "little") + int.from_bytes(local[28:30], "little")
    stored = info.compress_type == zipfile.ZIP_STORED
    if stored and start != reader.get_record_offset(name):
        raise zipfile.BadZipFile(f"the zip readers disagree about where {name} starts")
    if start + info.compress_size > size:
        raise FileLoadError(_("{file} is truncated: its data ends past the end of the file.").format(file=label))
    return info


def _big_endian(reader: Any, label: str) -> bool:
    """The byte order torch.load will assume; the other small records must be what torch expects too."""
    try:  # torch.load lists every record (each must be in the archive folder) and decodes these as UTF-8
        reader.get_all_records()
        reader.serialization_id()
    except UnicodeDecodeError:
        raise zipfile.BadZipFile("a record name or id is not UTF-8") from None
    if reader.has_record(".format_version"):
        reader.get_record(".format_version")
    if reader.has_record(".storage_alignment"):
        try:
            int(reader.get_record(".storage_alignment"))
        except ValueError:
            raise zipfile.BadZipFile("bad storage alignment") from None
    if not reader.has_record("byteorder"):
        return False
    order = reader.get_record("byteorder")
    if order not in (b"little", b"big"):
        raise zipfile.BadZipFile("bad byte order")
    return bool(order == b"big")


def fits_in_memory(nbytes: int, label: str) -> None:
    """A compressed checkpoint is read whole (it cannot be mapped): refuse one that would not fit."""
    # TRANSLATORS: {code} is the name of a PyTorch function, kept as it is.
    advice = _("re-save it uncompressed with {code} so it can be memory-mapped").format(code="torch.save")
    check_fits_in_memory(nbytes, label, advice)


def record(path: str, name: str) -> bytes:
    """One record's bytes, decompressed by torch's reader."""
    with open(path, "rb") as fh:
        return bytes(_reader(fh).get_record(name))
