"""Autosave of the code buffer to a recovery file, offered back after a crash or kill."""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QStandardPaths, QTimer, Signal


def recovery_dir() -> str:
    """Where recovery files live (``TENSOR_EXPLORER_DATA_DIR`` overrides, for tests)."""
    path = os.environ.get("TENSOR_EXPLORER_DATA_DIR") or QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.AppDataLocation)
    os.makedirs(path, exist_ok=True)
    return path


class RecoveryStore(QObject):
    """Saves ``text()`` every *interval_ms* when it changed; atomic writes so a kill mid-save loses nothing."""

    saved = Signal()

    def __init__(self, text_source: Callable[[], str], interval_ms: int = 3000, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._text_source = text_source
        self._path = os.path.join(recovery_dir(), "recovery.json")
        self._last_saved: str | None = None
        self.file_path: str | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.save_now)

    def start(self) -> None:
        self._timer.start()

    def pending(self) -> dict | None:
        """The recovery left by the previous session, if it has text."""
        try:
            with open(self._path, encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) and data.get("text") else None

    def save_now(self, closed: bool = False) -> None:
        """Write the text now; *closed* marks a normal quit that left unsaved changes (not a crash)."""
        text = self._text_source()
        if text == self._last_saved and not closed:
            return
        payload = {"text": text, "file": self.file_path, "saved_at": time.time(), "closed": closed}
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(self._path), prefix=".recovery-")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(payload, handle)
        os.replace(tmp, self._path)
        self._last_saved = text
        self.saved.emit()

    def discard(self) -> None:
        """Forget the recovery (after the user saved or declined it)."""
        self._last_saved = None
        try:
            os.remove(self._path)
        except OSError:
            pass
