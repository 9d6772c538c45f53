"""The groups of VAR kinds (``explorer.protocol.kinds``): the one rule every layer asks."""

from __future__ import annotations

from typing import get_args

import numpy as np
import pytest
import torch

from explorer.core.summary.dispatch import summarize
from explorer.protocol import kinds


def test_the_groups_cover_every_kind_once() -> None:
    every = set(get_args(kinds.VarKind))
    assert kinds.TENSOR_KINDS < kinds.ARRAY_KINDS
    assert kinds.ARRAY_KINDS.isdisjoint(kinds.CONTAINER_KINDS)
    assert kinds.ARRAY_KINDS | kinds.CONTAINER_KINDS | {"other"} == every


@pytest.mark.parametrize(("value", "array", "tensor"), [
    (torch.zeros(2, 3), True, True),
    (torch.nn.Parameter(torch.zeros(2)), True, True),
    (torch.zeros(2, 3, device="meta"), True, True),
    (torch.eye(3).to_sparse(), True, True),
    (np.zeros((2, 3)), True, False),
    ([torch.zeros(1)], False, False),
    ({"w": torch.zeros(1)}, False, False),
    (torch.nn.Linear(2, 1), False, False),
    (3.5, False, False),
], ids=["tensor", "parameter", "meta", "sparse", "ndarray", "list", "dict", "module", "other"])
def test_each_real_value_answers_as_its_kind_says(value: object, array: bool, tensor: bool) -> None:
    kind = summarize("v", value)["kind"]
    assert kind in get_args(kinds.VarKind)
    assert kinds.is_array(kind) is array
    assert kinds.is_tensor(kind) is tensor


def test_a_missing_kind_is_no_array() -> None:
    assert not kinds.is_array(None) and not kinds.is_tensor(None)
