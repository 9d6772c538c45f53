"""The readable table ``tensor-explorer inspect`` prints without ``--json``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from explorer.cli.common import printable
from explorer.cli.proof import proof_line
from explorer.core.i18n import _

COLUMNS = ("name", "kind", "shape", "dtype", "device", "strides", "offset", "contig", "grad_fn", "group", "overlaps")


def _cell(var: dict[str, Any], column: str) -> str:
    if column == "shape":
        shape = var.get("shape")
        return "" if shape is None else "[" + ", ".join(map(str, shape)) + "]"
    if column == "strides":
        strides = var.get("strides")
        return "" if strides is None else "(" + ", ".join(map(str, strides)) + ")"
    if column == "offset":
        return _text(var.get("storage_offset"))
    if column == "contig":
        return _text(var.get("is_contiguous"))
    if column == "group":
        return _text(var.get("memory_group"))
    if column == "overlaps":
        return ", ".join(var.get("overlaps") or [])
    if column == "kind" and var.get("kind") == "other":
        return var.get("type", "other")
    return _text(var.get(column))


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _rows(variables: Iterable[dict[str, Any]], depth: int = 0) -> Iterable[list[str]]:
    for var in variables:
        row = [_cell(var, c) for c in COLUMNS]
        row[0] = "  " * depth + row[0]
        if var.get("kind") == "other":
            row[2] = (var.get("repr") or "")[:40]
        yield row
        yield from _rows(var.get("children") or [], depth + 1)


def _frame_text(frame: dict[str, Any]) -> str:
    """``f() line 12 (a, b)``: one call of the traceback and its local variables."""
    names = ", ".join(str(v.get("name")) for v in frame.get("variables") or [])
    function = frame.get("function")
    where = (_("top level line {line}") if function == "<module>" else _("{function}() line {line}")).format(
        function=function, line=frame.get("line"))
    return f"{where} ({names})" if names else where


def format_table(payload: dict[str, Any]) -> str:
    """Render the inspect payload (variables and error) as aligned text."""
    rows = [list(COLUMNS)] + list(_rows(payload.get("variables") or []))
    widths = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    error = payload.get("error")
    if error:
        head = _("Error (line {line})").format(line=error["line"]) if error.get("line") else _("Error")
        lines += ["", f"{head}: {error.get('type')}: {error.get('message')}"]
        labels = {"title": _("title"), "explanation": _("explanation"), "fix": _("fix")}
        for key, label in labels.items():
            if error.get(key):
                lines.append(f"  {label}: {error[key]}")
        checked = proof_line(error.get("fix_proof"))
        if checked:
            label = _("fix checked")
            lines.append(f"  {label}: {checked}")
        frames = [f for f in error.get("frames") or [] if isinstance(f, dict)]
        if len(frames) > 1:  # one frame is the script's top level: nothing more to say
            label = _("frames")
            lines.append(f"  {label}: " + " -> ".join(_frame_text(f) for f in frames))
    # A script's own messages (and reprs it shaped) must not drive the terminal.
    return printable("\n".join(lines), keep_lines=True)
