"""A non-modal message strip with optional buttons (recovery offers, load problems)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

# What a message is about, so that it can be taken down once that has passed ("" for none in particular):
# the kernel died, it was restarted, its extension is another release, an attached kernel's
# connection was lost, a file did not open or load, the editor could not save.
BannerTopic = Literal["", "kernel", "restarted", "version", "connection", "files", "save", "autosave", "disk", "recovery"]
# How a message looks: a plain note, a warning, an error.
BannerKind = Literal["info", "warning", "error"]


class BannerWidget(QFrame):
    """Shows one message at a time; hidden when empty.

    Each message has a *topic* ("kernel", "files", ...), so the window can take it
    down once the situation has passed (the kernel is back, a file did load)
    without hiding an unrelated message shown since.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setObjectName("banner")
        self._label = QLabel(self)
        self._label.setWordWrap(True)
        self._label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._layout = QHBoxLayout(self)
        self._layout.addWidget(self._label, 1)
        self._buttons: list[QPushButton] = []
        self._topic: BannerTopic = ""
        self.hide()

    def show_message(self, text: str, kind: BannerKind = "info",
                     buttons: list[tuple[str, Callable[[], None]]] | None = None, topic: BannerTopic = "",
                     on_close: Callable[[], None] | None = None) -> None:
        """Show *text*; each button runs its callback and closes the banner (Close runs *on_close*)."""
        self._topic = topic
        colors: dict[BannerKind, str] = {"info": "#e8f1fb", "warning": "#fff4e0", "error": "#fdecea"}
        # A palette, not a style sheet: style sheets stop the presentation-mode font from reaching the text.
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Window, QColor(colors[kind]))
        palette.setColor(QPalette.ColorRole.WindowText, QColor("#202020"))
        self.setPalette(palette)
        self.setAutoFillBackground(True)
        self._label.setText(text)
        for button in self._buttons:
            button.deleteLater()
        self._buttons = []
        for title, callback in (buttons or []) + [(self.tr("Close"), on_close or (lambda: None))]:
            button = QPushButton(title, self)
            button.clicked.connect(lambda _=False, cb=callback: self._close_then(cb))
            self._layout.addWidget(button)
            self._buttons.append(button)
        self.show()

    def _close_then(self, callback: Callable[[], None]) -> None:
        self.hide()
        callback()

    def clear(self, topic: BannerTopic) -> None:
        """Hide the banner if it still shows a message about *topic*."""
        if self._topic == topic and self.isVisible():
            self.hide()

    def topic(self) -> BannerTopic:
        return self._topic if self.isVisible() else ""

    def text(self) -> str:
        return self._label.text()

    def button_titles(self) -> list[str]:
        return [b.text() for b in self._buttons]

    def click(self, title: str) -> None:
        """Press the button called *title* (for keyboard users and tests)."""
        next(b for b in self._buttons if b.text() == title).click()
