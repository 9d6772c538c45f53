"""Plain tensors and arrays are summarised from per-layout templates; nothing of one variable may leak into another."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.summary import ndarray as summary_numpy
from explorer.core.summary import tensor as summary_torch
from explorer.core.summary.static import array_data_ptr


def _tensor_pairs() -> dict[str, tuple[Any, Any]]:
    """Two tensors of one layout (class, dtype, device, shape, strides) that differ in everything else."""
    base = torch.arange(16.0).reshape(4, 4)
    graded = torch.zeros(2, 4, requires_grad=True)
    graded.grad = torch.ones(2, 4)
    return {
        "view_then_owner": (base[1:3], torch.zeros(2, 4)),
        "grad_then_plain": (graded, torch.zeros(2, 4)),
        "plain_then_grad": (torch.zeros(2, 4), graded),
        "nonleaf_then_leaf": (torch.ones(2, 4, requires_grad=True) * 2, torch.ones(2, 4)),
        "tiny_previews": (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])),
        "empty_views": (base[2:2], torch.zeros(0, 4)),
    }


@pytest.mark.parametrize("key", sorted(_tensor_pairs()))
def test_tensors_of_one_layout_keep_their_own_facts(key: str) -> None:
    first, second = _tensor_pairs()[key]
    for t in (first, second, first):  # the second and third reuse the template the first made
        assert summary_torch.tensor_var("t", t, torch) == summary_torch._safe_var("t", t, torch)


def test_parameter_and_tensor_of_one_layout_stay_apart() -> None:
    param = torch.nn.Parameter(torch.zeros(3))
    plain = torch.zeros(3)
    assert summary_torch.tensor_var("p", param, torch)["kind"] == "parameter"
    assert summary_torch.tensor_var("t", plain, torch)["kind"] == "tensor"
    assert summary_torch.tensor_var("p", param, torch)["is_parameter"] is True


def test_arrays_of_one_layout_keep_their_own_facts() -> None:
    base = np.arange(20.0).reshape(4, 5)
    view, owner = base[1:3], np.zeros((2, 5))
    for arr in (view, owner, view, base[2:4]):
        assert summary_numpy.array_var("a", arr, np.ndarray) == summary_numpy._careful_var("a", arr, np.ndarray)


def test_array_data_pointer_matches_numpy() -> None:
    base = np.arange(60, dtype=np.int16).reshape(3, 4, 5)
    for arr in (base, base[1:, ::2], base.T, base[..., 3], np.empty(0), np.array(2.5), base[::-1]):
        assert array_data_ptr(arr) == arr.ctypes.data


_DTYPES = [np.float32, np.float64, np.int8, np.int64, np.bool_, np.complex64]


@st.composite
def _layouts(draw: st.DrawFn) -> tuple[tuple[int, ...], Any, tuple[slice, ...]]:
    shape = tuple(draw(st.lists(st.integers(0, 5), min_size=0, max_size=3)))
    dtype = draw(st.sampled_from(_DTYPES))
    slices = tuple(slice(draw(st.integers(0, 2)), None, draw(st.sampled_from([1, 2, -1]))) for _ in shape)
    return shape, dtype, slices


@settings(max_examples=150, deadline=None)
@given(_layouts(), _layouts())
def test_any_two_values_summarise_as_the_careful_path_does(one: tuple, two: tuple) -> None:
    """Arrays and tensors in any order (templates made by one, used by the next) equal the field-by-field path."""
    values = []
    for shape, dtype, slices in (one, two, one):
        arr = np.arange(int(np.prod(shape)), dtype=np.int64).astype(dtype).reshape(shape)
        values.append(arr[slices] if shape else arr)
        positive = tuple(slice(s.start, None, abs(s.step)) for s in slices)  # torch has no negative steps
        values.append(torch.from_numpy(np.ascontiguousarray(arr))[positive] if shape else torch.from_numpy(arr))
    for value in values:
        if isinstance(value, np.ndarray):
            assert summary_numpy.array_var("v", value, np.ndarray) == summary_numpy._careful_var("v", value, np.ndarray)
        else:
            assert summary_torch.tensor_var("v", value, torch) == summary_torch._safe_var("v", value, torch)
