"""How one variable shares memory with the others, in words (the line under the inspector).

The window shows these sentences as they come: the facts behind them (views,
offsets, NumPy bridges) are decided here, next to the memory rules they follow,
so the window never needs a second copy of those rules.
"""

from __future__ import annotations

from typing import Any

from explorer.core.i18n import _
from explorer.core.memory.groups import overlaps_of
from explorer.core.resolve import resolve
from explorer.core.summary.dispatch import summarize
from explorer.protocol.kinds import ARRAY_KINDS

#: Most relations spelled out; the rest are summarised as "…".
MAX_PHRASES = 6


def _seq(values: list | None) -> str:
    return ", ".join(str(v) for v in values or [])


def _covers_allocation(var: dict) -> bool:
    storage = var.get("storage") or {}
    return (bool(var.get("is_contiguous")) and var.get("nbytes") == storage.get("nbytes")
            and var.get("data_ptr") == storage.get("data_ptr"))


def _same_span(a: dict, b: dict) -> bool:
    return a.get("data_ptr") == b.get("data_ptr") and a.get("nbytes") == b.get("nbytes")


def _view_text(view: dict, base: dict) -> str:
    return _("{a} is a view of {b} (strides {strides}; offset {offset})").format(
        a=view["name"], b=base["name"], strides=_seq(view.get("strides")), offset=view.get("storage_offset"))


def relation_text(var: dict, other: dict, base: dict | None, overlapping: bool) -> str:
    """One sentence: how *var* relates to *other* (``base`` spans the whole allocation, if any member does)."""
    name, other_name = var["name"], other["name"]
    if overlapping and var.get("kind") != other.get("kind") and "ndarray" in (var.get("kind"), other.get("kind")) \
            and _same_span(var, other):
        return _("{a} and {b} are the same memory (torch.from_numpy / .numpy())").format(a=name, b=other_name)
    if not overlapping:
        return _("{a} and {b} share one allocation but no element").format(a=name, b=other_name)
    base_name = base.get("name") if base is not None else None
    if base_name == other_name and name != base_name:
        return _view_text(var, other)
    if base_name == name and other_name != base_name:
        return _view_text(other, var)
    if _same_span(var, other):
        return _("{a} and {b} are the same memory").format(a=name, b=other_name)
    return _("{a} and {b} overlap in memory").format(a=name, b=other_name)


def describe_relations(namespace: dict[str, Any], name: str) -> dict[str, Any]:
    """The overlaps of *name* (exact, its memory group only), one relation per other member, and the sentence.

    Returns
    -------
    dict
        :func:`explorer.core.memory.groups.overlaps_of`'s fields plus ``relations``
        (``[{"other", "role", "text"}]``) and ``sentence`` (the relations joined, or
        why the variable has its memory to itself).
    """
    facts = overlaps_of(namespace, name)
    selected = summarize(name, resolve(namespace, name))
    others = [summarize(n, resolve(namespace, n)) for n in facts["overlaps"] + facts["disjoint"]]
    whole = [v for v in [selected] + others if _covers_allocation(v)]
    base = whole[0] if whole else None
    relations = []
    for other in others:
        overlapping = other["name"] in facts["overlaps"]
        relations.append({"other": other["name"], "role": "overlap" if overlapping else "same_allocation",
                          "text": relation_text(selected, other, base, overlapping)})
    if relations:
        texts = [r["text"] for r in relations[:MAX_PHRASES]]
        sentence = " · ".join(texts) + (" …" if len(relations) > MAX_PHRASES else "")
    elif selected.get("kind") in ARRAY_KINDS:
        sentence = _("{a} has its memory to itself").format(a=name)
    else:
        sentence = ""
    return {**facts, "relations": relations, "sentence": sentence}
