"""Short, bounded, never-raising text for values: value previews and ``repr`` strings.

Everything here must cost the same for a 1 GiB tensor as for an 8-byte one, so
tensors and arrays met inside other objects are described by their metadata and
never by ``repr`` (which would format their values).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from explorer.core.summary.repr_text import ELLIPSIS, REPR_CHARS, clip, nested_repr, placeholder, safe_repr
from explorer.core.summary.static import PRISTINE_BUILTINS, library, tcall, tget

globals()["__builtins__"] = PRISTINE_BUILTINS
__all__ = [
    "ELLIPSIS",
    "PREVIEW_CHARS",
    "REPR_CHARS",
    "array_preview",
    "clip",
    "format_nested",
    "format_values",
    "placeholder",
    "preview_budget",
    "safe_repr",
    "tensor_preview",
]

PREVIEW_CHARS = 80


def _format_scalar(x: Any) -> str:
    """Compact text for one element of ``tolist()`` output (the general, slower path)."""
    if isinstance(x, bool):
        return "True" if x else "False"
    if isinstance(x, float):
        return _dot_floats(f"{x:.4g}")
    if isinstance(x, complex):
        return f"{x.real:.3g}{x.imag:+.3g}j"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, (datetime.date, datetime.timedelta)):
        return str(x)  # datetime64/timedelta64 arrays: "2024-01-01", not "datetime.date(...)"
    return nested_repr(x, 40)  # an object array's items: their __repr__ is user code


def _dot_floats(text: str) -> str:
    """%g text of a float with the trailing dot numpy/torch print for whole numbers ("5.")."""
    return text if ("." in text or "e" in text or "n" in text) else text + "."


def format_nested(values: Any, limit: int = PREVIEW_CHARS) -> str:
    """Render ``tolist()`` output (a scalar or nested lists) as ``[[1, 2], [3, 4]]``."""
    parts: list[str] = []
    _append_nested(values, parts)
    return clip("".join(parts), limit)


def _append_nested(values: Any, parts: list[str]) -> None:
    if isinstance(values, list):
        parts.append("[")
        for i, item in enumerate(values):
            if i:
                parts.append(", ")
            _append_nested(item, parts)
        parts.append("]")
    else:
        parts.append(_format_scalar(values))


# Previews are made for every small tensor of every snapshot, so the common numeric
# case formats all elements with one %-operation on a template cached per shape.
_TEMPLATES: dict[tuple[tuple[int, ...], str], str] = {}


def _template(shape: tuple[int, ...], slot: str) -> str:
    """``"[[%s, %s], [%s, %s]]"`` for shape (2, 2), memoised."""
    key = (shape, slot)
    text = _TEMPLATES.get(key)
    if text is None:
        text = slot
        for n in reversed(shape):
            text = "[" + ", ".join([text] * n) + "]"
        if len(_TEMPLATES) < 1024:
            _TEMPLATES[key] = text
    return text


def _flatten(values: Any, ndim: int) -> list[Any]:
    """Flatten nested ``tolist()`` output of an *ndim*-dimensional array."""
    if ndim == 0:
        return [values]
    if ndim == 1:
        return values
    if ndim == 2:
        return [x for row in values for x in row]
    return [x for row in values for x in _flatten(row, ndim - 1)]


def format_values(values: Any, shape: tuple[int, ...], kind: str) -> str:
    """Preview text for ``tolist()`` output; *kind* is "f" (real floats), "i" (ints/bools) or other."""
    if kind == "f":
        # Whole numbers below 1e4 print without "." or exponent under %.4g; give them the
        # trailing dot numpy and torch print, so a float tensor never looks like an int one.
        items = tuple([
            ("%.4g." if (x.is_integer() and -1e4 < x < 1e4) else "%.4g") % x
            for x in _flatten(values, len(shape))
        ])
        return clip(_template(shape, "%s") % items, PREVIEW_CHARS)
    if kind == "i":
        flat = _flatten(values, len(shape))
        return clip(_template(shape, "%s") % tuple(flat), PREVIEW_CHARS)
    return format_nested(values)


def _format_any(values: Any, shape: tuple[int, ...], kind: str) -> str:
    """:func:`format_values`, falling back to the general path for odd ``tolist()`` output.

    (A masked array gives None for masked elements; a subclass may not match its shape.)
    """
    try:
        return format_values(values, shape, kind)
    except (TypeError, AttributeError, ValueError):
        return format_nested(values)


# Previews cost ~10 us each (tolist + formatting), five times a variable's metadata.
# A snapshot sets a budget so a namespace of thousands of small tensors stays
# cheap; past it, previews are null (the tooltip then just lacks the values).
_preview_budget: list[int | None] = [None]


@contextmanager
def preview_budget(count: int) -> Iterator[None]:
    """Allow at most *count* value previews inside the block."""
    previous = _preview_budget[0]
    _preview_budget[0] = count
    try:
        yield
    finally:
        _preview_budget[0] = previous


def _spend_preview() -> bool:
    left = _preview_budget[0]
    if left is None:
        return True
    if left <= 0:
        return False
    _preview_budget[0] = left - 1
    return True


def tensor_preview(t: Any) -> str | None:
    """Values of a small strided CPU tensor as text, or None when they cannot be read cheaply."""
    if not _spend_preview():
        return None
    try:
        if tget(t, "layout") is not library("torch").strided:
            return None  # sparse data is read only after its indices are checked (summary.sparse)
        if tget(t, "is_quantized"):
            # tolist() does not understand quantized dtypes; the real values do.
            t = tcall(t, "dequantize")
        dtype = tget(t, "dtype")
        kind = "f" if dtype.is_floating_point else ("o" if dtype.is_complex else "i")
        return _format_any(tcall(t, "tolist"), tuple(tget(t, "shape")), kind)
    except Exception:  # noqa: BLE001 - exotic tensors (functorch wrappers, ...) have no readable data
        return None


def array_preview(a: Any) -> str | None:
    """Values of a small numpy array as text, or None when they cannot be read."""
    if not _spend_preview():
        return None
    try:
        code = a.dtype.kind
        kind = "f" if code == "f" else ("i" if code in "iub" else "o")
        return _format_any(a.tolist(), tuple(a.shape), kind)
    except Exception:  # e.g. a subclass whose tolist() misbehaves  # noqa: BLE001
        return None
