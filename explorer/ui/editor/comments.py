"""Ctrl+/: comment the selected lines out with ``# ``, or back in, as one undo step."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor

from explorer.ui.editor.line_range import leading, selected_lines

MARK = "# "


def _is_comment(text: str) -> bool:
    return text.lstrip().startswith("#")


def toggle_comment(cursor: QTextCursor) -> QTextCursor:
    """Comment the selected lines (or the cursor's) at their common indentation, or uncomment them all.

    Lines are uncommented when every line with text is a comment; blank lines are left
    alone. Returns the cursor to set: the same lines selected, or the cursor kept on its line.
    """
    doc = cursor.document()
    first, last = selected_lines(cursor)
    texts = [doc.findBlockByNumber(n).text() for n in range(first, last + 1)]
    filled = [t for t in texts if t.strip()]
    if not filled:
        return cursor
    uncomment = all(_is_comment(t) for t in filled)
    column = min(len(leading(t)) for t in filled)
    new = [(_uncommented(t) if uncomment else t[:column] + MARK + t[column:]) if t.strip() else t for t in texts]
    line_column = cursor.positionInBlock()
    here = cursor.blockNumber() - first  # without a selection, the cursor's line is the one toggled
    delta = 0 if cursor.hasSelection() else len(new[here]) - len(texts[here])
    edit = QTextCursor(doc)
    edit.beginEditBlock()  # one Ctrl+Z undoes the whole toggle
    for number, (old, text) in enumerate(zip(texts, new, strict=True), start=first):
        if old != text:
            block = doc.findBlockByNumber(number)
            edit.setPosition(block.position())
            edit.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
            edit.insertText(text)
    edit.endEditBlock()
    return _result(cursor, first, last, max(0, line_column + delta))


def _uncommented(text: str) -> str:
    indent = leading(text)
    rest = text[len(indent) + 1:]
    return indent + (rest[1:] if rest.startswith(" ") else rest)


def _result(cursor: QTextCursor, first: int, last: int, column: int) -> QTextCursor:
    doc = cursor.document()
    if cursor.hasSelection():
        result = QTextCursor(doc.findBlockByNumber(first))
        end = doc.findBlockByNumber(last)
        result.setPosition(end.position() + end.length() - 1, QTextCursor.MoveMode.KeepAnchor)
        return result
    block = doc.findBlockByNumber(cursor.blockNumber())
    result = QTextCursor(block)
    result.setPosition(block.position() + min(column, block.length() - 1))
    return result
