"""The code pane: line numbers, highlighting, ``# %%`` cells, the failing line marked, and the editing
a Python programmer expects (indentation, comments, line moves, brackets, find, go to line, completion).

The behaviours live in small modules next to this one; this widget routes keys to them
and lays out its gutter and its bars (find and replace, go to line) around the text.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QMimeData, QObject, QRect, Qt, Signal
from PySide6.QtGui import (
    QContextMenuEvent,
    QDragEnterEvent,
    QFocusEvent,
    QFont,
    QFontDatabase,
    QKeyEvent,
    QPaintEvent,
    QResizeEvent,
    QTextCursor,
)
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QTextEdit, QWidget

from explorer.protocol.cells import is_cell_marker
from explorer.ui.editor import edit_actions, selections
from explorer.ui.editor.brackets import AutoCloser
from explorer.ui.editor.comments import toggle_comment
from explorer.ui.editor.completion_controller import CompletionController
from explorer.ui.editor.find_bar import FindBarWidget
from explorer.ui.editor.go_to_line import GoToLineBar
from explorer.ui.editor.gutter import LineNumberArea, gutter_width, paint_cell_lines
from explorer.ui.editor.indentation import (
    backspace_in_indent,
    dedent_lines,
    indent_lines,
    insert_new_line,
    insert_tab,
)
from explorer.ui.editor.line_moves import duplicate_lines, move_lines
from explorer.ui.editor.line_range import text_before
from explorer.ui.editor.python_highlighter import PythonHighlighter

__all__ = ["CodeEditorWidget"]
_PLAIN = (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier)
_RETURN = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
_TABS = (Qt.Key.Key_Tab, Qt.Key.Key_Backtab)


class CodeEditorWidget(QPlainTextEdit):
    """A Python editor with numbered lines and runnable cells.

    Lines are 1-based everywhere in its API, like tracebacks. :attr:`edit_actions` are
    its Edit menu (their shortcuts work while it has the keyboard).
    """

    error_line_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self._highlighter = PythonHighlighter(self.document())
        self._was_empty = True
        self._gutter = LineNumberArea(self)
        self._error_line: int | None = None
        self._step_done: tuple[int, int] | None = None  # the lines of the statement F10 ran last
        self._step_next: int | None = None  # the first line of the statement F10 runs next
        self._closer = AutoCloser()
        self.find_bar = FindBarWidget(self)
        self.go_to_line_bar = GoToLineBar(self)
        for bar in (self.find_bar, self.go_to_line_bar):
            bar.installEventFilter(self)  # shown or hidden: the text makes room for it
        self.completion = CompletionController(self)
        self.edit_actions = edit_actions.build(self)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))  # the bars exist: they follow it
        self.blockCountChanged.connect(self._on_document_block_count_changed)
        self.updateRequest.connect(self._on_editor_update_requested)
        self.cursorPositionChanged.connect(self._on_editor_cursor_position_changed)
        self.textChanged.connect(self._on_editor_text_changed)
        self.find_bar.marks_changed.connect(self._refresh_selections)
        self.verticalScrollBar().valueChanged.connect(lambda _value: self.completion.hide())
        self._on_document_block_count_changed()
        self._refresh_selections()

    def set_completion_source(self, source: Any) -> None:
        """The kernel to ask for completions and call tips (an :class:`explorer.client.completion.KernelCompletion`)."""
        self.completion.set_kernel(source)

    # -- geometry and painting ------------------------------------------------------------------
    def gutter_width(self) -> int:
        return gutter_width(self)

    def _bars_height(self) -> int:
        return sum(bar.sizeHint().height() for bar in (self.find_bar, self.go_to_line_bar) if bar.isVisible())

    def _on_document_block_count_changed(self, _count: int = 0) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, self._bars_height())
        self._place_children()

    def _on_editor_update_requested(self, rect: QRect, dy: int) -> None:
        if dy:
            self._gutter.scroll(0, dy)
        else:
            self._gutter.update(0, rect.y(), self._gutter.width(), rect.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place_children()

    def _place_children(self) -> None:
        area, view = self.contentsRect(), self.viewport().geometry()
        self._gutter.setGeometry(QRect(area.left(), area.top(), self.gutter_width(), view.height()))
        top = view.bottom() + 1
        for bar in (self.find_bar, self.go_to_line_bar):
            if bar.isVisible():
                height = bar.sizeHint().height()
                bar.setGeometry(QRect(area.left(), top, view.right() + 1 - area.left(), height))
                top += height

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Show, QEvent.Type.Hide) and watched in (self.find_bar, self.go_to_line_bar):
            self._on_document_block_count_changed()
        return super().eventFilter(watched, event)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._on_font_changed()
        elif event.type() == QEvent.Type.LanguageChange:
            edit_actions.retranslate(self.edit_actions)
            self.find_bar.retranslate()

    def _on_font_changed(self) -> None:
        """The bars grow with the editor's font (presentation mode, zoom), in the interface's own face."""
        font = QFont(QApplication.font())
        font.setPointSizeF(self.font().pointSizeF())
        for bar in (self.find_bar, self.go_to_line_bar):
            bar.setFont(font)
        self._on_document_block_count_changed()

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        paint_cell_lines(self, event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        menu = self.createStandardContextMenu()
        menu.addSeparator()
        for key in ("comment", "duplicate", "find", "replace", "go_to_line", "complete"):
            menu.addAction(self.edit_actions[key])
        menu.exec(event.globalPos())
        menu.deleteLater()

    # -- drops: files go to the window (it loads them), text stays here -------------------------
    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return not source.hasUrls() and super().canInsertFromMimeData(source)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.ignore()
            return
        super().dragEnterEvent(event)

    # -- keys -------------------------------------------------------------------------------------
    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            mods = event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
            if event.key() in _RETURN and mods:
                event.ignore()  # let the window's Run cell shortcuts have it
                return True
            if event.key() in _TABS or (event.key() == Qt.Key.Key_Escape and self._popups_open()):
                event.accept()  # Tab is typed here (the Indent action shows it in the menu), Esc closes the list
                return True
        return super().event(event)

    def _popups_open(self) -> bool:
        return self.completion.popup.isVisible() or self.completion.calltip.isVisible()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.completion.key_pressed(event) or self._edit_key(event):
            return
        if event.key() == Qt.Key.Key_Escape and (self.find_bar.isVisible() or self.go_to_line_bar.isVisible()):
            self.find_bar.close_bar() if self.find_bar.isVisible() else self.go_to_line_bar.close_bar()
            return
        super().keyPressEvent(event)
        if event.text():
            self.completion.text_typed(event.text())

    def _edit_key(self, event: QKeyEvent) -> bool:
        """Return, Tab, Shift+Tab, Backspace and typed brackets; True when handled here."""
        key, mods, text = event.key(), event.modifiers(), event.text()
        cursor = self.textCursor()
        if key in _RETURN and mods in _PLAIN:
            insert_new_line(cursor)
        elif key == Qt.Key.Key_Tab and mods in _PLAIN:
            if cursor.hasSelection():
                cursor = indent_lines(cursor)
            elif text_before(cursor).strip() and self.completion.request(explicit=True):
                return True  # Tab after a name completes it, as in IPython and Spyder
            else:
                insert_tab(cursor)
        elif key == Qt.Key.Key_Backtab:
            cursor = dedent_lines(cursor)
        elif key == Qt.Key.Key_Backspace and mods in _PLAIN:
            if not (self._closer.backspace(cursor) or backspace_in_indent(cursor)):
                return False
        elif len(text) == 1 and mods & ~Qt.KeyboardModifier.ShiftModifier in _PLAIN and self._closer.key_typed(cursor, text):
            self.setTextCursor(cursor)
            self.completion.text_typed(text)
            return True
        else:
            return False
        self.setTextCursor(cursor)
        self.ensureCursorVisible()
        self.completion.text_typed(text)  # a new line or a Tab cancels a pending list; Backspace filters an open one
        return True

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        if event.reason() != Qt.FocusReason.PopupFocusReason:
            self.completion.hide()

    # -- edit actions ------------------------------------------------------------------------------
    def _apply(self, cursor: QTextCursor) -> None:
        self.setTextCursor(cursor)
        self.ensureCursorVisible()

    def toggle_comment(self) -> None:
        self._apply(toggle_comment(self.textCursor()))

    def indent_selection(self) -> None:
        self._apply(indent_lines(self.textCursor()))

    def dedent_selection(self) -> None:
        self._apply(dedent_lines(self.textCursor()))

    def duplicate_lines(self) -> None:
        self._apply(duplicate_lines(self.textCursor()))

    def move_lines(self, up: bool) -> None:
        self._apply(move_lines(self.textCursor(), up))

    def complete(self) -> None:
        self.setFocus()
        self.completion.request(explicit=True)

    # -- cells and selections ------------------------------------------------------------------------
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

    # -- error line ---------------------------------------------------------------------------------
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

    # -- step-through marks ---------------------------------------------------------------------------
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

    def _on_editor_cursor_position_changed(self) -> None:
        self._closer.keep_on_line(self.textCursor())
        self.find_bar.on_cursor_moved()
        self.completion.cursor_moved()
        self._refresh_selections()

    def _refresh_selections(self) -> None:
        if self.document().isEmpty():
            # The placeholder text is drawn on the first line: no current-line band over it.
            self.setExtraSelections([])
            return
        doc, cursor = self.document(), self.textCursor()
        marks: list[QTextEdit.ExtraSelection] = [selections.current_line(cursor, self.palette())]
        marks += selections.step_bands(doc, self._step_done)
        marks += selections.error_band(doc, self._error_line)
        marks += selections.find_marks(doc, self.find_bar.matches, self.find_bar.current)
        marks += selections.bracket_marks(cursor)
        self.setExtraSelections(marks)
