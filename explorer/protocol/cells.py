"""Cells of a script: the one rule the editor, Run Cell, stepping and the lessons share.

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
