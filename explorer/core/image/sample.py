"""Take the few pixels the canvas needs out of a tensor or array, and tile batches.

Everything big stays where it is: the value is sliced with a stride *before*
any copy, dtype conversion or device transfer, so a 4096 x 4096 image on a GPU
costs a ~600 x 600 copy, not 200 MB.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

from explorer.core.i18n import _
from explorer.core.image.layout import channel_axis, channels_last_order
from explorer.core.summary.sparse import check_sparse

MAX_TILES = 256  # a batch grid beyond 16 x 16 tiles shows nothing a person can read
TILE_GAP = 2  # output pixels between grid tiles
GAP_FILL = 255  # white gaps, like matplotlib's figure background
SPARSE_DENSE_LIMIT = 1 << 24  # elements; larger sparse tensors are refused, not densified


@dataclass(frozen=True)
class Plan:
    """How to sample: which images, how many rows/columns of tiles, and the stride."""

    batch: bool
    count: int  # images in the value (1 when not a batch)
    shown: int  # images drawn
    rows: int
    cols: int
    step: int  # take every step-th row and column
    height: int  # true height of one image
    width: int


def describe(value: Any) -> tuple[Any, str]:
    """Return (array-like, library) for a tensor, an ndarray or an object numpy can view; else raise."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        return value, "torch"
    if isinstance(value, np.ndarray):
        return value, "numpy"
    if hasattr(value, "__array_interface__") or hasattr(value, "__array_struct__"):
        # e.g. a PIL image: numpy gives a channels-last view of it.
        return np.asarray(value), "numpy"
    raise ValueError(_("A value of type {type} is not a tensor or an array, so it cannot be drawn as an image.").format(
        type=type(value).__name__))


def check_drawable(value: Any, library: str, name: str) -> Any:
    """Refuse tensors without readable values (meta, nested); densify small sparse ones."""
    if library != "torch":
        return value
    if value.is_meta:
        raise ValueError(_("{name} is on the meta device: it has a shape but no values to draw.").format(name=name))
    if getattr(value, "is_nested", False):
        raise ValueError(_("{name} is a nested tensor; draw one of its components instead.").format(name=name))
    if str(value.layout) != "torch.strided":
        if value.numel() > SPARSE_DENSE_LIMIT:
            # TRANSLATORS: {code} is a Python expression, such as "x.to_dense()".
            raise ValueError(_("{name} is a large sparse tensor; draw a slice of {code}.").format(
                name=name, code=f"{name}.to_dense()"))
        check_sparse(value)  # indices that do not fit the shape would make to_dense() crash Python
        return value.detach().to_dense()
    return value


def make_plan(shape: list[int], layout: str, max_width: int, max_height: int) -> Plan:
    """Choose the batch grid and the sampling stride that fit the canvas."""
    batch = layout.startswith("N")
    axes = _spatial_axes(layout)
    height, width = shape[axes[0]], shape[axes[1]]
    count = shape[0] if batch else 1
    shown = min(count, MAX_TILES)
    cols = math.ceil(math.sqrt(shown))
    rows = math.ceil(shown / cols)
    room_w = max(1, (max_width - TILE_GAP * (cols - 1)) // cols)
    room_h = max(1, (max_height - TILE_GAP * (rows - 1)) // rows)
    step = max(1, math.ceil(height / room_h), math.ceil(width / room_w))
    return Plan(batch, count, shown, rows, cols, step, height, width)


def _spatial_axes(layout: str) -> tuple[int, int]:
    """Axes of height and width in *layout*."""
    return layout.index("H"), layout.index("W")


def _index(layout: str, plan: Plan, channel: int | None) -> tuple:
    """The basic-slicing index that picks the shown images, the stride and the channel."""
    index: list[Any] = [slice(None)] * len(layout)
    if plan.batch:
        index[0] = slice(0, plan.shown)
    for axis in _spatial_axes(layout):
        index[axis] = slice(None, None, plan.step)
    c_axis = channel_axis(layout)
    if channel is not None and c_axis is not None:
        index[c_axis] = slice(channel, channel + 1)  # keep the axis: always N, H, W, C below
    return tuple(index)


def take_sample(value: Any, library: str, layout: str, plan: Plan, channel: int | None) -> np.ndarray:
    """The strided sample as a small C-contiguous (N, H, W, C) numpy array."""
    index = _index(layout, plan, channel)
    if library == "torch":
        return _torch_sample(value, layout, index)
    sample = value[index]
    order = channels_last_order(layout)
    if order is not None:
        sample = np.transpose(sample, order)
    return np.ascontiguousarray(_to_nhwc(sample, layout))


def _to_nhwc(sample: Any, layout: str) -> Any:
    """Add the missing batch and channel axes (works for numpy arrays and tensors)."""
    if layout == "HW":
        sample = sample[..., None]
    if not layout.startswith("N"):
        sample = sample[None]
    return sample


def _torch_sample(value: Any, layout: str, index: tuple) -> np.ndarray:
    """Slice on the tensor's own device, convert only the sample, then copy it to the CPU."""
    import torch

    with torch.no_grad():
        sample = value.detach()[index]
        order = channels_last_order(layout)
        if order is not None:
            sample = sample.permute(order)
        sample = _to_nhwc(sample, layout)
        if sample.is_quantized:
            sample = sample.dequantize()
        if sample.is_complex():
            # complex32 has few kernels; widen, then keep only the magnitude (smaller copy).
            sample = sample.to(torch.complex64).abs()
        elif sample.is_floating_point() and sample.dtype.itemsize <= 2:
            sample = sample.to(torch.float32)  # numpy has no bf16/fp8; fp16 is slow in numpy
        return sample.cpu().contiguous().numpy()


def assemble(tiles: np.ndarray, plan: Plan) -> tuple[np.ndarray, list[dict]]:
    """Lay out (N, h, w, C) uint8 tiles as one grid image; return it and the tile boxes."""
    if not plan.batch:
        return tiles[0], []
    count, h, w, channels = tiles.shape
    out_h = plan.rows * h + (plan.rows - 1) * TILE_GAP
    out_w = plan.cols * w + (plan.cols - 1) * TILE_GAP
    out = np.full((out_h, out_w, channels), GAP_FILL, dtype=np.uint8)
    boxes = []
    for i in range(count):
        row, col = divmod(i, plan.cols)
        y, x = row * (h + TILE_GAP), col * (w + TILE_GAP)
        out[y:y + h, x:x + w] = tiles[i]
        boxes.append({"index": i, "x": x, "y": y, "w": w, "h": h})
    return out, boxes


def full_size(plan: Plan, channels: int) -> list[int]:
    """[H, W, C] of the displayed image (or grid) at full resolution."""
    if not plan.batch:
        return [plan.height, plan.width, channels]
    return [
        plan.rows * plan.height + (plan.rows - 1) * TILE_GAP,
        plan.cols * plan.width + (plan.cols - 1) * TILE_GAP,
        channels,
    ]
