"""Inspector failures cost one variable one sentence, never the snapshot (issue 10, item 10).

A ``__repr__`` raising ``KeyboardInterrupt`` or ``SystemExit``, builtins replaced
by the user's code (``builtins.repr = None``), ``sys.modules['numpy'] = None``,
a tiny recursion limit, and names such as ``json`` or ``torch`` rebound in the
user namespace: the snapshot still lists every other variable with the fields
it has without the tampering.
"""

from __future__ import annotations

import builtins
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

from explorer.core.memory.groups import overlaps_of
from explorer.core.memory.map import memory_map
from explorer.core.snapshot.build import build_snapshot
from explorer.core.snapshot.changes import ChangeTracker
from explorer.core.snapshot.copy_hints import CopyHints


class RaisesInterrupt:
    def __repr__(self) -> str:
        raise KeyboardInterrupt


class RaisesExit:
    def __repr__(self) -> str:
        raise SystemExit(3)


def _namespace() -> dict[str, Any]:
    t = torch.arange(12.0).reshape(3, 4)
    a = np.arange(6.0)
    model = torch.nn.Sequential(torch.nn.Linear(2, 2))
    with torch.no_grad():
        model[0].weight.fill_(0.5)
        model[0].bias.fill_(-1.0)
    return {
        "t": t, "v": t[:, 1:3], "n": t.numpy(), "a": a, "a_view": a[::2], "k": 5, "s": "text",
        "pair": (torch.ones(2), [np.zeros(3)]), "sd": {"w": torch.zeros(2, 2)},
        "model": model, "nested": [[[[[1]]]]],
    }


def _after_run(ns: dict[str, Any], code: str = "") -> tuple[dict, dict]:
    """The GUI's sequence after a run, twice (a fresh tracker, then a second run), plus a memory map."""
    tracker, hints = ChangeTracker(), CopyHints()
    snap = build_snapshot(ns, overlaps=False)
    hints.update(code, ns, snap["variables"])
    snap["changes"] = tracker.update(ns, snap["variables"], code)
    again = build_snapshot(ns, exact_overlaps=True)
    hints.update(code, ns, again["variables"])
    again["changes"] = tracker.update(ns, again["variables"], code)
    extra = {"map": memory_map(ns, "v"), "overlaps": overlaps_of(ns, "n")}
    return snap, {"again": again, **extra}


def _by_name(snap: dict) -> dict[str, dict]:
    return {var["name"]: var for var in snap["variables"]}


def _stable(var: dict) -> dict:
    """The VAR without addresses (each namespace has its own tensors), children included."""
    out = {k: v for k, v in var.items() if k != "data_ptr"}
    if isinstance(out.get("storage"), dict):
        out["storage"] = {"nbytes": out["storage"]["nbytes"]}
    if isinstance(out.get("children"), list):
        out["children"] = [_stable(child) for child in out["children"]]
    return out


@pytest.fixture(scope="module")
def clean() -> tuple[dict, dict]:
    return _after_run(_namespace())


def _assert_same(clean: tuple[dict, dict], got: tuple[dict, dict], skip: set[str] = frozenset()) -> None:
    """Every variable (but *skip*) has exactly the fields of the untampered snapshot."""
    want, got_snap = _by_name(clean[0]), _by_name(got[0])
    for name, var in want.items():
        if name not in skip:
            assert _stable(got_snap[name]) == _stable(var), name
    assert got[0]["memory_error"] is None and got[1]["again"]["memory_error"] is None
    assert set(got[0]["changes"]) >= set(want) - set(skip) and got[1]["again"]["changes"] == {}
    assert got[1]["map"]["rows"] and got[1]["overlaps"]["overlaps"] == ["t", "v"]


@pytest.mark.parametrize("cls", [RaisesInterrupt, RaisesExit], ids=["KeyboardInterrupt", "SystemExit"])
def test_repr_raising_base_exceptions_costs_one_variable(clean: tuple[dict, dict], cls: type) -> None:
    bad = cls()
    ns = {**_namespace(), "bad": bad, "inside": [bad, torch.ones(1)]}
    got = _after_run(ns)
    var = _by_name(got[0])["bad"]
    assert var["repr"] == f"<{type(bad).__name__} object (repr failed)>"
    assert var["note"] == f"repr() raised {'KeyboardInterrupt' if isinstance(bad, RaisesInterrupt) else 'SystemExit'}"
    assert _by_name(got[0])["inside"]["children"][0]["name"] == "inside[1]"
    _assert_same(clean, got, skip={"bad", "inside"})


_BUILTINS = ["repr", "len", "isinstance", "issubclass", "getattr", "hasattr", "type", "str", "print", "id",
             "iter", "next", "int", "list", "dict", "tuple", "set", "sorted", "min", "max", "sum", "any",
             "all", "enumerate", "zip", "range", "bool", "float", "super", "object"]


def _tampered(names: list[str], value: Any, action: Callable[[], Any]) -> Any:
    """Run *action* with ``builtins.<name> = value`` for each name (restored before anything else runs)."""
    saved = {name: builtins.__dict__[name] for name in names}
    try:
        for name in names:
            builtins.__dict__[name] = value
        return action()
    finally:
        builtins.__dict__.update(saved)


@pytest.mark.parametrize("name", _BUILTINS)
def test_replaced_builtin_changes_nothing(clean: tuple[dict, dict], name: str) -> None:
    ns = _namespace()
    got = _tampered([name], None, lambda: _after_run(ns))
    _assert_same(clean, got)


def test_all_builtins_replaced_at_once_changes_nothing(clean: tuple[dict, dict]) -> None:
    ns = _namespace()
    got = _tampered(_BUILTINS, None, lambda: _after_run(ns))
    _assert_same(clean, got)


def test_numpy_removed_from_sys_modules(clean: tuple[dict, dict], monkeypatch: pytest.MonkeyPatch) -> None:
    ns = _namespace()
    monkeypatch.setitem(sys.modules, "numpy", None)
    got = _after_run(ns)
    monkeypatch.undo()
    _assert_same(clean, got)


def test_tiny_recursion_limit(clean: tuple[dict, dict]) -> None:
    ns = _namespace()
    old = sys.getrecursionlimit()
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    try:
        sys.setrecursionlimit(depth + 12)  # like sys.setrecursionlimit(60) in the kernel: a few frames to spare
        got = _after_run(ns)
    finally:
        sys.setrecursionlimit(old)
    _assert_same(clean, got)


def test_user_names_shadowing_modules_change_nothing(clean: tuple[dict, dict]) -> None:
    ns = {**_namespace(), "json": 1, "torch": None, "np": "numpy", "sys": None, "builtins": 0, "len": None}
    got = _after_run(ns)
    _assert_same(clean, got, skip={"json", "torch", "np", "sys", "builtins", "len"})
    assert _by_name(got[0])["json"]["repr"] == "1" and _by_name(got[0])["torch"]["repr"] == "None"
