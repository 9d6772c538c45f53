"""The strip of pane buttons shown in presentation mode: which pane is big, and the key that brings each back."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QSizePolicy, QToolButton, QWidget

# The panes presentation mode shows one at a time, in the order of their keys (Ctrl+1, Ctrl+2, Ctrl+3).
PANES = ("editor", "inspector", "details")
PANE_KEYS = {"editor": "Ctrl+1", "inspector": "Ctrl+2", "details": "Ctrl+3"}


class PaneStrip(QWidget):
    """One checkable button per pane; the checked one is the pane shown big."""

    pane_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pane_strip")
        self._group = QButtonGroup(self)
        self._group.setExclusive(True)
        self.buttons: dict[str, QToolButton] = {}
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for pane in PANES:
            button = QToolButton(self)
            button.setObjectName(f"pane_{pane}")
            button.setCheckable(True)
            button.setAutoRaise(True)
            # The strip must never widen the window: a button may shrink below its text.
            button.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            button.clicked.connect(lambda _=False, p=pane: self.pane_chosen.emit(p))
            self._group.addButton(button)
            self.buttons[pane] = button
            layout.addWidget(button, 1)
        self.retranslate()

    def set_current(self, pane: str) -> None:
        """Check *pane*'s button (without emitting ``pane_chosen``)."""
        self.buttons[pane].setChecked(True)

    def current(self) -> str:
        return next((pane for pane, button in self.buttons.items() if button.isChecked()), PANES[0])

    def retranslate(self) -> None:
        titles = {
            #: Presentation mode: the button that shows the code editor (and the console) big.
            "editor": self.tr("Code"),
            #: Presentation mode: the button that shows the list of variables big.
            "inspector": self.tr("Variables"),
            #: Presentation mode: the button that shows the Image/Values/Stats/Memory/Graph tabs big.
            "details": self.tr("Details"),
        }
        for pane, button in self.buttons.items():
            button.setText(f"{titles[pane]}  ({PANE_KEYS[pane]})")
            button.setToolTip(self.tr("Show this pane big; the others wait in this strip ({key}, F6 for the next one)").format(
                key=PANE_KEYS[pane]))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
