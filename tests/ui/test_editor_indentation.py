"""Indentation in the code pane, typed with the real keys: Return, Tab, Shift+Tab and Backspace."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from explorer.ui.editor.code_editor_widget import CodeEditorWidget
from tests.ui.editor_helpers import focused_editor

RETURN, TAB, BACKTAB, BACKSPACE = Qt.Key.Key_Return, Qt.Key.Key_Tab, Qt.Key.Key_Backtab, Qt.Key.Key_Backspace


@pytest.fixture
def editor(qtbot) -> CodeEditorWidget:
    return focused_editor(qtbot)


def type_lines(qtbot, editor: CodeEditorWidget, text: str) -> None:
    """Type *text* as a user would: its lines without their indentation, Return between them."""
    for i, line in enumerate(text.split("\n")):
        if i:
            qtbot.keyClick(editor, RETURN)
        if line:
            qtbot.keyClicks(editor, line)


def current_line(editor: CodeEditorWidget) -> str:
    return editor.textCursor().block().text()


@pytest.mark.parametrize(("typed", "indent"), [
    ("def f(x):", 4),
    ("def f(x):  # a comment after the colon", 4),
    ("x = 'no: colon here'", 0),
    ("x = 1  # a colon in a comment:", 0),
    ("x = {1: 2}", 0),
    ("class A:\nx = 1", 4),
    ("if (a and\nb):", 4),
])
def test_return_indents_after_a_colon_and_keeps_the_level(qtbot, editor, typed: str, indent: int) -> None:
    type_lines(qtbot, editor, typed)
    qtbot.keyClick(editor, RETURN)
    assert current_line(editor) == " " * indent


@pytest.mark.parametrize("keyword", ["return x", "pass", "break", "continue", "raise ValueError('no')"])
def test_return_dedents_after_a_statement_that_ends_a_block(qtbot, editor, keyword: str) -> None:
    type_lines(qtbot, editor, "def f(x):\nwhile x:\n" + keyword)
    qtbot.keyClick(editor, RETURN)
    assert current_line(editor) == "    "
    assert editor.toPlainText().split("\n")[2] == "        " + keyword


def test_a_name_that_starts_like_a_keyword_does_not_dedent(qtbot, editor) -> None:
    type_lines(qtbot, editor, "def f():\nreturn_value = 1")
    qtbot.keyClick(editor, RETURN)
    assert current_line(editor) == "    "


def test_inside_an_open_bracket_the_new_line_aligns_with_it(qtbot, editor) -> None:
    type_lines(qtbot, editor, "def f():\nresult = torch.zeros(3,")
    qtbot.keyClick(editor, RETURN)
    assert editor.textCursor().positionInBlock() == len("    result = torch.zeros(")
    qtbot.keyClicks(editor, "dtype=torch.float32)")
    qtbot.keyClick(editor, RETURN)
    assert current_line(editor) == "    "  # the bracket closed: back to the statement's level
    assert editor.toPlainText() == ("def f():\n    result = torch.zeros(3,\n"
                                    "                         dtype=torch.float32)\n    ")


def test_a_bracket_at_the_end_of_a_line_hangs_one_level_and_closes_on_its_own_line(qtbot, editor) -> None:
    qtbot.keyClicks(editor, "x = dict(")  # auto-closed: x = dict(|)
    qtbot.keyClick(editor, RETURN)
    assert editor.toPlainText() == "x = dict(\n    \n)"
    assert current_line(editor) == "    " and editor.textCursor().positionInBlock() == 4
    qtbot.keyClicks(editor, "a=1,")
    qtbot.keyClick(editor, RETURN)
    assert current_line(editor) == "    "


def test_brackets_inside_strings_and_comments_do_not_count(qtbot, editor) -> None:
    type_lines(qtbot, editor, "s = '(' + \"[\"  # {")
    qtbot.keyClick(editor, RETURN)
    assert current_line(editor) == ""


def test_a_backslash_continues_the_statement_one_level_in(qtbot, editor) -> None:
    qtbot.keyClicks(editor, "total = 1 + \\")
    qtbot.keyClick(editor, RETURN)
    assert current_line(editor) == "    "


def test_return_in_a_docstring_keeps_its_indentation(qtbot, editor) -> None:
    type_lines(qtbot, editor, 'def f():\n"""First line,')  # the third quote closed the docstring: """|"""
    qtbot.keyClick(editor, RETURN)
    assert current_line(editor) == '    """'  # the closing quotes moved down, the cursor before them
    assert editor.textCursor().positionInBlock() == 4
    qtbot.keyClicks(editor, "second line.")
    qtbot.keyClick(editor, RETURN)
    assert current_line(editor) == '    """'


def test_return_is_one_undo_step(qtbot, editor) -> None:
    qtbot.keyClicks(editor, "if x:")
    qtbot.keyClick(editor, RETURN)
    editor.undo()
    assert editor.toPlainText() == "if x:"


def test_backspace_in_leading_spaces_removes_one_level(qtbot, editor) -> None:
    type_lines(qtbot, editor, "def f():\nif x:")
    qtbot.keyClick(editor, RETURN)
    assert current_line(editor) == " " * 8
    qtbot.keyClick(editor, BACKSPACE)
    assert current_line(editor) == " " * 4
    qtbot.keyClicks(editor, "y")
    qtbot.keyClick(editor, BACKSPACE)  # after text, Backspace deletes one character
    assert current_line(editor) == " " * 4


def test_typed_tab_inserts_spaces_to_the_next_level(qtbot, editor) -> None:
    qtbot.keyClick(editor, TAB)
    assert editor.toPlainText() == "    "
    qtbot.keyClicks(editor, "  ")
    qtbot.keyClick(editor, TAB)
    assert editor.toPlainText() == " " * 8
    assert "\t" not in editor.toPlainText()


def test_tab_and_shift_tab_indent_and_dedent_the_selected_lines(qtbot, editor) -> None:
    editor.setPlainText("a = 1\n\nb = 2\nc = 3")
    qtbot.keyClick(editor, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(editor, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(editor, Qt.Key.Key_End, Qt.KeyboardModifier.ShiftModifier)  # lines 1-3 selected
    qtbot.keyClick(editor, TAB)
    assert editor.toPlainText() == "    a = 1\n\n    b = 2\nc = 3"  # the blank line stays empty
    qtbot.keyClick(editor, TAB)
    assert editor.toPlainText() == "        a = 1\n\n        b = 2\nc = 3"
    qtbot.keyClick(editor, BACKTAB, Qt.KeyboardModifier.ShiftModifier)
    assert editor.toPlainText() == "    a = 1\n\n    b = 2\nc = 3"
    editor.undo()
    assert editor.toPlainText() == "        a = 1\n\n        b = 2\nc = 3"  # one step per key


def test_shift_tab_without_a_selection_dedents_the_line(qtbot, editor) -> None:
    editor.setPlainText("      x = 1")
    qtbot.keyClick(editor, BACKTAB, Qt.KeyboardModifier.ShiftModifier)
    assert editor.toPlainText() == "    x = 1"  # back to the previous multiple of four
    qtbot.keyClick(editor, BACKTAB, Qt.KeyboardModifier.ShiftModifier)
    assert editor.toPlainText() == "x = 1"


def test_pasted_code_keeps_its_own_indentation(qtbot, editor) -> None:
    QApplication.clipboard().setText("def g():\n    return 1\n")
    qtbot.keyClicks(editor, "if x:")
    qtbot.keyClick(editor, RETURN)
    qtbot.keyClick(editor, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert editor.toPlainText() == "if x:\n    def g():\n    return 1\n"


def test_a_docstring_line_at_column_zero_is_not_taken_for_a_statement(qtbot, editor) -> None:
    editor.setPlainText('x = f(a,\n      """\nnot a statement\n""",')
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    qtbot.keyClick(editor, RETURN)
    assert current_line(editor) == " " * len("x = f(")  # still inside f( ... : aligned with its bracket
