"""Which axes of an array are height, width, channels and batch: detection and naming.

Pure shape/dtype logic, no tensors touched, so the GUI-side rules (what the
canvas will show) and the kernel-side drawing agree by construction.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from explorer.core.i18n import _, ngettext

LAYOUTS: tuple[str, ...] = ("HW", "CHW", "HWC", "NCHW", "NHWC")
CHANNEL_COUNTS: tuple[int, ...] = (1, 3, 4)

# Where each layout keeps its channel axis (None: no channel axis).
_CHANNEL_AXIS: dict[str, int | None] = {"HW": None, "CHW": 0, "HWC": 2, "NCHW": 1, "NHWC": 3}
# The permutation that turns a layout into its channels-last twin (None: already is).
_TO_LAST: dict[str, tuple[int, ...] | None] = {
    "HW": None,
    "CHW": (1, 2, 0),
    "HWC": None,
    "NCHW": (0, 2, 3, 1),
    "NHWC": None,
}


def layout_ndim(layout: str) -> int:
    """Number of dimensions a layout describes."""
    return len(layout)


def channel_axis(layout: str) -> int | None:
    """Axis holding the channels in *layout*, or None for HW."""
    return _CHANNEL_AXIS[layout]


def channels_last_order(layout: str) -> tuple[int, ...] | None:
    """Permutation that brings *layout* to channels-last, or None when it already is."""
    return _TO_LAST[layout]


def channel_count(shape: Sequence[int], layout: str) -> int:
    """Number of channels an array of *shape* has when read as *layout*."""
    axis = channel_axis(layout)
    return 1 if axis is None else int(shape[axis])


def channels_by_layout(shape: Sequence[int]) -> dict[str, int | None]:
    """For each layout, the channels *shape* would have read that way (None where the rank differs)."""
    return {lay: channel_count(shape, lay) if len(shape) == layout_ndim(lay) else None for lay in LAYOUTS}


def dtype_family(dtype_str: str) -> str | None:
    """Classify a dtype name as 'bool', 'uint8', 'int', 'float', 'complex' or None (not drawable)."""
    name = str(dtype_str).removeprefix("torch.")
    try:
        kind_of = np.dtype(name)
    except Exception:  # noqa: BLE001 - any odd text (structured dtypes, torch-only names) lands here
        kind_of = None
    if kind_of is not None:
        if kind_of.kind == "b":
            return "bool"
        if kind_of.kind in "iu":
            return "uint8" if kind_of == np.uint8 else "int"
        return {"f": "float", "c": "complex"}.get(kind_of.kind)
    # torch-only names numpy does not know (bfloat16, float8_*, complex32, qint8, ...).
    if name in ("cfloat", "cdouble", "chalf") or name.startswith("complex"):
        return "complex"
    if "float" in name or name in ("half", "double") or name.startswith(("qint", "quint")):
        return "float"
    if name.startswith(("int", "uint")):
        return "int"
    return None


def _channels_first(library: str) -> bool:
    """Whether the library's images are usually channels-first (torch) or channels-last."""
    return str(library).lower() in ("torch", "pytorch")


def detect_layout(shape: Sequence[int], dtype_str: str, library: str) -> dict:
    """Guess how an array of this shape and dtype is laid out as an image.

    Parameters
    ----------
    shape : sequence of int
        The array's shape.
    dtype_str : str
        Its dtype as the library prints it ("torch.float32", "uint8", ...).
    library : str
        "torch", "numpy" or "matplotlib"; settles ambiguous shapes (torch
        images are channels-first, numpy/matplotlib ones channels-last).

    Returns
    -------
    dict
        ``{"layout", "guessed", "reason"}``; ``layout`` is None (and
        ``guessed`` False) when the value is not an image.
    """
    shape = [int(s) for s in shape]
    family = dtype_family(dtype_str)
    if family is None:
        return _not_image(_("dtype {dtype} holds no numbers to draw").format(dtype=dtype_str))
    ndim = len(shape)
    if ndim < 2 or ndim > 4:
        # TRANSLATORS: {n}-D is the number of dimensions, e.g. "a 5-D value".
        return _not_image(_("a {n}-D value is not an image (images have 2 to 4 dimensions)").format(n=ndim))
    if 0 in shape:
        return _not_image(_("shape {shape} has no elements").format(shape=shape))
    if ndim == 2:
        return _image("HW", False, _("2-D {height} × {width}: one channel (height × width)").format(
            height=shape[0], width=shape[1]))
    return _detect_channels(shape, library)


def _detect_channels(shape: list[int], library: str) -> dict:
    """Decide channels-first or channels-last for a 3-D or 4-D shape."""
    batch = len(shape) == 4
    first, last = shape[-3], shape[-1]
    first_ok, last_ok = first in CHANNEL_COUNTS, last in CHANNEL_COUNTS
    cf, cl = ("NCHW", "NHWC") if batch else ("CHW", "HWC")
    if not (first_ok or last_ok):
        return _not_image(_("shape {shape}: neither {first} nor {last} is a channel count (1, 3 or 4); "
                            "choose a layout and one channel, or slice one image").format(
            shape=shape, first=first, last=last))
    if first_ok and last_ok:
        layout = cf if _channels_first(library) else cl
        if _channels_first(library):
            reason = _("{first} and {last} could both be channels; guessed {layout} because torch puts "
                       "channels first").format(first=first, last=last, layout=layout)
        else:
            # TRANSLATORS: {library} is "numpy" or "matplotlib".
            reason = _("{first} and {last} could both be channels; guessed {layout} because {library} puts "
                       "channels last").format(first=first, last=last, layout=layout, library=library)
    elif first_ok:
        layout = cf
        reason = _("{channels} first, then {height} × {width} pixels").format(
            channels=_channels(first), height=shape[-2], width=shape[-1])
    else:
        layout = cl
        reason = _("{height} × {width} pixels, then {channels}").format(
            channels=_channels(last), height=shape[-3], width=shape[-2])
    if batch:
        # TRANSLATORS: {reason} is one of the sentences above, about one image of the batch.
        reason = ngettext("a batch of {n} image, {reason}", "a batch of {n} images, {reason}", shape[0]).format(
            n=shape[0], reason=reason)
    return _image(layout, first_ok and last_ok, reason)


def _channels(count: int) -> str:
    """'1 channel' / '3 channels'."""
    return ngettext("{n} channel", "{n} channels", count).format(n=count)


def _image(layout: str, guessed: bool, reason: str) -> dict:
    return {"layout": layout, "guessed": guessed, "reason": reason}


def _not_image(reason: str) -> dict:
    return {"layout": None, "guessed": False, "reason": reason}


def check_layout(shape: Sequence[int], layout: str) -> None:
    """Raise ValueError (one sentence) when *layout* cannot describe *shape*."""
    if layout not in LAYOUTS:
        # TRANSLATORS: {choices} lists the layouts, such as "HW, CHW, HWC, NCHW, NHWC".
        raise ValueError(_("Unknown layout {layout}; use one of {choices}.").format(
            layout=repr(layout), choices=", ".join(LAYOUTS)))
    if len(shape) != layout_ndim(layout):
        raise ValueError(_("Layout {layout} needs a {n}-D value, but the shape is {shape}.").format(
            layout=layout, n=layout_ndim(layout), shape=list(shape)))


def permute_text(name: str, layout: str, library: str) -> str | None:
    """The call that makes *name* channels-last, e.g. ``x.permute(1, 2, 0)``, or None."""
    order = channels_last_order(layout)
    if order is None:
        return None
    method = "permute" if str(library).lower() == "torch" else "transpose"
    return f"{name}.{method}({', '.join(str(i) for i in order)})"
