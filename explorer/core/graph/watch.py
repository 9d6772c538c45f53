"""Gradients you can watch: record what flows through each autograd node during backward().

``y.grad`` stays None for an intermediate ``y`` unless the user called
``y.retain_grad()``; the lesson says so, and watching must not change it. So
nothing is retained on the tensors: a hook on each autograd *node* reachable
from the user's tensors records, when backward() passes through it, the
gradient of the node's output and of each input, and the node's local
derivatives while its saved values still exist. The record lives in the node's
own ``metadata`` dict, so it dies with the graph; the hook holds that dict, not
the node (a node that referenced itself through its hook would never be freed).

The window asks for this before running code while a lesson or a step-through
runs, or when View > Watch Gradients is on; a graph that is built and walked
back within one run is not watched (its nodes did not exist yet).
"""

from __future__ import annotations

import sys
from collections import deque
from typing import Any

from explorer.core.graph.autograd import _named_tensors, grad_preview
from explorer.core.graph.local import local_rules
from explorer.core.graph.records import META_KEY

#: Nodes hooked at most per request: a huge graph is watched in part rather than stalling the kernel.
MAX_NODES = 5000


def _recorder(record: dict) -> Any:
    """The hook of one node: writes the gradients that passed through into *record*."""
    def hook(grad_inputs: tuple, grad_outputs: tuple) -> None:
        record["grad_in"] = [None if g is None else grad_preview(g) for g in grad_inputs]
        record["grad_out"] = [None if g is None else grad_preview(g) for g in grad_outputs]
        record["passes"] = int(record.get("passes", 0)) + 1

    return hook


def _hook(fn: Any) -> bool:
    """Hook *fn* unless it already is; True when a hook was added."""
    try:
        meta = fn.metadata
        if META_KEY in meta:
            return False
        record = {"local": local_rules(fn)}  # the saved values are still there before backward()
        fn.register_hook(_recorder(record))
        meta[META_KEY] = record
        return True
    except Exception:  # noqa: BLE001 - a node that takes no hooks: leave it unwatched
        return False


def watch_gradients(namespace: dict[str, Any], max_nodes: int = MAX_NODES) -> int:
    """Hook every autograd node reachable from the tensors in *namespace*; returns how many were added."""
    torch = sys.modules.get("torch")
    if torch is None:
        return 0
    queue: deque = deque()
    seen: set[int] = set()
    keep: list[Any] = []  # ids are only unique while the nodes live
    for _name, tensor in _named_tensors(namespace):
        fn = getattr(tensor, "grad_fn", None) if tensor.requires_grad else None
        if fn is not None and id(fn) not in seen:
            seen.add(id(fn))
            keep.append(fn)
            queue.append(fn)
    added = 0
    while queue and len(seen) <= max_nodes:
        fn = queue.popleft()
        added += _hook(fn)
        for child, _nr in getattr(fn, "next_functions", ()):
            if child is not None and id(child) not in seen and getattr(child, "variable", None) is None:
                seen.add(id(child))
                keep.append(child)
                queue.append(child)
    return added
