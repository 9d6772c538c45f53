"""The storage position of an element (``explorer.protocol.positions``): the rule both sides of the wire use."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from explorer.core.memory.map import element_position
from explorer.protocol.positions import position_formula, storage_position, unravel


@given(st.lists(st.integers(1, 5), min_size=1, max_size=4), st.data())
def test_unravel_is_c_order(shape: list[int], data: st.DataObject) -> None:
    flat = data.draw(st.integers(0, int(np.prod(shape)) - 1))
    assert unravel(flat, shape) == [int(i) for i in np.unravel_index(flat, shape)]


def test_an_empty_dimension_unravels_to_zero() -> None:
    assert unravel(3, [0, 4]) == [0, 3]


@pytest.mark.parametrize("make", [
    lambda: torch.arange(60.0).reshape(3, 4, 5).permute(2, 0, 1)[1:3],
    lambda: torch.arange(60.0).reshape(3, 4, 5)[1:, ::2, 1:4],
    lambda: torch.arange(10.0)[2:].expand(3, 8),
], ids=["permuted", "sliced", "expanded"])
def test_the_position_is_where_torch_keeps_the_element(make) -> None:
    view = make()
    base = view.untyped_storage().data_ptr()
    for index in np.ndindex(*view.shape):
        expected = (view[index].data_ptr() - base) // view.itemsize
        assert storage_position(view.storage_offset(), view.stride(), index) == expected
        assert element_position(view, list(index))["position"] == expected


def test_the_formula_writes_the_sum_out() -> None:
    assert position_formula(1, [20, 5, 1], [1, 2, 3]) == "1 + 1×20 + 2×5 + 3×1 = 34"
    assert position_formula(4, [], []) == "4 = 4"
