"""The inspector's columns: what each shows, and the sentence its header tooltip teaches."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication

from explorer import protocol
from explorer.protocol.units import format_bytes, shape_text, strides_text


def _yes(value: Any) -> str:
    if value is None:
        return ""
    return "✓" if value else "✗"


def _bytes(value: int | None) -> str:
    return "" if value is None else format_bytes(value)


def _plain(value: object) -> str:
    return "" if value is None else str(value)


def _grad(value: protocol.GradSummary | None) -> str:
    """The gradient's values when small (``36.``, ``[2., 4.]``), else its shape and dtype."""
    if not value:
        return ""
    if value["preview"]:
        return str(value["preview"])
    return f"{shape_text(value['shape'])} {value['dtype']}".strip()


def _strides(var: protocol.Var) -> str:
    """Each library's own unit, as its ``.stride()`` / ``.strides`` prints: torch in elements, NumPy in bytes."""
    if var["kind"] == "ndarray" and var["byte_strides"] is not None:
        return strides_text(var["byte_strides"]) + " B"
    return strides_text(var["strides"])


def _hex(value: Any) -> str:
    return "" if value is None else f"0x{int(value):x}"


def _type(var: protocol.Var) -> str:
    if var["kind"] == "other":
        return var["type"]
    return var["type"] or var["kind"]


@dataclass(frozen=True)
class Column:
    """One inspector column: a key, a header, a teaching tooltip and a formatter."""

    key: str
    header: str
    tip: str
    text: Callable[[protocol.Var], str]
    visible: bool = True


def columns() -> list[Column]:
    """All columns, with headers and tooltips in the current language."""
    return [
        Column("name", QCoreApplication.translate("InspectorColumns", "Name"), QCoreApplication.translate("InspectorColumns", "The variable's name in your code. Children of lists, dicts and modules are indented."), lambda v: v["name"]),
        #: Column headers are short; the tooltip after each one explains the column.
        Column("change", QCoreApplication.translate("InspectorColumns", "Change"), QCoreApplication.translate("InspectorColumns", "What the last run did to this variable: new, changed, or changed through another name that shares its memory."), lambda v: ""),
        Column("memory_group", QCoreApplication.translate("InspectorColumns", "Memory"), QCoreApplication.translate("InspectorColumns", "Variables with the same colour share one block of memory: writing to one can change the others."), lambda v: _plain(v["memory_group"])),
        Column("type", QCoreApplication.translate("InspectorColumns", "Type"), QCoreApplication.translate("InspectorColumns", "The Python type: Tensor, Parameter (a tensor a model learns), ndarray (NumPy), or another object."), _type),
        Column("shape", QCoreApplication.translate("InspectorColumns", "Shape"), QCoreApplication.translate("InspectorColumns", "How many elements along each dimension. A scalar has shape []; an RGB image tensor is usually [3, H, W]."), lambda v: shape_text(v["shape"]) if v["kind"] != "other" else (v["repr"] or "")),
        Column("dtype", QCoreApplication.translate("InspectorColumns", "Dtype"), QCoreApplication.translate("InspectorColumns", "The element type: float32 is the default for tensors, int64 for integer data; most layers refuse integers."), lambda v: _plain(v["dtype"])),
        Column("device", QCoreApplication.translate("InspectorColumns", "Device"), QCoreApplication.translate("InspectorColumns", "Where the data lives (cpu, cuda:0). Tensors in one operation must be on the same device."), lambda v: _plain(v["device"])),
        Column("strides", QCoreApplication.translate("InspectorColumns", "Strides"), QCoreApplication.translate("InspectorColumns", "How far to jump in memory to move one step along each dimension: torch counts elements (t.stride()), NumPy counts bytes (a.strides, shown with B). A view changes strides, not data."), _strides),
        Column("storage_offset", QCoreApplication.translate("InspectorColumns", "Offset"), QCoreApplication.translate("InspectorColumns", "Where this tensor's first element sits in its storage, counted in elements. Slices that skip rows have an offset."), lambda v: _plain(v["storage_offset"])),
        Column("data_ptr", QCoreApplication.translate("InspectorColumns", "data_ptr"), QCoreApplication.translate("InspectorColumns", "The memory address of the first element: storage address + offset × element size."), lambda v: _hex(v["data_ptr"])),
        Column("is_contiguous", QCoreApplication.translate("InspectorColumns", "Contiguous"), QCoreApplication.translate("InspectorColumns", "Whether the elements lie in memory in row-major order with no gaps. view() needs this; reshape() copies when it is not."), lambda v: _yes(v["is_contiguous"])),
        Column("numel", QCoreApplication.translate("InspectorColumns", "Elements"), QCoreApplication.translate("InspectorColumns", "The number of elements: the product of the shape."), lambda v: _plain(v["numel"])),
        Column("nbytes", QCoreApplication.translate("InspectorColumns", "Bytes"), QCoreApplication.translate("InspectorColumns", "Memory the elements take: number of elements × element size."), lambda v: _bytes(v["nbytes"])),
        Column("requires_grad", QCoreApplication.translate("InspectorColumns", "requires_grad"), QCoreApplication.translate("InspectorColumns", "Whether autograd records operations on this tensor so backward() can compute its gradient."), lambda v: _yes(v["requires_grad"])),
        Column("is_leaf", QCoreApplication.translate("InspectorColumns", "Leaf"), QCoreApplication.translate("InspectorColumns", "A leaf has no grad_fn: it was created directly, or computed while no gradient was tracked. backward() fills .grad only for leaves that require grad."), lambda v: _yes(v["is_leaf"])),
        Column("grad_fn", QCoreApplication.translate("InspectorColumns", "grad_fn"), QCoreApplication.translate("InspectorColumns", "The operation that produced this tensor (e.g. MulBackward0); backward() walks these back to the leaves."), lambda v: _plain(v["grad_fn"])),
        Column("retains_grad", QCoreApplication.translate("InspectorColumns", "retains_grad"), QCoreApplication.translate("InspectorColumns", "Whether this non-leaf tensor keeps its .grad after backward() (set with retain_grad())."), lambda v: _yes(v["retains_grad"]), False),
        Column("grad", QCoreApplication.translate("InspectorColumns", "Grad"), QCoreApplication.translate("InspectorColumns", "The gradient backward() stored for this leaf (its values when small); empty until backward() runs. A second backward() adds to it."), lambda v: _grad(v["grad"])),
    ]
