"""The one line of matplotlib a learner would type to draw what the canvas shows."""

from __future__ import annotations

from dataclasses import dataclass

from explorer.core.i18n import _
from explorer.core.image.layout import channels_last_order


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
    layout, comments = h.layout, []
    batch = layout.startswith("N")
    if batch:
        layout = layout[1:]
        # TRANSLATORS: a comment after a line of code: the line draws the first image of a batch of {count}.
        comments.append(_("image 0 of {count}").format(count=h.count))
    single = h.channel is not None or h.channels == 1 or layout == "HW"
    expr = h.name + _select(layout, h, single, batch)
    expr = _torch_tail(expr, h) if h.library == "torch" else _numpy_tail(expr, h)
    if h.scaling == "min-max" and not single and h.range is not None:
        lo, hi = h.range
        limits = "0..255" if _is_integer(h.dtype) else "[0, 1]"
        # TRANSLATORS: a comment after a line of code; {limits} is "0..255" or "[0, 1]".
        comments.append(_("values {lo} to {hi}: rescale first, imshow clips RGB to {limits}").format(
            lo=f"{lo:.3g}", hi=f"{hi:.3g}", limits=limits))
    line = f"plt.imshow({expr}{_kwargs(h, single)})"
    return line + ("  # " + join_clauses(comments) if comments else "")


def join_clauses(parts: list[str]) -> str:
    """Clauses joined into one sentence the way the language does it ("a; b")."""
    text = parts[0] if parts else ""
    for part in parts[1:]:
        # TRANSLATORS: two clauses of one note, such as "3 NaN values drawn as 0; 1 infinite value drawn ...".
        text = _("{first}; {second}").format(first=text, second=part)
    return text


def _is_integer(dtype: str) -> bool:
    """Integer dtype names (torch or numpy spelling)."""
    return dtype.removeprefix("torch.").startswith(("int", "uint"))


def _select(layout: str, h: HintInput, single: bool, batch: bool) -> str:
    """Indexing (first image, one channel) or permutation that leaves (H, W) or (H, W, C)."""
    lead = ["0"] if batch else []
    if single and layout != "HW":
        channel = str(0 if h.channel is None else h.channel)
        lead += [channel] if layout == "CHW" else ["...", channel]
    text = f"[{', '.join(lead)}]" if lead else ""
    order = channels_last_order(layout)
    if single or order is None:
        return text
    method = "permute" if h.library == "torch" else "transpose"
    return f"{text}.{method}({', '.join(str(i) for i in order)})"


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
