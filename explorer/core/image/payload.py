"""Draw tensors and arrays as images: automatic CHW -> HWC, batch grids, honest scaling.

``image_payload`` feeds the GUI's image canvas (small pixels, sized to the
canvas); ``render_png`` writes the same picture at full resolution for the
CLI's ``render``. Both go through :func:`build_image`, so they cannot disagree.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from explorer.core.i18n import _, ngettext
from explorer.core.image.hint import HintInput, hint_line, join_clauses
from explorer.core.image.layout import (
    CHANNEL_COUNTS,
    LAYOUTS,
    channel_count,
    channels_by_layout,
    check_layout,
    detect_layout,
    dtype_family,
    permute_text,
)
from explorer.core.image.sample import (
    Plan,
    assemble,
    check_drawable,
    describe,
    full_size,
    make_plan,
    take_sample,
)
from explorer.core.image.scale import Scaled, scale_pixels

__all__ = ["LAYOUTS", "build_image", "detect_layout", "image_payload", "render_png"]

RENDER_MAX_SIDE = 8192  # a PNG larger than this per side is downsampled like the canvas


def build_image(
    value: Any,
    *,
    name: str = "x",
    layout: str | None = None,
    channel: int | None = None,
    max_width: int = 800,
    max_height: int = 600,
) -> dict:
    """Everything :func:`image_payload` returns, with ``pixels`` as a (H, W, C) uint8 array."""
    array, library = describe(value)
    array = check_drawable(array, library, name)
    shape, dtype = [int(s) for s in array.shape], str(array.dtype)
    found = _layout_for(shape, dtype, library, layout, name)
    layout = found["layout"]
    channels = channel_count(shape, layout)
    _check_channel(channels, channel, layout, name)
    plan = make_plan(shape, layout, max(1, int(max_width)), max(1, int(max_height)))
    out_channels = 1 if channel is not None else channels
    scaled = scale_pixels(take_sample(array, library, layout, plan, channel), out_channels)
    result = {
        "layout": layout,
        "guessed": bool(found["guessed"]),
        "reason": found["reason"],
        "permute": None if channel is not None else permute_text(name, layout, library),
        "display_shape": full_size(plan, out_channels),
        "true_shape": shape,
        "source_channels": channels,
        "channel": channel,
        "library": library,
        "dtype": dtype,
    }
    result.update(_pixel_facts(scaled, plan))
    if dtype_family(dtype) == "complex":
        result["notes"].insert(0, _("complex values: drawing the magnitude |z|"))
    result["hint"] = hint_line(HintInput(name, library, layout, channels, channel, dtype, _to_cpu(array, library),
                                         scaled.scaling, scaled.range, plan.count))
    result["device_note"] = _device_note(array, library, plan)
    return result


def _to_cpu(array: Any, library: str) -> bool:
    """Whether the user's own line needs ``.detach().cpu()`` before ``.numpy()``."""
    return library == "torch" and (bool(array.requires_grad) or array.device.type != "cpu")


def _pixel_facts(scaled: Scaled, plan: Plan) -> dict:
    """The tiled pixels and how they were scaled and sampled."""
    pixels, tiles = assemble(scaled.pixels, plan)
    return {
        "scaling": scaled.scaling,
        "range": scaled.range,
        "value_range": scaled.value_range,
        "range_note": _range_note(scaled.scaling, plan),
        "grid": [plan.rows, plan.cols] if plan.batch else None,
        "tiles": tiles,
        "shown": plan.shown,
        "count": plan.count,
        "width": int(pixels.shape[1]),
        "height": int(pixels.shape[0]),
        "channels": int(pixels.shape[2]),
        "pixels": pixels,
        "zoom": int(scaled.pixels.shape[2]) / plan.width,
        "step": plan.step,
        "notes": scaled.notes + _batch_notes(plan),
    }


def _layout_for(shape: list[int], dtype: str, library: str, layout: str | None, name: str) -> dict:
    """The detected layout, or the user's override checked against the shape; raise if neither works."""
    if not shape or 0 in shape:
        raise ValueError(_("{name} is empty (shape {shape}): there are no pixels to draw.").format(
            name=name, shape=shape))
    if layout:
        check_layout(shape, layout)
        if dtype_family(dtype) is None:
            # TRANSLATORS: {reason} is a clause such as "dtype object holds no numbers to draw".
            raise ValueError(_("{name} cannot be drawn: {reason}.").format(
                name=name, reason=detect_layout(shape, dtype, library)["reason"]))
        return {"layout": layout, "guessed": False, "reason": _("layout {layout} chosen by you").format(layout=layout)}
    found = detect_layout(shape, dtype, library)
    if found["layout"] is None:
        # TRANSLATORS: {reason} is a clause such as "a 1-D value is not an image (images have 2 to 4 dimensions)".
        raise ValueError(_("{name} is not an image: {reason}.").format(name=name, reason=found["reason"]))
    return found


def _check_channel(channels: int, channel: int | None, layout: str, name: str) -> None:
    """Refuse a channel index out of range, or too many channels to draw together."""
    if channel is not None:
        if not 0 <= int(channel) < channels:
            raise ValueError(ngettext("{name} has {n} channel in layout {layout}; there is no channel {channel}.",
                                      "{name} has {n} channels in layout {layout}; there is no channel {channel}.",
                                      channels).format(name=name, n=channels, layout=layout, channel=channel))
        return
    if channels not in CHANNEL_COUNTS:
        raise ValueError(ngettext("{name} has {n} channel in layout {layout}; choose one channel to draw it.",
                                  "{name} has {n} channels in layout {layout}; choose one channel to draw it.",
                                  channels).format(name=name, n=channels, layout=layout))


def _range_note(scaling: str, plan: Plan) -> str | None:
    """Say when the min-max range was measured on the sample rather than on every element."""
    if scaling != "min-max" or (plan.step == 1 and plan.shown == plan.count):
        return None
    if plan.shown < plan.count:
        return _("range measured on the drawn pixels (one row and column in {step}, first {shown} images), "
                 "not on every element").format(step=plan.step, shown=plan.shown)
    return _("range measured on the drawn pixels (one row and column in {step}), not on every element").format(
        step=plan.step)


def _batch_notes(plan: Plan) -> list[str]:
    """Tell when a batch was cut to the first images."""
    if plan.shown < plan.count:
        return [_("showing the first {shown} of {count} images").format(shown=plan.shown, count=plan.count)]
    return []


def _device_note(array: Any, library: str, plan: Plan) -> str | None:
    """Explain the copy made for tensors off the CPU or in the autograd graph."""
    if library != "torch":
        return None
    parts = []
    if array.device.type != "cpu":
        # TRANSLATORS: {device} is a device such as "cuda:0"; {step} how many pixels one sampled pixel stands for.
        parts.append(_("sampled on {device} (one pixel in {step}), then only that sample was copied to the CPU").format(
            device=array.device, step=plan.step))
    if array.requires_grad:
        parts.append(_("drawn from a detached copy; the tensor and its graph are untouched"))
    return join_clauses(parts) or None


class ImageError(ValueError):
    """A value that cannot be drawn (one sentence), with the facts a view can still show (``facts``)."""

    def __init__(self, message: str, facts: dict) -> None:
        super().__init__(message)
        self.facts = facts


def _shape_facts(value: Any) -> dict:
    """How many channels each layout would give *value* (the view offers them as choices)."""
    try:  # a nested tensor cannot even say its shape
        shape = getattr(value, "shape", None)
        dims = [int(s) for s in shape] if shape is not None else None
    except Exception:  # noqa: BLE001 - no facts is a fine answer
        dims = None
    return {"channels_by_layout": channels_by_layout(dims)} if dims is not None else {}


def image_payload(
    value: Any,
    *,
    name: str = "x",
    layout: str | None = None,
    channel: int | None = None,
    max_width: int = 800,
    max_height: int = 600,
) -> dict:
    """Downsampled pixels and the facts the image canvas shows for one variable.

    Parameters
    ----------
    value : torch.Tensor or numpy.ndarray
        The variable (anything numpy can view, e.g. a PIL image, also works).
    name : str
        Its name, used in ``permute`` and ``hint``.
    layout : str, optional
        "HW", "CHW", "HWC", "NCHW" or "NHWC"; overrides detection.
    channel : int, optional
        Draw only this channel (returned as a 1-channel image).
    max_width, max_height : int
        Canvas size in device pixels; the value is sampled down to fit it.

    Returns
    -------
    dict
        See the module docs of :mod:`explorer.core.image.payload`; ``pixels`` are
        ``bytes`` (uint8, row-major H x W x C).

    Raises
    ------
    ValueError
        With one sentence, for values that cannot be drawn.
    """
    try:
        result = build_image(value, name=name, layout=layout, channel=channel,
                             max_width=max_width, max_height=max_height)
    except ValueError as exc:
        raise ImageError(str(exc), _shape_facts(value)) from exc
    result["pixels"] = result["pixels"].tobytes()
    result["channels_by_layout"] = channels_by_layout(result["true_shape"])
    return result


def render_png(value: Any, out_path: str, *, name: str = "x", layout: str | None = None) -> dict:
    """Write the canvas's picture of *value* to a PNG at full resolution (no axes).

    Returns
    -------
    dict
        The CLI's JSON: ``layout``, ``permute``, ``display_shape``, ``scaling``,
        ``grid`` (plus ``width``, ``height``, ``channels``, ``guessed``,
        ``range``, ``zoom`` and ``path``).
    """
    image = build_image(value, name=name, layout=layout,
                        max_width=RENDER_MAX_SIDE, max_height=RENDER_MAX_SIDE)
    _write_png(image["pixels"], out_path)
    keys = ("layout", "permute", "display_shape", "scaling", "grid", "guessed", "reason",
            "range", "width", "height", "channels", "zoom", "notes")
    summary = {key: image[key] for key in keys}
    summary["path"] = str(out_path)
    return summary


def _write_png(pixels: np.ndarray, out_path: str) -> None:
    """Save (H, W, C) uint8 pixels exactly, as L, RGB or RGBA."""
    from PIL import Image

    channels = pixels.shape[2]
    array = pixels[:, :, 0] if channels == 1 else pixels
    # uint8 (H, W) / (H, W, 3) / (H, W, 4) arrays become L / RGB / RGBA images
    Image.fromarray(np.ascontiguousarray(array)).save(out_path, format="PNG")
