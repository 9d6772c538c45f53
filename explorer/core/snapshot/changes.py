"""What changed since the previous run, and through which alias.

:class:`ChangeTracker` keeps a small fingerprint of every variable and, after
each run, reports the variables that appeared or changed. A variable that
changed although the code never wrote it by name, while the code did write
another variable sharing its memory, is reported as ``"changed_through"`` that
alias (``n[0] = 100.0`` changes ``t`` when ``n = t.numpy()``).

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

Every per-run cost is linear in the number of variables: metadata comes from the
snapshot's VARs, children are found again through memoised paths, and the alias
search (:mod:`explorer.core.snapshot.aliases`) indexes the written names once per run.
No user code runs (DESIGN.md, "Inspection never runs user code").
"""

from __future__ import annotations

import ctypes
import zlib
from typing import Any, Iterator

import numpy as np

from explorer.core.memory.groups import allocation_key, is_tensor
from explorer.core.resolve import resolve
from explorer.core.snapshot.aliases import AliasIndex
from explorer.core.snapshot.written import written_names
from explorer.core.summary.static import (
    PRISTINE_BUILTINS,
    inspecting,
    is_sub,
    library,
    plain_array,
    plain_tensor,
    tget,
)

__builtins__ = PRISTINE_BUILTINS  # noqa: A001 - user code replacing builtins must not reach us
__all__ = ["ChangeTracker", "fingerprint", "written_names"]

EXACT_BYTES = 64 * 1024
SAMPLE_CHUNKS = 16
CHUNK_ELEMENTS = 64
_ARRAY_KINDS = frozenset({"tensor", "parameter", "ndarray"})
_PLAIN: list[Any] = [None, np.ndarray]  # [torch module (set during an update; None: no fast path), ndarray]


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
    if kind in _ARRAY_KINDS and var.get("storage") is not None:
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
    """A comparable summary of a value (see the module docstring for what is exact)."""
    with inspecting():
        return _fingerprint(value, var)


def _fingerprint(value: Any, var: dict) -> tuple:
    """:func:`fingerprint` for callers already inside :func:`inspecting` (the tracker)."""
    try:
        data = _small_plain_data(value, var)
        if data is None:
            crc = 0
            for chunk in _content_bytes(value):
                crc = zlib.crc32(chunk, crc)
        else:
            crc = zlib.crc32(data)
        return (id(value), type(value).__qualname__, _metadata(value, var), crc,
                var.get("repr"), len(var.get("children") or ()))
    except Exception:  # noqa: BLE001 - a value we cannot read: fall back to identity
        return (id(value), type(value).__qualname__, var.get("repr"))


def _small_plain_data(value: Any, var: dict) -> Any:
    """The common case in one step: the elements of a small plain CPU tensor or ndarray; else None.

    Returns a buffer CRC-32 reads without a copy (a contiguous ndarray, or the tensor's
    own memory) or C-order bytes.
    """
    cls = type(value)
    torch, ndarray = _PLAIN[0], _PLAIN[1]
    if cls is ndarray:
        arr = value
    elif torch is not None and (cls is torch.Tensor or cls is torch.nn.Parameter):
        nbytes = var.get("nbytes")
        if var.get("device") != "cpu" or var.get("layout") != "strided" or nbytes is None or nbytes > EXACT_BYTES:
            return None
        ptr = var.get("data_ptr")
        # The VAR's facts, checked against the tensor itself: its elements are exactly [ptr, ptr + nbytes).
        if ptr and value.data_ptr() == ptr and value.is_contiguous() and value.nbytes == nbytes:
            return _raw_memory(ptr, nbytes)
        try:  # a strided view: numpy gathers the elements without torch dispatch
            arr = (value.detach() if var.get("requires_grad") else value).numpy()
        except (TypeError, RuntimeError):  # bf16 and dtypes numpy lacks, conj/neg views, quantized
            return None
    else:
        return None
    if arr.nbytes > EXACT_BYTES or arr.dtype.hasobject:
        return None
    return arr if arr.flags.c_contiguous else arr.tobytes()


_RAW_TYPES: dict[int, Any] = {}


def _raw_memory(ptr: int, nbytes: int) -> Any:
    """A buffer over ``nbytes`` bytes at ``ptr`` (no copy); the caller guarantees they belong to a live tensor."""
    raw = _RAW_TYPES.get(nbytes)
    if raw is None:
        raw = ctypes.c_char * nbytes
        if len(_RAW_TYPES) < 4096:
            _RAW_TYPES[nbytes] = raw
    return raw.from_address(ptr)


def _version(t: Any) -> int | None:
    """Torch's in-place counter (inference tensors have none)."""
    try:
        return int(tget(t, "_version"))
    except Exception:  # noqa: BLE001
        return None


class ChangeTracker:
    """Remembers fingerprints between runs and names what changed and how."""

    def __init__(self) -> None:
        self._prints: dict[str, tuple] = {}

    def update(self, namespace: dict[str, Any], variables: list[dict], code: str) -> dict:
        """Report the variables that appeared or changed since the previous call.

        Parameters
        ----------
        namespace : dict
            The user namespace (values are looked up by VAR name).
        variables : list of dict
            The snapshot's VARs (children included through ``children``).
        code : str
            The code that just ran (used to tell a direct write from a write through an alias).

        Returns
        -------
        dict
            ``{name: {"status": "new" | "changed" | "changed_through", "through": str | None}}``.
        """
        try:
            with inspecting():
                return self._update(namespace, variables, code)
        except Exception:  # noqa: BLE001 - the tracker must never break a snapshot
            return {}

    def _update(self, namespace: dict[str, Any], variables: list[dict], code: str) -> dict:
        _PLAIN[0] = library("torch")
        strong, weak = written_names(code if type(code) is str else "")
        walk = _Walk(namespace, self._prints)
        walk.variables(variables, None)
        report: dict[str, dict] = {}
        aliases: AliasIndex | None = None
        for name, is_new in walk.events:
            if is_new:
                report[name] = {"status": "new", "through": None}
                continue
            value, var, root = walk.found[name]
            if root in strong or root in weak:
                report[name] = {"status": "changed", "through": None}
                continue
            if aliases is None:  # built once per run, only when some change needs an alias
                aliases = AliasIndex(walk.found, namespace, (strong, weak))
            alias = aliases.alias_for(value, var)
            report[name] = ({"status": "changed_through", "through": alias} if alias is not None
                            else {"status": "changed", "through": None})
        self._prints = walk.prints
        return report


class _Walk:
    """One pass over the VAR tree: each variable's value and fingerprint, and what is new or changed."""

    def __init__(self, namespace: dict[str, Any], old: dict[str, tuple]) -> None:
        self.namespace = namespace
        self.old = old
        self.prints: dict[str, tuple] = {}
        self.found: dict[str, tuple[Any, dict, str]] = {}  # name -> (value, VAR, top-level name)
        self.events: list[tuple[str, bool]] = []  # (name, is new) in snapshot order

    def variables(self, variables: list[dict], root: str | None) -> None:
        """Visit *variables* (top-level when *root* is None) and their children."""
        for var in variables:
            name = var.get("name")
            if type(name) is not str:
                continue
            top = name if root is None else root
            value = _value(self.namespace, name, top)
            self.found[name] = (value, var, top)
            fp = self.prints[name] = _fingerprint(value, var)
            before = self.old.get(name)
            if before is None or before != fp:
                self.events.append((name, before is None))
            children = var.get("children")
            if children and type(children) is list:
                self.variables(children, top)


def _value(namespace: dict[str, Any], name: str, root: str | None) -> Any:
    """The value a VAR name denotes (top-level names directly, children through memoised paths)."""
    if name == root:
        return namespace.get(name) if type(namespace) is not dict else dict.get(namespace, name)
    try:
        return resolve(namespace, name)
    except Exception:  # noqa: BLE001 - a child that is gone or unreadable
        return None
