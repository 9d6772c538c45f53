"""Words for how the selected variable shares memory with others (the line under the inspector)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def _seq(values: list | None) -> str:
    return ", ".join(str(v) for v in values or [])


def _covers_allocation(var: dict) -> bool:
    storage = var.get("storage") or {}
    return bool(var.get("is_contiguous")) and var.get("nbytes") == storage.get("nbytes") and var.get("data_ptr") == storage.get("data_ptr")


def _base_of(members: list[dict]) -> dict | None:
    """The member that spans its whole allocation in order (the 'original'), if any."""
    whole = [m for m in members if _covers_allocation(m)]
    return whole[0] if whole else None


def _relation(var: dict, other: dict, base: dict | None) -> str:
    name, other_name = var["name"], other["name"]
    overlapping = other_name in (var.get("overlaps") or [])
    if var.get("kind") != other.get("kind") and {var.get("kind"), other.get("kind")} >= {"ndarray"}:
        if overlapping and _same_span(var, other):
            return QCoreApplication.translate("MemoryRelations", "{a} and {b} are the same memory (torch.from_numpy / .numpy())").format(a=name, b=other_name)
    if not overlapping:
        return QCoreApplication.translate("MemoryRelations", "{a} and {b} share one allocation but no element").format(a=name, b=other_name)
    base_name = base.get("name") if base is not None else None
    if base_name == other_name and name != base_name:
        #: {a} and {b} are variable names, {s} the strides of the view, {o} its storage offset.
        return QCoreApplication.translate("MemoryRelations", "{a} is a view of {b} (strides {s}; offset {o})").format(
            a=name, b=other_name, s=_seq(var.get("strides")), o=var.get("storage_offset"))
    if base_name == name and other_name != base_name:
        return QCoreApplication.translate("MemoryRelations", "{b} is a view of {a} (strides {s}; offset {o})").format(
            a=name, b=other_name, s=_seq(other.get("strides")), o=other.get("storage_offset"))
    if _same_span(var, other):
        return QCoreApplication.translate("MemoryRelations", "{a} and {b} are the same memory").format(a=name, b=other_name)
    return QCoreApplication.translate("MemoryRelations", "{a} and {b} overlap in memory").format(a=name, b=other_name)


def _same_span(a: dict, b: dict) -> bool:
    return a.get("data_ptr") == b.get("data_ptr") and a.get("nbytes") == b.get("nbytes")


def describe(selected: dict, variables: list[dict]) -> tuple[str, dict[str, str]]:
    """The sentence for *selected* and the highlight role of each related variable's name."""
    group = selected.get("memory_group")
    roles = {selected.get("name", ""): "selected"}
    if not group:
        if selected.get("kind") in ("tensor", "parameter", "ndarray"):
            hint = selected.get("copy_hint")
            text = QCoreApplication.translate("MemoryRelations", "{a} has its memory to itself").format(a=selected.get("name"))
            return (f"{text} · {hint}" if hint else text), roles
        return "", roles
    # compare by name: the selected dict may be a copy made by Qt's item data
    members = [v for v in variables if v.get("memory_group") == group and v.get("name") != selected.get("name")]
    base = _base_of([selected] + members)
    phrases = []
    for other in members:
        overlapping = other["name"] in (selected.get("overlaps") or [])
        roles[other["name"]] = "overlap" if overlapping else "same_allocation"
        phrases.append(_relation(selected, other, base))
    return " · ".join(phrases[:6]) + (" …" if len(phrases) > 6 else ""), roles
