"""The readable table ``tensor-explorer inspect`` prints without ``--json``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from explorer import protocol
from explorer.cli.common import printable
from explorer.cli.proof import proof_line
from explorer.core.i18n import _
from explorer.protocol.units import shape_text, strides_text


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


#: Each column of the table and how it shows a VAR.
_CELLS: dict[str, Callable[[protocol.Var], str]] = {
    "name": lambda var: var["name"],
    "kind": lambda var: var["type"] if var["kind"] == "other" else var["kind"],
    "shape": lambda var: shape_text(var["shape"]),
    "dtype": lambda var: _text(var["dtype"]),
    "device": lambda var: _text(var["device"]),
    "strides": lambda var: strides_text(var["strides"]),
    "offset": lambda var: _text(var["storage_offset"]),
    "contig": lambda var: _text(var["is_contiguous"]),
    "grad_fn": lambda var: _text(var["grad_fn"]),
    "group": lambda var: _text(var["memory_group"]),
    "overlaps": lambda var: ", ".join(var["overlaps"] or []),
}
COLUMNS = tuple(_CELLS)


def _rows(variables: Iterable[protocol.Var], depth: int = 0) -> Iterable[list[str]]:
    for var in variables:
        row = [cell(var) for cell in _CELLS.values()]
        row[0] = "  " * depth + row[0]
        if var["kind"] == "other":
            row[2] = (var["repr"] or "")[:40]
        yield row
        yield from _rows(var["children"] or [], depth + 1)


def _frame_text(frame: protocol.FrameInfo) -> str:
    """``f() line 12 (a, b)``: one call of the traceback and its local variables."""
    names = ", ".join(v["name"] for v in frame.get("variables") or [])
    function = frame.get("function")
    where = (_("top level line {line}") if function == "<module>" else _("{function}() line {line}")).format(
        function=function, line=frame.get("line"))
    return f"{where} ({names})" if names else where


def format_table(payload: dict[str, Any]) -> str:
    """Render the inspect payload (variables and error) as aligned text."""
    variables: list[protocol.Var] = payload.get("variables") or []
    rows = [list(COLUMNS)] + list(_rows(variables))
    widths = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    error: protocol.Card | None = payload.get("error")
    if error:
        head = _("Error (line {line})").format(line=error["line"]) if error.get("line") else _("Error")
        lines += ["", f"{head}: {error.get('type')}: {error.get('message')}"]
        for text, label in ((error.get("title"), _("title")), (error.get("explanation"), _("explanation")),
                            (error.get("fix"), _("fix"))):
            if text:
                lines.append(f"  {label}: {text}")
        checked = proof_line(error.get("fix_proof"))
        if checked:
            label = _("fix checked")
            lines.append(f"  {label}: {checked}")
        frames = [f for f in error.get("frames") or [] if isinstance(f, dict)]  # type: ignore[redundant-expr]  # JSON from the kernel
        if len(frames) > 1:  # one frame is the script's top level: nothing more to say
            label = _("frames")
            lines.append(f"  {label}: " + " -> ".join(_frame_text(f) for f in frames))
    # A script's own messages (and reprs it shaped) must not drive the terminal.
    return printable("\n".join(lines), keep_lines=True)
