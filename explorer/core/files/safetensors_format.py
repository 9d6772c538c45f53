"""``.safetensors`` files: the JSON header is parsed and checked here before the library sees the file.

The snippet uses ``safetensors.torch.load_file``, which returns a plain ``dict`` of
tensors that the inspector shows as children (``safe_open(...).get_slice(key)`` is
lazy too, but gives slice objects that hide shapes and dtypes from the learner).
Since safetensors 0.8 (``load_file(..., backend="mmap")``, the default) the tensors
are copy-on-write views of a memory-mapped file: measured here, a 2 GiB file
"loads" in about 1 ms and pages are read only when touched. Older releases may
copy everything up front, so for them a file that would not fit in memory is
refused with a sentence pointing at ``safe_open``.
"""

from __future__ import annotations

import json
import os
from typing import Any

from explorer.core.files.common import (
    FileLoadError,
    check_fits_in_memory,
    human_bytes,
    human_count,
    plan,
    show,
)
from explorer.core.i18n import _, ngettext

MAX_HEADER_BYTES = 100_000_000  # the safetensors library's own limit
# Bytes per element of the dtypes safetensors.torch can turn into tensors.
ITEMSIZE: dict[str, int] = {
    "BOOL": 1, "U8": 1, "I8": 1, "F8_E4M3": 1, "F8_E4M3FNUZ": 1, "F8_E5M2": 1, "F8_E5M2FNUZ": 1,
    "I16": 2, "U16": 2, "F16": 2, "BF16": 2,
    "I32": 4, "U32": 4, "F32": 4,
    "I64": 8, "U64": 8, "F64": 8, "C64": 8,
}


def read_header(path: str) -> tuple[dict[str, Any], int]:
    """Return the parsed JSON header and the size of the data buffer that follows it."""
    label = show(os.path.basename(path))
    size = os.path.getsize(path)
    with open(path, "rb") as fh:
        prefix = fh.read(8)
        if len(prefix) < 8:
            raise FileLoadError(_("{file} is truncated: it is shorter than a safetensors header.").format(file=label))
        length = int.from_bytes(prefix, "little")
        if length > MAX_HEADER_BYTES:
            # TRANSLATORS: {size} is a size such as "200.0 MiB".
            raise FileLoadError(_("{file} declares a {size} header, more than safetensors allows.").format(
                file=label, size=human_bytes(length)))
        if 8 + length > size:
            raise FileLoadError(_("{file} is truncated: its header runs past the end of the file.").format(file=label))
        raw = fh.read(length)
    try:
        header = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise FileLoadError(_("{file} is damaged: its safetensors header is not valid JSON.").format(
            file=label)) from None
    if not isinstance(header, dict):
        raise FileLoadError(_("{file} is damaged: its safetensors header is not a JSON object.").format(file=label))
    return header, size - 8 - length


def _is_count(value: Any) -> bool:
    """A non-negative int that is not a bool (JSON true would pass ``isinstance(int)``)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _check_entry(key: str, entry: Any, label: str) -> tuple[int, int, int, str]:
    """Validate one tensor's header entry; return (begin, end, numel, dtype)."""
    # TRANSLATORS: one tensor inside a safetensors file; {key} is its name and {file} the file's, both quoted.
    where = _("tensor {key} of {file}").format(key=show(key), file=label)
    # TRANSLATORS: in the sentences below {tensor} is "tensor 'w' of 'x.safetensors'".
    if not isinstance(entry, dict):
        raise FileLoadError(_("{tensor} is damaged: its header entry is not an object.").format(tensor=where))
    dtype, shape, offsets = entry.get("dtype"), entry.get("shape"), entry.get("data_offsets")
    if dtype not in ITEMSIZE:
        raise FileLoadError(_("{tensor} uses dtype {dtype}, which PyTorch cannot load.").format(
            tensor=where, dtype=show(str(dtype))))
    if not isinstance(shape, list) or not all(_is_count(d) for d in shape):
        raise FileLoadError(_("{tensor} is damaged: its shape is not a list of sizes.").format(tensor=where))
    if not (isinstance(offsets, list) and len(offsets) == 2 and all(_is_count(o) for o in offsets)):
        raise FileLoadError(_("{tensor} is damaged: its data offsets are not two positions.").format(tensor=where))
    numel = 1
    for dim in shape:
        numel *= dim
    begin, end = offsets
    if end < begin or end - begin != numel * ITEMSIZE[dtype]:
        raise FileLoadError(_("{tensor} is damaged: its byte range does not match its shape and dtype.").format(
            tensor=where))
    return begin, end, numel, dtype


def check_layout(header: dict[str, Any], buffer: int, label: str) -> tuple[int, int]:
    """Check every entry and that the ranges tile the data buffer; return (tensors, elements)."""
    meta = header.get("__metadata__", {})
    if not isinstance(meta, dict) or not all(isinstance(v, str) for v in meta.values()):
        raise FileLoadError(_("{file} is damaged: its __metadata__ is not a map of strings.").format(file=label))
    ranges = sorted(_check_entry(k, v, label) for k, v in header.items() if k != "__metadata__")
    position = 0
    for begin, end, _numel, _dtype in ranges:
        # The library requires tensors packed back to back; a gap or an overlap means a bad file.
        if begin != position:
            raise FileLoadError(_("{file} is damaged: its tensors overlap or leave gaps.").format(file=label))
        position = end
    if position > buffer:
        # TRANSLATORS: {need} and {have} are sizes such as "4.0 MiB".
        raise FileLoadError(_("{file} is truncated: the header describes {need} of tensor data but the file "
                              "holds {have}.").format(file=label, need=human_bytes(position), have=human_bytes(buffer)))
    if position != buffer:
        raise FileLoadError(_("{file} is damaged: it has {size} of unexplained data.").format(
            file=label, size=human_bytes(buffer - position)))
    return len(ranges), sum(r[2] for r in ranges)


def maps_lazily() -> bool:
    """True when ``load_file`` memory-maps (safetensors 0.8+ has the ``backend`` option, "mmap" by default)."""
    import inspect

    from safetensors.torch import load_file

    try:
        backend = inspect.signature(load_file).parameters.get("backend")
    except (TypeError, ValueError):
        return False
    return backend is not None and backend.default == "mmap"


def plan_safetensors(path: str, name: str, allow_pickle: bool) -> dict[str, Any]:
    """Validate a safetensors file (it never holds pickles) and return the ``load_file`` snippet."""
    del allow_pickle  # the format cannot contain code, so there is nothing to allow
    label = show(os.path.basename(path))
    header, buffer = read_header(path)
    count, numel = check_layout(header, buffer, label)
    lazy = maps_lazily()
    if not lazy:
        # TRANSLATORS: {code} is a line of Python, kept as it is.
        advice = _("use {code} to read parts of it").format(code="safe_open(path, framework='pt').get_slice(key)")
        check_fits_in_memory(buffer, label, advice)
    code = f"from safetensors.torch import load_file\n{name} = load_file({path!r})"
    summary = _("safetensors file with {tensors}, {parameters}, {size}").format(
        tensors=ngettext("{n} tensor", "{n} tensors", count).format(n=count),
        parameters=ngettext("{n} parameter", "{n} parameters", numel).format(n=human_count(numel)),
        size=human_bytes(buffer))
    if lazy:
        hint = _("{name} is a dict of tensors. Safetensors files hold only tensors, never code, so they are safe to "
                 "share; load_file maps them from the file, reading data only when it is used.")
    else:
        hint = _("{name} is a dict of tensors. Safetensors files hold only tensors, never code, so they are safe to "
                 "share.")
    return plan("safetensors", code, summary, hint.format(name=name))
