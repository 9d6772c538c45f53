"""Gradients on the graph's picture: each edge's local derivative, each node's gradient, the chain rule.

Adds three things to an :func:`~explorer.core.graph.autograd.autograd_graph`
result, so ``x.grad = 36`` reads as ``∂z/∂x = 2·y × 3 = 12 × 3 = 36``:

* ``edge_info`` (one entry per edge, None where nothing is known): the local
  derivative of the operation with respect to the edge's input (``local``, its
  number ``local_value``, the matrix-product ``shape`` rule) and the gradient
  that flowed back along it in the last watched backward() (``flow``);
* ``grad_watched`` on nodes: the gradient of an operation's output, or of a
  held intermediate, recorded by :mod:`explorer.core.graph.watch`;
* ``chain`` on tensor nodes with one path to the output: the local derivatives
  along it (``formula``, ``values``, their product ``value``).
"""

from __future__ import annotations

from typing import Any

from explorer.core.graph.local import OTHER, local_rules, number
from explorer.core.graph.records import record_of

#: Stands for an input no variable holds (an intermediate result) in a formula.
UNNAMED = "(…)"


def _text(value: float) -> str:
    return f"{value:g}".replace("-", "−")


def _fill(formula: str, this: str, other: str) -> str:
    return formula.replace("{self}", this).replace("{other}", other)


def _slot_info(rule: dict | None, slot: int, sources: list[str | None], labels: dict[str, str],
               kept: Any, output: float | None) -> tuple[str, float | None, str | None] | None:
    """(formula, value, shape rule) of one input slot, the other input named by its label or its number.

    *output* is the operation's result when a variable holds it and it is one number.
    """
    if rule is None:
        return None
    src = sources[slot]
    other_slot = rule.get("other_slot")
    value = rule.get("value")
    other = ""
    if other_slot is not None:
        other_src = sources[other_slot] if other_slot < len(sources) else None
        if other_src is not None:
            other = labels.get(other_src, UNNAMED)
            if value is None and other_src in labels:
                value = number(kept(other_src))  # saved values freed: the held input still has it
        else:
            if value is None and rule["formula"] == OTHER and output is not None and src in labels:
                this = number(kept(src))  # y = x * c, the saved c freed: c = y / x
                value = output / this if this else None
            if value is None:
                return None
            other = _text(value)  # x * 3: the constant is the factor
    formula = _fill(rule["formula"], labels.get(src or "", UNNAMED), other)
    if UNNAMED in formula and value is not None:
        formula = _text(value)  # an unnamed intermediate: its number says more than "(…)"
    return formula, value, rule.get("shape")


def _merge(first: tuple, second: tuple) -> tuple:
    """One input used twice by one operation (``y * y``): the two shares add up (``2·y``)."""
    formula = f"2·{first[0]}" if first[0] == second[0] else f"{first[0]} + {second[0]}"
    value = None if first[1] is None or second[1] is None else first[1] + second[1]
    return formula, value, first[2]


def _op_edges(op_id: str, fn: Any, sources: list[str | None], labels: dict[str, str], kept: Any,
              out: dict[tuple[str, str], dict], output: float | None) -> None:
    """The ``edge_info`` of every input edge of one operation node."""
    record = record_of(fn) or {}
    rules = local_rules(fn)
    recorded = record.get("local") or []
    flows = record.get("grad_in") or []
    found: dict[str, tuple] = {}
    for slot, src in enumerate(sources):
        if src is None:
            continue
        rule = rules[slot] if slot < len(rules) else None
        if rule is not None and rule.get("value") is None and slot < len(recorded) and recorded[slot]:
            rule = dict(rule, value=recorded[slot].get("value"))  # backward() freed it; the watch kept it
        info = _slot_info(rule, slot, sources, labels, kept, output)
        if info is not None:
            found[src] = _merge(found[src], info) if src in found else info
        flow = flows[slot] if slot < len(flows) else None
        entry = out.setdefault((src, op_id), {"local": None, "local_value": None, "shape": None, "flow": None})
        entry["flow"] = flow if entry["flow"] is None else None  # two shares: the edge has no single flow
    for src, (formula, value, shape) in found.items():
        out[(src, op_id)].update(local=formula, local_value=None if value is None else _text(value), shape=shape,
                                 _number=value)


def _chain(node_id: str, succ: dict[str, list[str]], info: dict[tuple[str, str], dict], root: str,
           ops: set[str]) -> dict | None:
    """The local derivatives from *node_id* to the output along its only path.

    None when there are several paths, or when an operation on the path has no
    known rule (a partial product would be a wrong formula).
    """
    formulas: list[str] = []
    values: list[float | None] = []
    current = node_id
    while current != root:
        nexts = succ.get(current, [])
        if len(nexts) != 1:
            return None
        edge = info.get((current, nexts[0]))
        if nexts[0] in ops:
            if edge is None or edge.get("local") is None:
                return None
            formulas.append(edge["local"])
            values.append(edge.get("_number"))
        current = nexts[0]
    if not formulas:
        return None
    formulas.reverse()
    values.reverse()
    out = {"formula": " × ".join(f"({f})" if " " in f else f for f in formulas), "values": None, "value": None}
    known = [v for v in values if v is not None]
    if len(known) == len(values):
        product = 1.0
        for v in known:
            product *= v
        out["values"] = " × ".join(_text(v) for v in known)
        out["value"] = _text(product)
    return out


def annotate(result: dict[str, Any], slots: dict[str, list[str | None]], kept: Any) -> None:
    """Add ``edge_info``, ``grad_watched`` and ``chain`` to a graph *result* (see the module docstring).

    *slots* maps each operation node id to the node ids feeding its
    ``next_functions`` slots; *kept* returns the object behind a node id (the
    autograd node of an operation, the tensor of a leaf or held result).
    """
    nodes = result.get("nodes") or []
    labels = {n["id"]: str(n.get("label", "")) for n in nodes if n["kind"] != "op"}
    info: dict[tuple[str, str], dict] = {}
    held = {src: dst for src, dst in result.get("edges") or [] if src in slots and dst in labels}
    for op_id, sources in slots.items():
        output = number(kept(held[op_id])) if op_id in held else None
        _op_edges(op_id, kept(op_id), sources, labels, kept, info, output)
    succ: dict[str, list[str]] = {}
    for src, dst in result.get("edges") or []:
        succ.setdefault(src, []).append(dst)
    for node in nodes:
        node["grad_watched"] = None
        node["chain"] = None
        if node["kind"] == "op":
            record = record_of(kept(node["id"])) or {}
            outs = record.get("grad_out") or []
            node["grad_watched"] = outs[0] if len(outs) == 1 else None
    by_id = {n["id"]: n for n in nodes}
    for src, dst in result.get("edges") or []:  # a held result's gradient is its operation's output gradient
        if by_id[src]["kind"] == "op" and by_id[dst]["kind"] != "op":
            by_id[dst]["grad_watched"] = by_id[src]["grad_watched"]
    root = result.get("root")
    ops = {n["id"] for n in nodes if n["kind"] == "op"}
    for node in nodes:
        if node["kind"] != "op" and node["id"] != root and root is not None:
            node["chain"] = _chain(node["id"], succ, info, root, ops)
    result["edge_info"] = [_public(info.get((src, dst))) for src, dst in result.get("edges") or []]


def _public(entry: dict | None) -> dict | None:
    if entry is None or (entry["local"] is None and entry["flow"] is None):
        return None
    return {k: v for k, v in entry.items() if not k.startswith("_")}
