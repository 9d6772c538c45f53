"""Short, bounded, never-raising text for values: value previews and ``repr`` strings.

Everything here must cost the same for a 1 GiB tensor as for an 8-byte one, so
tensors and arrays met inside other objects are described by their metadata and
never by ``repr`` (which would format their values).
"""

from __future__ import annotations

import datetime
import itertools
import reprlib
import sys
from collections import OrderedDict
from contextlib import contextmanager
from typing import Any, Iterator

PREVIEW_CHARS = 80
REPR_CHARS = 200
ELLIPSIS = "…"


def clip(text: str, limit: int) -> str:
    """Cut *text* to at most *limit* characters, marking the cut with an ellipsis."""
    if len(text) <= limit:
        return text
    return text[: limit - 1] + ELLIPSIS


def _format_scalar(x: Any) -> str:
    """Compact text for one element of ``tolist()`` output (the general, slower path)."""
    if isinstance(x, bool):
        return "True" if x else "False"
    if isinstance(x, float):
        return _dot_floats("%.4g" % x)
    if isinstance(x, complex):
        return f"{x.real:.3g}{x.imag:+.3g}j"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, (datetime.date, datetime.timedelta)):
        return str(x)  # datetime64/timedelta64 arrays: "2024-01-01", not "datetime.date(...)"
    return safe_repr(x, 40)


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
    """Values of a small CPU tensor as text, or None when they cannot be read cheaply."""
    if not _spend_preview():
        return None
    try:
        if t.is_quantized:
            # tolist() does not understand quantized dtypes; the real values do.
            t = t.dequantize()
        dtype = t.dtype
        kind = "f" if dtype.is_floating_point else ("o" if dtype.is_complex else "i")
        return _format_any(t.tolist(), tuple(t.shape), kind)
    except Exception:  # exotic tensors (functorch wrappers, sparse, ...) have no readable data
        return None


def array_preview(a: Any) -> str | None:
    """Values of a small numpy array as text, or None when they cannot be read."""
    if not _spend_preview():
        return None
    try:
        code = a.dtype.kind
        kind = "f" if code == "f" else ("i" if code in "iub" else "o")
        return _format_any(a.tolist(), tuple(a.shape), kind)
    except Exception:  # e.g. a subclass whose tolist() misbehaves
        return None


def _heavy_object_text(obj: Any) -> str | None:
    """Metadata-only text for a tensor, ndarray or nn.Module met inside another object."""
    cls = type(obj)
    torch = sys.modules.get("torch")
    numpy = sys.modules.get("numpy")
    try:
        if torch is not None and issubclass(cls, torch.Tensor):
            return f"{cls.__name__}(shape={list(obj.shape)}, dtype={obj.dtype})"
        if numpy is not None and issubclass(cls, numpy.ndarray):
            return f"{cls.__name__}(shape={list(obj.shape)}, dtype={obj.dtype})"
        if torch is not None and issubclass(cls, torch.nn.Module):
            return f"{cls.__name__}(…)"  # a module's repr walks its whole tree
    except Exception:  # a nested or broken tensor may not know its shape
        return f"{cls.__name__}(…)"
    return None


class _BoundedRepr(reprlib.Repr):
    """reprlib made safe for the inspector.

    Tensors, arrays and modules inside are described by metadata; containers are
    shown in their own order without sorting (reprlib sorts dicts and sets, which
    costs O(n log n) and compares tensors element-wise); subclasses of dict/list/
    tuple (OrderedDict, namedtuple) are walked like their base instead of falling
    back to their full ``repr``; big bytes and ints are cut before formatting.
    """

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxlist = self.maxtuple = self.maxset = self.maxfrozenset = 10
        self.maxdict = 8
        self.maxstring = 80
        self.maxlong = 60
        self.maxother = REPR_CHARS

    def repr1(self, x: Any, level: int) -> str:
        text = _heavy_object_text(x)
        if text is not None:
            return text
        cls = type(x)
        if issubclass(cls, (dict, list, tuple, set, frozenset)):
            return self._container(x, cls, level)
        if isinstance(x, (bytes, bytearray)) and len(x) > self.maxstring:
            # slice before repr: repr of a 1 GB bytes object would build a 4 GB string
            return repr(x[: self.maxstring])[:-1] + ELLIPSIS + repr(x[:1])[-1]
        if isinstance(x, int) and not isinstance(x, bool) and x.bit_length() > 4000:
            # Python refuses (and would take quadratic time) to print such ints in decimal
            return f"<int with {x.bit_length()} bits>"
        return super().repr1(x, level)

    def _container(self, x: Any, cls: type, level: int) -> str:
        """dict/list/tuple/set and their subclasses, in iteration order, bounded."""
        if cls.__module__ == "torch" and cls.__name__ == "Size":
            return repr(x)  # torch.Size([2, 3]): a few ints, and the familiar spelling
        exact = cls is dict or cls is list or cls is tuple or cls is set
        name = cls.__name__
        n = len(x)
        if isinstance(x, dict):
            items = OrderedDict.items(x) if isinstance(x, OrderedDict) else dict.items(x)
            left, right = ("{", "}") if exact else (name + "({", "})")
            return self._join(items, n, level, self.maxdict, left, right, pairs=True)
        if isinstance(x, list):
            left, right = ("[", "]") if exact else (name + "([", "])")
            return self._join(list.__iter__(x), n, level, self.maxlist, left, right)
        if isinstance(x, tuple):
            # a namedtuple shows as Point(1, 2); a plain 1-tuple keeps its comma
            left, right = ("(", ",)" if n == 1 else ")") if exact else (name + "(", ")")
            return self._join(tuple.__iter__(x), n, level, self.maxtuple, left, right)
        if not n:
            return name + "()"
        left, right = ("{", "}") if cls is set else (name + "({", "})")
        return self._join(iter(x), n, level, self.maxset, left, right)

    def _join(self, items: Any, n: int, level: int, most: int, left: str, right: str, pairs: bool = False) -> str:
        if n and level <= 0:
            return left + "…" + right
        pieces = []
        for item in itertools.islice(items, most):
            if pairs:
                pieces.append(self.repr1(item[0], level - 1) + ": " + self.repr1(item[1], level - 1))
            else:
                pieces.append(self.repr1(item, level - 1))
        if n > most:
            pieces.append("…")
        return left + ", ".join(pieces) + right

    def repr_instance(self, x: Any, level: int) -> str:
        return placeholder_or_repr(x, self.maxother)


def placeholder(x: Any) -> str:
    """Text shown for an object whose ``repr`` raised."""
    try:
        name = type(x).__name__
    except Exception:  # pragma: no cover - type() always has a name; belt and braces
        name = "object"
    return f"<{name} object (repr failed)>"


def placeholder_or_repr(x: Any, limit: int) -> str:
    """``repr(x)`` clipped to *limit*, or a placeholder if it raises."""
    try:
        text = repr(x)
        if not isinstance(text, str):
            return placeholder(x)
    except Exception:  # the point of this function: user __repr__ may raise anything
        return placeholder(x)
    return clip(text, limit)


_REPR = _BoundedRepr()


def safe_repr(x: Any, limit: int = REPR_CHARS) -> str:
    """A repr of at most *limit* characters that never raises and never formats tensor data."""
    cls = type(x)
    # Most namespace values are plain scalars: skip reprlib's dispatch for them.
    # (Identity tests, not a set lookup: a hostile metaclass may make its classes unhashable.)
    if cls is float or cls is bool or x is None or cls is int and x.bit_length() <= 4000 or cls is str and len(x) <= limit:
        return clip(repr(x), limit)
    try:
        return clip(_REPR.repr(x), limit)
    except Exception:  # reprlib walks containers whose items may misbehave
        return placeholder(x)
