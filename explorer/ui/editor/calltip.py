"""The call tip: a function's signature and the first paragraph of its docstring, above the cursor.

The kernel's answer is IPython's ``obj?`` text (sections such as ``Signature:`` and
``Docstring:``, coloured with ANSI codes); :func:`parse_inspection` takes out what a
call tip shows. Builtins like ``torch.zeros`` have no ``Signature:`` section: their
docstring starts with the signature, which is taken from there.
"""

from __future__ import annotations

import html
import re

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QFont, QGuiApplication
from PySide6.QtWidgets import QLabel, QWidget

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_SECTION = re.compile(r"^(Signature|Init signature|Call signature|Docstring|Init docstring|Class docstring|Type|"
                      r"String form|File|Length|Subclasses|Source|Repr|Namespace|Call def|Definition):(.*)$")
_SIGNATURE_LINE = re.compile(r"^[^\W\d][\w.]*\(.*\)(\s*->\s*.+)?$")
# Characters of docstring shown at most.
DOC_CHARS = 240


def _sections(text: str) -> dict[str, str]:
    sections: dict[str, list[str]] = {}
    current = None
    for line in _ANSI.sub("", text).split("\n"):
        match = _SECTION.match(line)
        if match:
            current = match.group(1)
            sections[current] = [match.group(2).strip()] if match.group(2).strip() else []
        elif current is not None:
            sections[current].append(line)
    return {key: "\n".join(lines).strip() for key, lines in sections.items()}


def first_paragraph(doc: str) -> str:
    """The docstring's first paragraph on one line, cut at :data:`DOC_CHARS`."""
    paragraph = []
    for line in doc.strip().split("\n"):
        if not line.strip():
            break
        paragraph.append(line.strip())
    text = " ".join(paragraph)
    return text if len(text) <= DOC_CHARS else text[: DOC_CHARS - 1].rstrip() + "…"


def _one_line(signature: str) -> str:
    flat = re.sub(r"\s+", " ", signature).replace("( ", "(").replace(", )", ")").replace(",)", ")")
    return flat.strip()


def from_docstring(signature: str, doc: str) -> tuple[str, str]:
    """(signature, first paragraph): a docstring that starts with its call (builtins) gives the signature."""
    first, _, rest = doc.strip().partition("\n")
    if _SIGNATURE_LINE.match(first.strip()):
        return _one_line(first), first_paragraph(rest)
    return _one_line(signature), first_paragraph(doc)


def parse_inspection(text: str) -> tuple[str, str] | None:
    """(signature, first paragraph of the docstring) from IPython's inspection text; None without either."""
    sections = _sections(text)
    signature = next((sections[k] for k in ("Signature", "Init signature", "Call signature") if sections.get(k)), "")
    doc = next((sections[k] for k in ("Docstring", "Class docstring", "Init docstring") if sections.get(k)), "")
    if doc.startswith("<no docstring>"):
        doc = ""
    if not signature and not doc:
        return None
    return from_docstring(signature, doc) if not signature else (_one_line(signature), first_paragraph(doc))


class CalltipWidget(QLabel):
    """A tool tip window that does not take the keyboard; the editor shows and hides it."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("calltip")
        self.setWindowFlags(Qt.WindowType.ToolTip | Qt.WindowType.FramelessWindowHint)
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setWordWrap(True)
        self.setMargin(4)
        self.setAutoFillBackground(True)
        self.setStyleSheet("QLabel#calltip { background: palette(tool-tip-base); color: palette(tool-tip-text); "
                           "border: 1px solid palette(mid); }")
        self.signature = ""
        self.doc = ""

    def show_tip(self, signature: str, doc: str, where: QRect, font: QFont) -> None:
        """Show *signature* (and *doc* under it) just above *where* (global), or below it near the top."""
        self.signature, self.doc = signature, doc
        self.setFont(font)
        body = f"<b>{html.escape(signature)}</b>" if signature else ""
        if doc:
            body += ("<br>" if body else "") + html.escape(doc)
        self.setText(body)
        self.setMaximumWidth(self.fontMetrics().horizontalAdvance("m") * 80)
        self.adjustSize()
        screen = QGuiApplication.screenAt(where.center()) or QGuiApplication.primaryScreen()
        area = screen.availableGeometry()
        top = where.top() - self.height() - 2
        if top < area.top():
            top = where.bottom() + 2
        self.move(QPoint(max(area.left(), min(where.left(), area.right() - self.width())), top))
        self.show()
