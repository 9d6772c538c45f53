"""Tests for autograd graph extraction (explorer.core.graph.autograd)."""

from __future__ import annotations

import json
import warnings

import networkx as nx
import numpy as np
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.graph.autograd import autograd_graph, grad_preview
from tests.agent_calls import call

SEED = "x = torch.tensor(2.0, requires_grad=True)\ny = x * 3\nz = y * y\n"


def _run(code: str) -> dict:
    ns: dict = {"torch": torch, "nn": nn, "F": F}
    exec(code, ns)
    return ns


def _graph(ns: dict, name: str, **kw) -> dict:
    user = {k: v for k, v in ns.items() if k not in ("torch", "nn", "F", "__builtins__")}
    g = autograd_graph(user[name] if name in user else eval(name, ns), user, name=name, **kw)
    json.dumps(g, allow_nan=False)  # must be strict JSON as produced
    return g


def _labels(g: dict) -> dict[str, str]:
    return {n["id"]: n["label"] for n in g["nodes"]}


def _label_edges(g: dict) -> set[tuple[str, str]]:
    lab = _labels(g)
    return {(lab[a], lab[b]) for a, b in g["edges"]}


def _node(g: dict, label: str) -> dict:
    found = [n for n in g["nodes"] if n["label"] == label]
    assert len(found) == 1, (label, [n["label"] for n in g["nodes"]])
    return found[0]


def _digraph(g: dict) -> nx.DiGraph:
    d = nx.DiGraph()
    d.add_nodes_from(n["id"] for n in g["nodes"])
    d.add_edges_from(map(tuple, g["edges"]))
    return d


def _chain_labels(g: dict) -> list[str]:
    """Labels along the single forward path from the only source to the root."""
    d = _digraph(g)
    lab = _labels(g)
    (source,) = [n for n in d if d.in_degree(n) == 0]
    path = nx.shortest_path(d, source, g["root"])
    return [lab[n] for n in path]


def test_seed_example_reads_forward() -> None:
    g = _graph(_run(SEED), "z")
    assert _chain_labels(g) == ["x", "MulBackward0", "y", "MulBackward0", "z"]
    assert _labels(g)[g["root"]] == "z"
    assert len(g["nodes"]) == 5
    assert g["freed"] is False and g["truncated"] is False and g["message"] is None
    x = _node(g, "x")
    assert x["kind"] == "leaf" and x["var"] == "x" and x["shape"] == [] and x["grad"] is None
    assert _node(g, "y")["kind"] == "tensor"
    assert _node(g, "z")["dtype"] == "torch.float32"


def test_seed_uses_y_twice_as_one_edge_with_count() -> None:
    g = _graph(_run(SEED), "z")
    lab = _labels(g)
    counts = {(lab[a], lab[b]): c for (a, b), c in zip(g["edges"], g["edge_counts"])}
    assert counts[("y", "MulBackward0")] == 2
    assert counts[("x", "MulBackward0")] == 1
    assert len(g["edges"]) == len(set(map(tuple, g["edges"]))) == 4


def test_after_backward_grad_and_freed() -> None:
    ns = _run(SEED + "z.backward()\n")
    g = _graph(ns, "z")
    assert g["freed"] is True
    assert _node(g, "x")["grad"]["preview"] in ("36.", "36.0")
    assert _node(g, "x")["grad"]["shape"] == []
    assert all(n["freed"] for n in g["nodes"] if n["kind"] == "op")


def test_retain_graph_is_not_freed() -> None:
    g = _graph(_run(SEED + "z.backward(retain_graph=True)\n"), "z")
    assert g["freed"] is False
    assert _node(g, "x")["grad"]["preview"] in ("36.", "36.0")


def test_partial_backward_frees_only_that_part() -> None:
    g = _graph(_run(SEED + "y.backward(retain_graph=False)\n"), "z")
    ops = {n["id"]: n["freed"] for n in g["nodes"] if n["kind"] == "op"}
    assert sorted(ops.values()) == [False, True]
    assert g["freed"] is True


@pytest.mark.parametrize(
    "code, key",
    [
        ("t = torch.ones(3, requires_grad=True)", "leaf"),
        ("t = torch.ones(2, 3)", "no_grad"),
        ("a = torch.ones(2, requires_grad=True)\nt = (a * 2).detach()", "no_grad"),
        ("a = torch.ones(2, requires_grad=True)\nwith torch.no_grad():\n    t = a * 2", "no_grad"),
        ("t = torch.tensor(1.5)", "no_grad"),
        ("t = torch.empty(0, 4, requires_grad=True)", "leaf"),
        ("t = torch.ones(2, dtype=torch.bfloat16, requires_grad=True)", "leaf"),
        ("t = torch.ones(2, dtype=torch.complex64, requires_grad=True)", "leaf"),
        ("t = torch.ones(2, dtype=torch.bool)", "no_grad"),
        ("t = torch.ones(2, 3, device='meta', requires_grad=True)", "leaf"),
        ("t = torch.eye(3).to_sparse()", "no_grad"),
        ("t = torch.ones(3).expand(4, 3)", "no_grad"),
    ],
)
def test_no_grad_fn_gives_single_node_and_message(code: str, key: str) -> None:
    g = _graph(_run(code), "t")
    assert len(g["nodes"]) == 1 and g["edges"] == [] and g["root"] == g["nodes"][0]["id"]
    assert g["message_key"] == key and "t" in g["message"]
    assert g["nodes"][0]["label"] == "t"
    assert g["nodes"][0]["kind"] == ("leaf" if key == "leaf" else "tensor")


def test_leaf_with_grad_shows_preview() -> None:
    g = _graph(_run("w = torch.ones(3, requires_grad=True)\n(w * w).sum().backward()"), "w")
    assert g["message_key"] == "leaf"
    assert g["nodes"][0]["grad"] == {"shape": [3], "preview": "[2., 2., 2.]"}


@pytest.mark.parametrize("value", [np.arange(3), [1, 2], None, "text", nn.Linear(2, 2)])
def test_non_tensor_values(value: object) -> None:
    g = autograd_graph(value, {"v": value}, name="v")
    assert g["nodes"] == [] and g["root"] is None and g["message_key"] == "not_tensor"


def test_module_parameters_are_named() -> None:
    code = (
        "class M(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.fc = nn.Linear(3, 2)\n"
        "model = M()\n"
        "inp = torch.randn(4, 3)\n"
        "out = model.fc(inp).sum()\n"
    )
    g = _graph(_run(code), "out")
    weight = _node(g, "model.fc.weight")
    assert weight["is_parameter"] and weight["kind"] == "leaf" and weight["shape"] == [2, 3]
    assert _node(g, "model.fc.bias")["is_parameter"]
    # inp does not require grad: it never enters the backward graph
    assert "inp" not in _labels(g).values()


def test_selected_parameter_is_a_leaf_named_by_its_path() -> None:
    ns = _run("model = nn.Linear(2, 2)")
    g = autograd_graph(ns["model"].weight, {"model": ns["model"]}, name="model.weight")
    assert g["message_key"] == "leaf" and g["nodes"][0]["is_parameter"]


def test_containers_one_level_and_unnamed_shapes() -> None:
    code = (
        "ws = [torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)]\n"
        "d = {'b': torch.zeros(2, requires_grad=True)}\n"
        "hidden = torch.ones(2, 5, requires_grad=True)\n"
        "out = (ws[0] * ws[1] + d['b']).sum() + hidden.sum()\n"
        "del hidden\n"
    )
    labels = set(_labels(_graph(_run(code), "out")).values())
    assert {"ws[0]", "ws[1]", "d['b']", "[2, 5]"} <= labels


def test_plain_name_preferred_over_container_path() -> None:
    g = _graph(_run("a = torch.ones(2, requires_grad=True)\nitems = [a]\nout = a * 2"), "out")
    assert "a" in _labels(g).values() and "items[0]" not in _labels(g).values()


def test_detach_breaks_the_chain() -> None:
    code = "x = torch.ones(2, requires_grad=True)\nh = (x * 2).detach()\nh.requires_grad_()\nout = (h * 3).sum()"
    labels = set(_labels(_graph(_run(code), "out")).values())
    assert "h" in labels and "x" not in labels
    assert _node(_graph(_run(code), "out"), "h")["kind"] == "leaf"


def test_multi_output_results_keep_their_own_names() -> None:
    code = "x = torch.arange(4.0, requires_grad=True)\na, b = x.split(2)\nout = (a * b).sum()"
    g = _graph(_run(code), "out")
    assert {("a", "MulBackward0"), ("b", "MulBackward0")} <= _label_edges(g)
    assert ("SplitBackward0", "a") in _label_edges(g)
    assert len([n for n in g["nodes"] if n["op"] == "SplitBackward0"]) == 1


def _cnn_code() -> str:
    return (
        "class Net(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.conv1 = nn.Conv2d(1, 4, 3)\n"
        "        self.conv2 = nn.Conv2d(4, 8, 3)\n"
        "        self.fc1 = nn.Linear(8 * 4 * 4, 16)\n"
        "        self.fc2 = nn.Linear(16, 10)\n"
        "    def forward(self, x):\n"
        "        x = F.max_pool2d(F.relu(self.conv1(x)), 2)\n"
        "        x = F.relu(self.conv2(x)).flatten(1)\n"
        "        return self.fc2(F.relu(self.fc1(x)))\n"
        "model = Net()\n"
        "images = torch.randn(2, 1, 14, 14)\n"
        "loss = F.cross_entropy(model(images), torch.tensor([1, 2]))\n"
    )


def test_small_cnn_graph_is_a_dag_reaching_every_parameter() -> None:
    ns = _run(_cnn_code())
    g = _graph(ns, "loss")
    assert len(g["nodes"]) > 20 and not g["truncated"]
    d = _digraph(g)
    assert nx.is_directed_acyclic_graph(d)
    assert nx.ancestors(d, g["root"]) | {g["root"]} == set(d)  # everything flows into loss
    params = {f"model.{n}" for n, _ in ns["model"].named_parameters()}
    assert params <= set(_labels(g).values())
    ids = [n["id"] for n in g["nodes"]]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("limit", [1, 3, 10])
def test_truncated_with_small_max_nodes(limit: int) -> None:
    g = _graph(_run(_cnn_code()), "loss", max_nodes=limit)
    assert g["truncated"] is True and len(g["nodes"]) == limit
    ids = {n["id"] for n in g["nodes"]}
    assert all(a in ids and b in ids for a, b in g["edges"])
    assert g["root"] in ids


def test_deep_chain_has_no_recursion_limit() -> None:
    a = torch.ones(2, requires_grad=True)
    b = a
    for _ in range(3000):
        b = b * 1.0
    g = autograd_graph(b, {"a": a}, name="b", max_nodes=10_000)
    assert len(g["nodes"]) == 3002 and not g["truncated"]
    assert "a" in _labels(g).values()


def test_shared_subgraph_is_deduplicated() -> None:
    code = "x = torch.ones(2, requires_grad=True)\ns = x.exp()\nout = (s.sin() + s.cos() + x).sum()"
    g = _graph(_run(code), "out")
    assert len([n for n in g["nodes"] if n["op"] == "ExpBackward0"]) == 1
    assert len([n for n in g["nodes"] if n["label"] == "x"]) == 1
    assert len([n for n in g["nodes"] if n["label"] == "s"]) == 1
    assert nx.is_directed_acyclic_graph(_digraph(g))


def test_agent_graph_request_round_trip() -> None:
    ns = _run(SEED + "z.backward()\n")
    reply = call({k: ns[k] for k in ("x", "y", "z")}, "graph", name="z")
    assert reply["result"]["freed"] is True and len(reply["result"]["nodes"]) == 5


@pytest.mark.parametrize(
    "make, expected",
    [
        (lambda: torch.tensor(36.0), "36."),
        (lambda: torch.tensor([1.0, 2.5]), "[1.0000, 2.5000]"),
        (lambda: torch.tensor([[1, 2], [3, 4]]), "[[1, 2], [3, 4]]"),
        (lambda: torch.zeros(0), "[]"),
        (lambda: torch.ones(2, dtype=torch.float64), "[1., 1.]"),
        (lambda: torch.ones(100), "[1., 1., 1., 1., …]"),
        (lambda: torch.ones(2, 3).t(), "[[1., 1.], [1., 1.], [1., 1.]]"),
        (lambda: torch.ones(3, 4, device="meta"), "<meta>"),
        (lambda: torch.eye(2).to_sparse(), "<sparse_coo>"),
        (lambda: torch.tensor([1 + 2j]), "[1.+2.j]"),
    ],
)
def test_grad_preview(make, expected: str) -> None:
    assert grad_preview(make()) == expected


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["add", "mul", "exp", "sum_keep", "reuse"]), min_size=1, max_size=12))
def test_random_programs_give_consistent_dags(ops: list[str]) -> None:
    x = torch.ones(3, requires_grad=True)
    values = [x]
    for op in ops:
        last = values[-1]
        make = {"add": lambda a: a + values[0], "mul": lambda a: a * 2, "exp": lambda a: a.exp(),
                "sum_keep": lambda a: a.sum() * x, "reuse": lambda a: a * a}
        values.append(make[op](last))
    g = autograd_graph(values[-1], {"x": x}, name="out")
    d = _digraph(g)
    assert nx.is_directed_acyclic_graph(d)
    assert {tuple(e) for e in g["edges"]} == set(d.edges) and len(g["edges"]) == d.number_of_edges()
    assert nx.ancestors(d, g["root"]) | {g["root"]} == set(d)
    assert [n["label"] for n in g["nodes"]].count("x") == 1


class _Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):  # type: ignore[override]
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):  # type: ignore[override]
        (x,) = ctx.saved_tensors
        return 2 * x * grad


@pytest.mark.parametrize("retain", [False, True])
def test_custom_function_node_and_freed(retain: bool) -> None:
    x = torch.ones(2, requires_grad=True)
    y = _Square.apply(x).sum()
    assert autograd_graph(y, {"x": x}, name="y")["freed"] is False
    y.backward(retain_graph=retain)
    g = autograd_graph(y, {"x": x}, name="y")
    assert "_SquareBackward" in _labels(g).values()
    assert g["freed"] is (not retain)


def test_inplace_result_is_named_after_its_latest_grad_fn() -> None:
    code = "a = torch.ones(3, requires_grad=True)\nb = a.clone()\nb.add_(1)\nb[0] = 5\nc = b.sum()"
    edges = _label_edges(_graph(_run(code), "c"))
    assert {("CopySlices", "b"), ("b", "SumBackward0"), ("SumBackward0", "c")} <= edges


def test_retained_intermediate_grad_and_nested_shape() -> None:
    ns = _run("h = torch.ones(2, requires_grad=True) * 2\nh.retain_grad()\n(h * h).sum().backward()")
    assert _graph(ns, "h")["nodes"][0]["grad"]["preview"] == "[4., 4.]"
    with warnings.catch_warnings():  # nested tensors are a prototype API and say so (once)
        warnings.simplefilter("ignore")
        nt = torch.nested.nested_tensor([torch.ones(2), torch.ones(3)], requires_grad=True)
    g = autograd_graph(nt * 2, {"nt": nt}, name="out")
    assert _node(g, "nt")["shape"] is None and _node(g, "out")["kind"] == "tensor"


def test_huge_containers_are_scanned_only_partly() -> None:
    x = torch.ones(2, requires_grad=True)
    out = x * 2
    big = list(range(2000)) + [x]  # x sits past the scan limit: named by shape only
    g = autograd_graph(out, {"big": big, "out": out}, name="out")
    assert "[2]" in _labels(g).values() and "big[2000]" not in _labels(g).values()
