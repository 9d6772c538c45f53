"""One rule starts a cell (``explorer.protocol.cells``): the editor, stepping and the lessons split alike.

``# %%`` and ``#%%`` at the start of a line, as Spyder and VS Code read them; an
indented ``# %%`` is a comment inside a block (before, the editor took it for a
cell and a lesson did not take ``#%%``).
"""

from __future__ import annotations

import pytest

from explorer.client.statements import _cells
from explorer.lessons import split_cells
from explorer.protocol.cells import is_cell_marker
from explorer.ui.editor.code_editor_widget import CodeEditorWidget

SCRIPT = [
    "import torch",   # 1
    "# %%",           # 2  a cell
    "x = 1",          # 3
    "#%% no space",   # 4  a cell
    "def f():",       # 5
    "    # %%",       # 6  indented: a comment in f
    "    return 2",   # 7
    "#  %% two",      # 8  a cell
    "y = f()",        # 9
    "## %%",          # 10 a comment
    "z = 3  # %%",    # 11 a comment after code
]
STARTS = [2, 4, 8]


@pytest.mark.parametrize(("line", "starts"), [
    ("# %%", True), ("#%%", True), ("# %% title", True), ("#\t%%", True),
    ("    # %%", False), ("\t#%%", False), ("## %%", False), ("x  # %%", False), ("# %", False), ("", False),
])
def test_what_starts_a_cell(line: str, starts: bool) -> None:
    assert is_cell_marker(line) is starts


def test_stepping_and_the_lessons_split_at_the_same_lines() -> None:
    assert [first + 1 for first, _ in _cells(SCRIPT)] == [1, *STARTS]  # the text before the first cell too
    assert [cell["line"] for cell in split_cells("\n".join(SCRIPT) + "\n")] == STARTS


def test_the_editor_runs_the_same_cells(qtbot) -> None:
    editor = CodeEditorWidget()
    qtbot.addWidget(editor)
    editor.setPlainText("\n".join(SCRIPT))
    bounds = {line: editor.cell_bounds(line) for line in range(1, len(SCRIPT) + 1)}
    assert bounds[7] == (4, 7)  # the indented marker does not cut f in two
    assert bounds[3] == (2, 3) and bounds[9] == (8, 11) and bounds[1] == (1, 1)
