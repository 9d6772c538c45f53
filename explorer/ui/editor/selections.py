"""The editor's extra selections: current line, step bands, the failing line, brackets, find matches."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette, QTextCharFormat, QTextCursor, QTextDocument, QTextFormat
from PySide6.QtWidgets import QTextEdit

from explorer.ui.editor.brackets import matching_pair

# Find matches drawn at most (a 5,000-line file can hold far more; the count still says how many).
MAX_FIND_MARKS = 2000
_MATCH = QColor(86, 180, 233, 110)  # Okabe-Ito sky blue
_UNMATCHED = QColor(213, 94, 0, 120)  # Okabe-Ito vermilion
_FOUND = QColor(240, 228, 66, 150)  # Okabe-Ito yellow
_CURRENT_FOUND = QColor(230, 159, 0, 190)  # Okabe-Ito orange


def _line(doc: QTextDocument, number: int, fmt: QTextCharFormat) -> QTextEdit.ExtraSelection:
    selection = QTextEdit.ExtraSelection()
    selection.format = QTextCharFormat(fmt)
    selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
    selection.cursor = QTextCursor(doc.findBlockByNumber(number))
    return selection


def _span(doc: QTextDocument, start: int, end: int, color: QColor) -> QTextEdit.ExtraSelection:
    selection = QTextEdit.ExtraSelection()
    selection.format.setBackground(color)
    cursor = QTextCursor(doc)
    cursor.setPosition(start)
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    selection.cursor = cursor
    return selection


def current_line(cursor: QTextCursor, palette: QPalette) -> QTextEdit.ExtraSelection:
    band = QTextEdit.ExtraSelection()
    band.format.setBackground(palette.alternateBase())
    band.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
    band.cursor = QTextCursor(cursor)
    band.cursor.clearSelection()
    return band


def step_bands(doc: QTextDocument, done: tuple[int, int] | None) -> list[QTextEdit.ExtraSelection]:
    """One band per line of the statement F10 ran last (full width needs one selection per line)."""
    if done is None:
        return []
    fmt = QTextCharFormat()
    fmt.setBackground(QColor(0, 158, 115, 55))  # Okabe-Ito bluish green: "this just ran"
    return [_line(doc, number, fmt) for number in range(done[0] - 1, done[1])]


def error_band(doc: QTextDocument, line: int | None) -> list[QTextEdit.ExtraSelection]:
    if line is None:
        return []
    fmt = QTextCharFormat()
    fmt.setBackground(QColor(230, 80, 60, 60))
    fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
    fmt.setUnderlineColor(QColor("#c0392b"))
    return [_line(doc, line - 1, fmt)]


def bracket_marks(cursor: QTextCursor) -> list[QTextEdit.ExtraSelection]:
    """The bracket or quote beside the cursor and its partner; an unmatched bracket in orange."""
    pair = matching_pair(cursor)
    if pair is None:
        return []
    doc = cursor.document()
    here, there = pair
    if there is None:
        return [_span(doc, here, here + 1, _UNMATCHED)]
    return [_span(doc, here, here + 1, _MATCH), _span(doc, there, there + 1, _MATCH)]


def find_marks(doc: QTextDocument, matches: list[tuple[int, int]], current: int) -> list[QTextEdit.ExtraSelection]:
    """Every find match (up to MAX_FIND_MARKS around the current one), the current one stronger."""
    if not matches:
        return []
    low = max(0, min(current, len(matches) - 1) - MAX_FIND_MARKS // 2)
    shown = range(low, min(len(matches), low + MAX_FIND_MARKS))
    return [_span(doc, *matches[i], _CURRENT_FOUND if i == current else _FOUND) for i in shown]
