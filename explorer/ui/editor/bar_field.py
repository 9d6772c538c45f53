"""The text field of the editor's bars: Enter, Shift+Enter, Esc and Tab are its own, never the window's."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLineEdit, QWidget

# Tab and Shift+Tab move between the fields, never indent the editor's lines (its Indent shortcut).
_OWN_KEYS = {Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape, Qt.Key.Key_Tab, Qt.Key.Key_Backtab}


class BarField(QLineEdit):
    """A line edit that reports Enter (with or without Shift) and Esc as signals.

    Shift+Enter is the window's Run Cell and Advance shortcut: in this field it means
    "previous match", so the field claims the key before the window's shortcut sees it.
    """

    entered = Signal(bool)  # True with Shift
    escaped = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent) and event.key() in _OWN_KEYS:
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.entered.emit(bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier))
            return
        if event.key() == Qt.Key.Key_Escape:
            self.escaped.emit()
            return
        super().keyPressEvent(event)
