"""The editor's gutter (line numbers, the failing line, the step arrow) and the lines between cells."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QWidget

from explorer.protocol.cells import is_cell_marker

# The editor is typed Any here: naming CodeEditorWidget would close an import loop with the module that builds this.
CodeEditorWidget = Any


class LineNumberArea(QWidget):
    """The gutter; it asks the editor what to paint."""

    def __init__(self, editor: CodeEditorWidget) -> None:
        super().__init__(editor)
        self._editor = editor

    def sizeHint(self) -> QSize:
        return QSize(gutter_width(self._editor), 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        paint_gutter(self._editor, self, event)


def gutter_width(editor: CodeEditorWidget) -> int:
    digits = max(5, len(str(editor.blockCount())) + 2)  # room for the "▶ " and "→ " marks
    return 12 + editor.fontMetrics().horizontalAdvance("9") * digits


def paint_gutter(editor: CodeEditorWidget, gutter: QWidget, event: QPaintEvent) -> None:
    """Line numbers; the failing line in red with ▶, the line F10 runs next in green with →."""
    painter = QPainter(gutter)
    palette = editor.palette()
    painter.fillRect(event.rect(), palette.alternateBase())
    block = editor.firstVisibleBlock()
    top = round(editor.blockBoundingGeometry(block).translated(editor.contentOffset()).top())
    height = editor.fontMetrics().height()
    error_line, next_line = editor.error_line, editor.step_marks[1]
    while block.isValid() and top <= event.rect().bottom():
        if block.isVisible():
            number = block.blockNumber() + 1
            is_error = number == error_line
            is_next = number == next_line
            color = "#c0392b" if is_error else "#007a4d" if is_next else None
            painter.setPen(QColor(color) if color else palette.placeholderText().color())
            mark = "▶ " if is_error else "→ " if is_next else ""
            painter.drawText(0, top, gutter.width() - 6, height, Qt.AlignmentFlag.AlignRight, mark + str(number))
        top += round(editor.blockBoundingRect(block).height())
        block = block.next()


def paint_cell_lines(editor: CodeEditorWidget, event: QPaintEvent) -> None:
    """A thin line above every ``# %%`` cell but the first."""
    painter = QPainter(editor.viewport())
    painter.setPen(QColor(0, 114, 178, 160))
    block = editor.firstVisibleBlock()
    offset = editor.contentOffset()
    while block.isValid():
        geometry = editor.blockBoundingGeometry(block).translated(offset)
        if geometry.top() > event.rect().bottom():
            break
        if is_cell_marker(block.text()) and block.blockNumber() > 0:
            y = round(geometry.top())
            painter.drawLine(0, y, editor.viewport().width(), y)
        block = block.next()
