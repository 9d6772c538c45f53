"""Tests for explorer.core.summary.dispatch: one VAR per value, from metadata, never raising."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from typing import Any, ClassVar
from unittest import mock

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.summary import tensor as summary_torch
from explorer.core.summary.dispatch import VAR_KEYS, summarize

# Building the exotic values (sparse, nested, quantized, np.matrix) warns; that is torch's and numpy's business.
pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning"), pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")]


# -- awkward values ------------------------------------------------------------

def _vmap_leak() -> torch.Tensor:
    leaked: list[torch.Tensor] = []
    torch.func.vmap(lambda x: leaked.append(x) or x)(torch.ones(3, 2))
    return leaked[0]


class _PlainSub(torch.Tensor):
    pass


class _HostileSub(torch.Tensor):
    """Every torch operation on it raises, attribute reads included."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        raise RuntimeError("hostile tensor")


class _BadStorage(torch.Tensor):
    def untyped_storage(self):
        raise RuntimeError("storage is gone")


class _Wrapper(torch.Tensor):
    """A wrapper subclass (like DTensor) with no storage of its own."""

    @staticmethod
    def __new__(cls, elem: torch.Tensor):
        return torch.Tensor._make_wrapper_subclass(cls, elem.shape, dtype=elem.dtype)

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        raise RuntimeError("no kernels here")


def _memmap(tmp_path_factory: Any) -> np.memmap:
    path = tmp_path_factory.mktemp("mm") / "data.bin"
    mm = np.memmap(path, dtype=np.float32, mode="w+", shape=(4, 5))
    return mm[1:3, ::2]


_STRUCT = np.dtype([("a", "<i4"), ("b", "<f8")])

TENSORS: dict[str, Callable[[], Any]] = {
    "contiguous": lambda: torch.arange(6.0).reshape(2, 3),
    "slice": lambda: torch.arange(10).reshape(2, 5)[:, 1:3],
    "transpose": lambda: torch.zeros(2, 3).T,
    "expand": lambda: torch.ones(3, 1).expand(3, 4),
    "zero-d": lambda: torch.tensor(3.5),
    "empty": lambda: torch.zeros(0, 3),
    "big": lambda: torch.zeros(64, 64),
    "bf16": lambda: torch.ones(2, dtype=torch.bfloat16),
    "fp8": lambda: torch.zeros(3, dtype=torch.float8_e4m3fn),
    "complex": lambda: torch.tensor([1 + 2j, 3 - 1j]),
    "bool": lambda: torch.tensor([True, False]),
    "int8": lambda: torch.tensor([-1, 2], dtype=torch.int8),
    "sparse-coo": lambda: torch.sparse_coo_tensor([[0, 1]], [1.0, 2.0], (3,)),
    "sparse-csr": lambda: torch.eye(3).to_sparse_csr(),
    "meta": lambda: torch.empty(2, 3, device="meta"),
    "nested": lambda: torch.nested.nested_tensor([torch.ones(2), torch.ones(3)]),
    "jagged": lambda: torch.nested.nested_tensor([torch.ones(2, 4), torch.ones(3, 4)], layout=torch.jagged),
    "quantized": lambda: torch.quantize_per_tensor(torch.tensor([0.5, 1.0]), 0.1, 10, torch.quint8),
    "mkldnn": lambda: torch.ones(2, 2).to_mkldnn(),
    "parameter": lambda: torch.nn.Parameter(torch.ones(2, 2)),
    "lazy-parameter": lambda: torch.nn.LazyLinear(3).weight,
    "non-leaf": lambda: torch.ones(2, requires_grad=True) * 2,
    "subclass": lambda: torch.ones(2).as_subclass(_PlainSub),
    "hostile-subclass": lambda: torch.ones(2).as_subclass(_HostileSub),
    "storage-raises": lambda: torch.ones(2).as_subclass(_BadStorage),
    "wrapper-subclass": lambda: _Wrapper(torch.ones(2, 3)),
    "vmap-leak": _vmap_leak,
    "as-strided-overlap": lambda: torch.arange(8.0).as_strided((3, 3), (1, 1)),
}

ARRAYS: dict[str, Callable[[], Any]] = {
    "contiguous": lambda: np.arange(6.0).reshape(2, 3),
    "negative-strides": lambda: np.arange(6)[::-1],
    "fortran": lambda: np.asfortranarray(np.zeros((2, 3))),
    "zero-d": lambda: np.array(2.5),
    "zero-size": lambda: np.zeros((0, 4)),
    "object": lambda: np.array([1, "a", None], dtype=object),
    "structured": lambda: np.zeros(3, dtype=_STRUCT),
    "struct-field": lambda: np.zeros(3, dtype=_STRUCT)["b"],
    "unaligned": lambda: np.zeros(9, np.uint8)[1:].view(np.int16),
    "itemsize-0": lambda: np.zeros(3, dtype="V0"),
    "strings": lambda: np.array(["ab", "c"]),
    "datetime": lambda: np.array(["2024-01-01"], dtype="datetime64[D]"),
    "float16": lambda: np.ones(3, np.float16),
    "complex": lambda: np.array([1 + 1j]),
    "bool": lambda: np.array([True]),
    "matrix": lambda: np.matrix([[1, 2], [3, 4]]),
    "masked": lambda: np.ma.masked_array([1, 2, 3], mask=[0, 1, 0]),
    "broadcast": lambda: np.broadcast_to(np.arange(3), (4, 3)),
    "from-torch": lambda: torch.arange(4.0).numpy()[1:],
}


def _make(factory: Callable[[], Any], tmp_path_factory: Any) -> Any:
    return factory(tmp_path_factory) if factory is _memmap else factory()


ALL = {**{"t-" + k: v for k, v in TENSORS.items()}, **{"a-" + k: v for k, v in ARRAYS.items()}, "a-memmap": _memmap}


def _check_contract(var: dict) -> None:
    assert list(var) == list(VAR_KEYS)  # every key, none missing, none extra
    json.dumps(var, allow_nan=False)
    assert var["memory_group"] is None and var["copy_hint"] is None
    assert var["preview"] is None or len(var["preview"]) <= 80


@pytest.mark.parametrize("key", sorted(ALL))
def test_every_awkward_value_gives_a_complete_json_var(key: str, tmp_path_factory: Any) -> None:
    value = _make(ALL[key], tmp_path_factory)
    var = summarize("x", value)
    _check_contract(var)
    assert var["kind"] in ("tensor", "parameter", "ndarray")
    assert var["type"] == type(value).__name__
    assert var["overlaps"] == []
    assert isinstance(var["data_ptr"], int)
    for field in ("shape", "strides", "storage_offset", "storage", "is_contiguous"):
        if var[field] is None and var["kind"] != "ndarray" and var["layout"] == "strided" and not key.endswith("nested"):
            assert var["note"], f"{field} is null without a note"


def test_sliced_tensor_facts() -> None:
    x = torch.arange(10).reshape(2, 5)[:, 1:3]
    var = summarize("x", x)
    assert var["shape"] == [2, 2] and var["strides"] == [5, 1] and var["byte_strides"] == [40, 8]
    assert var["storage_offset"] == 1 and var["is_contiguous"] is False and var["is_view"] is True
    assert var["data_ptr"] == var["storage"]["data_ptr"] + 1 * 8
    assert var["storage"]["nbytes"] == 80 and var["nbytes"] == 32 and var["numel"] == 4
    assert var["preview"] == "[[1, 2], [6, 7]]"
    assert (var["kind"], var["dtype"], var["device"], var["layout"]) == ("tensor", "torch.int64", "cpu", "strided")


def test_expand_has_zero_stride_and_small_storage() -> None:
    var = summarize("e", torch.ones(3, 1).expand(3, 4))
    assert var["strides"] == [1, 0] and var["byte_strides"] == [4, 0]
    assert var["storage"]["nbytes"] == 12 and var["nbytes"] == 48


@pytest.mark.parametrize(
    ("dtype", "itemsize", "preview"),
    [
        (torch.bfloat16, 2, "[1., 2.]"),
        (torch.float8_e4m3fn, 1, "[1., 2.]"),
        (torch.complex64, 8, "[1+0j, 2+0j]"),
        (torch.bool, 1, "[True, True]"),
        (torch.float64, 8, "[1., 2.]"),
        (torch.uint8, 1, "[1, 2]"),
    ],
)
def test_dtypes_itemsize_and_preview(dtype: torch.dtype, itemsize: int, preview: str) -> None:
    var = summarize("d", torch.tensor([1.0, 2.0]).to(dtype))
    assert var["dtype"] == str(dtype) and var["itemsize"] == itemsize and var["nbytes"] == 2 * itemsize
    assert var["preview"] == preview


def test_zero_d_and_empty() -> None:
    zero_d = summarize("s", torch.tensor(3.5))
    assert zero_d["shape"] == [] and zero_d["strides"] == [] and zero_d["numel"] == 1 and zero_d["preview"] == "3.5"
    empty = summarize("e", torch.zeros(0, 3))
    assert empty["shape"] == [0, 3] and empty["numel"] == 0 and empty["nbytes"] == 0 and empty["preview"] == "[]"


def test_preview_only_for_small_tensors_and_clipped() -> None:
    assert summarize("b", torch.zeros(17))["preview"] is None
    long = summarize("l", torch.full((16,), 123456.0))["preview"]
    assert long is not None and len(long) == 80 and long.endswith("…")
    assert summarize("n", torch.tensor([float("nan"), float("inf")]))["preview"] == "[nan, inf]"


@pytest.mark.parametrize("key", ["sparse-coo", "sparse-csr", "mkldnn"])
def test_non_strided_layouts_have_null_strides_and_storage(key: str) -> None:
    var = summarize("s", TENSORS[key]())
    assert var["layout"] == {"sparse-coo": "sparse_coo", "sparse-csr": "sparse_csr", "mkldnn": "_mkldnn"}[key]
    assert var["strides"] is None and var["is_contiguous"] is None and var["storage_offset"] is None
    assert var["storage"] is None and var["data_ptr"] == 0
    assert "no strides" in var["note"]
    assert var["shape"] == list(TENSORS[key]().shape)


def test_sparse_note_counts_stored_values() -> None:
    var = summarize("s", torch.sparse_coo_tensor([[0, 2]], [1.0, 2.0], (5,)))
    assert "2 non-zero" in var["note"] and var["nbytes"] is None


def test_meta_tensor_has_metadata_but_no_data() -> None:
    var = summarize("m", torch.empty(2, 3, device="meta"))
    assert var["device"] == "meta" and var["shape"] == [2, 3] and var["strides"] == [3, 1]
    assert var["data_ptr"] == 0 and var["storage"] is None and var["preview"] is None
    assert "meta" in var["note"]


@pytest.mark.parametrize("key", ["nested", "jagged"])
def test_nested_tensor_has_no_single_shape(key: str) -> None:
    var = summarize("n", TENSORS[key]())
    assert var["shape"] is None and var["strides"] is None and "nested" in var["note"]
    assert var["numel"] in (5, 20)


def test_quantized_preview_shows_real_values() -> None:
    var = summarize("q", TENSORS["quantized"]())
    assert var["dtype"] == "torch.quint8" and var["itemsize"] == 1 and var["preview"] == "[0.5, 1.]"


def test_parameter_and_autograd_fields() -> None:
    w = torch.nn.Parameter(torch.ones(3))
    var = summarize("w", w)
    assert (var["kind"], var["type"], var["is_parameter"]) == ("parameter", "Parameter", True)
    assert var["requires_grad"] is True and var["is_leaf"] is True and var["grad"] is None
    y = w * 2
    y.retain_grad()
    z = y.sum() + 0
    z.backward()
    var = summarize("w", w)
    assert var["grad"] == {"shape": [3], "dtype": "torch.float32", "preview": "[2., 2., 2.]"}
    yvar = summarize("y", y)
    assert yvar["grad_fn"] == "MulBackward0" and yvar["is_leaf"] is False and yvar["retains_grad"] is True
    assert yvar["grad"]["preview"] == "[1., 1., 1.]"
    assert summarize("z", z)["grad"] is None


def test_non_leaf_grad_is_not_read_so_no_warning() -> None:
    y = torch.ones(2, requires_grad=True) * 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        var = summarize("y", y)
    assert var["grad"] is None and var["retains_grad"] is False and var["grad_fn"] == "MulBackward0"


def test_grad_survives_requires_grad_false() -> None:
    x = torch.ones(20, requires_grad=True)
    x.sum().backward()
    x.requires_grad_(False)
    assert summarize("x", x)["grad"] == {"shape": [20], "dtype": "torch.float32", "preview": None}


def test_exotic_tensors_notes() -> None:
    lazy = summarize("w", torch.nn.LazyLinear(3).weight)
    assert lazy["kind"] == "parameter" and lazy["shape"] is None and "lazy" in lazy["note"]
    leak = summarize("v", _vmap_leak())
    assert leak["storage"] is None and leak["data_ptr"] == 0 and "functorch" in leak["note"]
    # A subclass's __torch_function__ and method overrides are never run: the base class's fields are read.
    hostile = summarize("h", torch.ones(2).as_subclass(_HostileSub))
    assert hostile["type"] == "_HostileSub" and hostile["note"] is None and hostile["shape"] == [2]
    bad = summarize("b", torch.ones(2).as_subclass(_BadStorage))
    assert bad["storage"]["nbytes"] == 8 and bad["note"] is None and bad["shape"] == [2]
    wrapped = summarize("w", _Wrapper(torch.ones(2, 3)))
    assert wrapped["shape"] == [2, 3] and wrapped["storage"] is None


def test_mock_claiming_to_be_a_tensor_is_other() -> None:
    var = summarize("m", mock.Mock(spec=torch.Tensor))
    assert var["kind"] == "other" and var["shape"] is None
    json.dumps(var, allow_nan=False)


@pytest.mark.parametrize("factory", [TENSORS[k] for k in ("contiguous", "slice", "transpose", "expand", "zero-d", "empty", "bf16", "complex", "parameter", "non-leaf")])
def test_fast_and_careful_paths_agree(factory: Callable[[], Any]) -> None:
    t = factory()
    fast = summary_torch.tensor_var("t", t, torch)
    careful = summary_torch._safe_var("t", t, torch)
    assert fast == careful


class _Recorder(torch.Tensor):
    """Records every torch function called on it, to prove summaries read no data."""

    calls: ClassVar[list[str]] = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.calls.append(getattr(func, "__name__", str(func)))
        return super().__torch_function__(func, types, args, kwargs or {})


@pytest.mark.parametrize(("numel", "reads_values"), [(17, False), (4096, False), (16, True)])
def test_values_are_read_only_for_tiny_tensors(numel: int, reads_values: bool) -> None:
    t = torch.zeros(numel).as_subclass(_Recorder)
    _Recorder.calls = []
    var = summarize("t", t)
    assert (var["preview"] is not None) is reads_values
    assert _Recorder.calls == []  # the subclass's __torch_function__ never runs, not even for the preview


# -- numpy -------------------------------------------------------------------

def test_numpy_negative_strides() -> None:
    a = np.arange(6, dtype=np.int64)
    var = summarize("r", a[::-1])
    assert var["strides"] == [-1] and var["byte_strides"] == [-8] and var["storage_offset"] == 5
    assert var["storage"] == {"data_ptr": a.ctypes.data, "nbytes": 48}
    assert var["data_ptr"] == a.ctypes.data + 40 and var["is_view"] is True and var["preview"] == "[5, 4, 3, 2, 1, 0]"
    assert (var["kind"], var["dtype"], var["device"], var["requires_grad"], var["grad_fn"]) == ("ndarray", "int64", "cpu", None, None)


def test_numpy_storage_is_outermost_base_bounds() -> None:
    a = np.zeros((4, 6), dtype=np.float32)
    v = a[1:3, ::2][:, 1:]
    var = summarize("v", v)
    assert var["storage"] == {"data_ptr": a.ctypes.data, "nbytes": a.nbytes}
    assert var["strides"] == [6, 2] and var["storage_offset"] == 6 + 2
    assert var["is_contiguous"] is False


def test_numpy_unaligned_and_struct_views_note_undefined_elements() -> None:
    field = summarize("f", np.zeros(3, dtype=_STRUCT)["b"])
    assert field["strides"] is None and field["byte_strides"] == [12] and field["storage_offset"] is None
    assert "not multiples" in field["note"] and "not a multiple" in field["note"]
    unaligned = summarize("u", ARRAYS["unaligned"]())
    assert unaligned["strides"] == [1] and unaligned["storage_offset"] is None and "1 byte is" in unaligned["note"]
    v0 = summarize("v", ARRAYS["itemsize-0"]())
    assert v0["itemsize"] == 0 and v0["strides"] is None and "itemsize is 0" in v0["note"]
    dates = summarize("d", ARRAYS["datetime"]())
    assert dates["dtype"] == "datetime64[D]" and dates["preview"] == "[2024-01-01]"


def test_memmap_and_object_arrays(tmp_path_factory: Any) -> None:
    mm = _memmap(tmp_path_factory)
    var = summarize("mm", mm)
    assert var["type"] == "memmap" and var["shape"] == [2, 3] and var["strides"] == [5, 2]
    assert var["storage"]["nbytes"] == 4 * 5 * 4 and var["storage_offset"] == 5

    class Boom:
        def __repr__(self) -> str:
            raise ValueError("no")

    obj = summarize("o", np.array([1, Boom()], dtype=object))
    assert obj["dtype"] == "object" and obj["preview"] == "[1, Boom(…)]"  # an item's __repr__ is user code


_SLICE = st.builds(slice, st.integers(0, 2), st.none(), st.sampled_from([1, 2, -1]))


@settings(max_examples=40, deadline=None)
@given(shape=st.lists(st.integers(0, 5), max_size=3), data=st.data())
def test_numpy_strides_and_offsets_are_consistent(shape: list[int], data: Any) -> None:
    """For random views: element strides, and data_ptr = storage start + offset * itemsize."""
    base = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    view = base[tuple(data.draw(_SLICE) for _ in shape) + (Ellipsis,)]  # Ellipsis: a view even for 0-d
    var = summarize("v", view)
    assert var["shape"] == list(view.shape) and var["numel"] == view.size
    assert var["strides"] == [s // 4 for s in view.strides] and var["byte_strides"] == list(view.strides)
    assert var["storage"]["data_ptr"] == base.ctypes.data and var["storage"]["nbytes"] == base.nbytes
    assert var["data_ptr"] == var["storage"]["data_ptr"] + var["storage_offset"] * 4


@settings(max_examples=40, deadline=None)
@given(shape=st.lists(st.integers(0, 5), max_size=3), data=st.data())
def test_torch_strides_and_offsets_are_consistent(shape: list[int], data: Any) -> None:
    base = torch.arange(int(np.prod(shape)), dtype=torch.int32).reshape(shape)
    view = base[tuple(slice(data.draw(st.integers(0, 2)), None, data.draw(st.integers(1, 2))) for _ in shape)]
    if data.draw(st.booleans()) and view.dim() >= 2:
        view = view.transpose(0, 1)
    var = summarize("v", view)
    assert var["shape"] == list(view.shape) and var["strides"] == list(view.stride())
    assert var["byte_strides"] == [s * 4 for s in view.stride()] and var["is_contiguous"] == view.is_contiguous()
    assert var["storage_offset"] == view.storage_offset() and var["data_ptr"] == view.data_ptr()
    assert var["storage"]["nbytes"] == base.numel() * 4
    if view.numel():  # torch reports data_ptr 0 for every empty tensor
        assert var["data_ptr"] == var["storage"]["data_ptr"] + var["storage_offset"] * 4


# -- other values (containers are tested in test_snapshot.py) -----------------

class _BadRepr:
    def __repr__(self) -> str:
        raise RuntimeError("nope")


@pytest.mark.parametrize(
    ("value", "kind", "expected"),
    [
        (3, "other", "3"),
        (2.5, "other", "2.5"),
        (True, "other", "True"),
        (None, "other", "None"),
        ("hi", "other", "'hi'"),
        (torch.Size([2, 3]), "other", "torch.Size([2, 3])"),
        (np.float32(1.5), "other", "np.float32(1.5)"),
        (_BadRepr(), "other", "<_BadRepr object (repr failed)>"),
        ({1, 2}, "other", "{1, 2}"),
    ],
)
def test_other_values(value: Any, kind: str, expected: str) -> None:
    var = summarize("v", value)
    assert var["kind"] == kind and var["repr"] == expected and var["type"] == type(value).__name__
    _check_contract(var)


@pytest.mark.parametrize(
    "value",
    [10**5000, b"x" * 10_000_000, "y" * 100_000, [torch.zeros(1000, 1000)], list(range(10**5))],
    ids=["huge-int", "big-bytes", "long-str", "big-tensor-in-list", "long-list"],
)
def test_reprs_are_bounded_and_cheap(value: Any) -> None:
    var = summarize("v", value)
    assert var["repr"] is not None and len(var["repr"]) <= 200
    assert "tensor(" not in var["repr"]  # tensors inside are described by metadata, not printed


def test_repr_raising_inside_container() -> None:
    var = summarize("v", [_BadRepr(), torch.ones(1)])  # the item's __repr__ is user code: not called
    assert var["repr"].startswith("[_BadRepr(…), ") and [c["name"] for c in var["children"]] == ["v[1]"]


def test_set_of_tensors_is_not_sorted() -> None:
    """reprlib sorts sets, which would compare tensors element by element (a data scan)."""
    t = torch.zeros(64).as_subclass(_Recorder)
    u = torch.ones(64).as_subclass(_Recorder)
    _Recorder.calls = []
    var = summarize("s", {t, u})
    assert var["kind"] == "other" and "_Recorder(shape=[64]" in var["repr"]
    assert not {"__lt__", "lt", "__gt__", "__bool__"} & set(_Recorder.calls)


def test_odd_arrays_masked_preview_and_long_structured_dtype() -> None:
    masked = summarize("m", np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0]))
    assert masked["preview"] == "[1., None, 3.]"
    wide = np.zeros(2, dtype=[(f"field_{i}", "<f8") for i in range(100)])
    var = summarize("w", wide)
    assert len(var["dtype"]) <= 200 and var["dtype"].startswith("[('field_0', '<f8')") and var["itemsize"] == 800
