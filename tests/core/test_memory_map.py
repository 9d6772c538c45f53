"""memory_map: cells, visiting order, repeats, binning, units and formulas."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

from explorer.core.memory.map import element_position, memory_map
from tests.agent_calls import call


def rows_by_name(payload: dict) -> dict[str, dict]:
    return {row["name"]: row for row in payload["rows"]}


def test_column_slice_reaches_known_cells() -> None:
    t = torch.arange(10).reshape(2, 5)
    cols = t[:, 1:3]
    payload = memory_map({"t": t, "cols": cols}, "cols")
    assert payload["unit"] == "element" and payload["bin"] == 1 and payload["cells"] == 10
    assert payload["values"] == [str(i) for i in range(10)]
    assert [row["name"] for row in payload["rows"]] == ["cols", "t"]
    row = payload["rows"][0]
    assert row["reached"] == [1, 2, 6, 7]
    assert row["storage_offset"] == 1 and row["strides"] == [5, 1]
    start = t.untyped_storage().data_ptr()
    # addresses in hex, as the inspector's data_ptr column shows them
    assert row["formula"] == (f"data_ptr = storage.data_ptr + offset × itemsize"
                              f" = 0x{start:x} + 1 × 8 = 0x{start + 8:x}")
    assert payload["allocation"] == {"data_ptr": start, "nbytes": 80}


def test_transpose_visits_same_cells_in_another_order() -> None:
    t = torch.arange(6.0).reshape(2, 3)
    rows = rows_by_name(memory_map({"t": t, "tt": t.T, "p": t.permute(1, 0)}, "t"))
    assert rows["t"]["reached"] == [0, 1, 2, 3, 4, 5]
    assert rows["tt"]["reached"] == [0, 3, 1, 4, 2, 5]
    assert rows["p"]["reached"] == rows["tt"]["reached"]


def test_slice_with_step() -> None:
    t = torch.arange(10)
    rows = rows_by_name(memory_map({"t": t, "s": t[1::3]}, "s"))
    assert rows["s"]["reached"] == [1, 4, 7]
    assert rows["s"]["counts"] == {}


def test_expand_reaches_one_cell_many_times() -> None:
    base = torch.tensor([5.0, 6.0])
    e = base[:1].expand(4)
    payload = memory_map({"base": base, "e": e}, "e")
    row = rows_by_name(payload)["e"]
    assert row["reached"] == [0, 0, 0, 0] and row["counts"] == {0: 4}
    assert row["strides"] == [0]
    assert payload["values"] == ["5", "6"]


def test_unfold_overlapping_windows() -> None:
    u = torch.arange(5.0)
    w = u.unfold(0, 3, 1)
    row = rows_by_name(memory_map({"u": u, "w": w}, "w"))["w"]
    assert row["reached"] == [0, 1, 2, 1, 2, 3, 2, 3, 4]
    assert row["counts"] == {1: 2, 2: 3, 3: 2}


def test_as_strided_windows() -> None:
    u = torch.arange(6)
    w = u.as_strided((2, 3), (2, 1), 1)
    assert rows_by_name(memory_map({"w": w, "u": u}, "w"))["w"]["reached"] == [1, 2, 3, 3, 4, 5]


def test_numpy_negative_strides() -> None:
    a = np.arange(6, dtype=np.int32)
    rev = a[::-2]
    payload = memory_map({"a": a, "rev": rev}, "rev")
    row = rows_by_name(payload)["rev"]
    assert row["reached"] == [5, 3, 1]
    assert row["strides"] == [-2] and row["storage_offset"] == 5
    assert payload["values"] == ["0", "1", "2", "3", "4", "5"]


def test_view_dtype_with_other_itemsize_switches_to_bytes() -> None:
    a = np.zeros(2, dtype=np.float32)
    b = a.view(np.int16)
    payload = memory_map({"a": a, "b": b}, "a")
    assert payload["unit"] == "byte" and payload["cells"] == 8
    rows = rows_by_name(payload)
    assert rows["a"]["reached"] == [0, 4] and rows["a"]["cell_span"] == 4
    assert rows["b"]["reached"] == [0, 2, 4, 6] and rows["b"]["cell_span"] == 2
    assert payload["values"] == ["00"] * 8


def test_same_itemsize_view_keeps_elements() -> None:
    t = torch.tensor([1.0, 2.0])
    payload = memory_map({"t": t, "i": t.view(torch.int32)}, "t")
    assert payload["unit"] == "element" and payload["values"] == ["1", "2"]
    assert rows_by_name(payload)["i"]["reached"] == [0, 1]


def test_from_numpy_offset_view_spans_the_base() -> None:
    a = np.arange(6.0)
    t = torch.from_numpy(a[2:])
    payload = memory_map({"a": a, "t": t}, "t")
    assert payload["allocation"]["nbytes"] == 32
    assert payload["span"]["nbytes"] == 48 and payload["cells"] == 6
    row = rows_by_name(payload)["t"]
    assert row["reached"] == [2, 3, 4, 5]
    assert row["storage_offset"] == 0  # torch's own storage starts at a[2]


def test_large_allocations_are_binned_and_sampled() -> None:
    big = torch.zeros(100_000)
    payload = memory_map({"big": big, "tail": big[-10:]}, "tail", max_cells=100)
    assert payload["cells"] <= 100 and payload["bin"] == 1000
    assert payload["values"] == [None] * payload["cells"]
    rows = rows_by_name(payload)
    assert rows["tail"]["reached"] == [99]
    assert rows["big"]["sampled"] and len(rows["big"]["flat"]) <= 4096
    assert rows["big"]["reached"] == list(range(100))


@pytest.mark.parametrize("value, note", [
    (torch.empty(2, device="meta"), "meta"),
    (torch.eye(2).to_sparse(), "sparse"),
    (3, "not a tensor"),
])
def test_no_storage_has_a_note(value: Any, note: str) -> None:
    payload = memory_map({"x": value}, "x")
    assert payload["allocation"] is None and note in payload["note"]
    assert payload["rows"] == [] and payload["cells"] == 0


@pytest.mark.parametrize("value", [
    torch.tensor(3.5),
    torch.zeros(0),
    torch.ones(2, 2, dtype=torch.bfloat16),
    torch.tensor([1 + 2j], dtype=torch.complex64),
    torch.tensor([True, False]),
    np.array([object(), None], dtype=object),
    np.zeros((0, 3)),
])
def test_awkward_values_round_trip_as_json(value: Any) -> None:
    reply = call({"x": value}, "memory_map", name="x")
    assert "result" in reply, reply
    payload = reply["result"]
    numel = value.numel() if isinstance(value, torch.Tensor) else value.size
    assert len(payload["rows"][0]["reached"]) == numel


def test_bf16_values_are_decoded() -> None:
    payload = memory_map({"x": torch.tensor([1.5, -2.0], dtype=torch.bfloat16)}, "x")
    assert payload["values"] == ["1.5", "-2"]


def test_element_position_for_var_and_value() -> None:
    t = torch.arange(10).reshape(2, 5)
    cols = t[:, 1:3]
    out = element_position(cols, [1, 1])
    assert out["position"] == 7 and out["formula"] == "1 + 1×5 + 1×1 = 7"
    var = {"shape": [3], "strides": [-2], "storage_offset": 5}
    assert element_position(var, [2])["position"] == 1
    with pytest.raises(IndexError):
        element_position(cols, [2, 0])
