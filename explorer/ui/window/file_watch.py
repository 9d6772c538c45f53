"""Notices when the editor's file changes on disk behind the window's back (another editor, ``git checkout``)."""

from __future__ import annotations

import hashlib
import os

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

# Editors and git write in steps (truncate, write; or a new file renamed over the old one): look once they are done.
SETTLE_MS = 150


def _digest(path: str) -> str | None:
    """The content's hash; None when the file is missing or unreadable."""
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None


class DiskWatch(QObject):
    """Follows one file; tells when what is on disk is no longer what the window last read or wrote.

    Comparing contents, not times, makes the window's own saves (announced with
    :meth:`adopt`) and a ``touch`` no change at all. Many editors replace a file
    instead of writing into it; the watcher then loses the path, so it is added
    again, and while the file is missing its folder is watched for its return.
    """

    changed = Signal(str)  # the file's content differs from what the window has
    removed = Signal(str)  # the file is gone (deleted or moved away)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._on_watcher_file_changed)
        self._watcher.directoryChanged.connect(self._on_watcher_directory_changed)
        self._path: str | None = None
        self._known: str | None = None
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self._check)

    def watch(self, path: str | None) -> None:
        """Follow *path* (None: no file); what is on disk now is what the window has."""
        self._settle.stop()
        paths = self._watcher.files() + self._watcher.directories()
        if paths:
            self._watcher.removePaths(paths)
        self._path = path
        self._known = _digest(path) if path else None
        self._follow()

    def adopt(self, data: bytes) -> None:
        """The window is about to write *data* to the file itself: that is no change."""
        self._known = hashlib.sha256(data).hexdigest()

    def path(self) -> str | None:
        return self._path

    def _follow(self) -> None:
        """Watch the file, or its folder while the file is missing."""
        if not self._path:
            return
        folder = os.path.dirname(self._path) or "."
        if os.path.exists(self._path):
            if self._path not in self._watcher.files():
                self._watcher.addPath(self._path)
            if folder in self._watcher.directories():
                self._watcher.removePath(folder)
        elif folder not in self._watcher.directories() and os.path.isdir(folder):
            self._watcher.addPath(folder)

    def _on_watcher_file_changed(self, _path: str) -> None:
        self._settle.start()

    def _on_watcher_directory_changed(self, _path: str) -> None:
        self._settle.start()

    def _check(self) -> None:
        if not self._path:
            return
        digest = _digest(self._path)
        self._follow()
        if digest == self._known:
            return
        self._known = digest
        if digest is None:
            self.removed.emit(self._path)
        else:
            self.changed.emit(self._path)
