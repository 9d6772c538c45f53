"""A card's line is the line of the code that was submitted, whatever IPython did to it before compiling."""

from __future__ import annotations

import pytest
from IPython.core.inputtransformer2 import TransformerManager

from explorer.core.errors.explain import explain
from explorer.core.errors.source import apply_fix, cell_offset
from tests.core.errors.harness import CELL, register, run

MATMUL = "import torch\na = torch.ones(4, 3)\nb = torch.ones(4, 5)\nc = a @ b\n"


def as_ipython_runs(raw: str, filename: str = CELL, ns: dict | None = None) -> tuple[BaseException, dict]:
    """Compile the cell as IPython does (its input transforms first, the cell registered in linecache)."""
    cell = TransformerManager().transform_cell(raw)
    register(cell, filename)
    ns = {"__name__": "__main__"} if ns is None else ns
    try:
        exec(compile(cell, filename, "exec"), ns)
    except Exception as exc:  # noqa: BLE001
        return exc, ns
    raise AssertionError("the cell did not raise")


@pytest.mark.parametrize(("raw", "line"), [
    ("\n\n\n" + MATMUL, 7),
    ("\r\n\r\n" + MATMUL.replace("\n", "\r\n"), 6),
    ("   \n\t\n" + MATMUL, 6),
    ("\n\n    import torch\n    a = torch.ones(4, 3)\n    b = torch.ones(4, 5)\n    c = a @ b\n", 6),
    ("\n\nimport torch\n\ndef mul(p, q):\n    return p @ q\n\nc = mul(torch.ones(4, 3), torch.ones(4, 5))\n", 6),
    ("# %% a cell of a lesson\n\n" + MATMUL, 6),
])
def test_line_counts_the_submitted_code(raw: str, line: int) -> None:
    exc, ns = as_ipython_runs(raw)
    result = explain(exc, ns, code_filenames={CELL}, code=raw)
    assert result["line"] == line
    assert result["code_line"] == raw.splitlines()[line - 1].strip()


def test_without_the_code_the_line_is_what_python_counted() -> None:
    exc, ns = as_ipython_runs("\n\n\n" + MATMUL)
    assert explain(exc, ns, code_filenames={CELL})["line"] == 4  # what the kernel reported before the code was passed


@pytest.mark.parametrize(("raw", "line", "kind"), [
    ("\n\nx = 1\ny = (2 +\nz = 3\n", 4, "SyntaxError"),
    ("\n\n\nif True:\n  x = 1\n    y = 2\n", 6, "IndentationError"),
    ("\r\n\r\nx = 1\r\nprint(x\r\n", 4, "SyntaxError"),
])
def test_syntax_errors_keep_their_line(raw: str, line: int, kind: str) -> None:
    cell = TransformerManager().transform_cell(raw)
    register(cell)
    with pytest.raises(SyntaxError) as info:
        compile(cell, CELL, "exec")
    result = explain(info.value, {}, code_filenames={CELL}, code=raw)
    assert result["type"] == kind and result["line"] == line
    assert "line" not in result["message"]  # Python's own "(file, line N)" would count the transformed cell


def test_fix_line_moves_with_the_line_and_the_fix_applies_to_the_submitted_code() -> None:
    raw = "\n\nimport torch\nlayer = torch.nn.Linear(3, 5)\nx = torch.randn(2, 4)\ny = layer(x)\n"
    exc, ns = as_ipython_runs(raw)
    result = explain(exc, ns, code_filenames={CELL}, code=raw)
    assert (result["line"], result["fix_line"]) == (6, 4)
    exc2, fixed = run(apply_fix(raw, result), "<cell-fixed>")
    assert exc2 is None and tuple(fixed["y"].shape) == (2, 5)


def test_a_frame_in_another_cell_keeps_that_cells_numbering() -> None:
    ns: dict = {"__name__": "__main__"}
    first = "import torch\n\n\ndef mul(p, q):\n    return p @ q\n"
    register(first, "<cell-0>")
    exec(compile(first, "<cell-0>", "exec"), ns)
    raw = "\n\nc = mul(torch.ones(4, 3), torch.ones(4, 5))\n"
    exc, ns = as_ipython_runs(raw, ns=ns)
    result = explain(exc, ns, code_filenames={CELL, "<cell-0>"}, code=raw)
    assert result["line"] == 5 and result["code_line"] == "return p @ q"


@pytest.mark.parametrize(("code", "compiled", "offset"), [
    ("\n\nx\n", "x\n", 2),
    ("x\ny\n", "x\ny\n", 0),
    ("x\r\n\r\ny\r\n", "x\n\ny\n", 0),
    ("\n\nx\n", "y\n", None),
    ("x\n", "", None),
])
def test_cell_offset(code: str, compiled: str, offset: int | None) -> None:
    assert cell_offset(code, compiled) == offset
