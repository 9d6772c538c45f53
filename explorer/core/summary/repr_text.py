"""Bounded one-line text of values: the ``repr`` field and dict-key labels.

Two levels of trust (docs/architecture.md, "Inspection never runs user code"):

* :func:`nested_repr` runs no user code at all. Containers are walked through
  their base classes in their own order (never sorted: sorting compares tensors
  element-wise); tensors, arrays and modules are described by metadata; builtin
  scalars and a short list of library value types print as usual; any other
  object shows as ``TypeName(…)``.
* :func:`safe_repr` is the one exception docs/architecture.md allows: for a top-level value
  of kind "other", the object's own ``repr`` is called once, guarded (whatever it
  raises, ``KeyboardInterrupt`` and ``SystemExit`` included, becomes a
  placeholder) and clipped.
"""

from __future__ import annotations

import datetime
import decimal
import fractions
import itertools
import pathlib
import uuid
from collections import OrderedDict
from typing import Any

from explorer.core.i18n import _, ngettext
from explorer.core.summary.static import PRISTINE_BUILTINS, library, plain_array, tget

globals()["__builtins__"] = PRISTINE_BUILTINS

REPR_CHARS = 200
ELLIPSIS = "…"
MAX_LEVEL = 3
MAX_ITEMS = {"list": 10, "tuple": 10, "set": 10, "dict": 8}
MAX_STRING = 80
MAX_LONG = 60
_MAX_INT_BITS = 4000
# Library value types whose repr reads only their own fields (exact types only: a subclass may override it).
_VALUE_TYPES = (datetime.date, datetime.datetime, datetime.time, datetime.timedelta, decimal.Decimal,
                fractions.Fraction, uuid.UUID, range, type(Ellipsis), type(NotImplemented))


def clip(text: str, limit: int) -> str:
    """Cut *text* to at most *limit* characters, marking the cut with an ellipsis."""
    if len(text) <= limit:
        return text
    return text[: limit - 1] + ELLIPSIS


def placeholder(x: Any) -> str:
    """Text shown for an object whose ``repr`` raised."""
    return _("<{type} object (repr failed)>").format(type=_type_name(x))


def _type_name(x: Any) -> str:
    try:
        return str(type(x).__name__)
    except Exception:  # noqa: BLE001 - a metaclass with a broken __name__
        return "object"


def safe_repr(x: Any, limit: int = REPR_CHARS) -> str:
    """The ``repr`` field of a value of kind "other": its own repr (guarded, clipped) or the nested text."""
    return repr_and_error(x, limit)[0]


def repr_and_error(x: Any, limit: int = REPR_CHARS) -> tuple[str, str | None]:
    """:func:`safe_repr` and the name of what the object's own ``repr`` raised (None if it did not)."""
    walk = _Text(user_repr=True)
    try:
        return clip(walk.text(x, MAX_LEVEL), limit), walk.error
    except BaseException as exc:  # noqa: BLE001 - e.g. RecursionError deep inside; never raise out
        return placeholder(x), walk.error or _type_name(exc)


def nested_repr(x: Any, limit: int = REPR_CHARS) -> str:
    """Text of *x* that never runs user code (containers, keys, anything but the "other" repr field)."""
    try:
        return clip(_Text(user_repr=False).text(x, MAX_LEVEL), limit)
    except BaseException:  # noqa: BLE001 - e.g. RecursionError deep inside; never raise out
        return f"{_type_name(x)}(…)"


def placeholder_or_repr(x: Any, limit: int) -> str:
    """``repr(x)`` clipped to *limit*, or a placeholder if it raises anything at all."""
    return _guarded_repr(x, limit)[0]


def _guarded_repr(x: Any, limit: int) -> tuple[str, str | None]:
    """``(text, None)``, or ``(placeholder, name of what was raised)``."""
    try:
        text = repr(x)
    except BaseException as exc:  # noqa: BLE001 - user __repr__ may raise KeyboardInterrupt, SystemExit ...
        return placeholder(x), _type_name(exc)
    if type(text) is not str:
        return placeholder(x), "TypeError"
    return clip(text, limit), None


class _Text:
    """One bounded walk; only the outermost value may use its own ``repr`` (``user_repr``)."""

    def __init__(self, user_repr: bool) -> None:
        self.user_repr = user_repr
        self.error: str | None = None  # what the one allowed repr call raised

    def text(self, x: Any, level: int) -> str:
        cls = type(x)
        scalar = _scalar_text(x, cls)
        if scalar is not None:
            return scalar
        heavy = _heavy_object_text(x, cls)
        if heavy is not None:
            return heavy
        if issubclass(cls, (dict, list, tuple, set, frozenset)):
            if _is_torch_size(cls):
                return repr(x)  # torch.Size([2, 3]): a few ints, and the familiar spelling
            return self._container(x, cls, level)
        if _is_library_value(x, cls):
            return clip(repr(x), REPR_CHARS)
        if self.user_repr:
            self.user_repr = False  # the allowance is for this one object, not for what it holds
            text, self.error = _guarded_repr(x, REPR_CHARS)
            return text
        return f"{_type_name(x)}(…)"

    def _container(self, x: Any, cls: type, level: int) -> str:
        """dict/list/tuple/set and their subclasses, through the base classes, bounded."""
        self.user_repr = False
        exact = cls is dict or cls is list or cls is tuple or cls is set
        name = _type_name(x)
        if issubclass(cls, dict):
            items = OrderedDict.items(x) if issubclass(cls, OrderedDict) else dict.items(x)
            left, right = ("{", "}") if exact else (name + "({", "})")
            return self._join(items, dict.__len__(x), level, MAX_ITEMS["dict"], left, right, pairs=True)
        if issubclass(cls, list):
            left, right = ("[", "]") if exact else (name + "([", "])")
            return self._join(list.__iter__(x), list.__len__(x), level, MAX_ITEMS["list"], left, right)
        if issubclass(cls, tuple):
            n = tuple.__len__(x)
            # a namedtuple shows as Point(1, 2); a plain 1-tuple keeps its comma
            left, right = ("(", ",)" if n == 1 else ")") if exact else (name + "(", ")")
            return self._join(tuple.__iter__(x), n, level, MAX_ITEMS["tuple"], left, right)
        base = set if issubclass(cls, set) else frozenset
        n = base.__len__(x)
        if not n:
            return name + "()"
        left, right = ("{", "}") if cls is set else (name + "({", "})")
        return self._join(base.__iter__(x), n, level, MAX_ITEMS["set"], left, right)

    def _join(self, items: Any, n: int, level: int, most: int, left: str, right: str, pairs: bool = False) -> str:
        if n and level <= 0:
            return left + ELLIPSIS + right
        pieces = []
        for item in itertools.islice(items, most):
            if pairs:
                pieces.append(self.text(item[0], level - 1) + ": " + self.text(item[1], level - 1))
            else:
                pieces.append(self.text(item, level - 1))
        if n > most:
            pieces.append(ELLIPSIS)
        return left + ", ".join(pieces) + right


def _scalar_text(x: Any, cls: type) -> str | None:
    """Builtin scalars (exact types), bounded before formatting; None for anything else."""
    if cls is str:
        text = repr(x[: MAX_STRING + 1])
        return text if len(x) <= MAX_STRING else text[:-1] + ELLIPSIS + text[-1]
    if cls is int:
        if x.bit_length() > _MAX_INT_BITS:
            # Python refuses (and would take quadratic time) to print such ints in decimal
            return ngettext("<int with {n} bit>", "<int with {n} bits>", x.bit_length()).format(n=x.bit_length())
        text = repr(x)
        return text if len(text) <= MAX_LONG else text[: MAX_LONG // 2] + ELLIPSIS + text[-MAX_LONG // 2:]
    if cls is float or cls is bool or x is None or cls is complex:
        return repr(x)
    if cls is bytes or cls is bytearray:
        # slice before repr: repr of a 1 GB bytes object would build a 4 GB string
        head = repr(x[:MAX_STRING])
        return head if len(x) <= MAX_STRING else head[:-1] + ELLIPSIS + head[-1:]
    return None


def _is_torch_size(cls: type) -> bool:
    torch = library("torch")
    return torch is not None and cls is torch.Size


def _is_library_value(x: Any, cls: type) -> bool:
    """Exact library value types whose repr runs only library code on their own fields."""
    if any(cls is t for t in _VALUE_TYPES) or (issubclass(cls, pathlib.PurePath) and cls.__module__ == "pathlib"):
        return True
    torch, numpy = library("torch"), library("numpy")
    if torch is not None and (cls is torch.dtype or cls is torch.device or cls is torch.layout
                              or cls is torch.memory_format):
        return True
    return numpy is not None and ((issubclass(cls, numpy.generic) and cls.__module__ == "numpy"
                                   and not issubclass(cls, numpy.object_)) or issubclass(cls, numpy.dtype))


def _heavy_object_text(obj: Any, cls: type) -> str | None:
    """Metadata-only text for a tensor, ndarray or nn.Module met inside another object."""
    torch, numpy = library("torch"), library("numpy")
    try:
        if torch is not None and issubclass(cls, torch.Tensor):
            return f"{cls.__name__}(shape={list(tget(obj, 'shape'))}, dtype={tget(obj, 'dtype')})"
        if numpy is not None and issubclass(cls, numpy.ndarray):
            plain = plain_array(obj)
            return f"{cls.__name__}(shape={list(plain.shape)}, dtype={plain.dtype})"
        if torch is not None and issubclass(cls, torch.nn.Module):
            return f"{cls.__name__}(…)"  # a module's repr walks its whole tree
    except Exception:  # noqa: BLE001 - a nested or broken tensor may not know its shape
        return f"{_type_name(obj)}(…)"
    return None


__all__ = ["REPR_CHARS", "clip", "nested_repr", "placeholder", "placeholder_or_repr", "repr_and_error", "safe_repr"]
