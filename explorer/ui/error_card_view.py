"""The error card: what went wrong in plain words, the shapes involved, and a fix to copy.

The texts (title, explanation, fix, hints) arrive already translated from the kernel;
only the card's own labels go through ``self.tr``.
"""

from __future__ import annotations

import html
import re
from typing import Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from explorer.protocol.units import shape_text
from explorer.ui.fix_proof_label import FixProofLabel

ERROR_ACCENT = "#D55E00"  # Okabe-Ito vermillion: warm, and readable on dark and light themes
HINT_ACCENT = "#0072B2"  # Okabe-Ito blue: a softer "good to know"
TITLE_SCALE = 1.35
HINT_TITLE_SCALE = 1.12
TRACEBACK_LINES = 8
_MARKUP = re.compile(r"`([^`]+)`|(\[[\d, ]*\])|(torch\.\w+)")


def _card_style(name: str, accent: str, alpha: float) -> str:
    """A translucent tint with an accent edge; text keeps the palette colour so both themes stay legible."""
    r, g, b = (int(accent[i:i + 2], 16) for i in (1, 3, 5))
    return (f"QFrame#{name} {{ background: rgba({r}, {g}, {b}, {alpha}); border: 1px solid rgba({r}, {g}, {b}, 0.5);"
            f" border-left: 6px solid {accent}; border-radius: 6px; }}")


def rich_text(text: str, mono_family: str) -> str:
    """HTML for an explanation: `code` and shapes like [4, 3] in bold monospace, the rest escaped."""
    out, pos = [], 0
    for match in _MARKUP.finditer(text):
        out.append(html.escape(text[pos:match.start()]))
        token = next(g for g in match.groups() if g is not None)
        out.append(f'<span style="font-family:\'{mono_family}\'; font-weight:600">{html.escape(token)}</span>')
        pos = match.end()
    out.append(html.escape(text[pos:]))
    return "".join(out).replace("\n", "<br>")


class ErrorCardView(QFrame):
    """Shows one explained error (``explain()``'s dict) and/or teaching hints.

    Signals
    -------
    line_activated(int)
        The user clicked "line N" (the 1-based line in the executed code).
    fix_copied(str)
        A fix was copied to the clipboard.
    """

    line_activated = Signal(int)
    fix_copied = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._error: dict[str, Any] | None = None
        self._hints: list[dict[str, Any]] = []
        self._hint_frames: list[QFrame] = []
        self._scaled: list[tuple[QWidget, float, bool]] = []  # (widget, scale, bold) re-applied on font change
        self._mono: list[QWidget] = []
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        content = QWidget()
        self._layout = QVBoxLayout(content)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._error_frame = self._build_error_frame()
        self._layout.addWidget(self._error_frame)
        self._permanent = (len(self._scaled), len(self._mono))  # hint widgets come and go after these
        self._layout.addStretch(1)
        scroll.setWidget(content)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        self._apply_fonts()
        self._retranslate()
        self._error_frame.hide()

    # -- building ------------------------------------------------------------
    def _label(self, scale: float = 1.0, bold: bool = False, rich: bool = False) -> QLabel:
        label = QLabel()
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        if scale != 1.0 or bold:
            self._scaled.append((label, scale, bold))
        return label

    def _code_box(self) -> QPlainTextEdit:
        box = QPlainTextEdit()
        box.setReadOnly(True)
        box.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        box.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._mono.append(box)
        return box

    def _build_header(self) -> QHBoxLayout:
        """The title and the "line N" link."""
        header = QHBoxLayout()
        self._title = self._label(TITLE_SCALE, bold=True)
        self._title.setObjectName("errorTitle")
        self._line_button = QPushButton()
        self._line_button.setObjectName("lineLink")
        self._line_button.setFlat(True)
        self._line_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self._line_button.setStyleSheet(f"color: {ERROR_ACCENT}; text-decoration: underline; border: none;")
        self._line_button.clicked.connect(self._on_line_button_clicked)
        self._badge = QLabel()
        self._badge.setObjectName("fixBadge")
        self._badge.hide()
        header.addWidget(self._title, 1)
        header.addWidget(self._badge, 0, Qt.AlignmentFlag.AlignTop)
        header.addWidget(self._line_button, 0, Qt.AlignmentFlag.AlignTop)
        return header

    def _build_error_frame(self) -> QFrame:
        frame = QFrame()
        frame.setObjectName("errorCard")
        frame.setStyleSheet(_card_style("errorCard", ERROR_ACCENT, 0.10))
        layout = QVBoxLayout(frame)
        layout.addLayout(self._build_header())
        self._message = self._label()
        self._message.setObjectName("errorMessage")
        self._mono.append(self._message)
        self._why = self._label(bold=True)
        self._explanation = self._label(rich=True)
        self._explanation.setObjectName("errorExplanation")
        self._variables = self._label()
        self._variables.setObjectName("errorVariables")
        self._mono.append(self._variables)
        self._fix_header = self._label(bold=True)
        self._fix_box = self._code_box()
        self._fix_box.setObjectName("fixBox")
        self._copy = QPushButton()
        self._copy.setObjectName("copyFix")
        self._copy.clicked.connect(self._on_copy_clicked)
        fix_row = QHBoxLayout()
        fix_row.addWidget(self._fix_box, 1)
        fix_row.addWidget(self._copy, 0, Qt.AlignmentFlag.AlignTop)
        self._proof = FixProofLabel()
        self._proof.line_activated.connect(self.line_activated)
        self._proof.fix_revealed.connect(self._on_proof_fix_revealed)
        self._tb_header = self._label(bold=True)
        self._traceback = self._code_box()
        self._traceback.setObjectName("tracebackBox")
        for widget in (self._message, self._why, self._explanation, self._variables, self._fix_header):
            layout.addWidget(widget)
        layout.addWidget(self._proof)  # under the heading: the verdict is read before the code
        layout.addLayout(fix_row)
        layout.addWidget(self._tb_header)
        layout.addWidget(self._traceback)
        return frame

    def _hint_frame(self, hint: dict[str, Any]) -> QFrame:
        """A softer info card for one teaching hint."""
        frame = QFrame()
        frame.setObjectName("hintCard")
        frame.setStyleSheet(_card_style("hintCard", HINT_ACCENT, 0.08))
        layout = QVBoxLayout(frame)
        header = QHBoxLayout()
        title = self._label(HINT_TITLE_SCALE, bold=True)
        title.setText(str(hint.get("title") or ""))
        header.addWidget(title, 1)
        line = hint.get("line")
        if hint.get("source") == "console":  # typed in the console: no editor line to go to
            where = QLabel(self.tr("in the console"))
            where.setObjectName("consoleSource")
            where.setToolTip(self.tr("This code was typed in the console, not in the editor"))
            where.setStyleSheet(f"color: {HINT_ACCENT};")
            header.addWidget(where, 0, Qt.AlignmentFlag.AlignTop)
        elif isinstance(line, int):
            button = QPushButton(self.tr("line {n}").format(n=line))
            button.setFlat(True)
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            button.setStyleSheet(f"color: {HINT_ACCENT}; text-decoration: underline; border: none;")
            button.setProperty("line", line)
            # A bound slot, not a lambda holding self: PySide disconnects it cleanly on deletion.
            button.clicked.connect(self._on_hint_line_clicked)
            header.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(header)
        explanation = self._label(rich=True)
        explanation.setText(rich_text(str(hint.get("explanation") or ""), self._mono_family()))
        layout.addWidget(explanation)
        fix = str(hint.get("fix") or "")
        if fix:
            box = self._code_box()
            self._set_code(box, fix)
            copy = QPushButton(self.tr("Copy"))
            copy.setToolTip(self.tr("Copy the fix to the clipboard"))
            copy.setProperty("fix", fix)
            copy.clicked.connect(self._on_hint_copy_clicked)
            row = QHBoxLayout()
            row.addWidget(box, 1)
            row.addWidget(copy, 0, Qt.AlignmentFlag.AlignTop)
            layout.addLayout(row)
        return frame

    # -- fonts and language ----------------------------------------------------
    def _mono_family(self) -> str:
        return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).family()

    def _apply_fonts(self) -> None:
        """Headings scale with the inherited font, so presentation mode enlarges everything together."""
        base = self.font()
        size = base.pointSizeF() if base.pointSizeF() > 0 else 10.0
        for widget, scale, bold in self._scaled:
            font = QFont(base)
            font.setPointSizeF(size * scale)
            font.setBold(bold)
            widget.setFont(font)
        # The cards' style sheets stop Qt's font propagation, so plain labels and buttons get the base font too.
        special = {id(w) for w, _, _ in self._scaled} | {id(w) for w in self._mono}
        for widget in [*self.findChildren(QLabel), *self.findChildren(QPushButton)]:
            if id(widget) not in special:
                widget.setFont(QFont(base))
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        mono.setPointSizeF(size)
        for widget in self._mono:
            widget.setFont(mono)
            if isinstance(widget, QPlainTextEdit):
                self._fit_height(widget)

    def _retranslate(self) -> None:
        #: Heading on the error card above the explanation of the error.
        self._why.setText(self.tr("Why"))
        #: Heading on the error card above the code that fixes the error.
        self._fix_header.setText(self.tr("Fix"))
        self._copy.setText(self.tr("Copy"))
        self._copy.setToolTip(self.tr("Copy the fix to the clipboard"))
        self._tb_header.setText(self.tr("Traceback (last lines)"))
        line = (self._error or {}).get("line")
        console = (self._error or {}).get("source") == "console"
        self._line_button.setEnabled(not console)
        if console:
            self._line_button.setText(self.tr("in the console"))
            self._line_button.setToolTip(self.tr("This code was typed in the console, not in the editor"))
        else:
            self._line_button.setText(self.tr("line {n}").format(n=line) if isinstance(line, int) else "")
            self._line_button.setToolTip(self.tr("Go to this line in the editor"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.FontChange:
            self._apply_fonts()
        elif event.type() == QEvent.Type.LanguageChange:
            self._retranslate()
            self.show_hints(self._hints)
            self._show_badge()
        super().changeEvent(event)

    # -- public API --------------------------------------------------------------
    def show_error(self, error: dict[str, Any] | None) -> None:
        """Show an explained error (``explain()``'s dict; missing keys are tolerated), or hide the card for None."""
        self._error = dict(error) if error else None
        if not error:
            self._error_frame.hide()
            return
        self._title.setText(str(error.get("title") or error.get("type") or ""))
        kind, message = str(error.get("type") or ""), str(error.get("message") or "")
        self._message.setText(f"{kind}: {message}" if kind else message)
        self._explanation.setText(rich_text(str(error.get("explanation") or ""), self._mono_family()))
        self._set_variables(error.get("variables") or [])
        fix = str(error.get("fix") or "")
        self._set_code(self._fix_box, fix)
        self._fix_header.setVisible(bool(fix))
        self._show_fix_code(bool(fix))
        self._proof.show_proof(None)
        self._show_badge()
        self._set_traceback(error)
        self._line_button.setVisible(isinstance(error.get("line"), int) or error.get("source") == "console")
        self._retranslate()
        self._error_frame.show()

    def show_proof(self, proof: dict[str, Any] | None) -> None:
        """Say what the fix did on the learner's script (:mod:`explorer.client.fix_proof`'s verdict,
        ``{"status": "checking"}`` while it runs, None: nothing); a fix that does not work is hidden."""
        if not self._error or not self._error.get("fix"):
            proof = None
        self._proof.show_proof(proof, (self._error or {}).get("line"))
        self._show_fix_code(bool(self._error and self._error.get("fix")) and not self._proof.drops_fix())
        self._show_badge()

    def _show_badge(self) -> None:
        text, colour = self._proof.badge()
        self._badge.setText(text)
        self._badge.setStyleSheet(f"color: {colour};" if colour else "")
        self._badge.setToolTip(self._proof.plain_text())
        self._badge.setVisible(bool(text))

    def show_hints(self, hints: list[dict[str, Any]]) -> None:
        """Replace the hint cards (soft info cards under the error, if any)."""
        for frame in self._hint_frames:
            self._layout.removeWidget(frame)
            frame.deleteLater()
        self._scaled, self._mono = self._scaled[:self._permanent[0]], self._mono[:self._permanent[1]]
        self._hints, self._hint_frames = list(hints or []), []
        for hint in self._hints:
            frame = self._hint_frame(hint)
            self._layout.insertWidget(self._layout.count() - 1, frame)
            self._hint_frames.append(frame)
        self._apply_fonts()

    def clear(self) -> None:
        """Remove the error and all hints."""
        self.show_error(None)
        self.show_hints([])

    # -- accessors (tests, main window) ------------------------------------------
    def title_text(self) -> str:
        return self._title.text() if self._error else ""

    def fix_text(self) -> str:
        return self._fix_box.toPlainText() if self._error else ""

    def explanation_text(self) -> str:
        """The explanation as plain text (without the highlighting markup)."""
        return str(self._error.get("explanation") or "") if self._error else ""

    def proof_text(self) -> str:
        """The verdict on the fix as plain text ("" when none is shown)."""
        return self._proof.plain_text() if self._error and self._proof.status() else ""

    def proof_status(self) -> str | None:
        return self._proof.status() if self._error else None

    def badge_text(self) -> str:
        """The verdict's short note in the title row ("" when hidden)."""
        return self._badge.text() if self._error and not self._badge.isHidden() else ""

    def fix_shown(self) -> bool:
        """Whether the fix's code is offered (not when it ran and did not help)."""
        return bool(self._error) and not self._fix_box.isHidden()

    def hint_titles(self) -> list[str]:
        return [str(h.get("title") or "") for h in self._hints]

    # -- helpers -------------------------------------------------------------------
    def _set_code(self, box: QPlainTextEdit, text: str) -> None:
        box.setPlainText(text)
        self._fit_height(box)

    def _fit_height(self, box: QPlainTextEdit) -> None:
        """Tall enough for every line (plus room for a horizontal scroll bar), so nothing hides."""
        lines = max(1, box.toPlainText().count("\n") + 1)
        metrics = box.fontMetrics()
        extra = 2 * int(box.document().documentMargin()) + 2 * box.frameWidth()
        box.setFixedHeight(metrics.lineSpacing() * lines + extra + box.horizontalScrollBar().sizeHint().height())

    def _set_variables(self, variables: list[dict[str, Any]]) -> None:
        rows = []
        for var in variables:
            shape = var.get("shape")
            shown = shape_text(shape if isinstance(shape, list) else None, missing="?")
            rows.append(f"{var.get('name', '?')}  {shown}  {var.get('dtype', '')}  {var.get('device', '')}".rstrip())
        self._variables.setText("\n".join(rows))
        self._variables.setVisible(bool(rows))

    def _set_traceback(self, error: dict[str, Any]) -> None:
        """Unknown errors show the traceback's last lines; catalogued ones keep the card short."""
        text = str(error.get("traceback") or "")
        show = error.get("key", "unknown") == "unknown" and bool(text.strip())
        last = "\n".join(text.rstrip().splitlines()[-TRACEBACK_LINES:])
        self._set_code(self._traceback, last)
        self._tb_header.setVisible(show)
        self._traceback.setVisible(show)

    def _copy_text(self, text: str) -> None:
        QGuiApplication.clipboard().setText(text)
        self.fix_copied.emit(text)

    def _show_fix_code(self, shown: bool) -> None:
        self._fix_box.setVisible(shown)
        self._copy.setVisible(shown)

    def _on_proof_fix_revealed(self) -> None:
        self._show_fix_code(bool(self._error and self._error.get("fix")))

    def _on_copy_clicked(self) -> None:
        self._copy_text(self._fix_box.toPlainText())
        self._copy.setText(self.tr("Copied"))

    def _on_hint_line_clicked(self) -> None:
        line = self.sender().property("line") if self.sender() is not None else None
        if isinstance(line, int):
            self.line_activated.emit(line)

    def _on_hint_copy_clicked(self) -> None:
        fix = self.sender().property("fix") if self.sender() is not None else None
        if isinstance(fix, str):
            self._copy_text(fix)

    def _on_line_button_clicked(self) -> None:
        line = (self._error or {}).get("line")
        if isinstance(line, int):
            self.line_activated.emit(line)
