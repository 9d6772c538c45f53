"""The find and replace bar at the bottom of the code pane (Ctrl+F, Ctrl+H).

Every match is highlighted and counted ("3 of 12"); Enter and F3 go to the next one,
Shift+Enter and Shift+F3 to the previous one, Esc closes the bar and gives the keyboard
back to the editor. An invalid regular expression is said so in the bar. In the replace
field Enter replaces one match and Ctrl+Alt+Enter all of them, in one undo step.
"""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QTextCursor
from PySide6.QtWidgets import QFrame, QGridLayout, QHBoxLayout, QLabel, QToolButton, QWidget

from explorer.ui.editor.bar_field import BarField, keep_focus_in
from explorer.ui.editor.search import Query, SearchError, compile_query, find_all, replacement

if TYPE_CHECKING:
    from PySide6.QtWidgets import QPlainTextEdit

# After an edit, the matches are counted again once typing pauses this long.
RECOUNT_MS = 150


class FindBarWidget(QFrame):
    """Find (and replace) in one editor; the editor draws :attr:`matches` and listens to :attr:`marks_changed`."""

    marks_changed = Signal()
    closed = Signal()

    def __init__(self, editor: QPlainTextEdit) -> None:
        super().__init__(editor)
        self.setObjectName("find_bar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self._editor = editor
        self.matches: list[tuple[int, int]] = []
        self.current = -1
        self._pattern: re.Pattern[str] | None = None
        self.error: str | None = None
        self._recount = QTimer(self, singleShot=True, interval=RECOUNT_MS)
        self._recount.timeout.connect(self._on_recount_timeout)
        self._build()
        editor.document().contentsChanged.connect(self._on_document_contents_changed)
        self.hide()
        self.retranslate()

    def _build(self) -> None:
        self.find_edit, self.replace_edit = BarField(self), BarField(self)
        self.find_edit.setObjectName("find_text")
        self.replace_edit.setObjectName("replace_text")
        self.previous_button, self.next_button, self.close_button = (self._button(t) for t in ("↑", "↓", "✕"))
        self.case_button, self.word_button, self.regex_button = (self._button(t, True) for t in ("Aa", "W", ".*"))
        self.replace_button, self.replace_all_button = self._button(""), self._button("")
        self.count_label = QLabel(self)
        self.count_label.setObjectName("find_count")
        grid = QGridLayout(self)
        grid.setContentsMargins(4, 2, 4, 2)
        grid.setSpacing(4)
        grid.addWidget(self.find_edit, 0, 0)
        grid.addLayout(_row(self.previous_button, self.next_button, self.case_button, self.word_button,
                            self.regex_button, self.count_label), 0, 1)
        grid.addWidget(self.close_button, 0, 2, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.replace_edit, 1, 0)
        grid.addLayout(_row(self.replace_button, self.replace_all_button), 1, 1)
        grid.setColumnStretch(0, 1)
        keep_focus_in(self, (self.find_edit, self.replace_edit))
        for key, toggle in (("Alt+C", self.case_button), ("Alt+W", self.word_button)):
            action = QAction(self)
            action.setShortcut(QKeySequence(key))
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)  # only while in the bar
            action.triggered.connect(toggle.toggle)
            self.addAction(action)
        self.find_edit.textChanged.connect(self._on_find_edit_text_changed)
        self.find_edit.entered.connect(lambda shift: self.find_next(backward=shift))
        self.replace_edit.entered.connect(lambda _shift: self.replace_one())
        self.replace_edit.all_entered.connect(self.replace_all)
        for field in (self.find_edit, self.replace_edit):
            field.escaped.connect(self.close_bar)
            field.tabbed.connect(self._on_field_tabbed)
        for toggle in (self.case_button, self.word_button, self.regex_button):
            toggle.toggled.connect(lambda _on: self.search(select=True))
        self.previous_button.clicked.connect(lambda: self.find_next(backward=True))
        self.next_button.clicked.connect(lambda: self.find_next())
        self.close_button.clicked.connect(self.close_bar)
        self.replace_button.clicked.connect(self.replace_one)
        self.replace_all_button.clicked.connect(self.replace_all)

    def _button(self, text: str, checkable: bool = False) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setCheckable(checkable)
        button.setAutoRaise(not checkable)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab in the find field goes to the replace field
        return button

    def retranslate(self) -> None:
        self.find_edit.setPlaceholderText(self.tr("Find"))
        self.replace_edit.setPlaceholderText(self.tr("Replace with"))
        self.previous_button.setToolTip(self.tr("Previous match (Shift+Enter, Shift+F3)"))
        self.next_button.setToolTip(self.tr("Next match (Enter, F3)"))
        self.close_button.setToolTip(self.tr("Close (Esc)"))
        self.case_button.setToolTip(self.tr("Match case (Alt+C)"))
        self.word_button.setToolTip(self.tr("Whole words only (Alt+W)"))
        self.regex_button.setToolTip(self.tr("Regular expression (Python re syntax; \\1 in the replacement is the first group)"))
        self.replace_button.setText(self.tr("Replace"))
        self.replace_button.setToolTip(self.tr("Replace this match and go to the next (Enter in the replace field)"))
        self.replace_all_button.setText(self.tr("Replace All"))
        self.replace_all_button.setToolTip(self.tr("Replace every match (Ctrl+Alt+Enter in the replace field; one Ctrl+Z undoes it)"))
        self._show_count()

    # -- opening and closing ---------------------------------------------------------------------
    def open_bar(self, replace: bool = False) -> None:
        """Show the bar (with the replace row when *replace*), the selected word as its text."""
        selected = self._editor.textCursor().selectedText()
        if selected and "\u2029" not in selected:
            self.find_edit.setText(selected)  # a one-line selection is what the user wants to find
        self.replace_edit.setVisible(replace)
        self.replace_button.setVisible(replace)
        self.replace_all_button.setVisible(replace)
        self.show()
        field = self.replace_edit if replace and self.find_edit.text() and selected else self.find_edit
        field.setFocus()
        field.selectAll()
        self.search(select=False)

    @property
    def replacing(self) -> bool:
        return self.isVisible() and self.replace_edit.isVisible()

    def close_bar(self) -> None:
        self.hide()
        self.matches, self.current = [], -1
        self.marks_changed.emit()
        self._editor.setFocus()
        self.closed.emit()

    # -- searching -----------------------------------------------------------------------------
    def query(self) -> Query:
        return Query(self.find_edit.text(), self.case_button.isChecked(), self.word_button.isChecked(),
                     self.regex_button.isChecked())

    def search(self, select: bool = True) -> None:
        """Find every match again; with *select*, select the first one from where the cursor's selection starts."""
        try:
            self._pattern, self.error = compile_query(self.query()), None
        except SearchError as exc:
            self._pattern, self.error = None, str(exc)
        text = self._editor.toPlainText()
        self.matches = find_all(self._pattern, text) if self._pattern is not None else []
        self.current = self._selected_match()
        if select and self.matches and self.current < 0:
            start = self._editor.textCursor().selectionStart()
            self._select(bisect.bisect_left(self.matches, (start, start)) % len(self.matches))
        self._show_count()
        self.marks_changed.emit()

    def _selected_match(self) -> int:
        cursor = self._editor.textCursor()
        span = (cursor.selectionStart(), cursor.selectionEnd())
        index = bisect.bisect_left(self.matches, span)
        return index if index < len(self.matches) and self.matches[index] == span else -1

    def find_next(self, backward: bool = False) -> None:
        """Select the next (or previous) match after (before) the cursor, wrapping around the file."""
        if not self.isVisible():
            self.open_bar()
        if not self.matches:
            self.search(select=False)
        if not self.matches:
            return
        cursor = self._editor.textCursor()
        if backward:
            index = bisect.bisect_left(self.matches, (cursor.selectionStart(), -1)) - 1
        else:
            index = bisect.bisect_left(self.matches, (cursor.selectionEnd(), -1))
        self._select(index % len(self.matches))
        self._show_count()
        self.marks_changed.emit()

    def _select(self, index: int) -> None:
        start, end = self.matches[index]
        cursor = self._editor.textCursor()
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        self._editor.setTextCursor(cursor)
        self._editor.centerCursor()
        self.current = index

    def on_cursor_moved(self) -> None:
        """The editor's cursor moved: the count says which match is selected, if one is."""
        if self.isVisible() and self.matches:
            current = self._selected_match()
            if current != self.current:
                self.current = current
                self._show_count()
                self.marks_changed.emit()

    # -- replacing -------------------------------------------------------------------------------------
    def replace_one(self) -> None:
        """Replace the selected match (selecting the first one if none is) and go to the next."""
        if self.current < 0 or self._pattern is None:
            self.find_next()
            return
        text = self._editor.toPlainText()
        new = self._replacement(text, self.matches[self.current])
        if new is None:
            return
        self._editor.textCursor().insertText(new)
        self.search(select=False)
        self.find_next()

    def replace_all(self) -> None:
        """Replace every match, last first (earlier positions stay valid), in one undo step."""
        self.search(select=False)
        if self._pattern is None or not self.matches:
            return
        text = self._editor.toPlainText()
        edits = [(span, self._replacement(text, span)) for span in self.matches]
        if any(new is None for _span, new in edits):
            return
        cursor = QTextCursor(self._editor.document())
        cursor.beginEditBlock()
        for (start, end), new in reversed(edits):
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            cursor.insertText(new or "")
        cursor.endEditBlock()
        count = len(edits)
        self.search(select=False)
        self._recount.stop()  # counted just now: "5 replaced" stays until the query changes
        self.count_label.setText(self.tr("%n replaced", "", count))

    def _replacement(self, text: str, span: tuple[int, int]) -> str | None:
        assert self._pattern is not None
        try:
            return replacement(self._pattern, text, span, self.replace_edit.text(), self.query().regex)
        except SearchError as exc:
            self.error = str(exc)
            self._show_count()
            return None

    # -- the count ---------------------------------------------------------------------------------------
    def _show_count(self) -> None:
        label = self.count_label
        label.setStyleSheet("color: #c0392b" if self.error else "")
        if self.error:
            label.setText(self.tr("Invalid pattern: {error}").format(error=self.error))
        elif not self.find_edit.text():
            label.setText("")
        elif not self.matches:
            label.setText(self.tr("No results"))
        elif self.current >= 0:
            label.setText(self.tr("{current} of {total}").format(current=self.current + 1, total=len(self.matches)))
        else:
            count = len(self.matches)
            label.setText(self.tr("%n match(es)", "", count))

    def count_text(self) -> str:
        return self.count_label.text()

    def recount_pending(self) -> bool:
        """Whether an edit's recount is waiting for typing to pause."""
        return self._recount.isActive()

    def _on_find_edit_text_changed(self, _text: str) -> None:
        cursor = self._editor.textCursor()
        cursor.setPosition(cursor.selectionStart())  # type on: look again from where the match began
        self._editor.setTextCursor(cursor)
        self.search(select=True)

    def _on_field_tabbed(self, _backward: bool) -> None:
        """Tab and Shift+Tab go from one field to the other (two fields: both ways are the same)."""
        if self.replacing:
            other = self.replace_edit if self.find_edit.hasFocus() else self.find_edit
            other.setFocus()
            other.selectAll()

    def _on_document_contents_changed(self) -> None:
        if self.isVisible():
            self._recount.start()

    def _on_recount_timeout(self) -> None:
        if self.isVisible():
            self.search(select=False)


def _row(*widgets: QWidget) -> QHBoxLayout:
    row = QHBoxLayout()
    row.setSpacing(2)
    for widget in widgets:
        row.addWidget(widget)
    row.addStretch(1)
    return row
