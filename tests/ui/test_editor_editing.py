"""Comment toggling, duplicate and move line, bracket matching and auto-closing, with the real keys."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication

from explorer.ui.editor.code_editor_widget import CodeEditorWidget
from tests.ui.editor_helpers import focused_editor

CTRL, SHIFT, ALT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier, Qt.KeyboardModifier.AltModifier


@pytest.fixture
def editor(qtbot) -> CodeEditorWidget:
    return focused_editor(qtbot)


def select_lines(editor: CodeEditorWidget, first: int, last: int) -> None:
    """Select lines *first*..*last* (0-based) as Shift+Down would, ending at the start of the next line."""
    cursor = QTextCursor(editor.document().findBlockByNumber(first))
    cursor.setPosition(editor.document().findBlockByNumber(last + 1).position(), QTextCursor.MoveMode.KeepAnchor)
    editor.setTextCursor(cursor)


# -- comments ----------------------------------------------------------------------------------------
def test_ctrl_slash_comments_the_selected_lines_at_their_indentation_and_back(qtbot, editor) -> None:
    code = "def f(x):\n    if x:\n\n        return x\n    return 0\n"
    editor.setPlainText(code)
    select_lines(editor, 1, 3)
    qtbot.keyClick(editor, Qt.Key.Key_Slash, CTRL)
    assert editor.toPlainText() == "def f(x):\n    # if x:\n\n    #     return x\n    return 0\n"
    qtbot.keyClick(editor, Qt.Key.Key_Slash, CTRL)  # the same lines are still selected
    assert editor.toPlainText() == code


def test_commenting_is_one_undo_step(qtbot, editor) -> None:
    editor.setPlainText("a = 1\nb = 2\nc = 3")
    editor.selectAll()
    qtbot.keyClick(editor, Qt.Key.Key_Slash, CTRL)
    assert editor.toPlainText() == "# a = 1\n# b = 2\n# c = 3"
    qtbot.keyClick(editor, Qt.Key.Key_Z, CTRL)
    assert editor.toPlainText() == "a = 1\nb = 2\nc = 3"


def test_ctrl_slash_without_a_selection_toggles_the_cursors_line_and_keeps_the_cursor(qtbot, editor) -> None:
    editor.setPlainText("x = 1\ny = 2")
    editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClick(editor, Qt.Key.Key_Slash, CTRL)
    assert editor.toPlainText() == "x = 1\n# y = 2"
    assert editor.textCursor().positionInBlock() == len("# y = 2")
    qtbot.keyClick(editor, Qt.Key.Key_Slash, CTRL)
    assert editor.toPlainText() == "x = 1\ny = 2"


def test_a_mix_of_code_and_comments_is_commented(qtbot, editor) -> None:
    editor.setPlainText("# note\nx = 1")
    editor.selectAll()
    qtbot.keyClick(editor, Qt.Key.Key_Slash, CTRL)
    assert editor.toPlainText() == "# # note\n# x = 1"


# -- duplicate and move ----------------------------------------------------------------------------------
def test_ctrl_shift_d_duplicates_the_line_below_and_moves_onto_the_copy(qtbot, editor) -> None:
    editor.setPlainText("a = 1\nb = 2")
    qtbot.keyClick(editor, Qt.Key.Key_D, CTRL | SHIFT)
    assert editor.toPlainText() == "a = 1\na = 1\nb = 2"
    assert editor.textCursor().blockNumber() == 1
    select_lines(editor, 0, 1)
    qtbot.keyClick(editor, Qt.Key.Key_D, CTRL | SHIFT)
    assert editor.toPlainText() == "a = 1\na = 1\na = 1\na = 1\nb = 2"
    editor.undo()
    assert editor.toPlainText() == "a = 1\na = 1\nb = 2"


def test_alt_up_and_down_move_the_selected_lines(qtbot, editor) -> None:
    editor.setPlainText("one\ntwo\nthree\nfour")
    select_lines(editor, 1, 2)
    qtbot.keyClick(editor, Qt.Key.Key_Up, ALT)
    assert editor.toPlainText() == "two\nthree\none\nfour"
    qtbot.keyClick(editor, Qt.Key.Key_Up, ALT)  # at the top: nothing moves
    assert editor.toPlainText() == "two\nthree\none\nfour"
    qtbot.keyClick(editor, Qt.Key.Key_Down, ALT)
    qtbot.keyClick(editor, Qt.Key.Key_Down, ALT)
    assert editor.toPlainText() == "one\nfour\ntwo\nthree"
    assert editor.textCursor().selectedText() == "two\u2029three"  # the selection moved with them
    qtbot.keyClick(editor, Qt.Key.Key_Down, ALT)
    assert editor.toPlainText() == "one\nfour\ntwo\nthree"
    editor.undo()
    assert editor.toPlainText() == "one\ntwo\nthree\nfour"


# -- brackets ------------------------------------------------------------------------------------------------
def marked(editor: CodeEditorWidget) -> list[str]:
    """The text of each character-wide extra selection (bracket marks), not the line bands."""
    return [s.cursor.selectedText() for s in editor.extraSelections() if s.cursor.hasSelection()]


def test_the_bracket_beside_the_cursor_and_its_partner_are_highlighted(qtbot, editor) -> None:
    editor.setPlainText("f(a, [1, 2], ')')\n")
    editor.moveCursor(QTextCursor.MoveOperation.Start)
    qtbot.keyClick(editor, Qt.Key.Key_Right)  # before "("
    positions = sorted(s.cursor.selectionStart() for s in editor.extraSelections() if s.cursor.hasSelection())
    assert positions == [1, 16]  # the ")" inside the string is not its partner
    qtbot.keyClick(editor, Qt.Key.Key_Down)
    assert marked(editor) == []  # nothing beside the cursor on the empty line


def test_quotes_of_a_string_are_matched(qtbot, editor) -> None:
    editor.setPlainText("s = 'abc'")
    editor.moveCursor(QTextCursor.MoveOperation.End)
    assert sorted(s.cursor.selectionStart() for s in editor.extraSelections() if s.cursor.hasSelection()) == [4, 8]


def test_an_unmatched_bracket_is_marked_alone(qtbot, editor) -> None:
    editor.setPlainText("x = (1, 2")
    cursor = editor.textCursor()
    cursor.setPosition(4)
    editor.setTextCursor(cursor)
    assert marked(editor) == ["("]


def test_typed_openers_close_and_typed_closers_step_over(qtbot, editor) -> None:
    qtbot.keyClicks(editor, "x = f(a[0], {")
    assert editor.toPlainText() == "x = f(a[0], {})"
    qtbot.keyClicks(editor, "1: 'k'})")
    assert editor.toPlainText() == "x = f(a[0], {1: 'k'})"  # typed over, never doubled
    assert editor.textCursor().atEnd()


def test_no_closing_before_a_word_or_in_strings_and_comments(qtbot, editor) -> None:
    editor.setPlainText("value")
    editor.moveCursor(QTextCursor.MoveOperation.Start)
    qtbot.keyClicks(editor, "(")
    assert editor.toPlainText() == "(value"
    editor.setPlainText("# see ")
    editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(editor, "(")
    assert editor.toPlainText() == "# see ("
    editor.setPlainText("s = 'a ")
    editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(editor, "[")
    assert editor.toPlainText() == "s = 'a ["


def test_a_quote_after_a_word_is_not_doubled_unless_it_starts_a_prefixed_string(qtbot, editor) -> None:
    qtbot.keyClicks(editor, "# don't")
    assert editor.toPlainText() == "# don't"
    editor.clear()
    qtbot.keyClicks(editor, "print(f'{x}')")
    assert editor.toPlainText() == "print(f'{x}')"
    editor.clear()
    qtbot.keyClicks(editor, "name = it's")
    assert editor.toPlainText() == "name = it's"


def test_backspace_after_an_auto_closed_opener_removes_both(qtbot, editor) -> None:
    qtbot.keyClicks(editor, "x = [")
    assert editor.toPlainText() == "x = []"
    qtbot.keyClick(editor, Qt.Key.Key_Backspace)
    assert editor.toPlainText() == "x = "


def test_a_closer_typed_on_the_blank_line_inside_a_split_pair_goes_to_the_closer_below(qtbot, editor) -> None:
    qtbot.keyClicks(editor, "x = [")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.keyClicks(editor, "1,")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.keyClicks(editor, "]")
    assert editor.toPlainText() == "x = [\n    1,\n]"
    assert editor.textCursor().atEnd()


def test_paste_is_never_altered(qtbot, editor) -> None:
    mime = QMimeData()
    mime.setText("f(")
    editor.insertFromMimeData(mime)
    assert editor.toPlainText() == "f("
    QApplication.clipboard().setText("(x, 'y'")
    qtbot.keyClick(editor, Qt.Key.Key_V, CTRL)
    assert editor.toPlainText() == "f((x, 'y'"


def test_a_docstring_typed_in_full_is_not_doubled(qtbot, editor) -> None:
    qtbot.keyClicks(editor, '"""')
    assert editor.toPlainText() == '""""""'  # the third quote closed it
    qtbot.keyClicks(editor, 'Scale the values."""')
    assert editor.toPlainText() == '"""Scale the values."""'
    assert editor.textCursor().atEnd()
