"""Which axes of an array are height, width, channels and batch: detection and naming.

Pure shape/dtype logic, no tensors touched, so the GUI-side rules (what the
canvas will show) and the kernel-side drawing agree by construction.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

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
        return _not_image(f"dtype {dtype_str} holds no numbers to draw")
    ndim = len(shape)
    if ndim < 2:
        return _not_image(f"a {ndim}-D value is not an image (images have 2 to 4 dimensions)")
    if ndim > 4:
        return _not_image(f"a {ndim}-D value is not an image (images have 2 to 4 dimensions)")
    if 0 in shape:
        return _not_image(f"shape {shape} has no elements")
    if ndim == 2:
        return _image("HW", False, f"2-D {shape[0]} x {shape[1]}: one channel (height x width)")
    return _detect_channels(shape, library)


def _detect_channels(shape: list[int], library: str) -> dict:
    """Decide channels-first or channels-last for a 3-D or 4-D shape."""
    batch = len(shape) == 4
    first, last = shape[-3], shape[-1]
    first_ok, last_ok = first in CHANNEL_COUNTS, last in CHANNEL_COUNTS
    cf, cl = ("NCHW", "NHWC") if batch else ("CHW", "HWC")
    what = f"a batch of {shape[0]} images, " if batch else ""
    if first_ok and last_ok:
        torch_like = _channels_first(library)
        layout = cf if torch_like else cl
        convention = "torch puts channels first" if torch_like else f"{library} puts channels last"
        return _image(
            layout, True,
            f"{what}{first} and {last} could both be channels; guessed {layout} because {convention}",
        )
    if first_ok:
        return _image(cf, False, f"{what}{_channels(first)} first, then {shape[-2]} x {shape[-1]} pixels")
    if last_ok:
        return _image(cl, False, f"{what}{shape[-3]} x {shape[-2]} pixels, then {_channels(last)}")
    return _not_image(
        f"shape {shape}: neither {first} nor {last} is a channel count (1, 3 or 4); "
        "choose a layout and one channel, or slice one image"
    )


def _channels(count: int) -> str:
    """'1 channel' / '3 channels'."""
    return f"{count} channel" if count == 1 else f"{count} channels"


def _image(layout: str, guessed: bool, reason: str) -> dict:
    return {"layout": layout, "guessed": guessed, "reason": reason}


def _not_image(reason: str) -> dict:
    return {"layout": None, "guessed": False, "reason": reason}


def check_layout(shape: Sequence[int], layout: str) -> None:
    """Raise ValueError (one sentence) when *layout* cannot describe *shape*."""
    if layout not in LAYOUTS:
        raise ValueError(f"Unknown layout {layout!r}; use one of {', '.join(LAYOUTS)}.")
    if len(shape) != layout_ndim(layout):
        raise ValueError(
            f"Layout {layout} needs a {layout_ndim(layout)}-D value, but the shape is {list(shape)}."
        )


def permute_text(name: str, layout: str, library: str) -> str | None:
    """The call that makes *name* channels-last, e.g. ``x.permute(1, 2, 0)``, or None."""
    order = channels_last_order(layout)
    if order is None:
        return None
    method = "permute" if str(library).lower() == "torch" else "transpose"
    return f"{name}.{method}({', '.join(str(i) for i in order)})"
