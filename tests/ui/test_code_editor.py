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
