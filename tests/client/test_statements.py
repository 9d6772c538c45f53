"""Splitting the editor's text into top-level statements (explorer.client.statements), no kernel."""

from __future__ import annotations

from explorer.client.statements import Statement, assigned_names, index_at_or_after, split_statements

TEXT = """# title: a lesson
import torch

# %%
# a comment is no statement
x = torch.tensor(2.0, requires_grad=True); y = x * 3
z = (y *
     y)
@staticmethod
def f(a):
    b = 1
    return b
# %%
%timeit x
# %%
for i in range(3):
    acc = i
sub[0, 0] = 999
"""


def test_statements_carry_their_file_lines_and_cells_are_parsed_alone() -> None:
    found = split_statements(TEXT)
    assert [(s.first_line, s.last_line) for s in found] == [(2, 2), (6, 6), (7, 8), (9, 12), (14, 14), (16, 17), (18, 18)]
    assert found[1].code == "x = torch.tensor(2.0, requires_grad=True); y = x * 3"  # one line, one step
    assert found[2].code == "z = (y *\n     y)"
    assert found[3].code.startswith("@staticmethod\ndef f(a):")  # decorators belong to their function
    assert found[4] == Statement(14, 14, "%timeit x")  # a cell that does not parse is one step (it raises)
    lines = TEXT.split("\n")
    for s in found:
        assert s.code == "\n".join(lines[s.first_line - 1:s.last_line])


def test_blank_and_comment_only_text_has_no_statements() -> None:
    assert split_statements("") == []
    assert split_statements("# %%\n# only a comment\n\n# %%\n") == []


def test_index_at_or_after_a_line() -> None:
    found = split_statements(TEXT)
    assert index_at_or_after(found, 1) == 0
    assert index_at_or_after(found, 8) == 2  # inside the multi-line statement
    assert index_at_or_after(found, 13) == 4  # the marker line: the next statement
    assert index_at_or_after(found, 99) == len(found)


def test_assigned_names_are_module_level_roots_in_order() -> None:
    code = ("sub[0, 0] = 999\nx.grad = None\na, (b, *c) = 1, (2, 3)\nfor i in r: q = i\n[k for k in r]\n"
            "import os.path as p, numpy\nwith open(f) as fh: pass\ndef g():\n    inner = 1\nn += 1")
    assert assigned_names(code) == ["sub", "x", "a", "b", "c", "i", "q", "p", "numpy", "fh", "g", "n"]
    assert assigned_names("not python (") == []
