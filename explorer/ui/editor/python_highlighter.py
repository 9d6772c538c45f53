"""Syntax colours for the code pane, from Pygments' Python lexer and a Pygments style."""

from __future__ import annotations

from pygments.lexers import PythonLexer
from pygments.styles import get_style_by_name
from pygments.token import Token, _TokenType
from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument

_OPEN, _IN_DOUBLE, _IN_SINGLE = 0, 1, 2
_QUOTES = {_IN_DOUBLE: '"""', _IN_SINGLE: "'''"}


class PythonHighlighter(QSyntaxHighlighter):
    """Highlights one line at a time; block state remembers open triple-quoted strings."""

    def __init__(self, document: QTextDocument, style: str = "friendly") -> None:
        super().__init__(document)
        self._lexer = PythonLexer(stripnl=False, ensurenl=False)
        self._formats: dict[_TokenType, QTextCharFormat] = {}
        self._style = get_style_by_name(style)

    def _format(self, token: _TokenType) -> QTextCharFormat:
        fmt = self._formats.get(token)
        if fmt is None:
            fmt = QTextCharFormat()
            spec = self._style.style_for_token(token)
            if spec["color"]:
                fmt.setForeground(QColor("#" + spec["color"]))
            if spec["bold"]:
                fmt.setFontWeight(QFont.Weight.Bold)
            if spec["italic"]:
                fmt.setFontItalic(True)
            self._formats[token] = fmt
        return fmt

    def highlightBlock(self, text: str) -> None:
        state = max(self.previousBlockState(), _OPEN)
        prefix = _QUOTES.get(state, "")
        for start, token, value in self._lexer.get_tokens_unprocessed(prefix + text):
            begin = max(start - len(prefix), 0)
            length = start + len(value) - len(prefix) - begin
            if length > 0 and token is not Token.Text:
                self.setFormat(begin, length, self._format(token))
        self.setCurrentBlockState(_next_state(state, text))


def _next_state(state: int, text: str) -> int:
    """Track whether a triple-quoted string is still open after this line."""
    position = 0
    while True:
        if state == _OPEN:
            hits = [(text.find(q, position), s) for s, q in _QUOTES.items() if text.find(q, position) >= 0]
            if not hits:
                return _OPEN
            index, state = min(hits)
            position = index + 3
        else:
            index = text.find(_QUOTES[state], position)
            if index < 0:
                return state
            state, position = _OPEN, index + 3


__all__ = ["PythonHighlighter"]
