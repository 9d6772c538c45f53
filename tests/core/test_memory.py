"""Known answers for allocations, memory groups and exact overlaps."""

from __future__ import annotations

import mmap
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.memory import groups as memory
from explorer.core.memory.groups import assign_memory, memory_components, overlaps_of
from explorer.core.memory.reach import allocation, reach


def run(ns: dict[str, Any], exact: bool = True) -> dict[str, dict]:
    """assign_memory over a namespace; VARs by name."""
    entries = [({"name": k}, v) for k, v in ns.items()]
    assign_memory(entries, exact_overlaps=exact)
    return {var["name"]: var for var, _ in entries}


# -- allocation ------------------------------------------------------------------
def test_allocation_of_tensor_is_its_whole_storage() -> None:
    t = torch.arange(10, dtype=torch.float32)
    start = t.untyped_storage().data_ptr()
    assert allocation(t[3:5]) == (start, start + 40)
    assert allocation(t.view(2, 5).T) == (start, start + 40)


def test_allocation_of_numpy_view_is_outermost_base() -> None:
    a = np.arange(12, dtype=np.int64)
    lo = a.__array_interface__["data"][0]
    assert allocation(a[::-3]) == (lo, lo + 96)
    assert allocation(a.reshape(3, 4)[1:, ::2]) == (lo, lo + 96)


def test_allocation_of_numpy_from_tensor_stops_at_the_tensor() -> None:
    t = torch.arange(10, dtype=torch.float64)
    n = t[2:5].numpy()  # n.base is the tensor (not an ndarray): n's own bytes count
    ptr = t.data_ptr() + 16
    assert allocation(n) == (ptr, ptr + 24)


def test_allocation_of_memmap_is_the_mapped_array(tmp_path) -> None:
    path = tmp_path / "m.bin"
    path.write_bytes(bytes(64))
    m = np.memmap(path, dtype=np.uint8, mode="r", shape=(64,))
    lo = m.__array_interface__["data"][0]
    assert allocation(m[10:20]) == (lo, lo + 64)
    del m


@pytest.mark.parametrize("value", [
    torch.empty(3, device="meta"),
    torch.eye(3).to_sparse(),
    torch.eye(3).to_sparse_csr(),
    5, "text", [1, 2], None,
], ids=["meta", "sparse_coo", "sparse_csr", "int", "str", "list", "none"])
def test_no_allocation_without_strided_storage(value: Any) -> None:
    assert allocation(value) is None
    assert reach(value) is None


def test_empty_tensor_overlaps_nobody() -> None:
    base = torch.arange(4.0)
    vars_ = run({"base": base, "e": base[2:2], "e2": torch.empty(0)})
    assert vars_["e"]["overlaps"] == []
    assert "e" not in vars_["base"]["overlaps"]
    assert vars_["e2"]["memory_group"] is None


# -- groups ---------------------------------------------------------------------
def test_from_numpy_of_offset_view_joins_the_base() -> None:
    a = np.arange(10.0)
    t = torch.from_numpy(a[4:])
    assert t.untyped_storage().data_ptr() != a.__array_interface__["data"][0]
    vars_ = run({"a": a, "t": t, "other": np.arange(3.0)})
    assert vars_["a"]["memory_group"] == vars_["t"]["memory_group"] == "M1"
    assert vars_["other"]["memory_group"] is None
    assert vars_["t"]["overlaps"] == ["a"]


def test_halves_share_group_but_not_bytes() -> None:
    t = torch.arange(8.0)
    vars_ = run({"lo": t[:4], "hi": t[4:]})
    assert vars_["lo"]["memory_group"] == vars_["hi"]["memory_group"] == "M1"
    assert vars_["lo"]["overlaps"] == [] and vars_["hi"]["overlaps"] == []
    assert vars_["lo"]["relation"]["same_allocation"] == ["hi"]


def test_labels_follow_first_appearance() -> None:
    a, b = torch.ones(3), torch.ones(3)
    vars_ = run({"x": 1, "b1": b, "a1": a, "b2": b[1:], "a2": a.view(3, 1)})
    assert [vars_[n]["memory_group"] for n in ["b1", "a1", "b2", "a2"]] == ["M1", "M2", "M1", "M2"]
    assert vars_["x"]["memory_group"] is None and vars_["x"]["overlaps"] is None


def test_copies_do_not_join() -> None:
    a = np.arange(6.0).reshape(2, 3)
    t = torch.from_numpy(a)
    vars_ = run({"a": a, "t": t, "c": t.clone(), "k": t.T.contiguous(), "tt": torch.tensor(a)})
    assert vars_["c"]["memory_group"] is None
    assert vars_["k"]["memory_group"] is None
    assert vars_["tt"]["memory_group"] is None
    assert vars_["t"]["memory_group"] == "M1"


def test_chain_of_overlapping_intervals_is_one_component() -> None:
    keys = [("cpu", 0, 10), ("cpu", 20, 30), ("cpu", 5, 25), ("cpu", 40, 50), None, ("cuda:0", 0, 10)]
    comps = memory_components(keys)
    assert comps[0] == comps[1] == comps[2] is not None
    assert comps[3] is None and comps[4] is None and comps[5] is None


def test_other_device_never_joins_cpu_addresses() -> None:
    keys = [("cpu", 0, 10), ("cuda:0", 0, 10)]
    assert memory_components(keys) == [None, None]


# -- exact overlaps ----------------------------------------------------------------
def test_seed_tensor_numpy_round_trip() -> None:
    t = torch.tensor([1.0, 2.0])
    n = t.numpy()
    vars_ = run({"t": t, "n": n})
    assert vars_["t"]["overlaps"] == ["n"]
    assert vars_["t"]["relation"]["same_elements"] == ["n"]


def test_even_and_odd_columns_interleave_without_overlap() -> None:
    t = torch.arange(12, dtype=torch.int32).view(3, 4)
    vars_ = run({"even": t[:, ::2], "odd": t[:, 1::2], "col": t[:, 1]})
    assert vars_["even"]["overlaps"] == []
    assert vars_["odd"]["overlaps"] == ["col"]


def test_expand_and_unfold_overlap_their_base() -> None:
    base = torch.arange(6.0)
    vars_ = run({"base": base, "e": base[:1].expand(4), "w": base.unfold(0, 3, 2), "tail": base[5:]})
    assert vars_["e"]["overlaps"] == ["base", "w"]
    assert sorted(vars_["w"]["overlaps"]) == ["base", "e"]
    assert vars_["tail"]["overlaps"] == ["base"]


def test_numpy_negative_strides() -> None:
    a = np.arange(10, dtype=np.int16)
    vars_ = run({"rev_even": a[::-2], "odd": a[1::2], "even": a[::2]})
    # a[::-2] visits 9, 7, 5, 3, 1: the odd elements.
    assert vars_["rev_even"]["overlaps"] == ["odd"]
    assert vars_["even"]["overlaps"] == []


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.complex64, torch.bool, torch.float8_e4m3fn])
def test_view_dtype_overlaps_with_awkward_dtypes(dtype: torch.dtype) -> None:
    base = torch.zeros(8, dtype=torch.uint8)
    typed = base.view(dtype)
    half = base[:4]
    vars_ = run({"typed": typed, "half": half, "tail": typed[-1:]})
    assert "half" in vars_["typed"]["overlaps"]
    assert ("half" in vars_["tail"]["overlaps"]) == (typed.element_size() == 8)


def test_sub_element_overlap_with_different_itemsizes() -> None:
    a = np.zeros(4, dtype=np.int32)
    bytes_ = a.view(np.uint8)
    vars_ = run({"second_byte": bytes_[1::4], "word2": a[2:3], "word0": a[0:1]})
    assert vars_["second_byte"]["overlaps"] == ["word2", "word0"]


def test_parameter_and_detach_share_elements() -> None:
    p = torch.nn.Parameter(torch.ones(3))
    vars_ = run({"p": p, "d": p.detach(), "data": p.data})
    assert vars_["p"]["relation"]["same_elements"] == ["d", "data"]


def test_gui_mode_bounds_pair_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "GUI_MAX_PAIRS", 3)
    base = torch.arange(100.0)
    ns = {f"w{i}": base[i:i + 10] for i in range(10)}
    gui = run(ns, exact=False)
    exact = run(ns, exact=True)
    assert any(v["overlaps_exact"] is False for v in gui.values())
    assert all(v["overlaps_exact"] for v in exact.values())
    for name, var in gui.items():
        assert set(var["overlaps"]) <= set(exact[name]["overlaps"])
        if var["overlaps_exact"]:
            assert var["overlaps"] == exact[name]["overlaps"]


# -- overlaps_of ---------------------------------------------------------------------
def test_overlaps_of_walks_containers_and_modules() -> None:
    lin = torch.nn.Linear(2, 2)
    w = lin.weight
    ns = {
        "model": lin,
        "sd": {"w": w.detach()[0]},
        "items": [torch.zeros(1), w.T],
        "alone": torch.zeros(2),
        "_hidden": w,
    }
    out = overlaps_of(ns, "model.weight")
    assert out["name"] == "model.weight"
    assert out["memory_group"] == "M1"
    assert out["overlaps"] == ["sd['w']", "items[1]"]
    assert out["same_allocation"] == ["sd['w']", "items[1]"]
    assert overlaps_of(ns, "alone")["memory_group"] is None


def test_overlaps_of_reports_disjoint_members() -> None:
    t = torch.arange(10)
    out = overlaps_of({"t": t, "a": t[:5], "b": t[5:]}, "a")
    assert out["overlaps"] == ["t"] and out["disjoint"] == ["b"]


def test_mmap_backed_array_reaches_are_compared() -> None:
    buf = mmap.mmap(-1, 32)
    a = np.frombuffer(buf, dtype=np.uint8)
    vars_ = run({"a": a, "b": a[8:16], "c": a[16:]})
    assert vars_["b"]["overlaps"] == ["a"] and vars_["c"]["overlaps"] == ["a"]
    del a, vars_


class _BrokenInterface(np.ndarray):
    @property
    def __array_interface__(self) -> dict:  # type: ignore[override]
        raise RuntimeError("hostile")


class _BrokenTensor(torch.Tensor):
    def data_ptr(self) -> int:  # type: ignore[override]
        raise RuntimeError("hostile")

    def untyped_storage(self):  # type: ignore[override]
        raise RuntimeError("hostile")


def test_hostile_values_do_not_break_the_others() -> None:
    a = np.arange(4.0)
    bad = np.arange(3.0).view(_BrokenInterface)
    worse = torch.ones(2).as_subclass(_BrokenTensor)
    vars_ = run({"a": a, "v": a[1:], "bad": bad, "worse": worse})
    assert vars_["v"]["overlaps"] == ["a"]
    assert vars_["bad"]["memory_group"] is None and vars_["worse"]["memory_group"] is None


def test_groups_only_mode_leaves_overlaps_for_later() -> None:
    """The GUI's snapshots: groups are assigned, overlaps are not computed (asked per selection)."""
    from explorer.core.memory.groups import assign_memory, overlaps_of

    t = torch.arange(8)
    ns = {"t": t, "head": t[:4], "tail": t[4:], "alone": torch.ones(2)}
    entries = [({"name": k}, v) for k, v in ns.items()]
    assign_memory(entries, overlaps=False)
    by = {var["name"]: var for var, _ in entries}
    assert by["t"]["memory_group"] == by["head"]["memory_group"] == by["tail"]["memory_group"] == "M1"
    assert by["alone"]["memory_group"] is None
    assert by["head"]["overlaps"] is None and by["head"]["overlaps_exact"] is False
    later = overlaps_of(ns, "head")
    assert later["overlaps"] == ["t"] and later["disjoint"] == ["tail"]


def _partition(comps: list) -> set[frozenset[int]]:
    groups: dict = {}
    for i, c in enumerate(comps):
        if c is not None:
            groups.setdefault(c, set()).add(i)
    return {frozenset(g) for g in groups.values()}


_KEYS = st.lists(st.one_of(
    st.none(),
    st.tuples(st.sampled_from(["cpu", "cuda:0", "cuda:1"]), st.integers(0, 40), st.integers(0, 12)).map(
        lambda t: (t[0], t[1], t[1] + t[2])),
    st.tuples(st.just("cpu"), st.integers(2**48 - 50, 2**64), st.integers(0, 60)).map(
        lambda t: (t[0], t[1], t[1] + t[2])),
), max_size=40)


@settings(max_examples=200, deadline=None)
@given(_KEYS)
def test_vector_sweep_matches_the_python_one(keys: list) -> None:
    """The numpy sweep (and its fallback for huge addresses) groups exactly like the plain sweep."""
    from explorer.core.memory.sweep import _python_sweep

    assert _partition(memory_components(keys)) == _partition(_python_sweep(keys))


def test_touching_intervals_stay_apart() -> None:
    keys = [("cpu", 0, 10), ("cpu", 10, 20), ("cpu", 19, 30)]
    comps = memory_components(keys)
    assert comps[0] is None and comps[1] == comps[2] is not None
