"""Which code runs next, and which piece of the editor a finished run belongs to.

The window submits :class:`Run` objects (the whole file, a cell, a selection, a
loading snippet); the queue sends one at a time when the kernel is ready and
idle, and matches each finished execution to its run by the execution's message
id, never by comparing code text. Code typed in the console finishes as a run
of no editor range (``run`` is None). When the kernel dies or restarts, the run
in flight and the waiting ones are dropped (they would run in a fresh namespace).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from explorer.client.link import KernelLink
from explorer.client.states import KernelStatus, RunOrigin


@dataclass
class Run:
    """One piece of code the window asked to run.

    Attributes
    ----------
    code : str
        Exactly what is sent to the kernel.
    first_line : int or None
        The editor line (1-based) the code starts at; None when it is not the editor's text.
    origin : RunOrigin
        What the user did: "file", "cell", "selection", "step", "replay" or "load".
    on_finished : callable, optional
        Called with the session's result once it finished (e.g. the loader's next file).
    before : callable, optional
        Called just before the code is sent, after every earlier run finished
        (a step asks the kernel to remember the variables as they are then).
    """

    code: str
    first_line: int | None = None
    origin: RunOrigin = "file"
    on_finished: Callable[[dict], None] | None = None
    msg_id: str | None = field(default=None, compare=False)
    before: Callable[[], None] | None = field(default=None, compare=False)

    def file_line(self, line: Any) -> int | None:
        """The editor line of *line* counted in the submitted code (None when not the editor's code)."""
        if self.first_line is None or not isinstance(line, int) or line < 1:
            return None
        return self.first_line - 1 + line


class RunQueue(QObject):
    """Sends runs to *session* one at a time and reports each finished one with its :class:`Run`."""

    started = Signal(object)  # Run
    finished = Signal(object, dict)  # (Run or None for console input, the session's result)

    def __init__(self, session: KernelLink, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._waiting: list[Run] = []
        self._current: Run | None = None
        #: Called with every run just before it is sent (the window asks the kernel to watch gradients).
        self.prepare: Callable[[Run], None] | None = None
        session.run_finished.connect(self._on_session_run_finished)
        session.status_changed.connect(self._on_session_status_changed)
        session.ready.connect(self._on_session_ready)
        session.kernel_died.connect(self._on_session_kernel_gone)
        session.kernel_restarted.connect(self._on_session_kernel_gone)

    @property
    def current(self) -> Run | None:
        """The run the kernel is executing now (None when idle or running console input)."""
        return self._current

    def waiting(self) -> list[Run]:
        return list(self._waiting)

    def submit(self, run: Run) -> None:
        """Queue *run*; it starts as soon as the kernel is ready and nothing else of ours runs."""
        if not run.code.strip():
            return
        self._waiting.append(run)
        self._flush()

    def clear(self) -> None:
        """Forget the runs not started yet (Stop, Restart)."""
        dropped, self._waiting = self._waiting, []
        for run in dropped:
            if run.on_finished is not None:
                run.on_finished({"msg_id": None, "code": run.code, "failed": True, "dropped": True})

    def _flush(self) -> None:
        if not self._waiting or self._current is not None:
            return
        if not self._session.is_ready or self._session.status != "idle":
            return
        run = self._waiting.pop(0)
        # Requests asked here travel on the same channel just ahead of the code: the kernel answers them first.
        if self.prepare is not None:
            self.prepare(run)
        if run.before is not None:
            run.before()
        run.msg_id = self._session.execute(run.code)
        self._current = run
        self.started.emit(run)

    def _on_session_run_finished(self, result: dict) -> None:
        run = self._current
        if run is not None and result.get("msg_id") == run.msg_id:
            self._current = None
        else:
            run = None
        self.finished.emit(run, result)
        if run is not None and run.on_finished is not None:
            run.on_finished(result)
        QTimer.singleShot(0, self._flush)

    def _on_session_status_changed(self, status: KernelStatus) -> None:
        if status == "idle":
            QTimer.singleShot(0, self._flush)

    def _on_session_ready(self, _hello: dict) -> None:
        QTimer.singleShot(0, self._flush)

    def _on_session_kernel_gone(self, *_args: Any) -> None:
        dropped = ([self._current] if self._current is not None else []) + self._waiting
        self._current = None
        self._waiting = []
        for run in dropped:  # whoever waits on a run (the loader) must not wait forever
            if run.on_finished is not None:
                run.on_finished({"msg_id": run.msg_id, "code": run.code, "failed": True, "dropped": True})
