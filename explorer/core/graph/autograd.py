"""Extract the autograd (backward) graph behind a tensor as plain JSON-able data.

The graph is read from ``grad_fn.next_functions`` with an explicit work list
(never recursion, so deep graphs cannot hit Python's recursion limit) and is
reported in the *forward* direction: inputs -> operation -> output, which is
how learners read ``x -> MulBackward0 -> y -> MulBackward0 -> z``.
"""

from __future__ import annotations

import itertools
import re
import sys
from collections import deque
from typing import Any

from explorer.core.graph.gradients import annotate
from explorer.core.i18n import _
from explorer.protocol.units import shape_text

_PREVIEW_ELEMENTS = 8
# Naming looks inside containers only this far: a list of a million numbers must not stall the graph.
_CONTAINER_ITEMS = 1000
_REPR_TAIL = re.compile(r",\s*(dtype|device|size|layout|grad_fn|requires_grad|names)=")


class _Builder:
    """Accumulates nodes and edges while walking the backward graph."""

    def __init__(self, max_nodes: int) -> None:
        self.max_nodes = max(1, int(max_nodes))
        self.nodes: list[dict[str, Any]] = []
        self.edges: dict[tuple[str, str], int] = {}
        self.truncated = False
        # Python wrappers of autograd nodes are only identity-stable while
        # referenced, so every node we key by id() is kept alive here.
        self._keep: list[Any] = []
        self._ids: dict[Any, str] = {}
        self.slots: dict[str, list[str | None]] = {}  # op node id -> node id feeding each next_functions slot

    def kept(self, node_id: str) -> Any:
        """The object behind a node id: the autograd node of an operation, the tensor of a leaf or held result."""
        return self._keep[int(node_id[1:])]

    def full(self) -> bool:
        return len(self.nodes) >= self.max_nodes

    def lookup(self, key: Any) -> str | None:
        return self._ids.get(key)

    def add(self, key: Any, node: dict[str, Any], keep: Any = None) -> str | None:
        """Add a node under *key*; None (and the truncated flag) once the budget is spent."""
        if key in self._ids:
            return self._ids[key]
        if self.full():
            self.truncated = True
            return None
        node_id = f"n{len(self.nodes)}"
        node["id"] = node_id
        self.nodes.append(node)
        self._ids[key] = node_id
        self._keep.append(keep)
        return node_id

    def edge(self, src: str | None, dst: str | None) -> None:
        if src is not None and dst is not None:
            self.edges[(src, dst)] = self.edges.get((src, dst), 0) + 1


# -- naming ------------------------------------------------------------------
def _named_tensors(namespace: dict[str, Any]) -> list[tuple[str, Any]]:
    """(name, tensor) pairs: top-level tensors, module parameters, containers one level deep."""
    import torch

    first: list[tuple[str, Any]] = []
    later: list[tuple[str, Any]] = []
    for name, value in list(namespace.items()):
        if isinstance(value, torch.Tensor):
            first.append((name, value))
        elif isinstance(value, torch.nn.Module):
            later.extend(_module_params(name, value))
        elif isinstance(value, (list, tuple)):
            head = enumerate(itertools.islice(value, _CONTAINER_ITEMS))
            later.extend((f"{name}[{i}]", v) for i, v in head if isinstance(v, torch.Tensor))
        elif isinstance(value, dict):
            pairs = list(itertools.islice(value.items(), _CONTAINER_ITEMS))
            later.extend(
                (f"{name}[{k!r}]", v) for k, v in pairs if isinstance(k, (str, int)) and isinstance(v, torch.Tensor)
            )
    # Plain variables win over container paths when one tensor has both names.
    return first + later


def _module_params(name: str, module: Any) -> list[tuple[str, Any]]:
    try:
        return [(f"{name}.{pname}", p) for pname, p in module.named_parameters()]
    except Exception:  # a broken user module must not break the graph  # noqa: BLE001
        return []


class _Names:
    """Who holds which tensor: by identity for leaves, by (grad_fn, output_nr) for results."""

    def __init__(self, namespace: dict[str, Any], root: Any, root_name: str) -> None:
        self.leaves: dict[int, str] = {}
        self.results: dict[tuple[int, int], tuple[str, Any]] = {}
        self._keep: list[Any] = []
        for name, tensor in [(root_name, root)] + _named_tensors(namespace):
            self._register(name, tensor)

    def _register(self, name: str, tensor: Any) -> None:
        fn = tensor.grad_fn
        if fn is None:
            self.leaves.setdefault(id(tensor), name)
            self._keep.append(tensor)
            return
        self._keep.append(fn)
        self.results.setdefault((id(fn), int(tensor.output_nr)), (name, tensor))


# -- node descriptions ---------------------------------------------------------
def _shape(tensor: Any) -> list[int] | None:
    try:
        return [int(s) for s in tensor.shape]
    except Exception:  # nested tensors have no single shape  # noqa: BLE001
        return None


def _shape_label(shape: list[int] | None) -> str:
    return shape_text(shape, missing="[?]")


def grad_preview(grad: Any) -> str:
    """Short text for a gradient tensor, e.g. ``36.`` or ``[1., 2., 3.]``."""
    import torch

    try:
        if grad.layout != torch.strided:
            return f"<{str(grad.layout).replace('torch.', '')}>"
        if grad.is_meta:
            return "<meta>"
        g = grad.detach()
        if g.numel() > _PREVIEW_ELEMENTS:
            head = g.reshape(-1)[:4].cpu()
            return "[" + ", ".join(_short_repr(v) for v in head) + ", …]"
        return _short_repr(g.cpu())
    except Exception as exc:  # exotic tensor types must never break the graph  # noqa: BLE001
        return f"<{type(exc).__name__}>"


def _short_repr(tensor: Any) -> str:
    """The data part of ``repr(tensor)`` on one line (``tensor(36.)`` -> ``36.``)."""
    text = repr(tensor)
    text = text[len("tensor(") :] if text.startswith("tensor(") else text
    match = _REPR_TAIL.search(text)
    text = text[: match.start()] if match else text.rstrip().removesuffix(")")
    return " ".join(text.split())


def _tensor_node(tensor: Any, kind: str, var: str | None) -> dict[str, Any]:
    import torch

    shape = _shape(tensor)
    grad = None
    if tensor.is_leaf or tensor.retains_grad:  # .grad of a non-retaining result warns
        g = tensor.grad
        if g is not None:
            grad = {"shape": _shape(g), "preview": grad_preview(g)}
    return {
        "kind": kind,
        "label": var if var is not None else _shape_label(shape),
        "op": None,
        "var": var,
        "shape": shape,
        "dtype": str(tensor.dtype),
        "requires_grad": bool(tensor.requires_grad),
        "grad": grad,
        "is_parameter": isinstance(tensor, torch.nn.Parameter),
    }


def _op_node(fn: Any) -> dict[str, Any]:
    name = type(fn).__name__
    return {
        "kind": "op",
        "label": name,
        "op": name,
        "var": None,
        "shape": None,
        "dtype": None,
        "requires_grad": True,
        "grad": None,
        "is_parameter": False,
        "freed": _is_freed(fn),
    }


def _is_freed(fn: Any) -> bool:
    """True when the node's saved tensors were released by a backward pass."""
    names = dir(fn)
    # C++ nodes expose _saved_<input>; custom autograd.Function nodes expose saved_tensors.
    saved = [a for a in names if a.startswith("_saved_")] + [a for a in names if a == "saved_tensors"]
    for attr in saved:
        try:
            getattr(fn, attr)
        except RuntimeError as exc:
            if "freed" in str(exc):
                return True
        except Exception:  # noqa: BLE001
            continue
    return False


# -- traversal -------------------------------------------------------------------
def _input_node(child: Any, nr: int, names: _Names, b: _Builder, queue: deque) -> str | None:
    """The node feeding an operation: a leaf, a user-held result, or the producing op."""
    variable = getattr(child, "variable", None)
    if variable is not None:  # AccumulateGrad: stands for the leaf tensor itself
        node = _tensor_node(variable, "leaf", names.leaves.get(id(variable)))
        return b.add(("leaf", id(variable)), node, variable)
    op_id = b.lookup(("op", id(child)))
    if op_id is None:
        op_id = b.add(("op", id(child)), _op_node(child), child)
        if op_id is None:
            return None
        queue.append(child)
    held = names.results.get((id(child), nr))
    if held is None:
        return op_id
    key = ("tensor", id(child), nr)
    tensor_id = b.lookup(key)
    if tensor_id is None:
        tensor_id = b.add(key, _tensor_node(held[1], "tensor", held[0]), held[1])
        b.edge(op_id, tensor_id)
    return tensor_id


def _walk(root: Any, name: str, names: _Names, b: _Builder) -> str:
    """Breadth-first over ``next_functions`` from the root's grad_fn; returns the root id."""
    fn = root.grad_fn
    root_id = b.add(("tensor", id(fn), int(root.output_nr)), _tensor_node(root, "tensor", name), root)
    op_id = b.add(("op", id(fn)), _op_node(fn), fn)
    b.edge(op_id, root_id)
    queue: deque = deque([fn] if op_id is not None else [])
    while queue:
        current = queue.popleft()
        current_id = b.lookup(("op", id(current)))
        sources = []
        for child, nr in current.next_functions:
            source = _input_node(child, int(nr), names, b, queue) if child is not None else None
            b.edge(source, current_id)
            sources.append(source)
        if current_id is not None:
            b.slots[current_id] = sources
    assert root_id is not None
    return root_id


def _lonely(value: Any, name: str) -> tuple[dict[str, Any], str, str]:
    """The single node and the reason there is no graph behind *value*."""
    if value.requires_grad:
        node = _tensor_node(value, "leaf", name)
        why = _("{name} is a leaf tensor: you created it, no operation did, so it has no grad_fn and no graph "
                "behind it. backward() accumulates its gradient in {name}.grad.").format(name=name)
        return node, "leaf", why
    node = _tensor_node(value, "tensor", name)
    why = _("{name} does not require grad, so autograd recorded nothing for it (it was made without "
            "requires_grad=True inputs, under torch.no_grad(), or by detach()).").format(name=name)
    return node, "no_grad", why


def _result(root: str | None, b: _Builder | None, message: str | None, key: str | None) -> dict[str, Any]:
    nodes = b.nodes if b is not None else []
    pairs = list(b.edges.items()) if b is not None else []
    return {
        "root": root,
        "nodes": nodes,
        "edges": [[src, dst] for (src, dst), _ in pairs],
        "edge_counts": [count for _, count in pairs],
        "freed": any(node.get("freed") for node in nodes),
        "message": message,
        "message_key": key,
        "truncated": bool(b.truncated) if b is not None else False,
    }


def autograd_graph(value: Any, namespace: dict[str, Any], *, name: str, max_nodes: int = 2000) -> dict[str, Any]:
    """Describe the backward graph that produced *value*.

    Parameters
    ----------
    value : Any
        The selected object; only ``torch.Tensor`` values have a graph.
    namespace : dict
        The user's variables, used to name leaves, parameters and intermediates.
    name : str
        The inspector name of *value* (labels the root node).
    max_nodes : int, optional
        Stop adding nodes after this many and set ``truncated``.

    Returns
    -------
    dict
        ``root`` (node id or None), ``nodes`` (dicts with ``id``, ``kind``
        "op"/"leaf"/"tensor", ``label``, ``op``, ``var``, ``shape``, ``dtype``,
        ``requires_grad``, ``grad``, ``is_parameter``; op nodes add ``freed``),
        ``edges`` (forward ``[from, to]`` pairs, each once), ``edge_counts``
        (how many times each edge's input is used), ``freed``, ``message`` and
        ``message_key`` ("leaf", "no_grad", "not_tensor" or None), ``truncated``;
        and the gradients on the picture (:mod:`explorer.core.graph.gradients`):
        ``edge_info`` beside ``edges``, ``grad_watched`` and ``chain`` on nodes.
    """
    torch = sys.modules.get("torch")
    if torch is None or not isinstance(value, torch.Tensor):
        why = _("{name} is of type {type}, not a torch tensor: only tensors record an autograd graph.").format(
            name=name, type=type(value).__name__)
        return _result(None, None, why, "not_tensor")
    b = _Builder(max_nodes)
    if value.grad_fn is None:
        node, key, why = _lonely(value, name)
        result = _result(b.add(("root",), node, value), b, why, key)
        annotate(result, {}, b.kept)
        return result
    names = _Names(namespace, value, name)
    result = _result(_walk(value, name, names, b), b, None, None)
    annotate(result, b.slots, b.kept)
    return result
