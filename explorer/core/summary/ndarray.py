"""VAR records for numpy arrays (ndarray, memmap and other subclasses), from metadata only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from explorer.core.i18n import _, ngettext
from explorer.core.summary.fields import add_note, blank_var, error_text
from explorer.core.summary.format import array_preview, clip
from explorer.core.summary.static import PRISTINE_BUILTINS, array_base, array_data_ptr, library, plain_array
from explorer.core.summary.static import outermost_array as _outermost_plain

globals()["__builtins__"] = PRISTINE_BUILTINS

PREVIEW_MAX_NUMEL = 16
DTYPE_CHARS = 200

# str(dtype) costs several microseconds in numpy 2; dtypes are hashable and few.
_DTYPE_TEXT: dict[Any, str] = {}


def _dtype_text(dtype: Any) -> str:
    """``str(dtype)`` memoised ("float64", "<U5", "[('a', '<i4'), ...]")."""
    text = _DTYPE_TEXT.get(dtype)
    if text is None:
        text = clip(str(dtype), DTYPE_CHARS)  # a structured dtype can print as kilobytes
        if len(_DTYPE_TEXT) < 512:
            _DTYPE_TEXT[dtype] = text
    return text


def outermost_array(a: Any, ndarray: Any) -> Any:
    """The last ndarray in ``a.base, a.base.base, ...`` (the allocation's owner), as a plain view."""
    return _outermost_plain(a)


def readable_array(a: Any) -> Any:
    """*a* itself for numpy's own classes (memmap, masked arrays); a plain view of a user subclass.

    Reading a user subclass through a plain ``ndarray`` view never calls its
    properties, ``__getitem__`` or ``__array_finalize__``.
    """
    cls = type(a)
    if cls is library("numpy").ndarray or str(cls.__dict__.get("__module__", "")).startswith("numpy"):
        return a
    return plain_array(a)


def byte_bounds(ptr: int, shape: tuple[int, ...], byte_strides: tuple[int, ...], itemsize: int) -> tuple[int, int]:
    """``[low, high)`` addresses any element of a strided array can touch (empty -> zero bytes)."""
    if 0 in shape:
        return ptr, ptr
    low = high = ptr
    for n, s in zip(shape, byte_strides):
        if s < 0:
            low += s * (n - 1)
        else:
            high += s * (n - 1)
    return low, high + itemsize


def array_var(name: str, a: Any, ndarray: Any) -> dict[str, Any]:
    """Summarise a numpy array; never raises (unreadable fields become null with a note)."""
    if type(a) is ndarray:
        try:
            return _fast_var(name, a, ndarray)
        except Exception:  # noqa: BLE001 - e.g. itemsize 0: the careful path says why
            pass
    return _careful_var(name, a, ndarray)


def _careful_var(name: str, a: Any, ndarray: Any) -> dict[str, Any]:
    """Field group by field group; a group that fails is null with a note."""
    var = blank_var(name, "ndarray", type(a).__name__)
    var["is_view"] = array_base(a) is not None
    a = readable_array(a)
    var["device"] = "cpu"
    var["overlaps"] = []
    var["is_parameter"] = False
    var["layout"] = "strided"
    try:
        for _, step in _STEPS:
            step(a, var, ndarray)
    except Exception:  # noqa: BLE001 - rare (hostile subclasses): redo step by step
        for field, step in _STEPS:
            try:
                step(a, var, ndarray)
            except Exception as exc:  # noqa: BLE001
                add_note(var, error_text(field, exc))
    return var


# (dtype, shape, byte strides) -> the fields they decide, and the byte extent relative to
# element 0. Arrays of one layout share a template (its lists too: VARs are read-only).
_TEMPLATES: dict[tuple, tuple[dict[str, Any], int, int]] = {}
_TEMPLATE_LIMIT = 4096


def _fast_var(name: str, a: Any, ndarray: Any) -> dict[str, Any]:
    """Every field of a plain ndarray in one run (raises on what needs the careful path's notes)."""
    key = (a.dtype, a.shape, a.strides)
    template, lo, hi = _TEMPLATES.get(key) or _template(a, key)
    ptr = array_data_ptr(a)
    base = a.base  # an exact ndarray: its own attribute, no subclass code
    if base is None:
        low, nbytes = ptr + lo, hi - lo
    else:
        outer = base if type(base) is ndarray and base.base is None else outermost_array(a, ndarray)
        outer_lo, outer_hi = _extent(outer.shape, outer.strides, outer.itemsize)
        low = array_data_ptr(outer) + outer_lo
        nbytes = outer_hi - outer_lo
    item = template["itemsize"]
    offset, rest = divmod(ptr - low, item)
    if rest:
        raise ValueError("the storage offset is not a multiple of the itemsize")
    var = template.copy()
    var["name"] = name
    var["storage_offset"] = offset
    var["data_ptr"] = ptr
    var["storage"] = {"data_ptr": low, "nbytes": nbytes}
    var["is_view"] = base is not None
    var["overlaps"] = []
    if var["numel"] <= PREVIEW_MAX_NUMEL:
        var["preview"] = array_preview(a)
    return var


def _template(a: Any, key: tuple) -> tuple[dict[str, Any], int, int]:
    """The fields :func:`_fast_var` takes from the layout, read from *a* once."""
    dtype, shape, byte_strides = key
    item = a.itemsize
    strides = [s // item for s in byte_strides]
    if any(s * item != b for s, b in zip(strides, byte_strides)):
        raise ValueError("byte strides are not multiples of the itemsize")
    var = blank_var("", "ndarray", "ndarray")
    var.update({
        "shape": list(shape), "dtype": _dtype_text(dtype), "device": "cpu",
        "strides": strides, "byte_strides": list(byte_strides), "itemsize": item, "numel": a.size,
        "nbytes": a.nbytes, "is_contiguous": a.flags.c_contiguous, "is_parameter": False, "layout": "strided",
    })
    found = (var, *_extent(shape, byte_strides, item))
    if len(_TEMPLATES) >= _TEMPLATE_LIMIT:
        _TEMPLATES.clear()  # a session of ever-new shapes: start over rather than grow
    _TEMPLATES[key] = found
    return found


_EXTENTS: dict[tuple, tuple[int, int]] = {}


def _extent(shape: tuple[int, ...], byte_strides: tuple[int, ...], itemsize: int) -> tuple[int, int]:
    """:func:`byte_bounds` relative to element 0, memoised per layout."""
    key = (shape, byte_strides, itemsize)
    found = _EXTENTS.get(key)
    if found is None:
        found = byte_bounds(0, shape, byte_strides, itemsize)
        if len(_EXTENTS) >= _TEMPLATE_LIMIT:
            _EXTENTS.clear()
        _EXTENTS[key] = found
    return found


def _step_basics(a: Any, var: dict[str, Any], ndarray: Any) -> None:
    # int(): an ndarray subclass may report numpy integers, which JSON cannot carry.
    var["shape"] = [int(d) for d in a.shape]
    var["dtype"] = _dtype_text(a.dtype)
    var["itemsize"] = int(a.itemsize)
    var["numel"] = int(a.size)
    var["nbytes"] = int(a.nbytes)
    var["is_contiguous"] = bool(a.flags.c_contiguous)


def _step_strides(a: Any, var: dict[str, Any], ndarray: Any) -> None:
    byte_strides = [int(s) for s in a.strides]
    var["byte_strides"] = byte_strides
    item = var["itemsize"]
    if not item:
        add_note(var, _("itemsize is 0: strides and offset in elements are undefined"))
    elif all(s % item == 0 for s in byte_strides):
        var["strides"] = [s // item for s in byte_strides]
    else:
        add_note(var, _("strides in elements undefined: byte strides {strides} are not multiples of itemsize {item}")
                 .format(strides=byte_strides, item=item))


def _step_memory(a: Any, var: dict[str, Any], ndarray: Any) -> None:
    ptr = int(a.ctypes.data)
    var["data_ptr"] = ptr
    outer = outermost_array(a, ndarray)
    outer_ptr = int(outer.ctypes.data)
    low, high = byte_bounds(outer_ptr, outer.shape, outer.strides, outer.itemsize)
    var["storage"] = {"data_ptr": low, "nbytes": high - low}
    offset = ptr - low
    item = var["itemsize"]
    if not item:
        return  # the strides step has said why
    if offset % item == 0:
        var["storage_offset"] = offset // item
    else:
        add_note(var, ngettext("storage offset in elements undefined: {offset} byte is not a multiple of itemsize {item}",
                               "storage offset in elements undefined: {offset} bytes is not a multiple of itemsize "
                               "{item}", offset).format(offset=offset, item=item))


def _step_preview(a: Any, var: dict[str, Any], ndarray: Any) -> None:
    if var["numel"] is not None and var["numel"] <= PREVIEW_MAX_NUMEL:
        var["preview"] = array_preview(a)


_Step = Callable[[Any, dict, type], None]
_STEPS: tuple[tuple[str, _Step], ...] = (
    ("shape", _step_basics),
    ("strides", _step_strides),
    ("storage", _step_memory),
    ("preview", _step_preview),
)
