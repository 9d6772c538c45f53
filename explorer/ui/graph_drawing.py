"""What the Graph tab draws, without Qt widgets: layout of the layers, node colours, gradient texts, arrows."""

from __future__ import annotations

import networkx as nx
from PySide6.QtCore import QLineF, QPointF
from PySide6.QtGui import QPolygonF
from PySide6.QtWidgets import QGraphicsItem

from explorer.protocol.units import shape_text

# Light fills with black text stay readable on a projector and in dark themes.
FILLS = {
    "op": "#e4e4e4",
    "leaf": "#b6e3c6",
    "parameter": "#ffd394",
    "intermediate": "#bcd6f4",
    "output": "#f6b3c2",
}


def layered_positions(ids: list[str], edges: list[tuple[str, str]]) -> dict[str, tuple[int, float]]:
    """(layer, row) of each node; layers count from the inputs, the output is last.

    Layers come from networkx's topological generations of the *reversed*
    graph (distance to the output), so an input sits just before its first
    consumer instead of every leaf piling up in the first column; rows come
    from ``nx.multipartite_layout``.
    """
    graph = nx.DiGraph()
    graph.add_nodes_from(ids)
    graph.add_edges_from(edges)
    depth = {n: d for d, gen in enumerate(nx.topological_generations(graph.reverse(copy=False))) for n in gen}
    deepest = max(depth.values(), default=0)
    layers: dict[int, list[str]] = {}
    for node in ids:  # ids arrive breadth-first from the output: a stable row order
        layers.setdefault(deepest - depth[node], []).append(node)
    pos = nx.multipartite_layout(graph, subset_key=layers, align="vertical")
    tallest = max(len(v) for v in layers.values()) if layers else 1
    ys = [p[1] for p in pos.values()]
    span = (max(ys) - min(ys)) if ys else 0.0
    unit = span / (tallest - 1) if tallest > 1 and span > 0 else 1.0
    return {n: (deepest - depth[n], float((pos[n][1] - min(ys)) / unit)) for n in ids}


def fill_kind(node: dict, is_root: bool) -> str:
    """Colour class of a node: op, parameter, leaf, output or intermediate.

    A leaf is leaf-coloured in its own graph too: being selected does not make
    ``x`` the output of anything.
    """
    if node.get("kind") == "op":
        return "op"
    if node.get("is_parameter"):
        return "parameter"
    if node.get("kind") == "leaf":
        return "leaf"
    return "output" if is_root else "intermediate"


def gradient_lines(node: dict, root_label: str, is_root: bool) -> list[str]:
    """The lines under a tensor node's name: ``.grad``, and the chain rule to the output.

    ``x.grad = 36`` reads ``∂z/∂x = 2·y × 3 = 12 × 3 = 36``; an intermediate
    shows the gradient that reached it in the last watched backward().
    """
    if node.get("kind") == "op":
        return []
    label = str(node.get("label", ""))
    grad = node.get("grad")
    lines = [f".grad = {grad.get('preview') or shape_text(grad.get('shape'), missing='?')}"] if grad else []
    chain = None if is_root else node.get("chain")
    if is_root:
        return lines
    if chain:
        parts = [chain["formula"]]
        for extra in (chain.get("values"), chain.get("value")):
            if extra and extra != parts[-1]:
                parts.append(extra)
        lines.append(f"∂{root_label}/∂{label} = " + " = ".join(parts))
    elif node.get("grad_watched") and node.get("kind") != "leaf":
        lines.append(f"∂{root_label}/∂{label} = {node['grad_watched']}")
    return lines


def edge_text(info: dict | None) -> str:
    """What an edge into an operation carries: its local derivative (and shape rule), and the gradient that flowed."""
    if not info:
        return ""
    lines = []
    local, value = info.get("local"), info.get("local_value")
    if local:
        lines.append(f"{local} = {value}" if value and value != local else local)
    if info.get("shape"):
        lines.append(str(info["shape"]))
    if info.get("flow"):
        lines.append(f"← {info['flow']}")
    return "\n".join(lines)


def column_centres(
    positions: dict[str, tuple[int, float]], items: dict[str, QGraphicsItem], gap: float
) -> dict[int, float]:
    """x of each layer's centre line: every column is as wide as its widest node."""
    widths: dict[int, float] = {}
    for node_id, (layer, _) in positions.items():
        widths[layer] = max(widths.get(layer, 0.0), items[node_id].boundingRect().width())
    centres, left = {}, 0.0
    for layer in sorted(widths):
        centres[layer] = left + widths[layer] / 2
        left += widths[layer] + gap
    return centres


def arrow_head(start: QPointF, end: QPointF, size: float) -> QPolygonF:
    """A filled triangle at *end* pointing along start -> end."""
    line = QLineF(end, start)
    if line.length() == 0:
        return QPolygonF()
    left, right = QLineF(line), QLineF(line)
    left.setLength(size)
    right.setLength(size)
    left.setAngle(line.angle() + 25)
    right.setAngle(line.angle() - 25)
    return QPolygonF([end, left.p2(), right.p2()])
