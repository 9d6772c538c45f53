"""Loading dropped or opened data files: validated by the kernel, then run as visible code.

The kernel's ``prepare_load`` checks a file without running anything from it and
returns the snippet (``np.load(...)``, ``torch.load(..., weights_only=True)``)
that the console then runs, so the user sees the API. Problems from one batch
of files are reported together, once, never as a storm of dialogs.
"""

from __future__ import annotations

import os
from typing import Any, Callable

from PySide6.QtCore import QObject, Signal


class DataLoader(QObject):
    """Loads files one after another through *source*; *run_code* executes the returned snippet."""

    problems_reported = Signal(list)  # ["file.npy: one sentence", ...]
    loaded = Signal(str)  # variable name

    def __init__(self, source: Any, run_code: Callable[[str], None],
                 confirm_pickle: Callable[[str, str], bool], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._source = source
        self._run_code = run_code
        self._confirm_pickle = confirm_pickle
        self._queue: list[str] = []
        self._problems: list[str] = []
        self._busy = False

    def load(self, paths: list[str], problems: list[str] | None = None) -> None:
        """Queue *paths*; *problems* are already-known failures (e.g. dropped URLs) reported with the batch."""
        self._problems.extend(problems or [])
        self._queue.extend(paths)
        if not self._busy:
            self._next()

    def _next(self, allow_pickle: bool = False, path: str | None = None) -> None:
        if path is None:
            if not self._queue:
                self._busy = False
                self._flush()
                return
            path = self._queue.pop(0)
        self._busy = True
        params = {"path": path, "allow_pickle": allow_pickle}
        self._source.request("prepare_load", params, lambda reply, p=path: self._on_prepared(p, reply))

    def _on_prepared(self, path: str, reply: dict) -> None:
        result = reply.get("result") or {}
        message = reply.get("error") or result.get("error")
        if message and result.get("needs_pickle") and self._confirm_pickle(path, message):
            self._next(allow_pickle=True, path=path)
            return
        if message:
            name = os.path.basename(path) or path
            # The kernel's sentences usually name the file already; don't say it twice.
            self._problems.append(message if name in message else f"{name}: {message}")
        else:
            self._run_code(result["code"])
            self.loaded.emit(result.get("name", ""))
        self._next()

    def _flush(self) -> None:
        if self._problems:
            problems, self._problems = self._problems, []
            self.problems_reported.emit(problems)
