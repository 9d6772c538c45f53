"""File > Recent Files: the files last opened or saved, newest first, kept in QSettings."""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtWidgets import QMenu

KEY = "recent_files"
MAX_RECENT = 10


def _as_list(value: Any) -> list[str]:  # what QSettings gives back: None, a str or a list
    if value is None:
        return []
    return [value] if isinstance(value, str) else [str(v) for v in value]


class RecentFilesMenu(QObject):
    """Fills the Recent Files menu: numbered entries, missing files greyed, and Clear Recent Files.

    The menu is built again each time it opens, so a file deleted since shows as
    missing; one deleted between opening the menu and choosing it is reported.
    """

    chosen = Signal(str)  # an entry whose file exists
    vanished = Signal(str)  # an entry whose file is gone (now taken off the list)

    def __init__(self, menu: QMenu, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._menu = menu
        menu.setToolTipsVisible(True)
        menu.aboutToShow.connect(self.refresh)

    def paths(self) -> list[str]:
        return _as_list(QSettings().value(KEY))

    def add(self, path: str) -> None:
        """*path* was opened or saved: it goes to the top."""
        path = os.path.abspath(path)
        QSettings().setValue(KEY, [path] + [p for p in self.paths() if p != path][:MAX_RECENT - 1])
        self.refresh()

    def remove(self, path: str) -> None:
        QSettings().setValue(KEY, [p for p in self.paths() if p != path])
        self.refresh()

    def clear(self) -> None:
        QSettings().setValue(KEY, [])
        self.refresh()

    def refresh(self) -> None:
        """Build the entries again (after a change, on opening, after a language change)."""
        self._menu.clear()
        paths = self.paths()
        names = Counter(os.path.basename(p) for p in paths)
        for number, path in enumerate(paths, 1):
            name = os.path.basename(path)
            if names[name] > 1:  # two "train.py": the folder tells them apart
                name = f"{name}  ({os.path.basename(os.path.dirname(path))})"
            mnemonic = f"&{number % 10} " if number <= 10 else ""
            exists = os.path.exists(path)
            action = self._menu.addAction(mnemonic + name.replace("&", "&&") + ("" if exists else "  " + self.tr("(not found)")))
            action.setToolTip(path)
            action.setStatusTip(path)
            action.setEnabled(exists)
            action.triggered.connect(lambda _=False, p=path: self._on_entry_triggered(p))
        self._menu.addSeparator()
        clear = self._menu.addAction(self.tr("&Clear Recent Files"))
        clear.setObjectName("action_clear_recent")
        clear.triggered.connect(self.clear)
        self._menu.setEnabled(bool(paths))

    def _on_entry_triggered(self, path: str) -> None:
        if os.path.exists(path):
            self.chosen.emit(path)
        else:
            self.remove(path)
            self.vanished.emit(path)
