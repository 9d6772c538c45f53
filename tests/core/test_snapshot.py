"""Tests for explorer.core.snapshot.build.build_snapshot: hidden names, order, containers, memory call."""

from __future__ import annotations

import functools
import json
import math
import sys
import types
from collections import OrderedDict, namedtuple
from typing import Any

import numpy as np
import pytest
import torch

from explorer.core.resolve import resolve
from explorer.core.snapshot.build import build_snapshot
from explorer.core.summary.dispatch import VAR_KEYS, summarize, summarize_into
from explorer.core.summary.namespace import array_entries, is_hidden
from tests.agent_calls import call


class _FakeMemory:
    """Stands in for explorer.core.memory.groups and records what it was given."""

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[tuple[list, bool]] = []
        self.fail = fail

    def assign_memory(self, entries: list, *, exact_overlaps: bool = False, overlaps: bool = True) -> None:
        self.calls.append((list(entries), exact_overlaps))
        if self.fail:
            raise RuntimeError("memory module broke")
        for var, _ in entries:
            var["memory_group"] = "FAKE"


@pytest.fixture
def fake_memory(monkeypatch: pytest.MonkeyPatch) -> _FakeMemory:
    fake = _FakeMemory()
    module = types.ModuleType("explorer.core.memory.groups")
    module.assign_memory = fake.assign_memory  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "explorer.core.memory.groups", module)
    return fake


def _names(snapshot: dict) -> list[str]:
    return [v["name"] for v in snapshot["variables"]]


class _UserClass:
    pass


def _user_function() -> None:
    pass


def test_hidden_names_and_code_objects_are_skipped(fake_memory: _FakeMemory) -> None:
    ns: dict[str, Any] = {
        "In": [""], "Out": {}, "exit": object(), "quit": object(), "get_ipython": lambda: None,
        "_": 1, "__builtins__": {}, "_i1": "code", "_private": torch.ones(1),
        "np": np, "torch": torch, "math": math, "f": _user_function, "lam": lambda x: x,
        "Cls": _UserClass, "Linear": torch.nn.Linear, "length": len, "relu": torch.relu,
        "npsum": np.sum, "npadd": np.add, "part": functools.partial(print, 1),
        "method": "abc".upper, "bound": [].append,
        "x": torch.ones(2), "n": 3, "s": "text", "none": None, "net": torch.nn.Linear(1, 1),
        "obj": _UserClass(), "a": np.zeros(2),
    }
    snap = build_snapshot(ns)
    assert _names(snap) == ["x", "n", "s", "none", "net", "obj", "a"]
    assert snap["memory_error"] is None


def test_order_is_definition_order() -> None:
    ns = OrderedDict()
    for name in ["zeta", "alpha", "mid", "beta"]:
        ns[name] = len(ns)
    assert _names(build_snapshot(dict(ns))) == ["zeta", "alpha", "mid", "beta"]


def test_is_hidden_rules() -> None:
    assert is_hidden("_x", 1) and is_hidden("In", []) and is_hidden(3, 1)  # type: ignore[arg-type]
    assert is_hidden("c", int) and is_hidden("m", np) and is_hidden("u", np.sqrt)
    assert not is_hidden("t", torch.ones(1)) and not is_hidden("m", torch.nn.ReLU()) and not is_hidden("i", 0)


def test_memory_gets_every_tensor_including_children(fake_memory: _FakeMemory) -> None:
    t = torch.arange(6.0)
    a = np.zeros(3)
    model = torch.nn.Linear(2, 1)
    ns = {"t": t, "v": t[1:], "a": a, "items": [t, 5, {"k": a}], "model": model, "n": 1}
    snap = build_snapshot(ns, exact_overlaps=True)
    entries, exact = fake_memory.calls[0]
    assert exact is True
    names = [var["name"] for var, _ in entries]
    assert names == ["t", "v", "a", "items[0]", "items[2]['k']", "model.weight", "model.bias"]
    values = [value for _, value in entries]
    assert values[0] is t and values[3] is t and values[4] is a and values[5] is model.weight
    # The dicts given to the memory module are the ones in the snapshot.
    by_name = {v["name"]: v for v in snap["variables"]}
    assert entries[0][0] is by_name["t"] and by_name["t"]["memory_group"] == "FAKE"
    assert by_name["items"]["children"][0]["memory_group"] == "FAKE"
    assert by_name["n"]["memory_group"] is None


def test_array_entries_match_the_snapshot(fake_memory: _FakeMemory) -> None:
    t = torch.arange(4.0)
    model = torch.nn.Sequential(torch.nn.Linear(1, 1))
    ns = {"_h": t, "t": t, "model": model, "d": {"k": [np.zeros(1)]}, "n": 1}
    build_snapshot(ns)
    snapshot_names = [var["name"] for var, _ in fake_memory.calls[0][0]]
    pairs = array_entries(ns)
    assert [name for name, _ in pairs] == snapshot_names == ["t", "model[0].weight", "model[0].bias", "d['k'][0]"]
    assert all(resolve(ns, name) is value for name, value in pairs)


def test_memory_failure_keeps_the_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeMemory(fail=True)
    module = types.ModuleType("explorer.core.memory.groups")
    module.assign_memory = fake.assign_memory  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "explorer.core.memory.groups", module)
    snap = build_snapshot({"x": torch.ones(1), "y": 2})
    assert _names(snap) == ["x", "y"] and "memory module broke" in snap["memory_error"]


def test_no_tensors_means_no_memory_call(fake_memory: _FakeMemory) -> None:
    build_snapshot({"a": 1, "b": [1, 2]})
    assert fake_memory.calls == []


def test_containers_in_snapshot(fake_memory: _FakeMemory) -> None:
    model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
    ns = {"model": model, "sd": model.state_dict(), "pair": (torch.ones(1), "x"), "empty": []}
    by_name = {v["name"]: v for v in build_snapshot(ns)["variables"]}
    assert [c["name"] for c in by_name["model"]["children"]] == ["model[0].weight", "model[0].bias"]
    assert [c["name"] for c in by_name["sd"]["children"]] == ["sd['0.weight']", "sd['0.bias']"]
    assert [c["name"] for c in by_name["pair"]["children"]] == ["pair[0]"]
    assert by_name["empty"]["children"] == [] and by_name["empty"]["length"] == 0
    assert {v["kind"] for v in by_name.values()} == {"module", "dict", "tuple", "list"}


def test_hostile_namespace_values_never_fail(fake_memory: _FakeMemory) -> None:
    class BadRepr:
        def __repr__(self) -> str:
            raise RuntimeError("x")

    class Meta(type):
        __hash__ = None  # type: ignore[assignment]

    class Unhashable(metaclass=Meta):
        def __repr__(self) -> str:
            return "unhashable"

    class Raises(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            raise RuntimeError("no")

    ns = {"b": BadRepr(), "u": Unhashable(), "r": torch.ones(1).as_subclass(Raises),
          "m": torch.empty(2, device="meta"), "big": 10**10000}
    snap = build_snapshot(ns)
    assert _names(snap) == ["b", "u", "r", "m", "big"]
    reprs = {v["name"]: v["repr"] for v in snap["variables"]}
    assert reprs["b"] == "<BadRepr object (repr failed)>" and reprs["u"] == "unhashable"
    assert reprs["big"] == "<int with 33220 bits>"
    for var in snap["variables"]:
        assert list(var) == list(VAR_KEYS)
    json.dumps(snap, allow_nan=False)


def test_with_real_memory_module() -> None:
    """Integration with the real memory module: views join a group, copies do not."""
    pytest.importorskip("explorer.core.memory.groups")
    a = np.arange(10.0)
    t = torch.from_numpy(a)
    ns = {"a": a, "t": t, "tail": a[5:], "copy": a.copy(), "items": [t[:2]]}
    by_name = {v["name"]: v for v in build_snapshot(ns)["variables"]}
    group = by_name["a"]["memory_group"]
    assert group is not None
    assert by_name["t"]["memory_group"] == group and by_name["tail"]["memory_group"] == group
    assert by_name["items"]["children"][0]["memory_group"] == group
    assert by_name["copy"]["memory_group"] != group
    assert "t" in by_name["a"]["overlaps"]


def test_snapshot_through_the_agent_is_json() -> None:
    """The agent's snapshot request returns the variables as strict JSON."""
    pytest.importorskip("explorer.core.snapshot.changes")
    ns = {"x": torch.tensor([float("nan"), 1.0]), "n": 2, "_hidden": 1}
    reply = call(ns, "snapshot")
    assert "result" in reply, reply
    variables = reply["result"]["variables"]
    assert [v["name"] for v in variables] == ["x", "n"]
    assert variables[0]["preview"] == "[nan, 1.]" and variables[0]["shape"] == [2]


# -- containers (summaries of list/tuple/dict/state_dict/nn.Module) -----------------

def _child_names(var: dict) -> list[str]:
    return [c["name"] for c in var["children"]]


def test_list_tuple_dict_children() -> None:
    t, a = torch.ones(2), np.zeros(2)
    items = summarize("items", [t, 1, "x", a])
    assert items["kind"] == "list" and items["length"] == 4 and _child_names(items) == ["items[0]", "items[3]"]
    assert items["children"][1]["kind"] == "ndarray"
    Point = namedtuple("Point", "x y")
    p = summarize("p", Point(t, 2))
    assert (p["kind"], p["type"], _child_names(p)) == ("tuple", "Point", ["p[0]"])
    d = summarize("d", {"fc.weight": t, 0: a, "n": 3, "nested": {"deep": [t]}})
    assert _child_names(d) == ["d['fc.weight']", "d[0]", "d['nested']"]
    assert _child_names(d["children"][2]) == ["d['nested']['deep']"]
    assert _child_names(d["children"][2]["children"][0]) == ["d['nested']['deep'][0]"]
    for var in (items, p, d):
        _check_contract_container(var)


def _check_contract_container(var: dict) -> None:
    assert list(var) == list(VAR_KEYS)
    json.dumps(var, allow_nan=False)
    for child in var["children"]:
        assert list(child) == list(VAR_KEYS)


class _Net(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = torch.nn.Linear(2, 3)
        self.seq = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.BatchNorm1d(3))
        self.blocks = torch.nn.ModuleDict({"a-b": torch.nn.Linear(1, 1), "ok": torch.nn.Linear(1, 1)})
        self.plist = torch.nn.ParameterList([torch.nn.Parameter(torch.ones(1))])
        self.add_module("0", torch.nn.Linear(1, 1, bias=False))
        self.register_buffer("steps", torch.zeros(()))


def test_module_children_are_resolvable_child_names() -> None:
    model = _Net()
    var = summarize("model", model)
    names = _child_names(var)
    assert var["kind"] == "module" and var["type"] == "_Net"
    assert "model.fc.weight" in names and "model.seq[1].running_mean" in names
    assert "model.blocks['a-b'].weight" in names and "model.blocks.ok.bias" in names
    assert "model.plist[0]" in names and "model._modules['0'].weight" in names and "model.steps" in names
    assert len(names) == len(list(model.parameters())) + len(list(model.buffers()))
    owned = {id(v) for v in list(model.parameters()) + list(model.buffers())}
    resolved = {id(resolve({"model": model}, child["name"])) for child in var["children"]}
    assert resolved == owned  # every name finds its tensor again, and all tensors are there
    kinds = {c["name"]: c["kind"] for c in var["children"]}
    assert kinds["model.fc.weight"] == "parameter" and kinds["model.steps"] == "tensor"
    _check_contract_container(var)


def test_state_dict_and_module_inside_list() -> None:
    model = torch.nn.Sequential(torch.nn.Linear(2, 2))
    sd = summarize("sd", model.state_dict())
    assert (sd["kind"], sd["type"], _child_names(sd)) == ("dict", "OrderedDict", ["sd['0.weight']", "sd['0.bias']"])
    nets = summarize("nets", [model])
    assert _child_names(nets) == ["nets[0]"] and _child_names(nets["children"][0]) == ["nets[0][0].weight", "nets[0][0].bias"]
    assert resolve({"nets": [model]}, "nets[0][0].weight") is model[0].weight


def test_containers_without_tensors_and_entries() -> None:
    var = summarize("xs", [1, [2, [3]], {"a": "b"}])
    assert var["children"] == [] and var["length"] == 3 and var["repr"] == "[1, [2, [3]], {'a': 'b'}]"
    t = torch.ones(2)
    entries: list = []
    out = summarize_into("d", {"a": [t, t], "b": np.zeros(1)}, entries)
    assert [v["name"] for v, _ in entries] == ["d['a'][0]", "d['a'][1]", "d['b']"]
    assert entries[0][1] is t and entries[0][0] is out["children"][0]["children"][0]


def test_cycles_deep_nesting_and_bounds() -> None:
    t = torch.ones(1)
    cyc: list = [t]
    cyc.append(cyc)
    assert _child_names(summarize("c", cyc)) == ["c[0]"]
    deep: list = [t]
    for _ in range(2000):
        deep = [deep]
    var = summarize("deep", deep)
    json.dumps(var)
    assert var["children"] == [] and "nested more than 6 levels" in var["note"]
    shallow = summarize("s", [[[[t]]]])
    leaf = shallow["children"][0]["children"][0]["children"][0]["children"][0]
    assert leaf["name"] == "s[0][0][0][0]" and shallow["children"][0]["repr"] is not None and shallow["note"] is None
    many = summarize("many", [t] * 2500)
    assert len(many["children"]) == 2000 and "first 2000" in many["note"]
    long = summarize("long", list(range(50_000)) + [t])
    assert long["children"] == [] and "5000 items" in long["note"] and len(long["repr"]) <= 200


def test_overridden_container_methods_are_not_called() -> None:
    class Lazy(dict):
        def items(self):
            raise AssertionError("must not be called")

    class Weird(list):
        def __iter__(self):
            raise AssertionError("must not be called")

    t = torch.ones(1)
    assert _child_names(summarize("l", Lazy(w=t))) == ["l['w']"]
    assert _child_names(summarize("w", Weird([t]))) == ["w[0]"]


def test_module_overrides_are_not_called() -> None:
    """The walk reads the module's tables; a raising named_parameters() override never runs."""
    class Broken(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = torch.nn.Linear(1, 1)

        def named_parameters(self, *args: Any, **kwargs: Any):
            raise RuntimeError("cannot list")

    var = summarize("b", Broken())
    assert var["kind"] == "module" and _child_names(var) == ["b.fc.weight", "b.fc.bias"] and var["note"] is None


def test_module_missing_its_tables_is_noted_not_raised() -> None:
    class NoInit(torch.nn.Module):
        def __init__(self) -> None:  # forgets super().__init__()
            pass

    var = summarize("b", NoInit())
    assert var["kind"] == "module" and var["children"] == [] and var["repr"] == "NoInit()"


def test_container_reprs_keep_order_and_describe_heavy_items() -> None:
    assert summarize("d", {"b": 1, "a": 2})["repr"] == "{'b': 1, 'a': 2}"  # insertion order, not sorted
    sd = summarize("sd", OrderedDict(w=torch.zeros(1000, 1000)))["repr"]
    assert sd == "OrderedDict({'w': Tensor(shape=[1000, 1000], dtype=torch.float32)})"
    point = namedtuple("Point", "x y")
    assert summarize("p", point(np.zeros(2), 3))["repr"] == "Point(ndarray(shape=[2], dtype=float64), 3)"
    assert summarize("m", [torch.nn.Linear(1, 1)])["repr"] == "[Linear(…)]"
    assert summarize("net", torch.nn.Linear(2, 3))["repr"] == "Linear(in_features=2, out_features=3, bias=True)"
    assert summarize("n", [[[[[1]]]]])["repr"] == "[[[[…]]]]"
