"""Cells and code lines of a script: the rules the editor, Run Cell, stepping, the lessons and the cards share.

A cell starts at a line that begins with ``#``, optional spaces and ``%%``, at the
start of the line: ``# %%`` and ``#%%``, as Spyder and VS Code read them (``# %% title``
too). An indented ``# %%`` is a comment inside a block, not a cell.
"""

from __future__ import annotations

import re

CELL_MARKER = re.compile(r"#\s*%%")


def is_cell_marker(line: str) -> bool:
    """True when *line* starts a cell."""
    return CELL_MARKER.match(line) is not None


def is_code_line(line: str) -> bool:
    """True when *line* holds code: not blank and not only a comment."""
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def has_code(text: str | None) -> bool:
    """True when *text* has at least one line of code (a cell of comments only runs nothing)."""
    return text is not None and any(is_code_line(line) for line in text.splitlines())
