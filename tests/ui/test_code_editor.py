"""The code pane's small promises: the placeholder stays readable, the current line is banded."""

from __future__ import annotations

from explorer.ui.editor.code_editor_widget import CodeEditorWidget


def test_empty_editor_draws_no_band_over_the_placeholder(qtbot) -> None:
    editor = CodeEditorWidget()
    qtbot.addWidget(editor)
    editor.setPlaceholderText("Type PyTorch code here")
    assert editor.extraSelections() == []  # the first placeholder line is not hidden
    editor.setPlainText("x = 1")
    assert len(editor.extraSelections()) == 1  # the current line is banded once there is text
    editor.clear()
    assert editor.extraSelections() == []


def _formats(editor: CodeEditorWidget, line: int) -> dict[str, str]:
    """Text of each coloured span of *line* (0-based) -> its colour."""
    block = editor.document().findBlockByNumber(line)
    text = block.text()
    return {text[r.start:r.start + r.length]: r.format.foreground().color().name() for r in block.layout().formats()}


def test_highlighting_colours_keywords_strings_comments_and_names(qtbot) -> None:
    editor = CodeEditorWidget()
    qtbot.addWidget(editor)
    editor.setPlainText("def grow(x, n=2):  # twice\n    return f'{x}' * n\nclass Box: pass\n")
    spans = _formats(editor, 0)
    assert spans["def"] == "#007020" and spans["grow"] == "#06287e"  # Pygments' "friendly" style
    assert spans["2"] == "#40a070" and spans["# twice"] == "#60a0b0"
    assert _formats(editor, 1)["f'{x}'"] == "#4070a0"
    assert _formats(editor, 2)["Box"] == "#0e84b5"


def test_a_triple_quoted_string_is_coloured_across_lines_and_ends_where_it_closes(qtbot) -> None:
    editor = CodeEditorWidget()
    qtbot.addWidget(editor)
    editor.setPlainText('x = """one\ndef not_code():\nthree""" + 1\ndef code(): pass')
    assert list(_formats(editor, 1)) == ["def not_code():"]  # all of it is string
    assert _formats(editor, 1)["def not_code():"] == "#4070a0"
    assert _formats(editor, 2)['three"""'] == "#4070a0" and _formats(editor, 2)["1"] == "#40a070"
    assert _formats(editor, 3)["def"] == "#007020"
    editor.moveCursor(editor.textCursor().MoveOperation.Start)
    editor.textCursor().insertText("#")  # the quotes are in a comment now: line 2 is code
    assert _formats(editor, 1)["def"] == "#007020"


def test_colours_stay_on_their_characters_after_an_emoji(qtbot) -> None:
    editor = CodeEditorWidget()
    qtbot.addWidget(editor)
    editor.setPlainText("s = '🙂'; import os")
    block = editor.document().firstBlock()
    ranges = {r.format.foreground().color().name(): (r.start, r.length) for r in block.layout().formats()}
    assert ranges["#007020"] == (len("s = '🙂'; ") + 1, len("import"))  # Qt counts the emoji as two units
