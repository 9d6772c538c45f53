"""Gradients you can watch (explorer.core.graph: local, watch, gradients, grad_changes)."""

from __future__ import annotations

import warnings

import pytest
import torch

from explorer.core.graph.autograd import autograd_graph
from explorer.core.graph.local import local_rules
from explorer.core.graph.watch import watch_gradients
from tests.agent_calls import Caller

SEED = "x = torch.tensor(2.0, requires_grad=True)\ny = x * 3\nz = y * y\n"


def _run(code: str, ns: dict | None = None) -> dict:
    ns = {"torch": torch} if ns is None else ns
    exec(code, ns)
    ns.pop("__builtins__", None)
    return ns


def _user(ns: dict) -> dict:
    return {k: v for k, v in ns.items() if k != "torch"}


def _by_label(graph: dict) -> dict[str, dict]:
    return {n["label"]: n for n in graph["nodes"] if n["kind"] != "op"}


def _edges(graph: dict) -> dict[tuple[str, str], dict | None]:
    labels = {n["id"]: n["label"] for n in graph["nodes"]}
    return {(labels[a], labels[b]): info for (a, b), info in zip(graph["edges"], graph["edge_info"])}


@pytest.mark.parametrize("watched", [True, False])
def test_seed_example_reads_as_the_chain_rule(watched: bool) -> None:
    ns = _run(SEED)
    if watched:
        assert watch_gradients(_user(ns)) == 2
    _run("z.backward()", ns)
    graph = autograd_graph(ns["z"], _user(ns), name="z")
    nodes = _by_label(graph)
    # x.grad = 36 reads as 2·y × 3 = 12 × 3 = 36, whether the saved values were freed or watched
    assert nodes["x"]["chain"] == {"formula": "2·y × 3", "values": "12 × 3", "value": "36"}
    assert nodes["x"]["grad"]["preview"] == "36."
    assert nodes["y"]["chain"] == {"formula": "2·y", "values": "12", "value": "12"}
    edges = _edges(graph)
    assert edges[("y", "MulBackward0")]["local"] == "2·y" and edges[("y", "MulBackward0")]["local_value"] == "12"
    assert edges[("x", "MulBackward0")]["local"] == "3"
    if watched:
        assert nodes["y"]["grad_watched"] == "12." and nodes["z"]["grad_watched"] == "1."
        assert edges[("x", "MulBackward0")]["flow"] == "36."
    else:
        assert nodes["y"]["grad_watched"] is None


def test_watching_retains_nothing_on_the_tensors() -> None:
    ns = _run(SEED)
    watch_gradients(_user(ns))
    _run("z.backward()", ns)
    assert not ns["y"].retains_grad
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert ns["y"].grad is None  # what lesson 07 teaches stays true


@pytest.mark.parametrize(("code", "expected"), [
    ("a = torch.tensor(3.0, requires_grad=True)\nout = a + 2 * a", {("a", "AddBackward0"): "1"}),
    ("a = torch.tensor(3.0, requires_grad=True)\nout = a - a", {("a", "SubBackward0"): "1 + −1"}),
    ("a = torch.tensor(3.0, requires_grad=True)\nout = a ** 3", {("a", "PowBackward0"): "3·a^2"}),
    ("a = torch.ones(4, requires_grad=True)\nout = a.sum()", {("a", "SumBackward0"): "1"}),
    ("a = torch.ones(2, 4, requires_grad=True)\nout = a.mean()", {("a", "MeanBackward0"): "1/8"}),
    ("a = torch.tensor(6.0, requires_grad=True)\nb = torch.tensor(2.0, requires_grad=True)\nout = a / b",
     {("a", "DivBackward0"): "1/b", ("b", "DivBackward0"): "−a/b²"}),
    ("a = torch.tensor(3.0, requires_grad=True)\nb = torch.tensor(5.0, requires_grad=True)\nout = a * b",
     {("a", "MulBackward0"): "b", ("b", "MulBackward0"): "a"}),
])
def test_local_derivatives_of_the_common_ops(code: str, expected: dict) -> None:
    ns = _run(code)
    edges = _edges(autograd_graph(ns["out"], _user(ns), name="out"))
    assert {k: edges[k]["local"] for k in expected} == expected


def test_matmul_edges_carry_the_shape_rule() -> None:
    ns = _run("a = torch.ones(2, 3, requires_grad=True)\nb = torch.ones(3, 4, requires_grad=True)\nout = a @ b")
    edges = _edges(autograd_graph(ns["out"], _user(ns), name="out"))
    assert edges[("a", "MmBackward0")]["local"] == "grad @ bᵀ"
    assert edges[("a", "MmBackward0")]["shape"] == "[2, 4] @ [4, 3] → [2, 3]"
    assert edges[("b", "MmBackward0")]["shape"] == "[3, 2] @ [2, 4] → [3, 4]"


def test_unknown_operations_give_no_formula_and_no_chain() -> None:
    ns = _run("a = torch.tensor(1.0, requires_grad=True)\nout = torch.sin(a) * 2")
    graph = autograd_graph(ns["out"], _user(ns), name="out")
    assert _by_label(graph)["a"]["chain"] is None  # a product that skips sin would be wrong
    assert local_rules(ns["out"].grad_fn.next_functions[0][0]) == [None]


def test_grad_filled_accumulated_and_zeroed_mark_the_leaf_changed() -> None:
    ns = _run("x = torch.tensor(2.0, requires_grad=True)\nopt = torch.optim.SGD([x], lr=0.1)")
    caller = Caller(_user(ns))

    def changes(code: str) -> dict:
        _run(code, ns)
        caller.agent._namespace = lambda: _user(ns)
        return caller.call("after_run", code=code, delta=True)["result"]["snapshot"]["changes"]

    changes("")
    for code in ("(x * x * 9).backward()", "(x * x * 9).backward()", "x.grad.zero_()", "opt.zero_grad()"):
        found = changes(code)
        assert found.get("x", {}).get("grad") is True, code
    assert "x" not in changes("unrelated = 1")
