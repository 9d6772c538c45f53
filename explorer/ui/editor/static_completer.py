"""Completion from the script's text alone (jedi), for when the kernel is busy, paused or not there.

jedi reads the text and the installed packages' sources and stubs; it runs nothing of the
script. It runs in a process of its own (:mod:`explorer.ui.editor.jedi_worker`), started
at the first request and shared by every editor of the window's process: in this process
its first look at torch would hold the interpreter lock long enough to freeze typing.
A thread reads its answers and hands them to the GUI thread as signals; an answer to a
request that is no longer the newest is dropped.
"""

from __future__ import annotations

import itertools
import json
import queue
import subprocess
import sys
import threading
import weakref
from typing import Any

from PySide6.QtCore import QObject, Signal

from explorer.client import workers


class _Worker:
    """The jedi process and the threads that write its requests and read its answers (one per window process).

    Writing is a thread's job too: a request carries the whole script, more than a pipe
    holds, and the GUI thread must not wait for the process to read it.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[int, tuple[weakref.ref[StaticCompleter], int, str]] = {}
        self._outbox: queue.Queue[str | None] = queue.Queue()

    @property
    def started(self) -> bool:
        return self._process is not None

    def ask(self, owner: StaticCompleter, request: int, kind: str, **fields: Any) -> None:
        with self._lock:
            self._start()
            wire = next(self._ids)
            self._waiting[wire] = (weakref.ref(owner), request, kind)
        self._outbox.put(json.dumps({"id": wire, "kind": kind, **fields}) + "\n")

    def _start(self) -> None:
        if self._process is not None and self._process.poll() is None:
            return
        self._process = subprocess.Popen(
            [sys.executable, "-m", "explorer.ui.editor.jedi_worker"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self._outbox = queue.Queue()
        process, outbox = self._process, self._outbox
        # Both end at exit (workers): the process is killed, so the reader meets the end of its pipe.
        workers.start(self._write, "te-jedi-requests", process, outbox, stop=lambda: outbox.put(None))
        workers.start(self._read, "te-jedi-answers", process, stop=process.kill)

    def _write(self, process: subprocess.Popen[str], outbox: queue.Queue[str | None]) -> None:
        assert process.stdin is not None
        while True:
            line = outbox.get()
            if line is None:  # the app is ending
                return
            try:
                process.stdin.write(line)
                process.stdin.flush()
            except OSError:  # the process died: the next request starts another
                return

    def _read(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            answer = json.loads(line)
            with self._lock:
                owner_ref, request, kind = self._waiting.pop(answer["id"], (None, 0, ""))
            owner = owner_ref() if owner_ref is not None else None
            if owner is not None:
                owner.answered(request, kind, answer["result"])


_worker = _Worker()


class StaticCompleter(QObject):
    """jedi's completions and signatures for one editor, computed in the jedi process."""

    completed = Signal(int, object)  # request id, list of (name, type, characters typed) or None
    signatures_found = Signal(int, object)  # request id, (signature, docstring) or None

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._latest = {"complete": 0, "signature": 0}  # the newest request of each kind
        self._alive = threading.Event()  # cleared when the Qt object goes: late answers are dropped
        self._alive.set()
        self.destroyed.connect(self._alive.clear)

    def complete(self, request: int, code: str, line: int, column: int, path: str | None = None) -> None:
        """Complete at *line* (1-based) and *column* (characters) of *code*; answers with :attr:`completed`."""
        self._latest["complete"] = request
        _worker.ask(self, request, "complete", code=code, line=line, column=column, path=path)

    def signature(self, request: int, code: str, line: int, column: int, path: str | None = None) -> None:
        """The call signature at the cursor; answers with :attr:`signatures_found`."""
        self._latest["signature"] = request
        _worker.ask(self, request, "signature", code=code, line=line, column=column, path=path)

    def answered(self, request: int, kind: str, result: Any) -> None:
        """From the reader thread: pass the newest request's answer on (a queued signal to the GUI thread)."""
        if request != self._latest.get(kind) or not self._alive.is_set():
            return
        try:
            if kind == "complete":
                self.completed.emit(request, [tuple(item) for item in result] if result else None)
            else:
                self.signatures_found.emit(request, tuple(result) if result else None)
        except RuntimeError:  # the Qt object went between the check and the emit
            pass


_WARM_UP = "import torch\ntorch.zeros(1)."


def warm_up() -> None:
    """Once per process: start the jedi process on a tensor's attributes (its first look at torch takes seconds)."""
    if _worker.started:
        return
    _worker.ask(_warm_up_owner(), 0, "complete", code=_WARM_UP, line=2, column=len("torch.zeros(1)."), path=None)


_owner: list[StaticCompleter] = []


def _warm_up_owner() -> StaticCompleter:
    """A completer nobody listens to: the warm-up's answer goes nowhere."""
    if not _owner:
        _owner.append(StaticCompleter())
    return _owner[0]
