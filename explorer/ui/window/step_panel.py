"""The step panel: what the statement F10 just ran changed, each variable before and after, side by side.

Small values are shown in full, large ones as a summary; a tensor's ``.grad``
is shown too, with a sentence when backward() filled it, added to it (36
becomes 72: gradients add up), or it was zeroed or cleared.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLayoutItem,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from explorer.protocol.units import shape_text

# The panel never takes more than this many text lines of height; the rest scrolls.
MAX_LINES = 9


class StepPanel(QFrame):
    """Shows one :class:`~explorer.client.step.StepResult`; hidden until the first step."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("step_panel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._result: Any = None
        self._replaying: int | None = None
        self.header = QLabel(self)
        self.header.setWordWrap(True)
        self.header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.close_button = QToolButton(self)
        self.close_button.setText("×")
        self.close_button.setAutoRaise(True)
        self.close_button.clicked.connect(self.hide)
        # What F10 presses wait for (the kernel starting, the step running now): where the teacher looks.
        self.notice = QLabel(self)
        self.notice.setObjectName("step_notice")
        self.notice.setWordWrap(True)
        self.notice.hide()
        self._queued = 0
        self._max_lines = MAX_LINES
        self._waiting = False
        self._replayed: int | None = None
        self._cells: list[QWidget] = []
        top = QHBoxLayout()
        top.addWidget(self.header, 1)
        top.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self._scroll = QScrollArea(self)
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QFrame.Shape.NoFrame)
        self._new_body()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addLayout(top)
        layout.addWidget(self.notice)
        layout.addWidget(self._scroll, 1)
        # Fixed: while stepping, the before/after rows matter more than the console under them.
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.retranslate()
        self.hide()

    # -- content ----------------------------------------------------------------------
    def show_replaying(self, count: int, done: int | None = None) -> None:
        """A replay started (or *done* of its *count* statements ran): say so until its last one was stepped."""
        self._replaying = count
        self._replayed = done
        self._result = None
        self._clear()
        text = self.tr("Stepping back: a fresh kernel replays the %n statement(s) before it "
                       "(random, NumPy and torch seeded as the first time)…", "", count)
        if done is not None:
            text += " " + self.replay_progress(done, count)
        self.header.setText(text)
        self.show()

    def replay_progress(self, done: int, count: int) -> str:
        """"replaying 8 of 20", for the panel and the status bar."""
        return self.tr("Replaying {done} of {count}…").format(done=done, count=count)

    def show_queued(self, count: int) -> None:
        """*count* F10 presses wait for the step that runs now (0: none)."""
        self._queued = count
        self._show_notice()

    def show_waiting(self, waiting: bool) -> None:
        """F10 was pressed before the kernel was ready: the step runs once it is."""
        self._waiting = waiting
        self._show_notice()

    def notice_text(self) -> str:
        return self.notice.text() if self.notice.isVisibleTo(self) else ""

    def _show_notice(self) -> None:
        parts = []
        if self._waiting:
            parts.append(self.tr("Waiting for the kernel to start (importing torch takes a moment): "
                                 "the step runs as soon as it is ready."))
        queued = self._queued
        if queued:
            parts.append(self.tr("F10 pressed %n more time(s): those steps run next, one after another.", "", queued))
        self.notice.setText(" ".join(parts))
        self.notice.setVisible(bool(parts))
        if parts:
            if self._result is None and self._replaying is None:
                self.header.setText(self.tr("Step-through (F10)"))
            self.show()

    def show_result(self, result: Any) -> None:
        """Show what one step (run to cursor, replay) did."""
        self._result = result
        self._replaying = None
        self._fill()
        self.show()

    def items(self) -> list[dict]:
        """The before/after entries shown (for tests and the screenshot script)."""
        return list(self._result.items) if self._result is not None else []

    def cell_texts(self) -> list[tuple[str, str, str, str]]:
        """(name, before, after, note) of each row, as drawn."""
        rows: list[tuple[str, str, str, str]] = []
        for i in range(1, self._grid.rowCount()):
            items = [self._grid.itemAtPosition(i, column) for column in range(4)]
            # A label spanning several columns is met once per column: count it once.
            texts = [_label_text(item) if c == 0 or item is not items[c - 1] else "" for c, item in enumerate(items)]
            if any(texts):
                rows.append((texts[0], texts[1], texts[2], texts[3]))
        return rows

    def header_text(self) -> str:
        return self.header.text()

    def _new_body(self) -> None:
        """A fresh grid for the rows (a reused grid keeps the heights of rows that are gone)."""
        self._body = QWidget()
        self._grid = QGridLayout(self._body)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setHorizontalSpacing(self.fontMetrics().horizontalAdvance("MM"))
        self._grid.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self._scroll.setWidget(self._body)  # the old body is deleted with its labels

    def _clear(self) -> None:
        self._cells = []
        self._new_body()

    def _fill(self) -> None:
        self._clear()
        result = self._result
        self.header.setText(self._header(result))
        titles = (self.tr("Variable"), self.tr("Before"), self.tr("After"), "")
        for column, title in enumerate(titles):
            self._add(0, column, title, bold=True)
        for row, item in enumerate(result.items, start=1):
            self._add(row, 0, item["name"], bold=True)
            self._add(row, 1, self._before_text(item), mono=True)
            self._add(row, 2, self._value_text(item["after"]) if item["after"] else self.tr("(deleted)"), mono=True)
            self._add(row, 3, self._note(item, result), wrap=True)
        if not result.items:
            self._add(1, 0, self.tr("No variable changed."), span=4)
        self._grid.setColumnStretch(3, 1)
        self._fit_height()

    def _add(self, row: int, column: int, text: str, bold: bool = False, mono: bool = False,
             wrap: bool = False, span: int = 1) -> None:
        label = QLabel(text)
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        label.setWordWrap(wrap)
        if mono:
            font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
            font.setPointSizeF(self.font().pointSizeF())
            label.setFont(font)
        if bold:
            font = QFont(label.font())
            font.setBold(True)
            label.setFont(font)
        self._grid.addWidget(label, row, column, 1, span)
        label.show()  # a label added to a shown panel waits for a later show: the layout would skip it
        self._cells.append(label)

    def set_max_lines(self, lines: int | None) -> None:
        """The rows take at most *lines* text lines of height (None: MAX_LINES); presentation mode gives
        the code the room."""
        lines = lines or MAX_LINES
        if lines == self._max_lines:
            return
        self._max_lines = lines
        if self._result is not None:
            self._fit_height()

    def _fit_height(self) -> None:
        """As tall as the rows, up to ``_max_lines`` lines (then it scrolls)."""
        self._body.adjustSize()
        height = min(self._body.sizeHint().height() + 4, self.fontMetrics().height() * self._max_lines)
        self._scroll.setFixedHeight(height)

    # -- words ----------------------------------------------------------------------------
    def _header(self, result: Any) -> str:
        if result.statement is None:
            return self.tr("Back at the start: a fresh kernel, nothing has run yet. Press F10 to run the first statement.")
        first, last = result.statement.first_line, result.statement.last_line
        lines = (self.tr("line {line}").format(line=first) if first == last
                 else self.tr("lines {first}–{last}").format(first=first, last=last))
        text = self.tr("Statement {index} of {total}, {lines}").format(index=result.index + 1, total=result.total,
                                                                       lines=lines)
        ran = result.ran
        if ran > 1:
            text = self.tr("Ran to the cursor: %n statement(s), the last is {last}", "", ran).format(last=text)
        if result.replayed is not None:
            text = self.tr("{what} — a replay: a fresh kernel ran the statements before it again").format(what=text)
        if result.error:
            text += " · " + self.tr("it raised {error} (see the card)").format(error=result.error.get("type", ""))
        return text

    def _before_text(self, item: dict) -> str:
        if item["before"] is not None:
            return self._value_text(item["before"])
        return self.tr("(new)") if item["captured"] else self.tr("(not recorded)")

    def _value_text(self, preview: dict) -> str:
        """A value in full when small, else its shape, dtype, first values and statistics; then its .grad."""
        lines = []
        if preview["kind"] == "other":
            lines.append(preview["text"])
        else:
            shape = shape_text(preview.get("shape") or [])
            if not preview["full"]:
                lines.append(f"{shape} {preview.get('dtype') or ''}".strip())
            lines.append(preview["text"] or self.tr("(values not readable)"))
            if not preview["full"] and preview.get("mean") is not None:
                lines.append(self.tr("min {min}  max {max}  mean {mean}").format(
                    min=f"{preview['min']:.4g}", max=f"{preview['max']:.4g}", mean=f"{preview['mean']:.4g}"))
        grad = preview.get("grad")
        if grad is not None:
            lines.append(".grad = " + grad["text"])
        return "\n".join(lines)

    def _note(self, item: dict, result: Any) -> str:
        """Why it changed: through which alias, and what happened to its .grad."""
        name = item["name"]
        notes = []
        change = (result.changes or {}).get(name) or {}
        if change.get("status") == "changed_through" and change.get("through"):
            notes.append(self.tr("{name} changed through {alias}: they share memory.").format(
                name=name, alias=change["through"]))
        before = (item["before"] or {}).get("grad")
        after = (item["after"] or {}).get("grad")
        code = result.statement.code if result.statement is not None else ""
        if before is None and after is not None:
            notes.append(self.tr("backward() filled {name}.grad.").format(name=name))
        elif before is not None and after is None:
            notes.append(self.tr("{name}.grad is None again (optimizer.zero_grad() sets it to None).").format(name=name))
        elif before is not None and after is not None and before["text"] != after["text"]:
            if (after.get("max") == 0 and after.get("min") == 0) or _all_zero(after["text"]):
                notes.append(self.tr("{name}.grad was set to zeros: the next backward() starts from 0.").format(name=name))
            elif "backward" in code:
                notes.append(self.tr("backward() adds to {name}.grad: it was {old}, now {new}. Gradients add up "
                                     "until you zero them ({name}.grad.zero_() or optimizer.zero_grad()).").format(
                    name=name, old=before["text"], new=after["text"]))
        return " ".join(notes)

    def retranslate(self) -> None:
        self.close_button.setToolTip(self.tr("Hide the step panel (F10 shows it again)"))
        if self._result is not None:
            self._fill()
        elif self._replaying is not None:
            self.show_replaying(self._replaying, self._replayed)
        self._show_notice()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.FontChange and self._result is not None:
            self._fill()
        super().changeEvent(event)


def _all_zero(text: str) -> bool:
    """Whether a value's text shows only zeros (``0.``, ``[0., 0.]``)."""
    digits = [c for c in text if c.isdigit()]
    return bool(digits) and set(digits) == {"0"}


def _label_text(item: QLayoutItem | None) -> str:
    """The text of the label a grid cell holds ('' for an empty cell)."""
    widget = item.widget() if item is not None else None
    return widget.text() if isinstance(widget, QLabel) else ""
