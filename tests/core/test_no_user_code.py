"""Inspection never runs user code: classes that count their calls see none from a snapshot.

A snapshot (summaries, memory groups, change tracking, copy hints), on the first
and the second run, and the memory map / overlaps of a chosen variable must
leave every counter where it was. The one exception docs/architecture.md allows is the
bounded ``repr`` of a value of kind "other"; the classes below count everything
else (``__repr__`` of containers, tensors and arrays included).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest
import torch
from torch import nn

from explorer.core.memory.groups import overlaps_of
from explorer.core.memory.map import memory_map
from explorer.core.snapshot.build import build_snapshot
from explorer.core.snapshot.changes import ChangeTracker
from explorer.core.snapshot.copy_hints import CopyHints

CALLS: Counter = Counter()


def _count(key: str) -> None:
    CALLS[key] += 1


class CountingList(list):
    def __len__(self) -> int:
        _count("list.__len__")
        return super().__len__()

    def __iter__(self) -> Any:
        _count("list.__iter__")
        return super().__iter__()

    def __getitem__(self, i: Any) -> Any:
        _count("list.__getitem__")
        return super().__getitem__(i)

    def __repr__(self) -> str:
        _count("list.__repr__")
        return super().__repr__()


class CountingTuple(tuple):
    def __len__(self) -> int:
        _count("tuple.__len__")
        return super().__len__()

    def __iter__(self) -> Any:
        _count("tuple.__iter__")
        return super().__iter__()

    def __getitem__(self, i: Any) -> Any:
        _count("tuple.__getitem__")
        return super().__getitem__(i)


class CountingDict(dict):
    def __len__(self) -> int:
        _count("dict.__len__")
        return super().__len__()

    def __iter__(self) -> Any:
        _count("dict.__iter__")
        return super().__iter__()

    def __getitem__(self, k: Any) -> Any:
        _count("dict.__getitem__")
        return super().__getitem__(k)

    def __missing__(self, k: Any) -> Any:
        _count("dict.__missing__")
        raise KeyError(k)

    def keys(self) -> Any:
        _count("dict.keys")
        return super().keys()

    def items(self) -> Any:
        _count("dict.items")
        return super().items()

    def values(self) -> Any:
        _count("dict.values")
        return super().values()

    def get(self, k: Any, default: Any = None) -> Any:
        _count("dict.get")
        return super().get(k, default)


class CountingTensor(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        _count("tensor.__torch_function__")
        return super().__torch_function__(func, types, args, kwargs or {})


class CountingModule(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.layers = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
        self.register_buffer("running", torch.zeros(2))

    def __getattr__(self, name: str) -> Any:
        _count("module.__getattr__")
        return super().__getattr__(name)

    def named_parameters(self, *args: Any, **kwargs: Any) -> Any:
        _count("module.named_parameters")
        return super().named_parameters(*args, **kwargs)

    def named_buffers(self, *args: Any, **kwargs: Any) -> Any:
        _count("module.named_buffers")
        return super().named_buffers(*args, **kwargs)

    def __len__(self) -> int:
        _count("module.__len__")
        return 2


class CountingObject:
    """An "other" value: its repr is allowed, nothing else is."""

    @property
    def prop(self) -> int:
        _count("object.property")
        return 1

    def __getattr__(self, name: str) -> Any:
        _count("object.__getattr__")
        raise AttributeError(name)

    def __repr__(self) -> str:
        return "CountingObject()"


class CountingArray(np.ndarray):
    def __array_finalize__(self, obj: Any) -> None:
        _count("ndarray.__array_finalize__")

    def __getitem__(self, k: Any) -> Any:
        _count("ndarray.__getitem__")
        return super().__getitem__(k)

    def __repr__(self) -> str:
        _count("ndarray.__repr__")
        return "CountingArray"


class Hashy:
    """Counts the comparison protocol (a dict key, a list item, a top-level value)."""

    def __eq__(self, other: object) -> bool:
        _count("hashy.__eq__")
        return self is other

    def __hash__(self) -> int:
        _count("hashy.__hash__")
        return 7

    def __bool__(self) -> bool:
        _count("hashy.__bool__")
        return True

    def __len__(self) -> int:
        _count("hashy.__len__")
        return 1

    def __repr__(self) -> str:
        _count("hashy.__repr__")
        return "Hashy()"


class Shown(Hashy):
    """A top-level "other" value: the one object whose own repr the snapshot may call."""

    def __repr__(self) -> str:
        return "Shown()"


def _namespace() -> dict[str, Any]:
    base = torch.arange(12.0)
    sub = base.as_subclass(CountingTensor)
    arr = np.arange(10.0).view(CountingArray)
    big = np.zeros(20_000).view(CountingArray)  # above the change tracker's exact-hash size
    key = Hashy()
    ns: dict[str, Any] = {
        "lst": CountingList([torch.zeros(2), Hashy(), np.ones(2)]),
        "tup": CountingTuple((torch.ones(3), CountingList([torch.zeros(1)]))),
        "d": CountingDict({"w": torch.zeros(3), key: torch.ones(1), "nested": CountingDict({"b": np.zeros(2)})}),
        "sub": sub,
        "sub_view": sub[2:5],
        "subs": CountingList([sub, sub[:2]]),
        "model": CountingModule(),
        "obj": CountingObject(),
        "arr": arr,
        "arr_view": arr[2:],
        "big": big,
        "h": Shown(),
        "hashes": CountingList([Hashy(), (Hashy(),), {"k": Hashy()}]),
        "base": base,
    }
    return ns


def _snapshot(ns: dict[str, Any], state: dict[str, Any], code: str) -> dict:
    """The agent's do_snapshot sequence: build, copy hints, change tracker."""
    snap = build_snapshot(ns, overlaps=False)
    state["hints"].update(code, ns, snap["variables"])
    snap["changes"] = state["tracker"].update(ns, snap["variables"], code)
    return snap


def _allowed(calls: Counter) -> Counter:
    """The counts (``Shown.__repr__``, the one permitted call, is not counted)."""
    return Counter(calls)


@pytest.fixture
def session() -> tuple[dict[str, Any], dict[str, Any]]:
    CALLS.clear()
    ns = _namespace()
    return ns, {"tracker": ChangeTracker(), "hints": CopyHints()}


def test_first_and_second_snapshot_run_no_user_code(session: tuple[dict, dict]) -> None:
    ns, state = session
    before = _allowed(CALLS)
    first = _snapshot(ns, state, "")
    assert _allowed(CALLS) == before
    # The second run rebinds and writes through aliases, so every branch of the tracker runs.
    with torch._C.DisableTorchFunctionSubclass():
        ns["sub"] = torch.arange(5.0).as_subclass(CountingTensor)
        torch.Tensor.add_(ns["base"], 1)
    np.ndarray.fill(np.ndarray.view(ns["big"], np.ndarray), 1.0)
    np.ndarray.fill(np.ndarray.view(ns["arr_view"], np.ndarray), 2.0)
    before = _allowed(CALLS)
    second = _snapshot(ns, state, "sub = base.clone()\nbase.add_(1)\nbig[:] = 1\narr_view.fill(2)\nlst.append(1)")
    assert _allowed(CALLS) == before
    names = {v["name"] for v in second["variables"]}
    assert names == {v["name"] for v in first["variables"]} == set(ns)
    assert second["changes"]["arr"]["status"] == "changed_through"


@pytest.mark.parametrize("name", ["sub", "sub_view", "arr", "arr_view", "lst[0]", "tup[0]", "d['w']",
                                  "model.fc.weight", "model.layers[0].bias", "model.running", "subs[1]",
                                  "d['nested']['b']"])
def test_memory_map_and_overlaps_run_no_user_code(session: tuple[dict, dict], name: str) -> None:
    ns, _ = session
    before = _allowed(CALLS)
    drawn = memory_map(ns, name)
    over = overlaps_of(ns, name)
    assert _allowed(CALLS) == before
    assert drawn["rows"] and over["name"] == name


def test_summaries_of_counting_values_are_complete(session: tuple[dict, dict]) -> None:
    ns, state = session
    snap = _snapshot(ns, state, "")
    by_name = {v["name"]: v for v in snap["variables"]}
    assert by_name["lst"]["length"] == 3 and by_name["d"]["length"] == 3
    assert by_name["sub"]["shape"] == [12] and by_name["sub"]["type"] == "CountingTensor"
    assert by_name["sub_view"]["storage_offset"] == 2 and by_name["sub_view"]["memory_group"] is not None
    assert by_name["arr_view"]["storage_offset"] == 2 and by_name["arr_view"]["type"] == "CountingArray"
    children = {c["name"] for c in by_name["model"]["children"]}
    assert {"model.fc.weight", "model.layers[0].bias", "model.running"} <= children
    assert by_name["h"]["repr"] == "Shown()"
    assert "Hashy" in by_name["hashes"]["repr"] and "CountingObject" in by_name["obj"]["repr"]


def test_resolve_reads_without_user_code(session: tuple[dict, dict]) -> None:
    from explorer.core.resolve import ResolveError, resolve

    ns, _ = session
    before = _allowed(CALLS)
    assert resolve(ns, "d['nested']['b']") is dict.__getitem__(dict.__getitem__(ns["d"], "nested"), "b")
    assert resolve(ns, "model.layers[0].bias") is ns["model"]._modules["layers"]._modules["0"]._parameters["bias"]
    assert resolve(ns, "tup[1][0]") is list.__getitem__(tuple.__getitem__(ns["tup"], 1), 0)
    for name in ("obj.prop", "obj.missing", "d['absent']", "arr[0]"):
        with pytest.raises(ResolveError):
            resolve(ns, name)
    assert _allowed(CALLS) == before
