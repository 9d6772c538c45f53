"""Brackets and quotes: the pair beside the cursor is highlighted; typed openers close themselves.

Auto-closing never gets in the way of typing: a closer typed right before the one it
inserted steps over it, Backspace right after the opener removes both, nothing is
closed before a word character, inside a string or a comment, and a quote is not
doubled after a word character (``don't``) unless that word is a string prefix
(``f"``). Only typed keys do this; pasted text is never changed.
"""

from __future__ import annotations

from PySide6.QtGui import QTextBlock, QTextCursor, QTextDocument

from explorer.ui.editor.indentation import statement_context
from explorer.ui.editor.line_range import str_index, text_after, text_before, utf16_len
from explorer.ui.editor.source_scan import (
    CLOSERS,
    OPENERS,
    ScanState,
    feed,
    scan,
    scan_cached,
    string_prefix_before,
)

# Lines below the cursor searched for a closing bracket.
LOOKAHEAD = 200
QUOTES = "'\""
# A pair is closed only before one of these (or the end of the line).
_CLOSE_BEFORE = set(" \t)]},:;=")


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


def matching_pair(cursor: QTextCursor) -> tuple[int, int | None] | None:
    """Document positions of the bracket or quote beside the cursor and of its partner (None: unmatched).

    The character after the cursor is tried first, then the one before it. The text is
    read from the statement's start (for what is open there) and, for an opener, only
    as far down as its partner (at most LOOKAHEAD lines).
    """
    doc = cursor.document()
    block = cursor.block()
    text, column = block.text(), str_index(block.text(), cursor.positionInBlock())
    candidates = [c for c in (column, column - 1) if 0 <= c < len(text) and text[c] in "()[]{}'\""]
    if not candidates:
        return None
    start = _statement_start(cursor)
    here = block.blockNumber() - start
    wanted = {(here, c) for c in candidates}
    partners = _partners(doc.findBlockByNumber(start), here, wanted)
    for c in candidates:
        if (here, c) in partners:
            return _position(doc, start, (here, c)), _position(doc, start, partners[(here, c)])
    lines = [doc.findBlockByNumber(start + n).text() for n in range(here + 1)]
    for c in candidates:  # a bracket of code with no partner: shown as unmatched
        if text[c] in "()[]{}" and not _in_string_or_comment(lines, here, c):
            return _position(doc, start, (here, c)), None
    return None


def _statement_start(cursor: QTextCursor) -> int:
    """Block number where the statement around the cursor starts (see :func:`statement_context`)."""
    return cursor.blockNumber() - statement_context(cursor).count("\n")


def _partners(block: QTextBlock, here: int, wanted: set[tuple[int, int]]) -> dict[tuple[int, int], tuple[int, int]]:
    """The partners found of the *wanted* positions, reading from *block* (line 0) down."""
    state = ScanState(pairs=[])
    found: dict[tuple[int, int], tuple[int, int]] = {}
    number = 0
    while block.isValid() and number <= here + LOOKAHEAD:
        seen = len(state.pairs or [])
        feed(state, block.text(), number)
        for a, b in (state.pairs or [])[seen:]:
            if a in wanted:
                found[a] = b
            if b in wanted:
                found[b] = a
        if number >= here and (found or not _still_open(state, wanted)):
            break  # the partner is found, or nothing beside the cursor is left open below
        block, number = block.next(), number + 1
    return found


def _still_open(state: ScanState, wanted: set[tuple[int, int]]) -> bool:
    """Whether one of the *wanted* positions is an opener or a string's quote still open."""
    opened = {(b.line, b.column) for b in state.brackets}
    if state.string is not None:
        opened.add(state.string_start)
    return bool(opened & wanted)


def _in_string_or_comment(lines: list[str], line: int, column: int) -> bool:
    state = scan("\n".join(lines[:line] + [lines[line][:column]]))
    return state.string is not None or state.comment


def _position(doc: QTextDocument, start: int, where: tuple[int, int]) -> int:
    block = doc.findBlockByNumber(start + where[0])
    return block.position() + utf16_len(block.text()[: where[1]])


class AutoCloser:
    """Remembers the closers it typed, so that typing them again steps over instead of doubling."""

    def __init__(self) -> None:
        self._typed: list[QTextCursor] = []  # each sits right before a closer we inserted

    def _ours(self, cursor: QTextCursor, char: str) -> QTextCursor | None:
        """Our closer *char* right after the cursor, if it is one we inserted."""
        for mark in self._typed:
            if mark.position() == cursor.position() and mark.document() is cursor.document():
                after = text_after(cursor)
                if after[:1] == char:
                    return mark
        return None

    def _step_down(self, cursor: QTextCursor, char: str) -> bool:
        """On the blank line Return made inside ``[|]``: typing ``]`` goes to the one below, the blank line goes."""
        below = cursor.block().next()
        if text_before(cursor).strip() or text_after(cursor).strip() or not below.isValid():
            return False
        text = below.text()
        indent = len(text) - len(text.lstrip())
        mark = next((m for m in self._typed if m.position() == below.position() + indent), None)
        if mark is None or text[indent:indent + 1] != char:
            return False
        self._typed.remove(mark)
        cursor.beginEditBlock()
        cursor.movePosition(QTextCursor.MoveOperation.StartOfBlock)
        cursor.movePosition(QTextCursor.MoveOperation.Left)
        cursor.movePosition(QTextCursor.MoveOperation.NextBlock, QTextCursor.MoveMode.KeepAnchor, 2)
        cursor.movePosition(QTextCursor.MoveOperation.Right, QTextCursor.MoveMode.KeepAnchor, indent)
        cursor.insertText("\n" + text[:indent])  # the blank line goes, the closer's line keeps its indentation
        cursor.endEditBlock()
        cursor.movePosition(QTextCursor.MoveOperation.Right)
        return True

    def key_typed(self, cursor: QTextCursor, char: str) -> bool:
        """Handle a typed character; False leaves it to the editor (it is inserted as usual)."""
        if char in CLOSERS or char in QUOTES:
            mark = self._ours(cursor, char)
            if mark is not None:
                self._typed.remove(mark)
                cursor.movePosition(QTextCursor.MoveOperation.Right)
                return True
        if char in CLOSERS and self._step_down(cursor, char):
            return True
        if char in OPENERS:
            return self._open(cursor, char, OPENERS[char])
        if char in QUOTES:
            return self._quote(cursor, char)
        return False

    def _can_close(self, cursor: QTextCursor) -> bool:
        after = text_after(cursor)
        if after and after[0] not in _CLOSE_BEFORE:
            return False
        state = scan_cached(statement_context(cursor))
        return state.string is None and not state.comment

    def _open(self, cursor: QTextCursor, opener: str, closer: str) -> bool:
        if not self._can_close(cursor):
            return False
        self._insert_pair(cursor, opener, closer)
        return True

    def _quote(self, cursor: QTextCursor, quote: str) -> bool:
        before = text_before(cursor)
        if before.endswith(quote * 2) and not scan(before[:-2]).string:
            cursor.insertText(quote + quote * 3)  # the third quote of a docstring: close it with three
            cursor.movePosition(QTextCursor.MoveOperation.Left, QTextCursor.MoveMode.MoveAnchor, 3)
            for offset in range(3):  # each closing quote can be typed over, one by one
                mark = QTextCursor(cursor)
                mark.setPosition(cursor.position() + offset)
                self._typed.append(mark)
            return True
        word_before = bool(before) and _is_word(before[-1])
        if (word_before and not string_prefix_before(before, len(before))) or not self._can_close(cursor):
            return False
        self._insert_pair(cursor, quote, quote)
        return True

    def _insert_pair(self, cursor: QTextCursor, opener: str, closer: str) -> None:
        cursor.beginEditBlock()
        cursor.insertText(opener + closer)
        cursor.endEditBlock()
        cursor.movePosition(QTextCursor.MoveOperation.Left)
        self._typed.append(QTextCursor(cursor))

    def backspace(self, cursor: QTextCursor) -> bool:
        """Backspace right after an opener whose closer we typed: both go."""
        before = text_before(cursor)
        if cursor.hasSelection() or not before:
            return False
        opener = before[-1]
        closer = OPENERS.get(opener, opener if opener in QUOTES else "")
        mark = self._ours(cursor, closer) if closer else None
        if mark is None:
            return False
        self._typed.remove(mark)
        cursor.movePosition(QTextCursor.MoveOperation.Left)
        cursor.movePosition(QTextCursor.MoveOperation.Right, QTextCursor.MoveMode.KeepAnchor, 2)
        cursor.removeSelectedText()
        return True

    def keep_on_line(self, cursor: QTextCursor) -> None:
        """Forget the closers of other lines than this one and the next (where Return put one)."""
        here = cursor.blockNumber()
        self._typed = [m for m in self._typed if here <= m.blockNumber() <= here + 1 and not m.isNull()]
