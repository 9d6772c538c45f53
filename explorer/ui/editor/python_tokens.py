"""Python tokens of one line, as Pygments names them, from one compiled pattern.

Pygments' own Python lexer tries its rules one by one at every position: about 50 us a
line here, a quarter of a second for a 5,000-line file, while the editor must show a
file in under 200 ms. This lexer makes one regular-expression search per token and
gives the same token types (so colours still come from a Pygments style); a
triple-quoted string left open at the end of a line is the line's state, carried into
the next line by the highlighter.
"""

from __future__ import annotations

import builtins
import keyword
import re

from pygments.token import Token, _TokenType

OPEN, IN_DOUBLE, IN_SINGLE = 0, 1, 2  # the states a line can end in
QUOTES = {IN_DOUBLE: '"""', IN_SINGLE: "'''"}
STATE_OF_QUOTE = {q: s for s, q in QUOTES.items()}

_PATTERN = re.compile(r"""
    (?P<comment>\#.*)
  | (?P<string3>(?i:[rbuft]{0,2})(?:\"\"\"|'''))
  | (?P<string>(?i:[rbuft]{0,2})(?:"(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?))
  | (?P<number>(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+
               |(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?)[jJ]?)
  | (?P<name>[^\W\d]\w*)
  | (?P<decorator>@[^\W\d][\w.]*)
  | (?P<operator>[-+*/%&|^~<>!=@]+)
""", re.VERBOSE)

_CONSTANTS = {"True", "False", "None"}
_WORD_OPERATORS = {"and", "or", "not", "in", "is"}
_NAMESPACE = {"import", "from"}
_KEYWORDS = set(keyword.kwlist) - _CONSTANTS - _WORD_OPERATORS - _NAMESPACE
_BUILTINS = {name for name in dir(builtins) if not name.startswith("_")}
_PSEUDO = {"self", "cls"}
_NAMED_BY = {"def": Token.Name.Function, "class": Token.Name.Class}

Span = tuple[int, int, _TokenType]  # start, length, token type


def _name_token(word: str, previous: str) -> _TokenType | None:
    if previous in _NAMED_BY:
        return _NAMED_BY[previous]
    if word in _KEYWORDS:
        return Token.Keyword
    if word in _CONSTANTS:
        return Token.Keyword.Constant
    if word in _WORD_OPERATORS:
        return Token.Operator.Word
    if word in _NAMESPACE:
        return Token.Keyword.Namespace
    if word in _BUILTINS:
        return Token.Name.Builtin
    if word in _PSEUDO:
        return Token.Name.Builtin.Pseudo
    return None


def _triple_end(text: str, start: int, quote: str) -> int:
    """Index after the *quote* closing a string whose content starts at *start*; -1 when the line has none."""
    i = start
    while True:
        i = text.find(quote, i)
        if i < 0:
            return -1
        backslashes = i - len(text[:i].rstrip("\\"))
        if backslashes % 2 == 0:
            return i + 3
        i += 1


def tokens(text: str, state: int = OPEN) -> tuple[list[Span], int]:
    """The coloured spans of one line that starts in *state*, and the state it ends in."""
    spans: list[Span] = []
    position = 0
    if state != OPEN:
        end = _triple_end(text, 0, QUOTES[state])
        if end < 0:
            return [(0, len(text), Token.Literal.String.Doc)] if text else [], state
        spans.append((0, end, Token.Literal.String.Doc))
        position = end
    return _scan(text, position, spans)


def _scan(text: str, position: int, spans: list[Span]) -> tuple[list[Span], int]:
    """Append the spans of *text* from *position* on; returns them and the state the line ends in."""
    previous = ""
    search = _PATTERN.search
    while (match := search(text, position)) is not None:
        kind, start, end = match.lastgroup, match.start(), match.end()
        position = end
        if kind == "name":
            word = match.group()
            token = _name_token(word, previous)
            previous = word
            if token is not None:
                spans.append((start, end - start, token))
            continue
        previous = ""
        if kind == "string3":
            quote = text[end - 3:end]
            close = _triple_end(text, end, quote)
            if close < 0:
                spans.append((start, len(text) - start, Token.Literal.String.Doc))
                return spans, STATE_OF_QUOTE[quote]
            spans.append((start, close - start, Token.Literal.String.Doc))
            position = close
        elif kind == "decorator" and not text[:start].strip():
            spans.append((start, end - start, Token.Name.Decorator))
        else:
            spans.append((start, end - start, _TOKENS.get(kind or "", Token.Operator)))
    return spans, OPEN


_TOKENS = {"comment": Token.Comment.Single, "string": Token.Literal.String, "number": Token.Literal.Number,
           "operator": Token.Operator, "decorator": Token.Operator}
