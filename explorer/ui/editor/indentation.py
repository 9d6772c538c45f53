"""Indentation as Python wants it, on Return, Tab, Shift+Tab and Backspace.

Return keeps the line's indentation, adds a level after a line ending in ``:``, aligns
with an open bracket (or hangs one level in when the bracket ends its line, as IPython
and Spyder do) and drops a level after ``return``, ``pass``, ``break``, ``continue`` and
``raise``. Which brackets and strings are open comes from :mod:`source_scan`, read from
the start of the statement, never from the whole file.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from PySide6.QtGui import QTextBlock, QTextCursor, QTextDocument

from explorer.ui.editor.line_range import (
    INDENT,
    INDENT_WIDTH,
    leading,
    selected_lines,
    text_after,
    text_before,
)
from explorer.ui.editor.python_highlighter import starts_in_string
from explorer.ui.editor.source_scan import OPENERS, scan_cached

# How many lines up the start of a statement is looked for (a statement is rarely longer).
LOOKBACK = 300
_ENDS_BLOCK = re.compile(r"\s*(return|pass|break|continue|raise)\b")


def new_line_indent(context: str) -> str:
    """The indentation of a line started at the end of *context* (from a statement's start to the cursor)."""
    lines = context.split("\n")
    state = scan_cached(context)
    if state.string is not None and len(state.string) == 3:
        return leading(lines[-1])  # in a docstring: keep the line's indentation
    if state.brackets:
        bracket = state.brackets[-1]
        opener = lines[bracket.line]
        rest = opener[bracket.column + 1:]
        if not rest.strip() or rest.lstrip().startswith("#"):  # the bracket ends its line: hang one level in
            return leading(opener) + INDENT
        return " " * (len(opener[: bracket.column + 1].expandtabs(INDENT_WIDTH)))
    first = lines[state.statement_line]
    base = leading(first)
    if state.continued:  # a backslash: the statement goes on one level in
        return base + INDENT if state.statement_line == len(lines) - 1 else leading(lines[-1])
    if state.statement_line == len(lines) - 1 and not lines[-1].strip():
        return base  # a blank line: keep what the user left
    if state.last_code is not None and state.last_code[0] >= state.statement_line and state.last_code[2] == ":":
        return base + INDENT
    if _ENDS_BLOCK.match(first):
        return base[:-INDENT_WIDTH] if base.endswith(INDENT) else base[:-1]
    return base


def _starts_statement(block: QTextBlock) -> bool:
    """Whether *block* surely begins a statement: code at column 0, outside any string."""
    text = block.text()
    return bool(text) and not text[0].isspace() and text[0] not in ")]}" and not starts_in_string(block)


# The last answer: one key press asks several times (the document itself is kept, so its id is never reused).
_last_context: list[tuple[QTextDocument, tuple[int, int, int], str]] = []


def statement_context(cursor: QTextCursor) -> str:
    """The text from the start of the statement holding the cursor up to the cursor."""
    doc = cursor.document()
    key = (doc.revision(), cursor.position(), doc.blockCount())
    if _last_context and _last_context[0][0] is doc and _last_context[0][1] == key:
        return _last_context[0][2]
    text = _read_context(cursor)
    _last_context[:] = [(doc, key, text)]
    return text


def _read_context(cursor: QTextCursor) -> str:
    block = cursor.block()
    lines = [text_before(cursor)]
    for _ in range(LOOKBACK):
        if _starts_statement(block) or not block.previous().isValid():
            break
        block = block.previous()
        lines.append(block.text())
    return "\n".join(reversed(lines))


def insert_new_line(cursor: QTextCursor) -> None:
    """Return: a new line indented as the code above asks (one undo step)."""
    context = statement_context(cursor)
    indent = new_line_indent(context)
    state = scan_cached(context)
    after = text_after(cursor)
    cursor.beginEditBlock()
    _remove_around(cursor, len(text_before(cursor)) - len(text_before(cursor).rstrip()),
                   len(after) - len(after.lstrip()))
    bracket = state.brackets[-1] if state.brackets else None
    hanging = bracket is not None and state.last_code == (bracket.line, bracket.column, bracket.char)
    if bracket is not None and hanging and after.lstrip().startswith(OPENERS[bracket.char]):
        # f(|) -> the closing bracket on a line of its own under the statement, the cursor between
        cursor.insertText("\n" + indent + "\n" + indent[:-INDENT_WIDTH])
        cursor.movePosition(QTextCursor.MoveOperation.PreviousBlock)
        cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock)
    else:
        cursor.insertText("\n" + indent)
    cursor.endEditBlock()


def _remove_around(cursor: QTextCursor, before: int, after: int) -> None:
    """Delete *before* characters before the cursor and *after* after it (trailing and leading blanks)."""
    for count, operation in ((before, QTextCursor.MoveOperation.Left), (after, QTextCursor.MoveOperation.Right)):
        if count:
            cursor.movePosition(operation, QTextCursor.MoveMode.KeepAnchor, count)
            cursor.removeSelectedText()


def insert_tab(cursor: QTextCursor) -> None:
    """Tab without a selection: spaces up to the next multiple of four."""
    column = len(text_before(cursor).expandtabs(INDENT_WIDTH))
    cursor.insertText(" " * (INDENT_WIDTH - column % INDENT_WIDTH))


def indent_lines(cursor: QTextCursor) -> QTextCursor:
    """Tab with a selection: one level more on every selected line that has text; returns the new selection."""
    return _shift_lines(cursor, _indented)


def dedent_lines(cursor: QTextCursor) -> QTextCursor:
    """Shift+Tab: one level less on the selected lines (or the cursor's); returns the new selection."""
    return _shift_lines(cursor, _dedented)


def _indented(text: str) -> str:
    return INDENT + text if text.strip() else text


def _dedented(text: str) -> str:
    if text.startswith("\t"):
        return text[1:]
    spaces = len(text) - len(text.lstrip(" "))
    return text[spaces % INDENT_WIDTH or min(spaces, INDENT_WIDTH):]  # back to the previous multiple of four


def _shift_lines(cursor: QTextCursor, change: Callable[[str], str]) -> QTextCursor:
    first, last = selected_lines(cursor)
    doc = cursor.document()
    keep = cursor.hasSelection() and last > first
    column = cursor.positionInBlock()
    edit = QTextCursor(doc)
    edit.beginEditBlock()  # one undo step for all the lines
    for number in range(first, last + 1):
        block = doc.findBlockByNumber(number)
        text = block.text()
        new = change(text)
        if new != text:
            edit.setPosition(block.position())
            edit.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
            edit.insertText(new)
            if number == cursor.blockNumber() and not keep:
                column = max(0, column + len(new) - len(text))
    edit.endEditBlock()
    return _after_shift(doc, first, last, keep, column)


def _after_shift(doc: QTextDocument, first: int, last: int, keep: bool, column: int) -> QTextCursor:
    """The selection of the shifted lines (several lines) or the cursor where it was on its line."""
    start = doc.findBlockByNumber(first)
    result = QTextCursor(start)
    if keep:
        end = doc.findBlockByNumber(last)
        result.setPosition(end.position() + end.length() - 1, QTextCursor.MoveMode.KeepAnchor)
        return result
    result.setPosition(start.position() + min(column, start.length() - 1))
    return result


def backspace_in_indent(cursor: QTextCursor) -> bool:
    """Backspace in the leading spaces of a line removes one level; False when it is not there."""
    before = text_before(cursor)
    if cursor.hasSelection() or not before or before.strip(" "):
        return False
    count = len(before) % INDENT_WIDTH or INDENT_WIDTH
    cursor.movePosition(QTextCursor.MoveOperation.Left, QTextCursor.MoveMode.KeepAnchor, count)
    cursor.removeSelectedText()
    return True
