"""Duplicate the selected lines (Ctrl+Shift+D) and move them up or down (Alt+Up / Alt+Down)."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor

from explorer.ui.editor.line_range import selected_lines


def _replace_lines(cursor: QTextCursor, first: int, last: int, lines: list[str]) -> None:
    """Replace lines *first*..*last* of the cursor's document by *lines* (inside the caller's edit block)."""
    doc = cursor.document()
    start = doc.findBlockByNumber(first)
    end = doc.findBlockByNumber(last)
    edit = QTextCursor(doc)
    edit.setPosition(start.position())
    edit.setPosition(end.position() + end.length() - 1, QTextCursor.MoveMode.KeepAnchor)
    edit.insertText("\n".join(lines))


def _reselect(cursor: QTextCursor, shift: int, anchor: tuple[int, int], position: tuple[int, int]) -> QTextCursor:
    """The cursor's selection moved *shift* lines, each end kept at its column."""
    doc = cursor.document()
    result = QTextCursor(doc)
    for (line, column), mode in ((anchor, QTextCursor.MoveMode.MoveAnchor), (position, QTextCursor.MoveMode.KeepAnchor)):
        block = doc.findBlockByNumber(line + shift)
        if not block.isValid():  # the selection ended at the start of a line that is now above it
            result.setPosition(doc.characterCount() - 1, mode)
            continue
        result.setPosition(block.position() + min(column, block.length() - 1), mode)
    return result


def _ends(cursor: QTextCursor) -> tuple[tuple[int, int], tuple[int, int]]:
    """(line, column) of the cursor's anchor and position."""
    doc = cursor.document()
    out = []
    for pos in (cursor.anchor(), cursor.position()):
        block = doc.findBlock(pos)
        out.append((block.blockNumber(), pos - block.position()))
    return out[0], out[1]


def duplicate_lines(cursor: QTextCursor) -> QTextCursor:
    """Copy the selected lines (or the cursor's) below themselves; the cursor moves onto the copy."""
    doc = cursor.document()
    first, last = selected_lines(cursor)
    lines = [doc.findBlockByNumber(n).text() for n in range(first, last + 1)]
    anchor, position = _ends(cursor)
    cursor.beginEditBlock()
    _replace_lines(cursor, first, last, lines + lines)
    cursor.endEditBlock()
    return _reselect(cursor, last - first + 1, anchor, position)


def move_lines(cursor: QTextCursor, up: bool) -> QTextCursor:
    """Move the selected lines (or the cursor's) one line up or down; nothing at the document's edge."""
    doc = cursor.document()
    first, last = selected_lines(cursor)
    if (up and first == 0) or (not up and last >= doc.blockCount() - 1):
        return cursor
    anchor, position = _ends(cursor)
    lines = [doc.findBlockByNumber(n).text() for n in range(first, last + 1)]
    cursor.beginEditBlock()
    if up:
        above = doc.findBlockByNumber(first - 1).text()
        _replace_lines(cursor, first - 1, last, lines + [above])
    else:
        below = doc.findBlockByNumber(last + 1).text()
        _replace_lines(cursor, first, last + 1, [below, *lines])
    cursor.endEditBlock()
    return _reselect(cursor, -1 if up else 1, anchor, position)
