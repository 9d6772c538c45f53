"""The find and replace bar (Ctrl+F, Ctrl+H) and go to line (Ctrl+G), driven with the real keys."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QMainWindow

from explorer.ui.editor.code_editor_widget import CodeEditorWidget
from tests.ui.editor_helpers import focused_editor
from tests.waits import scaled_ms

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
CODE = "total = 0\nfor value in values:\n    total += value\nprint(Total, total)\n"


@pytest.fixture
def editor(qtbot) -> CodeEditorWidget:
    return focused_editor(qtbot, CODE)


def open_find(qtbot, editor: CodeEditorWidget, text: str) -> None:
    qtbot.keyClick(editor, Qt.Key.Key_F, CTRL)
    assert editor.find_bar.isVisible()
    assert QApplication.focusWidget() is editor.find_bar.find_edit
    qtbot.keyClicks(editor.find_bar.find_edit, text)


def selected(editor: CodeEditorWidget) -> tuple[int, str]:
    cursor = editor.textCursor()
    return cursor.blockNumber() + 1, cursor.selectedText()


def found_marks(editor: CodeEditorWidget) -> int:
    return sum(1 for s in editor.extraSelections() if s.cursor.hasSelection())


def test_ctrl_f_finds_counts_and_highlights_every_match(qtbot, editor) -> None:
    open_find(qtbot, editor, "total")
    bar = editor.find_bar
    assert bar.count_text() == "1 of 4"  # case-insensitive by default: "Total" too
    assert selected(editor) == (1, "total")
    assert found_marks(editor) == 4
    field = bar.find_edit
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert (bar.count_text(), selected(editor)) == ("2 of 4", (3, "total"))
    qtbot.keyClick(field, Qt.Key.Key_F3)
    assert bar.count_text() == "3 of 4"
    qtbot.keyClick(field, Qt.Key.Key_Return, SHIFT)
    assert bar.count_text() == "2 of 4"
    qtbot.keyClick(field, Qt.Key.Key_F3, SHIFT)
    qtbot.keyClick(field, Qt.Key.Key_F3, SHIFT)  # wraps around to the last one
    assert (bar.count_text(), selected(editor)) == ("4 of 4", (4, "total"))


def test_match_case_whole_word_and_regex(qtbot, editor) -> None:
    open_find(qtbot, editor, "Total")
    bar = editor.find_bar
    qtbot.mouseClick(bar.case_button, Qt.MouseButton.LeftButton)
    assert bar.count_text() == "1 of 1"
    assert QApplication.focusWidget() is bar.find_edit  # a click on a toggle leaves the keyboard in the field
    qtbot.mouseClick(bar.case_button, Qt.MouseButton.LeftButton)
    bar.find_edit.clear()
    qtbot.keyClicks(bar.find_edit, "value")
    assert len(bar.matches) == 3  # "value" and "values"
    qtbot.mouseClick(bar.word_button, Qt.MouseButton.LeftButton)
    assert len(bar.matches) == 2
    qtbot.mouseClick(bar.word_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(bar.regex_button, Qt.MouseButton.LeftButton)
    bar.find_edit.clear()
    qtbot.keyClicks(bar.find_edit, r"^\w+")
    assert [editor.toPlainText()[a:b] for a, b in bar.matches] == ["total", "for", "print"]


def test_an_invalid_regex_is_said_so_not_a_crash(qtbot, editor) -> None:
    open_find(qtbot, editor, "print(")
    bar = editor.find_bar
    assert bar.matches and bar.error is None  # not a regex yet: found as text
    qtbot.mouseClick(bar.regex_button, Qt.MouseButton.LeftButton)
    assert bar.matches == []
    assert bar.count_text().startswith("Invalid pattern: missing ), unterminated subpattern")
    qtbot.keyClick(bar.find_edit, Qt.Key.Key_Return)  # Enter with no matches does nothing
    assert bar.isVisible()


def test_no_results_are_said_so(qtbot, editor) -> None:
    open_find(qtbot, editor, "nowhere")
    assert editor.find_bar.count_text() == "No results"


def test_esc_closes_the_bar_and_gives_the_keyboard_back(qtbot, editor) -> None:
    open_find(qtbot, editor, "total")
    qtbot.keyClick(editor.find_bar.find_edit, Qt.Key.Key_Escape)
    assert not editor.find_bar.isVisible()
    assert QApplication.focusWidget() is editor
    assert found_marks(editor) == 0
    qtbot.keyClick(editor, Qt.Key.Key_F, CTRL)  # again: the selected word is the text to find
    assert editor.find_bar.find_edit.text() == "total"
    qtbot.keyClick(editor.find_bar.find_edit, Qt.Key.Key_Escape)


def test_the_selection_opens_the_bar_as_its_text(qtbot, editor) -> None:
    cursor = editor.textCursor()
    cursor.setPosition(len("total = 0\n"))
    cursor.setPosition(len("total = 0\nfor"), cursor.MoveMode.KeepAnchor)
    editor.setTextCursor(cursor)
    qtbot.keyClick(editor, Qt.Key.Key_F, CTRL)
    assert editor.find_bar.find_edit.text() == "for"
    assert editor.find_bar.count_text() == "1 of 1"


def test_shift_enter_in_the_find_field_is_not_the_windows_run_cell(qtbot) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    editor = CodeEditorWidget(window)
    editor.setPlainText(CODE)
    window.setCentralWidget(editor)
    ran = []
    run = QAction(window)
    run.setShortcuts([QKeySequence("Shift+Return")])
    run.triggered.connect(lambda: ran.append(True))
    window.addAction(run)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    editor.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is editor)
    open_find(qtbot, editor, "total")
    qtbot.keyClick(editor.find_bar.find_edit, Qt.Key.Key_Return, SHIFT)
    assert ran == [] and editor.find_bar.count_text() == "4 of 4"


def test_ctrl_h_replaces_one_match_then_all_in_one_undo_step(qtbot, editor) -> None:
    qtbot.keyClick(editor, Qt.Key.Key_H, CTRL)
    bar = editor.find_bar
    assert bar.replacing
    qtbot.keyClicks(bar.find_edit, "total")
    qtbot.mouseClick(bar.case_button, Qt.MouseButton.LeftButton)
    qtbot.keyClick(bar.find_edit, Qt.Key.Key_Tab)  # to the replace field
    assert QApplication.focusWidget() is bar.replace_edit
    qtbot.keyClicks(bar.replace_edit, "sum_")
    qtbot.keyClick(bar.replace_edit, Qt.Key.Key_Return)  # replace the selected match, go to the next
    assert editor.toPlainText().startswith("sum_ = 0\n")
    assert bar.count_text() == "1 of 2"
    qtbot.keyClick(bar.replace_edit, Qt.Key.Key_Return, CTRL | Qt.KeyboardModifier.AltModifier)  # Replace All
    assert editor.toPlainText() == "sum_ = 0\nfor value in values:\n    sum_ += value\nprint(Total, sum_)\n"
    assert bar.count_text() == "2 replaced"
    qtbot.waitUntil(lambda: not bar.recount_pending(), timeout=scaled_ms(5000))
    assert bar.count_text() == "2 replaced"  # a recount after the edits does not hide it
    editor.undo()  # Replace All was one step; the single replace before it another
    assert editor.toPlainText() == "sum_ = 0\nfor value in values:\n    total += value\nprint(Total, total)\n"


def test_replace_with_regex_groups(qtbot, editor) -> None:
    qtbot.keyClick(editor, Qt.Key.Key_H, CTRL)
    bar = editor.find_bar
    qtbot.mouseClick(bar.regex_button, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(bar.find_edit, r"(\w+) \+= (\w+)")
    bar.replace_edit.setFocus()
    qtbot.keyClicks(bar.replace_edit, r"\1 = \1 + \2")
    qtbot.mouseClick(bar.replace_all_button, Qt.MouseButton.LeftButton)
    assert "    total = total + value\n" in editor.toPlainText()


def test_ctrl_g_goes_to_a_line_and_refuses_one_out_of_range(qtbot, editor) -> None:
    qtbot.keyClick(editor, Qt.Key.Key_G, CTRL)
    bar = editor.go_to_line_bar
    assert bar.isVisible() and QApplication.focusWidget() is bar.field
    assert bar.field.selectedText() == "1"  # the current line, selected: typing replaces it
    qtbot.keyClicks(bar.field, "99")
    qtbot.keyClick(bar.field, Qt.Key.Key_Return)
    assert bar.isVisible() and bar.message.text() == "Type a line number from 1 to 5"
    bar.field.clear()
    qtbot.keyClicks(bar.field, "3")
    qtbot.keyClick(bar.field, Qt.Key.Key_Return)
    assert not bar.isVisible()
    assert editor.textCursor().blockNumber() == 2
    assert QApplication.focusWidget() is editor


def test_esc_closes_go_to_line_without_moving(qtbot, editor) -> None:
    qtbot.keyClick(editor, Qt.Key.Key_G, CTRL)
    qtbot.keyClicks(editor.go_to_line_bar.field, "4")
    qtbot.keyClick(editor.go_to_line_bar.field, Qt.Key.Key_Escape)
    assert not editor.go_to_line_bar.isVisible()
    assert editor.textCursor().blockNumber() == 0


def test_the_bars_follow_the_editors_font_size(qtbot, editor) -> None:
    qtbot.keyClick(editor, Qt.Key.Key_F, CTRL)
    normal = editor.find_bar.height()
    qtbot.keyClick(editor.find_bar.find_edit, Qt.Key.Key_Escape)
    font = editor.font()
    font.setPointSizeF(font.pointSizeF() * 1.8)  # as presentation mode does
    editor.setFont(font)
    assert editor.find_bar.font().pointSizeF() == pytest.approx(font.pointSizeF())
    assert editor.go_to_line_bar.font().pointSizeF() == pytest.approx(font.pointSizeF())
    qtbot.keyClick(editor, Qt.Key.Key_F, CTRL)
    assert editor.find_bar.height() > normal
    assert editor.viewport().geometry().bottom() < editor.find_bar.y()  # the text makes room for the bar


def test_alt_c_and_alt_w_toggle_case_and_whole_words_from_the_field(qtbot, editor) -> None:
    open_find(qtbot, editor, "value")
    bar = editor.find_bar
    qtbot.keyClick(bar.find_edit, Qt.Key.Key_W, Qt.KeyboardModifier.AltModifier)
    assert bar.word_button.isChecked() and len(bar.matches) == 2
    qtbot.keyClick(bar.find_edit, Qt.Key.Key_C, Qt.KeyboardModifier.AltModifier)
    assert bar.case_button.isChecked()
    assert bar.find_edit.text() == "value"  # the keys typed nothing
