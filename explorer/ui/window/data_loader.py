"""Loading dropped or opened data files: validated by the kernel, then run as visible code.

The kernel's :class:`~explorer.protocol.PrepareLoad` checks a file without running
anything from it and returns the snippet (``np.load(...)``, ``torch.load(...,
weights_only=True)``) that the console then runs, so the user sees the API. Files
are taken one at a time, each after the previous one's snippet ran (its variable
name is then taken). Requests made before the kernel is ready wait for it, so
files named on the command line load as soon as it is. Problems from one batch
of files are reported together, once, never as a storm of dialogs.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from explorer import protocol


class DataLoader(QObject):
    """Loads files one after another through *source*; ``run_code(code, done)`` runs a snippet, then calls ``done``."""

    problems_reported = Signal(object)  # ["file.npy: one sentence", ...]
    loaded = Signal(str)  # variable name

    def __init__(self, source: protocol.RequestSource, run_code: Callable[[str, Callable[[], None]], None],
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
        request = protocol.PrepareLoad(path=path, allow_pickle=allow_pickle)
        self._source.ask(request, functools.partial(self._on_prepared, path))

    def _on_prepared(self, path: str, reply: protocol.Reply[protocol.LoadPlan]) -> None:
        result: protocol.LoadPlan = reply.result or {}
        message = reply.message or result.get("error")
        if message and result.get("needs_pickle") and self._confirm_pickle(path, message):
            self._next(allow_pickle=True, path=path)
            return
        if message:
            name = os.path.basename(path) or path
            # The kernel's sentences usually name the file already; don't say it twice.
            self._problems.append(message if name in message else f"{name}: {message}")
        else:
            name = str(result.get("name", ""))
            self._run_code(result["code"], lambda: self._on_code_ran(name))
            return
        self._next()

    def _on_code_ran(self, name: str) -> None:
        self.loaded.emit(name)
        self._next()

    def _flush(self) -> None:
        if self._problems:
            problems, self._problems = self._problems, []
            self.problems_reported.emit(problems)
