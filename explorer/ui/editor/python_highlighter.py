"""Syntax colours for the code pane: :mod:`python_tokens` spans in the colours of a Pygments style."""

from __future__ import annotations

from pygments.styles import get_style_by_name
from pygments.token import _TokenType
from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextBlock, QTextCharFormat, QTextDocument

from explorer.ui.editor.line_range import utf16_len
from explorer.ui.editor.python_tokens import OPEN, QUOTES, tokens


class PythonHighlighter(QSyntaxHighlighter):
    """Highlights one line at a time; the block state remembers a triple-quoted string left open."""

    def __init__(self, document: QTextDocument, style: str = "friendly") -> None:
        super().__init__(document)
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
        spans, state = tokens(text, max(self.previousBlockState(), OPEN))
        fmt = self._format
        wide = not text.isascii() and max(text) > "\uffff"  # Qt counts UTF-16 units: an emoji takes two
        for start, length, token in spans:
            if wide:
                start, length = utf16_len(text[:start]), utf16_len(text[start:start + length])
            self.setFormat(start, length, fmt(token))
        self.setCurrentBlockState(state)


def starts_in_string(block: QTextBlock) -> bool:
    """Whether *block* begins inside a triple-quoted string (as far as the highlighter has seen)."""
    return block.previous().userState() in QUOTES


__all__ = ["PythonHighlighter", "starts_in_string"]
