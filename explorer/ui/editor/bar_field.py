"""The text field of the editor's bars: Enter, Shift+Enter, Esc and Tab are its own, never the window's."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent
from PySide6.QtWidgets import QLineEdit, QWidget

# Tab and Shift+Tab move between the fields, never indent the editor's lines (its Indent shortcut).
_OWN_KEYS = {Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape, Qt.Key.Key_Tab, Qt.Key.Key_Backtab}


class BarField(QLineEdit):
    """A line edit that reports Enter (with or without Shift) and Esc as signals.

    Shift+Enter is the window's Run Cell and Advance shortcut: in this field it means
    "previous match", so the field claims the key before the window's shortcut sees it.
    """

    entered = Signal(bool)  # True with Shift
    all_entered = Signal()  # Ctrl+Alt+Enter: the bar's "all" (Replace All)
    escaped = Signal()
    tabbed = Signal(bool)  # True for Shift+Tab: the bar moves the keyboard between its fields
    focused = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent) and event.key() in _OWN_KEYS:
            event.accept()
            return True
        return super().event(event)

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.focused.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            mods = event.modifiers()
            if mods & Qt.KeyboardModifier.ControlModifier and mods & Qt.KeyboardModifier.AltModifier:
                self.all_entered.emit()
            else:
                self.entered.emit(bool(mods & Qt.KeyboardModifier.ShiftModifier))
            return
        if event.key() == Qt.Key.Key_Escape:
            self.escaped.emit()
            return
        if event.key() in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
            # The editor (a parent) would take Tab as text: the bar decides where it goes.
            self.tabbed.emit(event.key() == Qt.Key.Key_Backtab)
            return
        super().keyPressEvent(event)


def keep_focus_in(bar: QWidget, fields: tuple[BarField, ...]) -> None:
    """A click on the bar (a button, a label) leaves the keyboard in the field that had it.

    Qt gives a click's focus to the nearest parent that takes click focus, which would be
    the editor around the bar: the bar takes it instead and hands it to its last field.
    """
    bar.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
    bar.setFocusProxy(fields[0])
    for field in fields:
        field.focused.connect(lambda field=field: bar.setFocusProxy(field))
