"""Completion from the script's text alone (jedi), for when the kernel is busy, paused or not there.

jedi reads the text and the installed packages' sources and stubs; it runs nothing of the
script and imports nothing into this process (compiled modules are looked at in jedi's
own subprocess). It runs on one worker thread: only the newest request is worked on, an
older one still waiting is skipped, and the answer comes back as a signal on the GUI thread.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QObject, Signal

#: Names offered at most (jedi can list thousands of globals).
MAX_ITEMS = 400


class StaticCompleter(QObject):
    """jedi's completions and signatures, computed off the GUI thread."""

    completed = Signal(int, object)  # request id, list of (name, type, prefix length) or None
    signatures_found = Signal(int, object)  # request id, (signature, first docstring line) or None

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="te-jedi")
        self._latest = 0
        self._lock = threading.Lock()

    def complete(self, request: int, code: str, line: int, column: int, path: str | None = None) -> None:
        """Complete at *line* (1-based) and *column* (characters) of *code*; answers with :attr:`completed`."""
        self._submit(request, self._complete, code, line, column, path)

    def signature(self, request: int, code: str, line: int, column: int, path: str | None = None) -> None:
        """The call signature at the cursor; answers with :attr:`signatures_found`."""
        self._submit(request, self._signature, code, line, column, path)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _submit(self, request: int, work: Any, *args: Any) -> None:
        with self._lock:
            self._latest = request
        self._pool.submit(self._run, request, work, *args)

    def _run(self, request: int, work: Any, *args: Any) -> None:
        with self._lock:
            if request != self._latest:
                return  # the user typed on: a newer request is queued behind this one
        try:
            work(request, *args)
        except Exception:  # noqa: BLE001 - jedi on half-typed code can fail in many ways; no answer then
            self.completed.emit(request, None)

    def _complete(self, request: int, code: str, line: int, column: int, path: str | None) -> None:
        items = []
        for completion in _script(code, path).complete(line, column)[:MAX_ITEMS]:
            typed = len(completion.name) - len(completion.complete or "")
            items.append((completion.name, completion.type, typed))
        self.completed.emit(request, items)

    def _signature(self, request: int, code: str, line: int, column: int, path: str | None) -> None:
        found = _script(code, path).get_signatures(line, column)
        if not found:
            self.signatures_found.emit(request, None)
            return
        first = found[0]
        doc = next((row.strip() for row in first.docstring(raw=True).split("\n") if row.strip()), "")
        self.signatures_found.emit(request, (first.to_string(), doc))


def _script(code: str, path: str | None) -> Any:
    """A jedi Script (imported on the worker thread: importing jedi takes a while)."""
    import jedi  # type: ignore[import-untyped]

    return jedi.Script(code, path=path)
