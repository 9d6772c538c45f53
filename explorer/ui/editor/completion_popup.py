"""The list of completions under the cursor: it never takes the keyboard, the editor passes keys on."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt, Signal
from PySide6.QtGui import QFont, QGuiApplication, QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QListWidgetItem, QWidget

# Rows shown before the list scrolls.
VISIBLE_ROWS = 10
Item = tuple[str, str]  # name, kind ("function", "instance", "module", ...)


class CompletionPopup(QListWidget):
    """A frameless list shown as a tool tip window: typing goes on in the editor while it is open."""

    accepted = Signal(str)

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("completion_popup")
        self.setWindowFlags(Qt.WindowType.ToolTip | Qt.WindowType.FramelessWindowHint)
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setUniformItemSizes(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.itemClicked.connect(lambda item: self.accepted.emit(item.data(Qt.ItemDataRole.UserRole)))
        self._items: list[Item] = []

    def show_items(self, items: list[Item], typed: str, where: QRect, font: QFont) -> bool:
        """Show the *items* that start with *typed* below *where* (global); False (hidden) when none do."""
        self._items = items
        self.setFont(font)
        if not self.filter(typed):
            return False
        self._place(where)
        self.show()
        return True

    def filter(self, typed: str) -> bool:
        """Keep the items that start with *typed* (case-insensitive, exact case first); False when none is left."""
        low = typed.lower()
        kept = [item for item in self._items if item[0].lower().startswith(low)]
        kept.sort(key=lambda item: not item[0].startswith(typed))  # stable: the kernel's order otherwise
        self.clear()
        for name, kind in kept:
            row = QListWidgetItem(f"{name}  ·  {kind}" if kind else name)
            row.setData(Qt.ItemDataRole.UserRole, name)
            row.setToolTip(kind)
            self.addItem(row)
        if not kept:
            self.hide()
            return False
        self.setCurrentRow(0)
        return True

    def current_name(self) -> str | None:
        row = self.currentRow()
        return self.item(row).data(Qt.ItemDataRole.UserRole) if row >= 0 else None

    def names(self) -> list[str]:
        return [self.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.count())]

    def navigate(self, event: QKeyEvent) -> None:
        """Up, Down, Page Up and Page Down move the selection (the editor sends them here)."""
        step = {Qt.Key.Key_Up: -1, Qt.Key.Key_Down: 1, Qt.Key.Key_PageUp: -VISIBLE_ROWS,
                Qt.Key.Key_PageDown: VISIBLE_ROWS}.get(Qt.Key(event.key()), 0)
        row = self.currentRow() + step
        if step in (-1, 1):
            row %= self.count()  # the arrows wrap around, as in most editors
        self.setCurrentRow(max(0, min(row, self.count() - 1)))

    def _place(self, where: QRect) -> None:
        metrics = self.fontMetrics()
        rows = min(self.count(), VISIBLE_ROWS)
        width = max(metrics.horizontalAdvance(self.item(i).text()) for i in range(min(self.count(), 200)))
        width = min(width + 40 + self.verticalScrollBar().sizeHint().width(), metrics.horizontalAdvance("m") * 60)
        height = rows * self.sizeHintForRow(0) + 2 * self.frameWidth() + 4
        self.resize(width, height)
        screen = QGuiApplication.screenAt(where.center()) or QGuiApplication.primaryScreen()
        area = screen.availableGeometry()
        top = where.bottom() + 2 if where.bottom() + height < area.bottom() else where.top() - height - 2
        left = max(area.left(), min(where.left(), area.right() - width))
        self.move(QPoint(left, top))
