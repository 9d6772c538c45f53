"""Ctrl+G: a small bar at the bottom of the code pane that takes a line number and goes there."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel

from explorer.ui.editor.bar_field import BarField, keep_focus_in

# The editor is typed Any here: naming CodeEditorWidget would close an import loop with the module that builds this.
CodeEditorWidget = Any


class GoToLineBar(QFrame):
    """Enter goes to the typed line (1 to the last line); anything else is said to be out of range."""

    closed = Signal()

    def __init__(self, editor: CodeEditorWidget) -> None:
        super().__init__(editor)
        self.setObjectName("go_to_line_bar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self._editor = editor
        self.label = QLabel(self)
        self.field = BarField(self)
        self.field.setObjectName("go_to_line_text")
        self.message = QLabel(self)
        self.message.setObjectName("go_to_line_message")
        self.message.setStyleSheet("color: #c0392b")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(self.label)
        layout.addWidget(self.field, 1)
        layout.addWidget(self.message, 2)
        keep_focus_in(self, (self.field,))
        self.field.entered.connect(lambda _shift: self.go())
        self.field.escaped.connect(self.close_bar)
        self.field.textChanged.connect(lambda _text: self.message.clear())
        self.hide()

    def _last(self) -> int:
        return self._editor.blockCount()

    def open_bar(self) -> None:
        self.label.setText(self.tr("Go to line (1-{last}):").format(last=self._last()))
        self.field.setText(str(self._editor.textCursor().blockNumber() + 1))
        self.message.clear()
        self.show()
        self.field.setFocus()
        self.field.selectAll()

    def go(self) -> bool:
        """Go to the typed line and close; False (and a message) when it is not a line of the file."""
        text = self.field.text().strip()
        last = self._last()
        if not text.isdigit() or not 1 <= int(text) <= last:
            self.message.setText(self.tr("Type a line number from 1 to {last}").format(last=last))
            return False
        self._editor.go_to_line(int(text))
        self.close_bar()
        return True

    def close_bar(self) -> None:
        self.hide()
        self._editor.setFocus()
        self.closed.emit()
