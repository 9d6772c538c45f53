"""Completion from the script's text alone (jedi), for when the kernel is busy, paused or not there.

jedi reads the text and the installed packages' sources and stubs; it runs nothing of the
script and imports nothing into this process (compiled modules are looked at in jedi's
own subprocess). It runs on one worker thread: only the newest request is worked on, an
older one still waiting is skipped, and the answer comes back as a signal on the GUI thread.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

#: Names offered at most (jedi can list thousands of globals).
MAX_ITEMS = 2000
_jobs: queue.Queue[Callable[[], None]] = queue.Queue()
_worker: threading.Thread | None = None


def _work() -> None:
    while True:
        _jobs.get()()


def _submit(job: Callable[[], None]) -> None:
    """Run *job* on the one jedi thread of the process (jedi is not thread-safe; a daemon: quitting never waits)."""
    global _worker
    if _worker is None:
        _worker = threading.Thread(target=_work, name="te-jedi", daemon=True)
        _worker.start()
    _jobs.put(job)


class StaticCompleter(QObject):
    """jedi's completions and signatures, computed off the GUI thread."""

    completed = Signal(int, object)  # request id, list of (name, type, prefix length) or None
    signatures_found = Signal(int, object)  # request id, (signature, first docstring line) or None

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._latest = 0
        self._lock = threading.Lock()
        self._alive = threading.Event()  # cleared when the Qt object goes: its queued work is skipped
        self._alive.set()
        self.destroyed.connect(self._alive.clear)

    def complete(self, request: int, code: str, line: int, column: int, path: str | None = None) -> None:
        """Complete at *line* (1-based) and *column* (characters) of *code*; answers with :attr:`completed`."""
        self._submit(request, self._complete, code, line, column, path)

    def signature(self, request: int, code: str, line: int, column: int, path: str | None = None) -> None:
        """The call signature at the cursor; answers with :attr:`signatures_found`."""
        self._submit(request, self._signature, code, line, column, path)

    def _submit(self, request: int, work: Any, *args: Any) -> None:
        with self._lock:
            self._latest = request
        _submit(lambda: self._run(request, work, *args))

    def _run(self, request: int, work: Any, *args: Any) -> None:
        with self._lock:
            if request != self._latest or not self._alive.is_set():
                return  # the user typed on (a newer request replaces this one), or the editor closed
        try:
            work(request, *args)
        except Exception:  # noqa: BLE001 - jedi on half-typed code can fail in many ways: no answer then
            return

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
