"""NumPy ``.npy`` / ``.npz`` files: read headers only, never the data, never a pickle.

For ``.npz`` the snippet must give the learner a plain ``dict`` of arrays (the
inspector shows dict children; it does not know ``NpzFile``). A small archive is
loaded eagerly with ``dict(np.load(path))`` (one line, so no helper name such as
``archive`` is left in the user's namespace; the ``NpzFile`` closes itself when
collected). A large one stored *uncompressed* (what
``np.savez`` writes) is memory-mapped member by member with ``np.memmap`` at each
member's data offset, which keeps opening instant and teaches that an ``.npz`` is
just a zip of ``.npy`` files. A large *compressed* archive cannot be mapped, so it
is decompressed into memory when it fits, and refused when it does not.
"""

from __future__ import annotations

import os
import zipfile
import zlib
from dataclasses import dataclass
from typing import IO, Any

from explorer.core.files.common import (
    LARGE_BYTES,
    FileLoadError,
    check_fits_in_memory,
    human_bytes,
    human_count,
    plan,
    shape_text,
    show,
)
from explorer.core.i18n import _, ngettext

MAX_MAPPED_MEMBERS = 32  # beyond this a per-member snippet is too long to read


@dataclass(frozen=True)
class NpyHeader:
    """What a ``.npy`` header declares, and where its data starts."""

    shape: tuple[int, ...]
    fortran: bool
    dtype: Any  # numpy.dtype
    data_offset: int

    @property
    def numel(self) -> int:
        count = 1
        for dim in self.shape:
            count *= int(dim)
        return count

    @property
    def nbytes(self) -> int:
        return self.numel * int(self.dtype.itemsize)


def read_npy_header(fh: IO[bytes], label: str) -> NpyHeader:
    """Parse a ``.npy`` header from *fh* (positioned at its start) without reading the data.

    *label* names the file, or the array inside an archive (see :func:`_member_label`).
    """
    from numpy.lib import format as npf

    try:
        version = npf.read_magic(fh)
        if version == (1, 0):
            shape, fortran, dtype = npf.read_array_header_1_0(fh)
        elif version == (2, 0):
            shape, fortran, dtype = npf.read_array_header_2_0(fh)
        else:
            shape, fortran, dtype = _read_other_version(fh, version)
    except Exception as exc:  # noqa: BLE001 - NumPy's header parser can raise tokenize and syntax errors too
        # TRANSLATORS: here and below, {file} is a file name or "array 'k' of 'x.npz'" (an array inside an archive).
        if "max_header_size" in str(exc):
            raise FileLoadError(_("{file} has an unusually large header, which NumPy refuses to read.").format(
                file=label)) from None
        raise FileLoadError(_("{file} is damaged or truncated: its .npy header cannot be read.").format(
            file=label)) from None
    if any(int(s) < 0 for s in shape):  # NumPy's parser lets negative sizes through
        raise FileLoadError(_("{file} is damaged: its header declares a negative size.").format(file=label))
    return NpyHeader(tuple(int(s) for s in shape), bool(fortran), dtype, fh.tell())


def _read_other_version(fh: IO[bytes], version: tuple[int, int]) -> tuple[Any, bool, Any]:
    """Read a version 3.0 header (UTF-8); NumPy exposes no public reader for it."""
    from numpy.lib import _format_impl

    if version != (3, 0):
        raise ValueError(f"unsupported .npy version {version}")
    return _format_impl._read_array_header(fh, version)  # type: ignore[attr-defined]  # private: not in numpy's stubs


def _dtype_text(dtype: Any) -> str:
    """Short dtype name for a summary (structured dtypes can print very long)."""
    text = str(dtype)
    return text if len(text) <= 32 else dtype.name


def _object_refusal(label: str, arrays: int) -> FileLoadError:
    """The needs-pickle error for a file holding one (``.npy``) or several (``.npz``) object arrays."""
    if arrays == 1:
        text = _("{file} holds an array of Python objects, which NumPy stores as pickles, so loading it would run "
                 "code from the file; load it only if you trust where it came from.")
    else:
        text = _("{file} holds arrays of Python objects, which NumPy stores as pickles, so loading it would run "
                 "code from the file; load it only if you trust where it came from.")
    return FileLoadError(text.format(file=label), needs_pickle=True)


def plan_npy(path: str, name: str, allow_pickle: bool) -> dict[str, Any]:
    """Validate a ``.npy`` file and return the snippet that loads (or memory-maps) it."""
    label = show(os.path.basename(path))
    with open(path, "rb") as fh:
        header = read_npy_header(fh, label)
    size = os.path.getsize(path)
    if header.dtype.hasobject:
        if not allow_pickle:
            raise _object_refusal(label, 1)
        code = f"import numpy as np\n{name} = np.load({path!r}, allow_pickle=True)"
        summary = _("object array of shape {shape} (pickled Python objects)").format(shape=shape_text(header.shape))
        return plan("npy", code, summary, _("Object arrays hold Python objects; loading them ran code from the file."))
    if size - header.data_offset < header.nbytes:
        # TRANSLATORS: {need} and {have} are sizes such as "4.0 MiB".
        raise FileLoadError(_("{file} is truncated: its header promises {need} of data but the file holds "
                              "only {have}.").format(file=label, need=human_bytes(header.nbytes),
                                                     have=human_bytes(max(size - header.data_offset, 0))))
    summary = _("{dtype} array of shape {shape}, {size}").format(
        dtype=_dtype_text(header.dtype), shape=shape_text(header.shape), size=human_bytes(header.nbytes))
    if header.nbytes > LARGE_BYTES:
        code = f"import numpy as np\n{name} = np.load({path!r}, mmap_mode='r')"
        hint = _("{name} is memory-mapped read-only: the data stays on disk and is read only when used; "
                 "{copy} makes an in-memory copy you can change.").format(name=name, copy=f"np.array({name})")
        return plan("npy", code, _mapped(summary), hint)
    return plan("npy", f"import numpy as np\n{name} = np.load({path!r})", summary)


def _mapped(summary: str) -> str:
    """A summary saying the data stays in the file."""
    # TRANSLATORS: {summary} is a description such as "float32 array of shape (2, 3), 24 B".
    return _("{summary}, memory-mapped").format(summary=summary)


@dataclass(frozen=True)
class NpzMember:
    """One array inside an ``.npz`` archive."""

    key: str
    header: NpyHeader
    stored: bool  # uncompressed, so it can be memory-mapped
    file_offset: int  # absolute offset of the array data in the archive (stored members only)


def _local_data_start(fh: IO[bytes], info: zipfile.ZipInfo) -> int:
    """Absolute offset where a member's (possibly compressed) bytes begin."""
    fh.seek(info.header_offset)
    local = fh.read(30)
    if len(local) != 30 or local[:4] != b"PK\x03\x04":
        raise ValueError("bad local header")
    name_len = int.from_bytes(local[26:28], "little")
    extra_len = int.from_bytes(local[28:30], "little")
    return info.header_offset + 30 + name_len + extra_len


def _read_member(zf: zipfile.ZipFile, raw: IO[bytes], info: zipfile.ZipInfo, size: int, label: str) -> NpzMember:
    """Check one member's placement and ``.npy`` header; read no array data."""
    key = info.filename[: -len(".npy")]
    where = _member_label(label, key)
    if info.flag_bits & 0x1:
        raise FileLoadError(_("{file} is encrypted, which NumPy cannot read.").format(file=where))
    start = _local_data_start(raw, info)
    if start + info.compress_size > size:
        raise FileLoadError(_("{file} is truncated: array {key} ends past the end of the file.").format(
            file=label, key=show(key)))
    with zf.open(info) as member:
        header = read_npy_header(member, where)
    if not header.dtype.hasobject and info.file_size - header.data_offset < header.nbytes:
        raise FileLoadError(_("{file} is damaged: array {key} holds less data than its header declares.").format(
            file=label, key=show(key)))
    stored = info.compress_type == zipfile.ZIP_STORED
    return NpzMember(key, header, stored, start + header.data_offset if stored else -1)


def _member_label(label: str, key: str) -> str:
    """The name of one array inside an archive, for the sentences about it."""
    # TRANSLATORS: one array inside an .npz archive; {key} is its name and {file} the archive's, both quoted.
    return _("array {key} of {file}").format(key=show(key), file=label)


def read_npz_members(path: str) -> list[NpzMember]:
    """Headers of every array in an ``.npz`` archive (central directory and member headers only)."""
    label = show(os.path.basename(path))
    size = os.path.getsize(path)
    try:
        with open(path, "rb") as raw, zipfile.ZipFile(raw) as zf:
            infos = zf.infolist()
            if not infos:
                raise FileLoadError(_("{file} is an empty .npz archive with no arrays.").format(file=label))
            return [_read_member(zf, raw, info, size, label) for info in infos]
    except FileLoadError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, OSError, NotImplementedError, RuntimeError):
        raise FileLoadError(_("{file} is damaged or truncated: it is not a readable .npz archive.").format(
            file=label)) from None


def _memmap_line(path: str, member: NpzMember) -> str:
    """One dict entry mapping a stored member straight from the archive."""
    from numpy.lib import format as npf

    h = member.header
    order = "F" if h.fortran else "C"
    return (
        f"    {member.key!r}: np.memmap({path!r}, dtype={npf.dtype_to_descr(h.dtype)!r}, mode='r', "
        f"offset={member.file_offset}, shape={h.shape!r}, order={order!r}),"
    )


def _npz_summary(members: list[NpzMember], disk: int) -> str:
    """``npz archive with 3 arrays, 1.2 M elements, 4.4 MiB``."""
    numel = sum(m.header.numel for m in members)
    facts = {
        "arrays": ngettext("{n} array", "{n} arrays", len(members)).format(n=len(members)),
        "elements": ngettext("{n} element", "{n} elements", numel).format(n=human_count(numel)),
        "size": human_bytes(sum(m.header.nbytes for m in members)), "disk": human_bytes(disk),
    }
    if all(m.stored for m in members):
        # TRANSLATORS: {arrays} is e.g. "3 arrays", {elements} "1.2 M elements", {size} "4.4 MiB".
        return _("npz archive with {arrays}, {elements}, {size}").format(**facts)
    return _("npz archive with {arrays}, {elements}, {size} (compressed: {disk} on disk)").format(**facts)


def plan_npz(path: str, name: str, allow_pickle: bool) -> dict[str, Any]:
    """Validate an ``.npz`` archive and return a snippet that gives a dict of its arrays."""
    label = show(os.path.basename(path))
    members = read_npz_members(path)
    summary = _npz_summary(members, os.path.getsize(path))
    item = f"{name}[{members[0].key!r}]"
    hint = _("{name} is a dict: {item} is one of its arrays.").format(name=name, item=item)
    nbytes = sum(m.header.nbytes for m in members)
    if any(m.header.dtype.hasobject for m in members):
        if not allow_pickle:
            raise _object_refusal(label, len(members))
        code = f"import numpy as np\n{name} = dict(np.load({path!r}, allow_pickle=True))"
        # TRANSLATORS: {summary} is a description such as "npz archive with 2 arrays, 6 elements, 48 B".
        return plan("npz", code, _("{summary} (pickled Python objects)").format(summary=summary), hint)
    if nbytes > LARGE_BYTES and all(m.stored for m in members) and len(members) <= MAX_MAPPED_MEMBERS:
        lines = [_memmap_line(path, m) for m in members]
        comment = _("An uncompressed .npz is a zip of .npy files: map each array straight from the file.")
        code = "import numpy as np\n" f"# {comment}\n" f"{name} = {{\n" + "\n".join(lines) + "\n}"
        hint = _("{name} is a dict: {item} is one of its arrays. The arrays are read-only views of the file.").format(
            name=name, item=item)
        return plan("npz", code, _mapped(summary), hint)
    # TRANSLATORS: {code} is a line of Python, kept as it is.
    advice = _("extract the arrays you need one by one with {code}").format(code="np.load(path)['key']")
    check_fits_in_memory(nbytes, label, advice)
    code = f"import numpy as np\n{name} = dict(np.load({path!r}))"
    return plan("npz", code, summary, hint)
