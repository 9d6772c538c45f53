"""Help > Keyboard Shortcuts: every shortcut of the window, read from its actions, so the list cannot drift.

The menu bar is walked menu by menu (the Edit menu holds the editor's actions, the Run
menu the Continue action added later), then the actions added to the window that no menu shows.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMainWindow,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

# "运行文件(&F)" -> "运行文件", "Run &File" -> "Run File": the access key is no part of the name.
_MNEMONIC = re.compile(r"\(&\w\)|&(?=\w)")
Row = tuple[str, str, str]  # menu, action, shortcuts


def _name(text: str) -> str:
    return _MNEMONIC.sub("", text).replace("&&", "&").rstrip("…").strip()


def _keys(action: QAction) -> str:
    """The action's keys as the user's language writes them (Chinese writes Return and Enter alike: once)."""
    names = (s.toString(QKeySequence.SequenceFormat.NativeText) for s in action.shortcuts() if not s.isEmpty())
    return ", ".join(dict.fromkeys(names))


def _menu_rows(menu: QMenu, title: str, seen: set[int]) -> list[Row]:
    rows: list[Row] = []
    for action in menu.actions():
        sub = action.menu()
        if isinstance(sub, QMenu):
            rows += _menu_rows(sub, f"{title} > {_name(sub.title())}", seen)
        elif not action.isSeparator() and id(action) not in seen and _keys(action):
            seen.add(id(action))
            rows.append((title, _name(action.text()), _keys(action)))
    return rows


def shortcut_rows(window: QMainWindow) -> list[Row]:
    """(menu, action, shortcuts) for every action of *window* that has a shortcut."""
    seen: set[int] = set()
    rows: list[Row] = []
    for top in window.menuBar().actions():
        menu = top.menu()
        if isinstance(menu, QMenu):
            rows += _menu_rows(menu, _name(menu.title()), seen)
    others = [a for a in window.actions() if id(a) not in seen and _keys(a) and a.text()]
    rows += [("", _name(a.text()), _keys(a)) for a in others]
    return rows


class ShortcutsDialog(QDialog):
    """A table of the shortcuts: menu, action, keys."""

    def __init__(self, window: QMainWindow, parent: QWidget | None = None) -> None:
        super().__init__(parent or window)
        self.setObjectName("shortcuts_dialog")
        self.setWindowTitle(self.tr("Keyboard Shortcuts"))
        self._rows = shortcut_rows(window)
        self.table = QTableWidget(len(self._rows), 3, self)
        self.table.setHorizontalHeaderLabels([self.tr("Menu"), self.tr("Action"), self.tr("Shortcut")])
        previous = None
        for r, row in enumerate(self._rows):
            shown = ("" if row[0] == previous else row[0], row[1], row[2])  # each menu named once, above its rows
            previous = row[0]
            for c, text in enumerate(shown):
                item = QTableWidgetItem(text)
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                self.table.setItem(r, c, item)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.table.resizeColumnsToContents()
        rows_height = (self.fontMetrics().height() + 6) * len(self._rows)
        self.resize(self.table.horizontalHeader().length() + 60, min(rows_height + 120, 700))

    def rows(self) -> list[Row]:
        """(menu, action, shortcuts) of every row, the menu repeated on each."""
        return list(self._rows)
