"""What the find bar looks for: a query turned into a Python regular expression, and its matches.

Python's own :mod:`re` syntax, since the people typing patterns here write Python;
positions are converted to the UTF-16 units a Qt document counts.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Query:
    """The find bar's text and options."""

    text: str
    case: bool = False
    word: bool = False
    regex: bool = False


class SearchError(ValueError):
    """The pattern is not a valid regular expression; the message says why."""


def compile_query(query: Query) -> re.Pattern[str] | None:
    """The pattern for *query*; None when there is nothing to look for."""
    if not query.text:
        return None
    body = query.text if query.regex else re.escape(query.text)
    if query.word:
        body = rf"(?<!\w)(?:{body})(?!\w)"
    flags = re.MULTILINE | (0 if query.case else re.IGNORECASE)
    try:
        return re.compile(body, flags)
    except re.error as exc:
        raise SearchError(str(exc)) from None
    except (OverflowError, RecursionError) as exc:  # pathological patterns: say so, never crash
        raise SearchError(type(exc).__name__) from None


class Utf16Map:
    """Converts ``str`` indices of one text to UTF-16 positions and back (they differ only after emoji)."""

    def __init__(self, text: str) -> None:
        wide = not text.isascii() and max(text) > "\uffff"
        self._wide = [i for i, c in enumerate(text) if c > "\uffff"] if wide else []

    def to_utf16(self, index: int) -> int:
        return index + bisect.bisect_left(self._wide, index)

    def to_index(self, units: int) -> int:
        index = units
        while index > 0 and self.to_utf16(index) > units:  # at most one step per emoji before it
            index -= 1
        return index


def find_all(pattern: re.Pattern[str], text: str, limit: int = 100_000) -> list[tuple[int, int]]:
    """(start, end) in UTF-16 units of every non-empty match in *text*, at most *limit*."""
    mapping = Utf16Map(text)
    spans = []
    for match in pattern.finditer(text):
        if match.end() > match.start():
            spans.append((mapping.to_utf16(match.start()), mapping.to_utf16(match.end())))
            if len(spans) >= limit:
                break
    return spans


def replacement(pattern: re.Pattern[str], text: str, span: tuple[int, int], replace: str, regex: bool) -> str | None:
    """What the match at *span* (UTF-16) becomes: *replace*, with ``\\1`` and ``\\g<name>`` expanded for a regex.

    None when the text at *span* no longer matches; raises :class:`SearchError` for a bad group reference.
    """
    mapping = Utf16Map(text)
    start, end = mapping.to_index(span[0]), mapping.to_index(span[1])
    match = pattern.match(text, start)
    if match is None or match.end() != end:
        return None
    if not regex:
        return replace
    try:
        return match.expand(replace)
    except (re.error, IndexError) as exc:
        raise SearchError(str(exc)) from None
