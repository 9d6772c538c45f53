"""What a pixel of the Image tab stands for: the kernel maps values to 0..255, the window maps them back.

The kernel sends one-channel images as uint8 pixels and ``value_range`` ``[lo, hi]``:
pixel 0 stands for ``lo`` and pixel 255 for ``hi``, linearly in between
(``explorer.core.image.scale``). The window turns pixels back into values with the
same rule, so its colour bar reads in the tensor's own units.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: The brightest pixel; pixel 0 is the darkest.
PIXEL_MAX = 255
#: What pixels stand for when the reply says nothing: themselves.
_PLAIN = (0.0, float(PIXEL_MAX))


def value_limits(value_range: Sequence[object] | None) -> tuple[float, float]:
    """``(lo, hi)``: the values pixel 0 and pixel 255 stand for (a missing or non-finite end: the pixel itself)."""
    ends = list(value_range or ())
    lo, hi = (_finite(ends[i], _PLAIN[i]) if i < len(ends) else _PLAIN[i] for i in (0, 1))
    return lo, hi


def pixel_step(lo: float, hi: float) -> float:
    """How much one pixel level is worth (0 for a flat image, where every pixel stands for ``lo``)."""
    return (hi - lo) / PIXEL_MAX if hi > lo else 0.0


def pixel_value(pixel: float, lo: float, hi: float) -> float:
    """The data value *pixel* stands for."""
    return lo + pixel * pixel_step(lo, hi)


def _finite(value: object, default: float) -> float:
    try:
        number = float(value)  # type: ignore[arg-type]  # a reply field: a number, or "nan"/"inf" text
    except (TypeError, ValueError):
        return default
    return number if math.isfinite(number) else default
