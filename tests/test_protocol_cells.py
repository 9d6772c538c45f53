"""Which text is code (``explorer.protocol.cells``): Run Cell skipping, stepping and the cards' fixes agree."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.client.statements import split_statements
from explorer.core.errors.source import is_code
from explorer.protocol.cells import has_code, is_code_line

LINES = ["", "   ", "# a comment", "    # indented comment", "# %%", "x = 1", "    y = x  # note", "\t", "#"]


@pytest.mark.parametrize(("text", "code"), [
    (None, False), ("", False), ("\n\n", False), ("# only words\n#   more", False), ("# %%\n\n# note", False),
    ("# x\n  y = 1", True), ("z", True), ("  # a\n\tb()", True),
])
def test_has_code(text: str | None, code: bool) -> None:
    assert has_code(text) is code


@given(st.lists(st.sampled_from(LINES), max_size=8))
def test_the_cards_and_stepping_see_the_same_code(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert is_code(text) is has_code(text)
    steps = split_statements(text)
    assert bool(steps) is has_code(text)  # a text of comments has no statement to step
    assert all(any(is_code_line(line) for line in step.code.splitlines()) for step in steps)
