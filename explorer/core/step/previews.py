"""How one value looks at one moment, for showing it before and after a step.

Small tensors and arrays are written out in full, large ones as a summary
(shape, dtype, the first values, min/max/mean when affordable); a leaf tensor's
``.grad`` is described the same way. The result is data, not sentences: the
window words it in its own language. No user code runs: tensors are read
through their base class (:mod:`explorer.core.summary.static`), other values
through the guarded, clipped ``repr`` the inspector uses.
"""

from __future__ import annotations

from typing import Any

from explorer.core.summary.repr_text import safe_repr
from explorer.core.summary.static import (
    PRISTINE_BUILTINS,
    is_sub,
    library,
    plain_array,
    plain_tensor,
    tcall,
    tget,
)

globals()["__builtins__"] = PRISTINE_BUILTINS

#: At most this many elements are written out in full.
FULL_ELEMENTS = 64
#: Min, max and mean are computed for at most this many elements (a large tensor gets its first values only).
STATS_ELEMENTS = 1 << 22
#: How many first values a summary shows.
HEAD_ELEMENTS = 6
TEXT_CHARS = 2000


def value_preview(value: Any) -> dict[str, Any]:
    """What *value* looks like now.

    Returns
    -------
    dict
        ``kind`` ("tensor", "ndarray" or "other"), ``type``, ``text`` (the
        values, or the clipped repr), ``full`` (True when ``text`` holds every
        element), ``shape``, ``dtype``, ``device``, ``min``/``max``/``mean``
        (floats or None), ``requires_grad`` and ``grad`` (the same fields for
        the tensor's ``.grad``, or None).
    """
    torch, numpy = library("torch"), library("numpy")
    try:
        if torch is not None and is_sub(value, torch.Tensor):
            return _tensor_preview(value, torch, with_grad=True)
        if numpy is not None and is_sub(value, numpy.ndarray):
            return _array_preview(plain_array(value), numpy)
    except Exception:  # noqa: BLE001 - an exotic value: fall back to its description
        pass
    return _blank("other", type(value).__name__, text=safe_repr(value))


def _blank(kind: str, type_name: str, **fields: Any) -> dict[str, Any]:
    out = {"kind": kind, "type": type_name, "text": "", "full": False, "shape": None, "dtype": None,
           "device": None, "min": None, "max": None, "mean": None, "requires_grad": None, "grad": None}
    out.update(fields)
    return out


def _tensor_preview(t: Any, torch: Any, with_grad: bool) -> dict[str, Any]:
    out = _blank("tensor", type(t).__name__, shape=[int(s) for s in tget(t, "shape")],
                 dtype=str(tget(t, "dtype")), device=str(tget(t, "device")),
                 requires_grad=bool(tget(t, "requires_grad")))
    plain = plain_tensor(t)
    readable = (plain is not None and tget(plain, "layout") is torch.strided and not tget(plain, "is_meta")
                and not tget(plain, "is_nested"))
    if readable:
        data = tcall(plain, "detach")
        if tget(data, "is_quantized"):
            data = tcall(data, "dequantize")
        out.update(_tensor_values(data, torch))
    if with_grad and (tget(t, "is_leaf") or tget(t, "retains_grad")):
        grad = tget(t, "grad")  # a non-leaf that does not retain grad would only warn
        if grad is not None:
            out["grad"] = _tensor_preview(grad, torch, with_grad=False)
    return out


def _tensor_values(t: Any, torch: Any) -> dict[str, Any]:
    numel = int(tcall(t, "numel"))
    dtype = tget(t, "dtype")
    numeric = dtype.is_floating_point or not (dtype.is_complex or dtype == torch.bool)
    out: dict[str, Any] = {"full": numel <= FULL_ELEMENTS}
    if numel <= FULL_ELEMENTS:
        out["text"] = _array_text(_to_numpy(t, torch))
    else:
        head = tcall(tcall(t, "reshape", -1), "narrow", 0, 0, HEAD_ELEMENTS)
        out["text"] = _head_text(_to_numpy(head, torch))
    if numeric and 0 < numel <= STATS_ELEMENTS:
        wide = tcall(t, "double") if dtype.is_floating_point else tcall(t, "long")
        out["min"] = float(tcall(tcall(wide, "min"), "item"))
        out["max"] = float(tcall(tcall(wide, "max"), "item"))
        out["mean"] = float(tcall(tcall(tcall(wide, "double"), "mean"), "item"))
    return out


def _to_numpy(t: Any, torch: Any) -> Any:
    """A numpy copy of a small plain tensor (dtypes numpy lacks go through float32)."""
    t = tcall(tcall(t, "resolve_conj"), "resolve_neg")
    t = tcall(t, "cpu")
    try:
        return tcall(t, "numpy").copy()
    except (TypeError, RuntimeError):
        return tcall(tcall(t, "float"), "numpy").copy()


def _array_preview(a: Any, numpy: Any) -> dict[str, Any]:
    out = _blank("ndarray", "ndarray", shape=[int(s) for s in a.shape], dtype=str(a.dtype), device="cpu")
    if a.dtype.hasobject:
        return out  # the items' repr would be their own code
    out["full"] = a.size <= FULL_ELEMENTS
    out["text"] = _array_text(a) if out["full"] else _head_text(a.reshape(-1)[:HEAD_ELEMENTS])
    if a.dtype.kind in "biuf" and 0 < a.size <= STATS_ELEMENTS:
        wide = a.astype(numpy.float64)
        out["min"], out["max"], out["mean"] = float(wide.min()), float(wide.max()), float(wide.mean())
    return out


def _array_text(a: Any) -> str:
    """All elements, as numpy prints them (rows on their own lines)."""
    numpy = library("numpy")
    text = numpy.array2string(a, separator=", ", threshold=FULL_ELEMENTS + 1, precision=4,
                              suppress_small=True, max_line_width=72)
    return text[:TEXT_CHARS]


def _head_text(flat: Any) -> str:
    """The first elements of a large value: ``[0.1, 0.2, …]``."""
    return _array_text(flat).rstrip("]") + ", …]"
