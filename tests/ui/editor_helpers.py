"""The code editor as the editor tests use it: shown, focused, optionally with text and a completion source."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QApplication

from explorer.ui.editor.code_editor_widget import CodeEditorWidget


def focused_editor(qtbot: Any, text: str = "", completion: Any = None) -> CodeEditorWidget:
    """A 700x400 editor holding *text*, shown and holding the keyboard focus (keys typed by qtbot reach it)."""
    widget = CodeEditorWidget()
    if completion is not None:
        widget.set_completion_source(completion)
    qtbot.addWidget(widget)
    widget.resize(700, 400)
    if text:
        widget.setPlainText(text)
    widget.show()
    qtbot.waitExposed(widget)
    widget.activateWindow()
    widget.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is widget)
    return widget
