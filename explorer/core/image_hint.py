"""The one line of matplotlib a learner would type to draw what the canvas shows."""

from __future__ import annotations

from dataclasses import dataclass

from explorer.core.image_layout import channels_last_order


@dataclass(frozen=True)
class HintInput:
    """What the hint depends on."""

    name: str
    library: str  # "torch" or "numpy"
    layout: str
    channels: int  # channels in the data (before a channel is picked)
    channel: int | None
    dtype: str  # as the library prints it
    to_cpu: bool  # tensor needs .detach().cpu() before .numpy()
    scaling: str
    range: list[float] | None
    count: int  # images in a batch


def hint_line(h: HintInput) -> str:
    """``plt.imshow(...)`` for the value, with a short comment when the canvas did more."""
    expr, layout, comments = h.name, h.layout, []
    if layout.startswith("N"):
        expr += "[0]"
        layout = layout[1:]
        comments.append(f"image 0 of {h.count}")
    single = h.channel is not None or h.channels == 1 or layout == "HW"
    expr += _select(layout, h, single)
    expr = _torch_tail(expr, h) if h.library == "torch" else _numpy_tail(expr, h)
    kwargs = _kwargs(h, single)
    if h.scaling == "min-max" and not single and h.range is not None:
        lo, hi = h.range
        comments.append(f"values {lo:.3g} to {hi:.3g}: rescale to [0, 1] first or imshow clips them")
    line = f"plt.imshow({expr}{kwargs})"
    return line + ("  # " + "; ".join(comments) if comments else "")


def _select(layout: str, h: HintInput, single: bool) -> str:
    """Indexing or permutation that leaves an (H, W) or (H, W, C) array."""
    if layout == "HW":
        return ""
    index = 0 if h.channel is None else h.channel
    if single:
        return f"[{index}]" if layout == "CHW" else f"[..., {index}]"
    order = channels_last_order(layout)
    if order is None:
        return ""
    method = "permute" if h.library == "torch" else "transpose"
    return f".{method}({', '.join(str(i) for i in order)})"


def _torch_tail(expr: str, h: HintInput) -> str:
    """Detach/copy to the CPU when needed, convert dtypes numpy lacks, then ``.numpy()``."""
    dtype = h.dtype.removeprefix("torch.")
    if h.to_cpu:
        expr += ".detach().cpu()"
    if dtype in ("complex32", "chalf"):
        expr += ".cfloat().abs()"
    elif dtype.startswith("complex") or dtype in ("cfloat", "cdouble"):
        expr += ".abs()"
    elif dtype.startswith(("qint", "quint")):
        expr += ".dequantize()"
    elif dtype in ("bfloat16", "float16", "half") or dtype.startswith("float8"):
        expr += ".float()"
    return expr + ".numpy()"


def _numpy_tail(expr: str, h: HintInput) -> str:
    """Magnitude for complex arrays; float32 for float16 (matplotlib dislikes it)."""
    if h.dtype.startswith("complex"):
        return f"np.abs({expr})"
    if h.dtype == "float16":
        return f'{expr}.astype("float32")'
    return expr


def _kwargs(h: HintInput, single: bool) -> str:
    """cmap and fixed limits so imshow scales one channel exactly like the canvas."""
    if not single:
        return ""
    limits = {"none": None, "clip": "0, 255"}.get(h.scaling)
    dtype = h.dtype.removeprefix("torch.")
    if h.scaling == "none":
        limits = "0, 255" if dtype == "uint8" else "0, 1"
    text = ', cmap="gray"'
    if limits is not None:
        lo, hi = limits.split(", ")
        text += f", vmin={lo}, vmax={hi}"
    return text
