"""Autosave of each window's unsaved text to a recovery file of its own, and what windows that are gone left.

Each window writes ``recovery-<id>.json`` in :func:`recovery_dir` and holds the
QLockFile ``recovery-<id>.json.lock`` while it runs. Qt writes the owner's pid,
program, host and boot id into the lock, so another window can tell a live
owner (hands off) from one that crashed, was killed or quit with unsaved text:
only then can it take the lock, and only then is the file offered back
(:func:`claim_orphans`). Nothing is deleted that its owner or the user did not
let go of.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import tempfile
import time
import uuid

from PySide6.QtCore import QLockFile, QObject, QStandardPaths, QTimer, Signal
from PySide6.QtGui import QTextDocument

PREFIX = "recovery"
# "recovery.json" is the single file that every window shared before each had its own.
FILE_PATTERN = PREFIX + "*.json"


def recovery_dir() -> str:
    """Where recovery files live (``TENSOR_EXPLORER_DATA_DIR`` overrides, for tests); it may not exist yet."""
    return os.environ.get("TENSOR_EXPLORER_DATA_DIR") or QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.AppDataLocation)


def _lock(path: str) -> QLockFile:
    lock = QLockFile(path + ".lock")
    lock.setStaleLockTime(0)  # a live owner keeps its lock however long it runs: only a dead one loses it
    return lock


def _file_id(path: str) -> str:
    """``recovery-<id>.json`` -> ``<id>`` ("" for the old shared ``recovery.json``)."""
    name = os.path.basename(path).removesuffix(".lock").removesuffix(".json")
    return name[len(PREFIX):].lstrip("-")


def _remove_partials(folder: str, file_id: str) -> None:
    """Half-written temporary files of *file_id* (a write cut short); never the finished file."""
    if not file_id:
        return
    for path in glob.glob(os.path.join(glob.escape(folder), f".{PREFIX}-{glob.escape(file_id)}-*.tmp")):
        with contextlib.suppress(OSError):
            os.remove(path)


def _read(path: str) -> dict | None:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("text"), str) else None


class Orphan:
    """A recovery file whose window is gone; this window holds its lock until the user answers."""

    def __init__(self, path: str, data: dict, lock: QLockFile) -> None:
        self.path = path
        self.text: str = data["text"]
        self.file: str | None = data.get("file") or None
        self.lesson: str | None = data.get("lesson") or None
        self.closed = bool(data.get("closed"))  # quit with unsaved text (not a crash)
        self.saved_at = float(data.get("saved_at") or 0.0)
        self._lock: QLockFile | None = lock

    def discard(self) -> None:
        """The user answered (restored it elsewhere, or discarded it): the file goes."""
        with contextlib.suppress(OSError):
            os.remove(self.path)
        self.release()

    def release(self) -> None:
        """Not answered: the file stays for the next window to offer."""
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None


def claim_orphans(folder: str, own_path: str | None = None) -> list[Orphan]:
    """The recovery files in *folder* of windows that are gone, newest first, each locked for this window.

    A file whose lock a live window holds is skipped; a dead window's lock with no
    file (it died before its first autosave) and its half-written files are cleared.
    """
    orphans = []
    files = set(glob.glob(os.path.join(glob.escape(folder), FILE_PATTERN)))
    lonely_locks = {p.removesuffix(".lock") for p in glob.glob(os.path.join(glob.escape(folder), FILE_PATTERN + ".lock"))} - files
    for path in sorted(files | lonely_locks):
        if path == own_path:
            continue
        lock = _lock(path)
        if not lock.tryLock(0):  # its window runs (or the folder cannot be written)
            continue
        _remove_partials(folder, _file_id(path))
        data = _read(path) if path in files else None
        if data is not None and data["text"].strip():
            orphans.append(Orphan(path, data, lock))
            continue
        if data is not None:  # readable and empty: nothing to offer
            with contextlib.suppress(OSError):
                os.remove(path)
        lock.unlock()  # an unreadable file stays: it may be worth a look by hand
    return sorted(orphans, key=lambda o: o.saved_at, reverse=True)


class RecoveryStore(QObject):
    """Saves the document's text every *interval_ms* while it has unsaved changes, to this window's own file.

    Writes are atomic (a temporary file, then a rename), so a kill mid-save loses
    nothing; when the folder cannot be written the store stops, says why once
    (:attr:`failed`) and leaves no half-written file behind.
    """

    saved = Signal()
    failed = Signal(str)  # autosave is off from now on: why

    def __init__(self, document: QTextDocument, interval_ms: int = 3000, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self.id = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.file_path: str | None = None
        self.lesson: str | None = None
        self.error: str | None = None  # why autosave is off; None while it works
        self._folder = ""
        self._lock: QLockFile | None = None
        self._released = False
        self._last_saved: str | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.save_now)
        document.modificationChanged.connect(self._on_document_modification_changed)

    @property
    def path(self) -> str:
        return os.path.join(self._folder, f"{PREFIX}-{self.id}.json")

    def start(self) -> bool:
        """Take this window's file and autosave from now on; False (and :attr:`failed`) when the folder is unusable."""
        self._folder = recovery_dir()
        try:
            os.makedirs(self._folder, exist_ok=True)
            lock = _lock(self.path)
            if not lock.tryLock(0):
                _probe(self._folder)  # raises the system's reason (read-only, full, ...)
                raise OSError(f"the lock file could not be created ({lock.error().name})")
        except OSError as exc:
            return self._fail(exc)
        self._lock = lock
        self._timer.start()
        return True

    def orphans(self) -> list[Orphan]:
        """What windows that are gone left in the folder, newest first (claimed for this window)."""
        return claim_orphans(self._folder, self.path) if self._folder and os.path.isdir(self._folder) else []

    def save_now(self, closed: bool = False) -> bool:
        """Write the unsaved text now (no file when there is none); *closed*: a quit, not a crash.

        Returns False when the text could not be written (autosave is off).
        """
        if self._lock is None or self.error:
            return False
        text = self._document.toPlainText()
        if not self._document.isModified() or not text.strip():
            self.discard()
            return True
        if text == self._last_saved and not closed and os.path.exists(self.path):
            return True
        payload = {"text": text, "file": self.file_path, "lesson": self.lesson, "saved_at": time.time(), "closed": closed}
        try:
            self._write(json.dumps(payload))
        except OSError as exc:
            return self._fail(exc)
        self._last_saved = text
        self.saved.emit()
        return True

    def _write(self, data: str) -> None:
        fd, tmp = tempfile.mkstemp(dir=self._folder, prefix=f".{PREFIX}-{self.id}-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())  # on disk before the rename: a power cut leaves the old file, not an empty one
            os.replace(tmp, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                os.remove(tmp)
            raise

    def discard(self) -> None:
        """No unsaved text to keep (saved, discarded, or nothing typed): this window's file goes."""
        self._last_saved = None
        if self._lock is not None:  # once let go, the file is the next window's
            with contextlib.suppress(OSError):
                os.remove(self.path)

    def finish(self) -> bool:
        """A normal quit: keep unsaved text for the next start (hot exit), then let go; False when it cannot be kept."""
        if self._released:  # already let go (a logout's commit, then the close)
            return True
        if not self.save_now(closed=True):
            return False
        self.release()
        return True

    def release(self) -> None:
        """Stop autosaving and give up the lock; the file (if any) stays for the next window."""
        self._timer.stop()
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None
            self._released = True

    def _fail(self, exc: OSError) -> bool:
        self._timer.stop()
        _remove_partials(self._folder, self.id)
        if self.error is None:
            self.error = f"{self._folder}: {exc.strerror or exc}"
            self.failed.emit(self.error)
        return False

    def _on_document_modification_changed(self, modified: bool) -> None:
        if not modified:  # saved, or a fresh text: there is nothing to recover any more
            self.discard()


def _probe(folder: str) -> None:
    """Raise why *folder* cannot take a new file (or return if it can)."""
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{PREFIX}-probe-", suffix=".tmp")
    os.close(fd)
    os.remove(tmp)
