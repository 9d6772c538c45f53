"""Pixels and the values they stand for (``explorer.protocol.pixels``): the kernel's map and the window's inverse."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from explorer.core.image.scale import scale_pixels
from explorer.protocol.pixels import PIXEL_MAX, pixel_step, pixel_value, value_limits

FINITE = st.floats(-1e6, 1e6, allow_nan=False, width=32)


@given(arrays(np.float32, st.integers(2, 40), elements=FINITE))
def test_a_pixel_stands_for_its_value_within_half_a_level(sample: np.ndarray) -> None:
    scaled = scale_pixels(sample, channels=1)
    lo, hi = value_limits(scaled.value_range)
    back = np.array([pixel_value(float(p), lo, hi) for p in scaled.pixels])
    assert np.all(np.abs(back - sample) <= pixel_step(lo, hi) / 2 * (1 + 1e-6) + 1e-9 * max(abs(lo), abs(hi), 1.0))


def test_the_ends_of_the_range_are_pixels_0_and_255() -> None:
    scaled = scale_pixels(np.array([-2.0, 0.5, 3.0]), channels=1)
    assert scaled.pixels.tolist()[0] == 0 and scaled.pixels.tolist()[-1] == PIXEL_MAX
    assert value_limits(scaled.value_range) == (-2.0, 3.0)
    assert pixel_value(0, -2.0, 3.0) == -2.0 and pixel_value(PIXEL_MAX, -2.0, 3.0) == pytest.approx(3.0)


@pytest.mark.parametrize(("top", "scaling"), [(1.0, "none"), (np.nextafter(np.float32(1), np.float32(2)), "min-max")])
def test_a_float_image_up_to_exactly_one_is_drawn_as_is(top: float, scaling: str) -> None:
    sample = np.array([0.0, 0.25, top], dtype=np.float32)
    scaled = scale_pixels(sample, channels=1)
    assert scaled.scaling == scaling
    if scaling == "none":
        assert scaled.value_range == [0.0, 1.0] and scaled.pixels.tolist() == [0, 64, 255]


def test_a_flat_image_and_odd_replies() -> None:
    assert pixel_step(2.0, 2.0) == 0.0 and pixel_value(255, 2.0, 2.0) == 2.0
    assert value_limits(None) == (0.0, 255.0)
    assert value_limits(["nan", "inf"]) == (0.0, 255.0) and value_limits([1.5]) == (1.5, 255.0)
