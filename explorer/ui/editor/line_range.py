"""The whole lines a cursor's selection touches, and selecting them again after an edit."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor, QTextDocument

INDENT = "    "
INDENT_WIDTH = len(INDENT)


def leading(text: str) -> str:
    """The whitespace *text* starts with."""
    return text[: len(text) - len(text.lstrip(" \t"))]


def selected_lines(cursor: QTextCursor) -> tuple[int, int]:
    """First and last block number (0-based) of the lines the selection touches.

    A selection that ends at the start of a line does not take that line: selecting two
    whole lines with Shift+Down leaves the cursor at the start of the third.
    """
    doc = cursor.document()
    start, end = cursor.selectionStart(), cursor.selectionEnd()
    first = doc.findBlock(start).blockNumber()
    last_block = doc.findBlock(end)
    last = last_block.blockNumber()
    if cursor.hasSelection() and last > first and end == last_block.position():
        last -= 1
    return first, last


def select_lines(doc: QTextDocument, first: int, last: int, keep: QTextCursor | None = None) -> QTextCursor:
    """A cursor selecting lines *first*..*last* whole (without the last line break).

    With *keep* that has no selection, the cursor stays where *keep* is instead.
    """
    if keep is not None and not keep.hasSelection():
        return keep
    cursor = QTextCursor(doc.findBlockByNumber(first))
    end = doc.findBlockByNumber(last)
    cursor.setPosition(end.position() + end.length() - 1, QTextCursor.MoveMode.KeepAnchor)
    return cursor


def str_index(text: str, units: int) -> int:
    """The ``str`` index of UTF-16 position *units* in *text* (Qt counts UTF-16 code units)."""
    if text.isascii() or max(text) <= "\uffff":
        return units
    count = 0
    for index, char in enumerate(text):
        if count >= units:
            return index
        count += 2 if ord(char) > 0xFFFF else 1
    return len(text)


def utf16_len(text: str) -> int:
    """How many UTF-16 code units *text* takes in a Qt document."""
    return len(text) if text.isascii() else len(text.encode("utf-16-le")) // 2


def text_before(cursor: QTextCursor) -> str:
    """The text of the cursor's line before it."""
    text = cursor.block().text()
    return text[: str_index(text, cursor.positionInBlock())]


def text_after(cursor: QTextCursor) -> str:
    """The text of the cursor's line after it."""
    text = cursor.block().text()
    return text[str_index(text, cursor.positionInBlock()):]
