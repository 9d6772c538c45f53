"""The code pane: line numbers, highlighting, ``# %%`` cells, the failing line marked."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QMimeData, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QDragEnterEvent,
    QFontDatabase,
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QWidget

from explorer.protocol.cells import is_cell_marker
from explorer.ui.editor.python_highlighter import PythonHighlighter

# Keys the window's run actions own; the editor must not eat them as newlines.
_RUN_KEYS = {Qt.Key.Key_Return, Qt.Key.Key_Enter}


class _LineNumberArea(QWidget):
    """The gutter; all painting is done by the editor."""

    def __init__(self, editor: CodeEditorWidget) -> None:
        super().__init__(editor)
        self._editor = editor

    def sizeHint(self) -> QSize:
        return QSize(self._editor.gutter_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        self._editor.paint_gutter(event)


class CodeEditorWidget(QPlainTextEdit):
    """A Python editor with numbered lines and runnable cells.

    Lines are 1-based everywhere in its API, like tracebacks.
    """

    error_line_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self._highlighter = PythonHighlighter(self.document())
        self._was_empty = True
        self._gutter = _LineNumberArea(self)
        self._error_line: int | None = None
        self._step_done: tuple[int, int] | None = None  # the lines of the statement F10 ran last
        self._step_next: int | None = None  # the first line of the statement F10 runs next
        self.blockCountChanged.connect(self._on_document_block_count_changed)
        self.updateRequest.connect(self._on_editor_update_requested)
        self.cursorPositionChanged.connect(self._refresh_selections)
        self.textChanged.connect(self._on_editor_text_changed)
        self._on_document_block_count_changed()
        self._refresh_selections()

    # -- geometry and painting ------------------------------------------------
    def gutter_width(self) -> int:
        digits = max(5, len(str(self.blockCount())) + 2)  # room for the "▶ " and "→ " marks
        return 12 + self.fontMetrics().horizontalAdvance("9") * digits

    def _on_document_block_count_changed(self, _count: int = 0) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def _on_editor_update_requested(self, rect: QRect, dy: int) -> None:
        if dy:
            self._gutter.scroll(0, dy)
        else:
            self._gutter.update(0, rect.y(), self._gutter.width(), rect.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        area = self.contentsRect()
        self._gutter.setGeometry(QRect(area.left(), area.top(), self.gutter_width(), area.height()))

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._on_document_block_count_changed()

    def paint_gutter(self, event: QPaintEvent) -> None:
        painter = QPainter(self._gutter)
        palette = self.palette()
        painter.fillRect(event.rect(), palette.alternateBase())
        block = self.firstVisibleBlock()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        height = self.fontMetrics().height()
        while block.isValid() and top <= event.rect().bottom():
            if block.isVisible():
                number = block.blockNumber() + 1
                is_error = number == self._error_line
                is_next = number == self._step_next
                color = "#c0392b" if is_error else "#007a4d" if is_next else None
                painter.setPen(QColor(color) if color else palette.placeholderText().color())
                mark = "▶ " if is_error else "→ " if is_next else ""
                painter.drawText(0, top, self._gutter.width() - 6, height, Qt.AlignmentFlag.AlignRight,
                                 mark + str(number))
            top += round(self.blockBoundingRect(block).height())
            block = block.next()

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        painter = QPainter(self.viewport())
        painter.setPen(QColor(0, 114, 178, 160))
        block = self.firstVisibleBlock()
        offset = self.contentOffset()
        while block.isValid():
            geometry = self.blockBoundingGeometry(block).translated(offset)
            if geometry.top() > event.rect().bottom():
                break
            if is_cell_marker(block.text()) and block.blockNumber() > 0:
                y = round(geometry.top())
                painter.drawLine(0, y, self.viewport().width(), y)
            block = block.next()

    # -- drops: files go to the window (it loads them), text stays here ---------------
    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return not source.hasUrls() and super().canInsertFromMimeData(source)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.ignore()
            return
        super().dragEnterEvent(event)

    # -- keys -------------------------------------------------------------------
    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            mods = event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
            if event.key() in _RUN_KEYS and mods:
                event.ignore()  # let the window's Run cell shortcuts have it
                return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Tab and not event.modifiers():
            self.insertPlainText("    ")
            return
        super().keyPressEvent(event)

    # -- cells and selections -----------------------------------------------------
    def lines(self) -> list[str]:
        return self.toPlainText().split("\n")

    def cell_bounds(self, line: int | None = None) -> tuple[int, int]:
        """First and last line (1-based, inclusive) of the cell holding *line* (default: the cursor's)."""
        lines = self.lines()
        current = (line or self.textCursor().blockNumber() + 1) - 1
        start = current
        while start > 0 and not is_cell_marker(lines[start]):
            start -= 1
        end = current + 1
        while end < len(lines) and not is_cell_marker(lines[end]):
            end += 1
        return start + 1, end

    def current_cell(self) -> tuple[str, int]:
        """The code of the cursor's cell and its first line number."""
        first, last = self.cell_bounds()
        return "\n".join(self.lines()[first - 1:last]), first

    def selection_or_line(self) -> tuple[str, int]:
        """The selected text (whole lines) or the cursor's line, and its first line number."""
        cursor = self.textCursor()
        doc = self.document()
        if not cursor.hasSelection():
            block = cursor.block()
            return block.text(), block.blockNumber() + 1
        first = doc.findBlock(cursor.selectionStart()).blockNumber()
        last = doc.findBlock(cursor.selectionEnd()).blockNumber()
        return "\n".join(self.lines()[first:last + 1]), first + 1

    def advance_to_next_cell(self) -> bool:
        """Move the cursor to the first line after the current cell; False at the end."""
        _first, last = self.cell_bounds()
        if last >= self.blockCount():
            return False
        self.go_to_line(last + 1)
        return True

    def go_to_line(self, line: int) -> None:
        block = self.document().findBlockByNumber(max(line - 1, 0))
        cursor = QTextCursor(block)
        self.setTextCursor(cursor)
        self.centerCursor()

    # -- error line ---------------------------------------------------------------
    @property
    def error_line(self) -> int | None:
        return self._error_line

    def mark_error_line(self, line: int | None) -> None:
        """Mark the failing line (1-based) in red, or clear the mark with None."""
        if line is not None and not 1 <= line <= self.blockCount():
            line = None
        self._error_line = line
        self._refresh_selections()
        self._gutter.update()
        self.error_line_changed.emit(line or 0)

    # -- step-through marks -------------------------------------------------------------
    @property
    def step_marks(self) -> tuple[tuple[int, int] | None, int | None]:
        """(first and last line of the statement F10 ran last, first line of the one it runs next)."""
        return self._step_done, self._step_next

    def mark_step(self, done: tuple[int, int] | None, next_line: int | None) -> None:
        """Band the lines F10 just ran and point at the line it runs next (None clears each)."""
        count = self.blockCount()
        self._step_done = done if done and 1 <= done[0] <= done[1] <= count else None
        self._step_next = next_line if next_line and 1 <= next_line <= count else None
        self._refresh_selections()
        self._gutter.update()
        if self._step_next is not None:
            self.go_to_line(self._step_next)

    def _on_editor_text_changed(self) -> None:
        if self._error_line is not None and self._error_line > self.blockCount():
            self.mark_error_line(None)
        empty = self.document().isEmpty()
        if empty != self._was_empty:  # the current-line band comes back with the first character
            self._was_empty = empty
            self._refresh_selections()

    def _refresh_selections(self) -> None:
        selections: list[QTextEdit.ExtraSelection] = []
        if self.document().isEmpty():
            # The placeholder text is drawn on the first line: no current-line band over it.
            self.setExtraSelections(selections)
            return
        current = QTextEdit.ExtraSelection()
        current.format.setBackground(self.palette().alternateBase())
        current.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        current.cursor = self.textCursor()
        current.cursor.clearSelection()
        selections.append(current)
        if self._step_done is not None:
            for number in range(self._step_done[0] - 1, self._step_done[1]):  # one band per line: full width
                done = QTextEdit.ExtraSelection()
                done.format.setBackground(QColor(0, 158, 115, 55))  # Okabe-Ito bluish green: "this just ran"
                done.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
                done.cursor = QTextCursor(self.document().findBlockByNumber(number))
                selections.append(done)
        if self._error_line is not None:
            error = QTextEdit.ExtraSelection()
            error.format.setBackground(QColor(230, 80, 60, 60))
            error.format.setUnderlineStyle(error.format.UnderlineStyle.WaveUnderline)
            error.format.setUnderlineColor(QColor("#c0392b"))
            error.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
            error.cursor = QTextCursor(self.document().findBlockByNumber(self._error_line - 1))
            selections.append(error)
        self.setExtraSelections(selections)
