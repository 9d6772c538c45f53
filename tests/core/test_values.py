"""Tests for explorer.core.values.window.value_window against direct indexing of the value."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.values.window import MAX_CELLS, value_window
from tests.agent_calls import call


def _expected_cell(x: object) -> object:
    """What a cell should hold for one element fetched by plain indexing."""
    if isinstance(x, complex):
        return f"{x.real:.6g}{x.imag:+.6g}j"
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if x != x else ("inf" if x > 0 else "-inf")
    return x


def _element(value: object, idx: tuple[int, ...]) -> object:
    """One element as a Python scalar (floats widened like the window does)."""
    if isinstance(value, torch.Tensor):
        v = value.detach()
        if v.layout != torch.strided:
            v = v.to_dense()
        e = v[idx]
        if e.is_complex():
            return complex(e.to(torch.complex128).item())
        if e.is_floating_point():
            return float(e.to(torch.float64).item())
        return e.item()
    return np.asarray(value)[idx].item()


def _storage(value: object) -> tuple[int, list[int]]:
    """Storage offset and strides in elements (numpy: relative to the outermost base)."""
    if isinstance(value, torch.Tensor):
        return value.storage_offset(), list(value.stride())
    base = value
    while isinstance(base.base, np.ndarray):
        base = base.base
    lo = np.lib.array_utils.byte_bounds(base)[0]
    off = (value.__array_interface__["data"][0] - lo) // value.itemsize
    return off, [s // value.itemsize for s in value.strides]


def check_window(value: object, res: dict, check_positions: bool = True) -> None:
    """Every cell and position of *res* equals what direct indexing of *value* gives."""
    res = json.loads(json.dumps(res))  # must be strict JSON (no NaN floats)
    off, strides = _storage(value) if check_positions else (0, [])
    for r, row in enumerate(res["rows"]):
        for c, cell in enumerate(row):
            idx = list(res["index"])
            if res["row_dim"] is not None:
                idx[res["row_dim"]] = res["row0"] + r
            if res["col_dim"] is not None:
                idx[res["col_dim"]] = res["col0"] + c
            assert cell == _expected_cell(_element(value, tuple(idx))), (r, c, idx)
            if check_positions:
                pos = off + sum(i * s for i, s in zip(idx, strides))
                assert res["positions"][r][c] == pos, (r, c, idx)


def _awkward() -> dict[str, object]:
    base = torch.arange(60, dtype=torch.float32).reshape(3, 4, 5)
    nan_inf = torch.tensor([[1.0, float("nan")], [float("inf"), -float("inf")]])
    return {
        "contiguous": torch.arange(12).reshape(3, 4),
        "transposed": base.permute(2, 0, 1),
        "stepped": base[:, ::2, 1::2],
        "expanded": torch.arange(4.0).expand(3, 4),
        "offset_view": base[1:, 2:],
        "zero_d": torch.tensor(7.25),
        "one_d": torch.arange(5.0),
        "nan_inf": nan_inf,
        "bf16": (torch.arange(6.0) / 3).bfloat16().reshape(2, 3),
        "fp16": (torch.arange(6.0) / 7).half().reshape(3, 2),
        "fp8": torch.tensor([0.5, 1.5, -2.0]).to(torch.float8_e4m3fn),
        "complex": torch.tensor([[1 + 2j, -0.5j], [3.25, float("nan")]], dtype=torch.complex64),
        "bool": torch.tensor([[True, False], [False, True]]),
        "uint8": torch.arange(250, 256, dtype=torch.uint8).reshape(2, 3),
        "int64_big": torch.tensor([2**62, -(2**62)]),
        "requires_grad": torch.arange(6.0, requires_grad=True).reshape(2, 3) * 2,
        "conj_view": torch.tensor([1 + 2j, 3 - 4j], dtype=torch.complex128).conj(),
        "neg_bit_view": torch.tensor([1 + 2j, 3 - 4j], dtype=torch.complex128).conj().imag,
        "np_neg_strides": np.arange(24).reshape(4, 6)[::-1, ::-2],
        "np_fortran": np.asfortranarray(np.arange(12.0).reshape(3, 4)),
        "np_float16": np.linspace(-1, 1, 6, dtype=np.float16).reshape(2, 3),
        "np_zero_d": np.array(3),
        "np_uint64": np.array([2**64 - 1, 0], dtype=np.uint64),
        "np_nan": np.array([np.nan, np.inf, -1.5]),
        "np_bool": np.array([True, False]),
    }


AWKWARD = _awkward()


@pytest.mark.parametrize("name", sorted(AWKWARD))
def test_default_window_matches_indexing(name: str) -> None:
    value = AWKWARD[name]
    res = value_window(value)
    assert res["shape"] == list(value.shape)
    check_window(value, res)
    shown = [value.shape[d] for d in (res["row_dim"], res["col_dim"]) if d is not None]
    rows, cols = (shown + [1, 1])[:2] if len(shown) == 2 else ((shown[0], 1) if shown else (1, 1))
    if res["row_dim"] is None and res["col_dim"] is not None:
        rows, cols = 1, shown[0]
    assert sum(len(r) for r in res["rows"]) == min(rows, 40) * min(cols, 20)


def test_four_d_with_index_and_swapped_dims() -> None:
    t = torch.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)
    res = value_window(t, row_dim=3, col_dim=1, index=[1, 0, 2, 0])
    assert res["index"] == [1, None, 2, None]
    assert (res["total_rows"], res["total_cols"]) == (5, 3)
    assert res["rows"][4][2] == t[1, 2, 2, 4].item()
    check_window(t, res)


def test_one_d_as_row_or_column() -> None:
    t = torch.arange(4)
    col = value_window(t)
    row = value_window(t, col_dim=0)
    assert col["rows"] == [[0], [1], [2], [3]] and col["col_labels"] == [""]
    assert row["rows"] == [[0, 1, 2, 3]] and row["row_labels"] == [""]
    assert (row["total_rows"], row["total_cols"]) == (1, 4)


def test_zero_d_is_one_cell() -> None:
    res = value_window(torch.tensor(float("-inf")))
    assert res["rows"] == [["-inf"]] and res["index"] == []
    assert res["min"] is None and res["max"] is None


def test_nan_inf_are_strings_and_min_max_finite() -> None:
    res = value_window(AWKWARD["nan_inf"])
    assert res["rows"] == [[1.0, "nan"], ["inf", "-inf"]]
    assert (res["min"], res["max"], res["kind"]) == (1.0, 1.0, "float")


@pytest.mark.parametrize(
    ("name", "kind"),
    [("bf16", "float"), ("complex", "complex"), ("bool", "bool"), ("uint8", "int"), ("np_uint64", "int")],
)
def test_kinds(name: str, kind: str) -> None:
    assert value_window(AWKWARD[name])["kind"] == kind


def test_bool_cells_are_bools() -> None:
    assert value_window(AWKWARD["bool"])["rows"] == [[True, False], [False, True]]


def test_clamping_out_of_range_requests() -> None:
    t = torch.arange(100).reshape(10, 10)
    res = value_window(t, row_dim=7, col_dim=-9, index=[99, 99], row0=50, col0=-3, nrows=10**9, ncols=3)
    assert (res["row_dim"], res["col_dim"]) == (0, 1)
    assert res["row0"] == 9 and res["col0"] == 0
    assert res["rows"] == [[90, 91, 92]]
    neg = value_window(torch.arange(24).reshape(2, 3, 4), index=[-1, 0, 0])
    assert neg["index"] == [1, None, None]
    same = value_window(t, row_dim=1, col_dim=1)
    assert same["row_dim"] == 1 and same["col_dim"] == 0


def test_hostile_types_in_params_are_ignored() -> None:
    t = torch.arange(6).reshape(2, 3)
    res = value_window(t, row_dim="x", col_dim=True, index="zz", row0=None, nrows=2.5)  # type: ignore[arg-type]
    assert (res["row_dim"], res["col_dim"]) == (0, 1)
    assert res["rows"] == []  # nrows that is not an int reads as 0 rows


def test_window_size_is_capped() -> None:
    t = torch.zeros(1).expand(10**4, 10**4)
    res = value_window(t, nrows=1000, ncols=1000)
    assert sum(len(r) for r in res["rows"]) <= MAX_CELLS


def test_huge_expanded_tensor_reads_only_the_window() -> None:
    # 10**8 logical elements backed by 10**4 numbers: a copy would need 400 MB.
    t = torch.arange(10**4, dtype=torch.float32).expand(10**4, 10**4)
    res = value_window(t, row0=9_990, col0=9_995, nrows=5, ncols=5)
    assert res["rows"][0] == [9995.0, 9996.0, 9997.0, 9998.0, 9999.0]
    assert res["positions"][0] == [9995, 9996, 9997, 9998, 9999]
    assert (res["total_rows"], res["total_cols"]) == (10**4, 10**4)


def test_empty_dims() -> None:
    assert value_window(torch.empty(0, 3))["rows"] == []
    res = value_window(torch.empty(2, 0, 3), row_dim=0, col_dim=2)
    assert (res["total_rows"], res["total_cols"], res["rows"]) == (0, 0, [])


@pytest.mark.filterwarnings("ignore:Sparse CSR tensor support is in beta")
def test_sparse_window_is_dense_values_without_positions() -> None:
    dense = torch.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]])
    res = value_window(dense.to_sparse(), col0=1)
    assert res["rows"] == [[1.5, 0.0], [0.0, -1.0]]
    assert res["positions"] is None
    csr = value_window(dense.to_sparse_csr())
    assert csr["rows"] == dense.tolist()


def test_meta_tensor_is_an_error_sentence() -> None:
    with pytest.raises(ValueError, match="no data"):
        value_window(torch.empty(3, 4, device="meta"))


@pytest.mark.filterwarnings("ignore:The PyTorch API of nested tensors")
def test_nested_tensor_is_an_error_sentence() -> None:
    nested = torch.nested.nested_tensor([torch.zeros(2), torch.zeros(3)])
    with pytest.raises(ValueError, match="rows of different lengths"):
        value_window(nested)


def test_not_an_array_is_an_error_sentence() -> None:
    with pytest.raises(ValueError, match="list is not a tensor or an array, so it has no values table"):
        value_window([1, 2, 3])


def test_structured_and_object_arrays_are_text() -> None:
    class Bad:
        def __str__(self) -> str:
            raise RuntimeError("boom")

    rec = np.array([(1, 2.5)], dtype=[("a", "i4"), ("b", "f8")])
    assert value_window(rec)["rows"] == [["(1, 2.5)"]]
    obj = np.array([Bad(), "x" * 500], dtype=object)
    res = value_window(obj)
    assert res["kind"] == "other"
    assert "str() failed" in res["rows"][0][0]
    assert len(res["rows"][1][0]) <= 80


def test_agent_round_trip_is_strict_json() -> None:
    reply = call({"t": AWKWARD["nan_inf"]}, "values", name="t", nrows=2)
    block = np.frombuffer(reply["result"]["block"], dtype=reply["result"]["block_dtype"]).reshape(2, 2)
    assert block[0, 0] == 1.0 and np.isnan(block[0, 1]) and block[1].tolist() == [np.inf, -np.inf]


@st.composite
def _strided_values(draw: st.DrawFn) -> tuple[object, dict]:
    """Random shapes, permutations, steps and windows over torch or numpy."""
    shape = draw(st.lists(st.integers(0, 5), min_size=0, max_size=4))
    base = np.arange(int(np.prod(shape)) if shape else 1, dtype=np.int64).reshape(shape)
    perm = draw(st.permutations(range(len(shape))))
    view = base.transpose(perm)
    key = tuple(slice(None, None, draw(st.sampled_from([1, 2, -1]))) for _ in shape)
    view = view[key]
    value: object = view
    if draw(st.booleans()):
        value = torch.from_numpy(np.ascontiguousarray(base)).permute(*perm) if shape else torch.tensor(3)
    nd = len(value.shape)
    dim = st.one_of(st.none(), st.integers(-nd - 1, nd)) if nd else st.none()
    params = {
        "row_dim": draw(dim),
        "col_dim": draw(dim),
        "index": draw(st.lists(st.integers(-6, 6), max_size=nd)),
        "row0": draw(st.integers(-2, 6)),
        "col0": draw(st.integers(-2, 6)),
        "nrows": draw(st.integers(0, 6)),
        "ncols": draw(st.integers(0, 6)),
    }
    return value, params


@settings(max_examples=60, deadline=None)
@given(_strided_values())
def test_property_window_equals_indexing(case: tuple[object, dict]) -> None:
    value, params = case
    res = value_window(value, **params)
    check_window(value, res)
    nr, nc = len(res["rows"]), len(res["rows"][0]) if res["rows"] else 0
    assert (nr <= max(params["nrows"], 0) and nc <= max(params["ncols"], 0)) or nr == 0
    assert res["row0"] + nr <= res["total_rows"]
