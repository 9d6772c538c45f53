"""Turn sampled values into 0..255 pixels, saying exactly how (as is, clipped, min-max)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from explorer.core.i18n import _, ngettext
from explorer.protocol.pixels import PIXEL_MAX


@dataclass
class Scaled:
    """Pixels plus the story of how values became them."""

    pixels: np.ndarray  # uint8, same shape as the input sample
    scaling: str  # "none" | "clip" | "min-max"
    range: list[float] | None  # data range used for min-max, else None
    value_range: list[float]  # the values that pixel 0 and pixel 255 stand for (explorer.protocol.pixels)
    notes: list[str] = field(default_factory=list)


def scale_pixels(sample: np.ndarray, channels: int) -> Scaled:
    """Map a sample to uint8: uint8 as is, bool 0/1, [0, 1] floats as is, RGB ints 0..255 clipped, else min-max.

    NaN becomes pixel 0; +/-inf become the ends of the range.
    """
    if sample.dtype == np.bool_:
        return Scaled(sample.astype(np.uint8) * 255, "none", None, [0.0, 1.0], [_("bool: False is black, True is white")])
    if sample.dtype == np.uint8:
        return Scaled(sample, "none", None, [0.0, 255.0])
    notes: list[str] = []
    if np.iscomplexobj(sample):
        sample = np.abs(sample)  # torch samples arrive as magnitudes already; numpy ones here
    found = _finite_range(sample)
    if found is None:
        notes.append(_("no finite values: everything is drawn black"))
        return Scaled(np.zeros(sample.shape, np.uint8), "min-max", None, [0.0, 1.0], notes)
    lo, hi, all_finite = found
    scaling, bounds = _choose(sample.dtype, channels, lo, hi)
    if not all_finite:
        notes.extend(_non_finite_notes(sample))
    pixels = _to_uint8(sample, bounds, all_finite)
    return Scaled(pixels, scaling, [lo, hi] if scaling == "min-max" else None, list(bounds), notes)


def _finite_range(sample: np.ndarray) -> tuple[float, float, bool] | None:
    """(min, max) of the finite values and whether all were finite; None when none is."""
    lo, hi = sample.min(), sample.max()
    if np.isfinite(lo) and np.isfinite(hi):
        return float(lo), float(hi), True  # NaN and inf would have shown up in min or max
    finite = sample[np.isfinite(sample)]
    if finite.size == 0:
        return None
    return float(finite.min()), float(finite.max()), False


def _choose(dtype: np.dtype, channels: int, lo: float, hi: float) -> tuple[str, tuple[float, float]]:
    """Pick the scaling rule and the value range that maps onto 0..255."""
    if dtype.kind in "iu" and channels >= 3 and lo >= 0 and hi <= 255:
        # matplotlib reads integer RGB as 0..255 (and clips); do the same.
        return "clip", (0.0, 255.0)
    if dtype.kind in "fc" and lo >= 0 and hi <= 1:
        return "none", (0.0, 1.0)
    return "min-max", (lo, hi)


def _to_uint8(sample: np.ndarray, bounds: tuple[float, float], all_finite: bool) -> np.ndarray:
    """Linear map of *bounds* onto 0..255, rounding; NaN -> 0, inf -> the nearest end."""
    lo, hi = bounds
    values = sample.astype(np.float64)  # a private copy: the steps below work in place
    if hi == lo:
        # a constant image: nothing to stretch (only +inf stands out, at the top)
        return np.where(np.isposinf(values), 255, 0).astype(np.uint8)
    if np.isfinite(hi - lo):
        factor = PIXEL_MAX / (hi - lo)
        values *= factor
        values -= lo * factor
    else:
        # hi - lo overflows near the float64 limits: halve everything first
        values *= 0.5
        values -= lo * 0.5
        values *= PIXEL_MAX / (hi * 0.5 - lo * 0.5)
    if not all_finite:
        np.nan_to_num(values, copy=False, nan=0.0, posinf=PIXEL_MAX, neginf=0.0)
    np.rint(values, out=values)
    np.clip(values, 0, PIXEL_MAX, out=values)
    return values.astype(np.uint8)


def _non_finite_notes(values: np.ndarray) -> list[str]:
    """Count NaN and infinities in the sample, as the notes a user needs."""
    notes = []
    nan = int(np.isnan(values).sum())
    if nan:
        notes.append(ngettext("{n} NaN value drawn as 0 (black)", "{n} NaN values drawn as 0 (black)", nan).format(n=nan))
    infinite = int(np.isposinf(values).sum()) + int(np.isneginf(values).sum())
    if infinite:
        notes.append(ngettext("{n} infinite value drawn at the ends of the range",
                              "{n} infinite values drawn at the ends of the range", infinite).format(n=infinite))
    return notes
