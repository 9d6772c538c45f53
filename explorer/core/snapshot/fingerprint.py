"""Fingerprints: what the change tracker remembers of a variable between two runs.

What the fingerprint covers:

* identity and metadata: ``id``, type, dtype, shape, strides, storage offset,
  ``data_ptr`` and device; for torch tensors also ``requires_grad``;
* for torch tensors above ``EXACT_BYTES`` only: the ``_version`` counter, which
  every in-place torch op bumps. Views share their base's counter, so an
  in-place write through one view of a big tensor also marks its disjoint
  sibling views as changed (conservative); small tensors skip the counter
  because their exact hash already decides;
* content, exactly, when the elements reach at most ``EXACT_BYTES`` bytes: a
  CRC-32 of all of them (it catches every change of one element, or of any run of
  up to 32 bits, for sure; other changes go unnoticed with odds of 1 in 4 billion);
* content, sampled, above that: the CRC-32 of ``SAMPLE_CHUNKS`` runs of
  ``CHUNK_ELEMENTS`` consecutive elements (C order) spread evenly over the view,
  so a write elsewhere (through numpy, which has no version counter) can go
  unnoticed;
* other values: identity, type and the summary's ``repr``.

How it is read: plain CPU tensors and ndarrays described by a snapshot VAR (the
common case) take one step, the elements' bytes straight from memory (a strided
view is gathered by numpy, without torch dispatch), and keep their metadata in
that VAR instead of copying it (:func:`fingerprint_of`, :func:`unchanged`);
anything else reads its metadata from the value through the base classes.
No user code runs (docs/architecture.md, "Inspection never runs user code").
"""

from __future__ import annotations

import ctypes
import zlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from explorer.core.memory.reach import allocation_key, is_tensor
from explorer.core.summary.static import (
    PRISTINE_BUILTINS,
    inspecting,
    is_sub,
    library,
    plain_array,
    plain_tensor,
    tget,
)
from explorer.protocol.kinds import ARRAY_KINDS

globals()["__builtins__"] = PRISTINE_BUILTINS

EXACT_BYTES = 64 * 1024
SAMPLE_CHUNKS = 16
CHUNK_ELEMENTS = 64
# [torch module, numpy.ndarray, torch.Tensor, torch.nn.Parameter]; sentinels until torch is seen.
_PLAIN: list[Any] = [None, np.ndarray, object(), object()]


# -- fingerprints -------------------------------------------------------------
def _content_bytes(value: Any) -> Iterator[bytes]:
    """The bytes the fingerprint hashes: every element, or the sampled chunks."""
    if is_tensor(value):
        plain = plain_tensor(value)
        if plain is not None:
            yield from _tensor_bytes(plain)
    elif is_sub(value, np.ndarray):
        yield from _array_bytes(plain_array(value))


def _sample_flat(numel: int) -> np.ndarray:
    """Flat (C-order) indices of the sampled chunks."""
    starts = np.linspace(0, max(numel - CHUNK_ELEMENTS, 0), SAMPLE_CHUNKS).astype(np.int64)
    flat = (starts[:, None] + np.arange(CHUNK_ELEMENTS)[None, :]).ravel()
    return np.unique(flat[flat < numel])


def _array_bytes(arr: np.ndarray) -> Iterator[bytes]:
    if arr.dtype.hasobject:
        # The objects' identities, not their repr: an item's __repr__ is user code.
        yield repr([id(x) for x in arr.ravel()[:SAMPLE_CHUNKS * CHUNK_ELEMENTS].tolist()]).encode()
    elif arr.size * arr.itemsize <= EXACT_BYTES:
        yield np.ascontiguousarray(arr).tobytes()
    else:
        yield arr[np.unravel_index(_sample_flat(arr.size), arr.shape)].tobytes()


def _tensor_bytes(t: Any) -> Iterator[bytes]:
    """Bytes of a plain tensor's elements (see :func:`_content_bytes`); sparse/meta/nested give none."""
    import torch

    if t.layout != torch.strided or t.is_meta or t.is_nested:
        return
    t = t.detach()
    small = t.numel() * t.element_size() <= EXACT_BYTES
    if small and t.is_cpu and not (t.is_conj() or t.is_neg() or t.is_quantized):
        try:  # fast path: numpy reads the strided CPU memory without torch dispatch
            yield np.ascontiguousarray(t.numpy()).tobytes()
            return
        except TypeError:  # bf16, fp8 and other dtypes numpy lacks
            pass
    if t.is_quantized:
        t = t.int_repr()
    t = t.resolve_conj().resolve_neg()
    if not small:
        idx = np.unravel_index(_sample_flat(t.numel()), tuple(t.shape))
        t = t[tuple(torch.from_numpy(np.ascontiguousarray(i)) for i in idx)]
    flat = t.reshape(-1).contiguous().cpu()
    yield flat.view(torch.uint8).numpy().tobytes() if flat.numel() else b""


def _metadata(value: Any, var: dict) -> tuple:
    """Identity-free metadata: from the snapshot's VAR when it has it, else read (base-class reads)."""
    kind = var.get("kind")
    if kind in ARRAY_KINDS and var.get("storage") is not None:
        big = var["nbytes"] is not None and var["nbytes"] > EXACT_BYTES
        return (kind, var["dtype"], var["shape"], var["device"], var["strides"], var["storage_offset"],
                var["data_ptr"], var["requires_grad"], _version(value) if big and kind != "ndarray" else None)
    if is_tensor(value):
        plain = plain_tensor(value)
        storage_ok = plain is not None and allocation_key(plain) is not None
        numel = plain.numel() * plain.element_size() if storage_ok else 0
        return ("tensor", str(tget(value, "dtype")), tuple(tget(value, "shape")), str(tget(value, "device")),
                tuple(plain.stride()) if storage_ok else None,
                plain.storage_offset() if storage_ok else None,
                plain.data_ptr() if storage_ok else None,
                bool(tget(value, "requires_grad")),
                _version(value) if numel > EXACT_BYTES else None)
    if is_sub(value, np.ndarray):
        arr = plain_array(value)
        return ("ndarray", str(arr.dtype), arr.shape, arr.strides, arr.__array_interface__["data"][0])
    return ()


def fingerprint(value: Any, var: dict) -> tuple:
    """A summary of a value, comparable with ``==`` (see the module docstring for what is exact)."""
    with inspecting():
        refresh_plain()
        found = fingerprint_of(value, var)
    return found + facts(var) if is_quick(found) else found


def fingerprint_of(value: Any, var: dict) -> tuple:
    """:func:`fingerprint` for callers inside :func:`inspecting` that keep *var* to compare facts later.

    Small plain CPU tensors and ndarrays (the common case) get a quick one in one
    step, ``(id, type name, CRC-32 of every element, tag)``: it leaves the VAR's
    facts out (compare two with :func:`unchanged`, which reads them from the two
    VARs) and holds no containers, so the cyclic GC soon stops tracking it.
    """
    cls = type(value)
    try:
        if cls is _PLAIN[1]:  # a plain ndarray: its buffer is read as it is, or gathered when strided
            if var.get("kind") == "ndarray" and var.get("storage") is not None and not value.dtype.hasobject:
                if var["nbytes"] <= EXACT_BYTES:
                    return (id(value), "ndarray", zlib.crc32(value if value.flags.c_contiguous else value.tobytes()),
                            _QUICK)
                if value.flags.c_contiguous:
                    return (id(value), "ndarray", _sampled_crc(value, 0, var), _QUICK)
        elif cls is _PLAIN[2] or cls is _PLAIN[3]:
            data = _small_tensor_data(value, var)
            if data is not None:
                return (id(value), cls.__qualname__, zlib.crc32(data), _QUICK)
            if _big_contiguous_cpu(value, var):
                raw = (ctypes.c_char * var["nbytes"]).from_address(var["data_ptr"])
                return (id(value), cls.__qualname__, (_sampled_crc(raw, 0, var), _version(value)), _QUICK)
    except (ValueError, TypeError, BufferError):  # e.g. datetime64 exports no buffer: the general path copes
        pass
    try:
        return _general(value, var)
    except Exception:  # noqa: BLE001 - a value we cannot read: fall back to identity
        return (id(value), type(value).__qualname__, var.get("repr"))


def _general(value: Any, var: dict) -> tuple:
    """The fingerprint of any value, its facts read from the value where the VAR lacks them."""
    crc = 0
    for chunk in _content_bytes(value):
        crc = zlib.crc32(chunk, crc)
    return (id(value), type(value).__qualname__, _metadata(value, var), crc, var.get("repr"),
            len(var.get("children") or ()))


# The VAR facts a quick fingerprint stands for (as :func:`_metadata` does for the others).
_FACTS = ("kind", "dtype", "shape", "device", "strides", "storage_offset", "data_ptr", "requires_grad")
_QUICK = "every element"  # the tag of a quick fingerprint


def is_quick(found: tuple) -> bool:
    """Whether a fingerprint is quick (its VAR holds the facts)."""
    return len(found) == 4 and found[3] is _QUICK


def facts(var: dict) -> tuple:
    """The facts a quick fingerprint leaves in the VAR."""
    return tuple([var.get(key) for key in _FACTS])


def unchanged(before: tuple, old_var: dict | None, now: tuple, new_var: dict) -> bool:
    """Whether two fingerprints of one name (with the VARs they were taken from) say "unchanged"."""
    if before[0] != now[0] or before[1] != now[1] or before[2] != now[2] or len(before) != len(now):
        return False
    if not is_quick(now):
        return before == now
    if not is_quick(before) or old_var is None:
        return False
    return all(old_var.get(key) == new_var.get(key) for key in _FACTS)


def _small_tensor_data(value: Any, var: dict) -> Any:
    """The elements of a small plain strided CPU tensor, as a buffer CRC-32 reads; None: use :func:`_general`.

    A contiguous tensor is read straight from its memory, once the VAR's facts are
    checked against the tensor itself; a strided view is gathered by numpy (no torch dispatch).
    """
    nbytes = var.get("nbytes")
    if var.get("device") != "cpu" or var.get("layout") != "strided" or var.get("storage") is None \
            or nbytes is None or nbytes > EXACT_BYTES:
        return None
    ptr = var["data_ptr"]
    if ptr and var["is_contiguous"] and value.data_ptr() == ptr and value.nbytes == nbytes \
            and value.is_contiguous():
        raw = _RAW_TYPES.get(nbytes) or _raw_type(nbytes)
        return raw.from_address(ptr)
    try:
        arr = (value.detach() if var.get("requires_grad") else value).numpy()
    except (TypeError, RuntimeError):  # bf16 and dtypes numpy lacks, conj/neg views, quantized
        return None
    return arr if arr.flags.c_contiguous else arr.tobytes()


def _big_contiguous_cpu(value: Any, var: dict) -> bool:
    """A plain strided CPU tensor above ``EXACT_BYTES`` whose elements are exactly its VAR's ``[data_ptr, + nbytes)``."""
    nbytes, ptr = var.get("nbytes"), var.get("data_ptr")
    return (var.get("device") == "cpu" and var.get("layout") == "strided" and var.get("storage") is not None
            and bool(ptr) and nbytes is not None and nbytes > EXACT_BYTES and bool(var.get("is_contiguous"))
            and value.data_ptr() == ptr and value.nbytes == nbytes and value.is_contiguous())


_STARTS: dict[int, list[int]] = {}


def _sampled_crc(buffer: Any, crc: int, var: dict) -> int:
    """CRC-32 of ``SAMPLE_CHUNKS`` runs of ``CHUNK_ELEMENTS`` elements spread evenly over a C-contiguous buffer.

    The same runs :func:`_sample_flat` picks, read straight from the memory (no gather, no torch op).
    """
    item, numel = var["itemsize"], var["numel"]
    starts = _STARTS.get(numel)
    if starts is None:
        starts = np.linspace(0, max(numel - CHUNK_ELEMENTS, 0), SAMPLE_CHUNKS).astype(np.int64).tolist()
        if len(_STARTS) < 1024:
            _STARTS[numel] = starts
    view = memoryview(buffer).cast("B")
    run = CHUNK_ELEMENTS * item
    for start in starts:
        crc = zlib.crc32(view[start * item:start * item + run], crc)
    return crc


def refresh_plain() -> None:
    """Learn torch's tensor classes for the quick path (call inside :func:`inspecting`)."""
    torch = library("torch")
    if torch is not None and _PLAIN[0] is not torch:
        _PLAIN[0], _PLAIN[2], _PLAIN[3] = torch, torch.Tensor, torch.nn.Parameter


_RAW_TYPES: dict[int, Any] = {}


def _raw_type(nbytes: int) -> Any:
    """``ctypes.c_char * nbytes`` (memoised): a buffer type laid over a tensor's memory, no copy."""
    raw = ctypes.c_char * nbytes
    if len(_RAW_TYPES) < 4096:
        _RAW_TYPES[nbytes] = raw
    return raw


def _version(t: Any) -> int | None:
    """Torch's in-place counter (inference tensors have none)."""
    try:
        return int(tget(t, "_version"))
    except Exception:  # noqa: BLE001
        return None


