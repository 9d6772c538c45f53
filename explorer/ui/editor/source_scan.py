"""A tolerant scanner of Python source: which brackets and strings are open, where comments start.

Code being typed is almost never complete, and :mod:`tokenize` stops (or, since 3.12,
raises) at the first unterminated bracket or string, which is exactly the state the
editor needs to know about. This scanner reads strings (prefixes, triple quotes,
escapes), comments, brackets and backslash continuations and never raises; it knows
nothing else about Python. Lines and columns are 0-based, columns are ``str`` indices.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

OPENERS = {"(": ")", "[": "]", "{": "}"}
CLOSERS = {v: k for k, v in OPENERS.items()}
_PREFIX_CHARS = set("rRbBuUfFtT")


Position = tuple[int, int]  # line, column


@dataclass(frozen=True)
class Bracket:
    """An opening bracket: its character and where it is."""

    char: str
    line: int
    column: int


@dataclass
class ScanState:
    """What is open after the scanned text, and where its last statement started."""

    brackets: list[Bracket] = field(default_factory=list)
    string: str | None = None  # the quote of the string still open: ' " ''' or \"\"\"
    comment: bool = False  # the text ends inside a comment
    statement_line: int = 0  # the line where the statement holding the end began
    last_code: tuple[int, int, str] | None = None  # (line, column, char) of the last character of code
    continued: bool = False  # the last line ends with a backslash
    string_start: tuple[int, int] = (0, 0)  # where the open string's quote is
    pairs: list[tuple[Position, Position]] | None = None  # closed brackets and strings, when asked for


def scan(text: str, pairs: bool = False) -> ScanState:
    """Scan *text* (lines separated by ``\\n``) to its end; with *pairs*, note where each bracket and string closes."""
    state = ScanState(pairs=[] if pairs else None)
    for number, line in enumerate(text.split("\n")):
        feed(state, line, number)
    return state


@functools.lru_cache(maxsize=8)
def scan_cached(text: str) -> ScanState:
    """:func:`scan` of *text*, remembered: one key press asks about the same statement several times.

    The state returned is shared: read it, never change it.
    """
    return scan(text)


def feed(state: ScanState, line: str, number: int) -> None:
    """Scan one more line, number *number* (0-based) of the text *state* has read so far."""
    if number:
        _new_line(state, number)
    _scan_line(state, line, number)


def _new_line(state: ScanState, number: int) -> None:
    """A line break: comments and one-quote strings end; a new statement may begin."""
    state.comment = False
    if state.string is not None and len(state.string) == 1:
        state.string = None  # an unterminated one-line string (a syntax error) ends with its line
    if not state.brackets and state.string is None and not state.continued:
        state.statement_line = number
    state.continued = False


def _scan_line(state: ScanState, line: str, number: int) -> None:
    i, n = 0, len(line)
    while i < n:
        if state.string is not None:
            i = _string_end(state, line, i, number)
            continue
        char = line[i]
        if char == "#":
            state.comment = True
            return
        if char in "'\"":
            i = _string_start(state, line, i, number)
            continue
        if char == "\\" and i == n - 1:
            state.continued = True
            return
        if char in OPENERS:
            state.brackets.append(Bracket(char, number, i))
        elif char in CLOSERS and state.brackets:
            opener = state.brackets.pop()  # even a mismatched closer closes the innermost bracket, as meant
            if state.pairs is not None and opener.char == CLOSERS[char]:
                state.pairs.append(((opener.line, opener.column), (number, i)))
        if not char.isspace():
            state.last_code = (number, i, char)
        i += 1


def _string_start(state: ScanState, line: str, i: int, number: int) -> int:
    """Open the string whose quote is at *i*; returns the index after the quote."""
    quote = line[i:i + 3] if line[i:i + 3] in ("'''", '"""') else line[i]
    state.string = quote
    state.string_start = (number, i)
    state.last_code = (number, i, line[i])
    return i + len(quote)


def _string_end(state: ScanState, line: str, i: int, number: int) -> int:
    """Skip string content from *i*; closes the string when its quote comes."""
    quote = state.string or ""
    while i < len(line):
        if line[i] == "\\":
            i += 2
            continue
        if line.startswith(quote, i):
            state.string = None
            end = i + len(quote)
            state.last_code = (number, end - 1, line[end - 1])  # the closing quote ends the code so far
            if state.pairs is not None:
                state.pairs.append((state.string_start, (number, end - 1)))
            return end
        i += 1
    return i


def string_prefix_before(line: str, column: int) -> bool:
    """Whether the characters before *column* are a string prefix like ``f``, ``rb`` (for quote closing)."""
    start = column
    while start > 0 and line[start - 1] in _PREFIX_CHARS:
        start -= 1
    return start < column and (start == 0 or not (line[start - 1].isalnum() or line[start - 1] == "_"))
