"""The window's fix proofs: each error card's fix runs on the learner's script in a background thread and kernel.

What "the script" is: the editor's whole text, with the fix applied at its file line, whatever
ran (F5, a cell, F9, a step): the card's lines are the file's once the run was the editor's code.
Code typed in the console, or a data file's loading snippet, is no part of the editor's script,
so its fix is not run (``not_checked``, reason ``"console"``); neither is one from an attached
kernel, whose files and devices are elsewhere (``"attached"``).

The proof itself is :func:`explorer.client.fix_proof.prove` (a separate kernel, seeded like
step-back, at a lower priority, within :func:`~explorer.client.fix_proof.run_budget` of the time
the learner's run took). It runs in a worker thread, so the window never waits; a new run of
ours, a new card, :meth:`FixProver.cancel` or the window closing kills the kernel of a pending proof.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QSettings, Signal

from explorer.client import workers
from explorer.client.fix_proof import ProofJob, ProofRequest, has_code_fix, not_checked, run_budget
from explorer.client.link import WindowLink
from explorer.client.run_queue import Run, RunQueue

#: QSettings key of Run > Check Fixes on My Script.
ENABLED_KEY = "run/check_fixes"
#: Seconds the window waits, when it closes, for a cancelled proof's thread to stop its kernel.
CLOSE_WAIT_S = 2.0


class FixProver(QObject):
    """Proves the fix of the window's error card on the learner's script, one proof at a time.

    Signals
    -------
    checked(dict)
        The verdict of the card shown now (see :mod:`explorer.client.fix_proof`); stale ones are dropped.
    """

    checked = Signal(object)
    _finished = Signal(int, object)  # (token, verdict), emitted in the worker thread, delivered queued

    def __init__(self, runs: RunQueue, session: WindowLink, language: Callable[[], str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._language = language
        self._job: ProofJob | None = None
        self._thread: threading.Thread | None = None
        self._token = 0
        self._run_started: float | None = None
        self.enabled = QSettings().value(ENABLED_KEY, True) in (True, "true")
        runs.started.connect(self._on_runs_started)
        self._finished.connect(self._on_finished)

    # -- public ------------------------------------------------------------------------------
    def set_enabled(self, on: bool) -> None:
        """Turn the proofs on or off (remembered); off cancels a pending one."""
        self.enabled = bool(on)
        QSettings().setValue(ENABLED_KEY, self.enabled)
        if not self.enabled:
            self.cancel()

    def check(self, run: Run | None, error: dict[str, Any] | None, script: str, path: str | None) -> dict | None:
        """Start proving the fix of *error* (lines in the file) on *script*; what the card shows at once.

        Returns ``{"status": "checking", "budget"}`` while the proof runs, a ``not_checked`` verdict
        when it will not run, or None when there is no code fix to speak of (or proofs are off).
        """
        self.cancel()
        if not has_code_fix(error) or (error or {}).get("type") == "KeyboardInterrupt" or not self.enabled:
            return None
        assert error is not None
        if not self._session.owns_kernel:
            return not_checked("attached")
        if run is None or run.first_line is None:
            return not_checked("console")
        taken = time.monotonic() - self._run_started if self._run_started is not None else None
        request = ProofRequest(script, error, _file_frames(error.get("frames") or [], run), path=path,
                               cwd=os.getcwd(), language=self._language(), budget=run_budget(taken))
        self._start(ProofJob(request))
        return {"status": "checking", "budget": request.budget}

    def cancel(self) -> None:
        """Forget the pending proof and kill its kernel."""
        self._token += 1
        job, self._job = self._job, None
        if job is not None:
            job.cancel()

    def is_checking(self) -> bool:
        return self._job is not None

    def shutdown(self) -> None:
        """Cancel, and give the worker a moment to stop its kernel (the window is closing)."""
        self.cancel()
        thread = self._thread
        if thread is not None and thread.is_alive():
            thread.join(CLOSE_WAIT_S)

    # -- the worker -------------------------------------------------------------------------------
    def _start(self, job: ProofJob) -> None:
        self._token += 1
        token, self._job = self._token, job

        def work() -> None:
            try:
                result = job.run()
            except BaseException as exc:  # noqa: BLE001 - the card must not say "checking…" forever
                result = not_checked("kernel", detail=f"{type(exc).__name__}: {exc}")
            try:
                self._finished.emit(token, result)
            except RuntimeError:  # the window (and this object) is gone
                pass

        # A proof never keeps the app alive: at exit its job is cancelled (its kernel killed) and it is joined.
        self._thread = workers.start(work, "te-fix-proof", stop=job.cancel)

    def _on_finished(self, token: int, result: dict) -> None:
        if token != self._token:
            return  # cancelled, or a newer card
        self._job = None
        self.checked.emit(result)

    def _on_runs_started(self, _run: Run) -> None:
        """A run of ours begins: a proof of the last card is out of date."""
        self.cancel()
        self._run_started = time.monotonic()


def _file_frames(frames: list[dict[str, Any]], run: Run) -> list[dict[str, Any]]:
    """The error's frames with the lines of the code that ran counted in the editor's file."""
    out = []
    for frame in frames:
        if frame.get("in_code") and isinstance(frame.get("line"), int):
            frame = dict(frame, line=run.file_line(frame["line"]))
        out.append(frame)
    return out
