"""Prove a fix on the learner's own script: run the script with the fix applied in a separate background kernel.

An error card's fix is only called a fix once it ran. :func:`prove` starts a fresh headless kernel
(never the learner's), seeds ``random``/NumPy/torch as step-back seeds its replay, has the kernel
apply the card's fix to the whole script (``ApplyFix``), runs it for a bounded time and compares
where it stopped with where the learner's run failed. The verdict (:func:`prove`'s dict)::

    {"status": "runs" | "fails" | "timeout" | "not_checked",
     "past_line": N or None,   # the line the learner's run failed on (its top-level statement),
                               # when the fixed script got beyond it
     "error": {"type", "message", "line", "title"} or None,   # what the fixed script raised
     "stopped_at": M or None,  # "timeout": the line that was running when the budget ran out
     "budget": seconds the script was given, "seconds": the whole proof's wall time,
     "reason": why it was "not_checked" ("no_fix", "cannot_apply", "kernel", "no_time", ...)}

Lines are the learner's file's: a line of the patched script is mapped back around the fix.
The budget (:func:`run_budget`) is what a background check may cost: the kernel runs at a lower
CPU priority and is interrupted, then killed, when its time is up. This module is blocking and
Qt-free (the CLI calls :func:`prove` directly); the window runs it in a thread
(:mod:`explorer.client.fix_prover`).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from explorer import protocol
from explorer.client import budgets
from explorer.client.headless import (
    ExtensionError,
    HeadlessKernel,
    KernelDiedError,
    KernelKilledError,
    KernelStartTimeout,
)
from explorer.protocol.cells import has_code

#: The seed of the proof run: step-back's (``explorer.client.step.STEP_SEED``), so both draw the same numbers.
PROOF_SEED = 0
#: Seconds a proof gives a script that failed at once: a fresh kernel imports torch (seconds on a busy
#: machine) and runs a lesson-sized script, with room for a loaded machine.
MIN_BUDGET = 15.0
#: The most a background proof may run, however long the learner's run took: it must not hold a core for long.
MAX_BUDGET = 60.0
#: Seconds the proof's kernel gets to start and shake hands.
START_TIMEOUT = 30.0
#: Seconds for the proof kernel's report after the run (the error card of what the fixed script raised).
REPORT_TIMEOUT = 15.0
#: Seconds kept, within a deadline, for the report after an interrupted run.
REPORT_RESERVE = 3.0
#: The niceness of the proof kernel: the learner's own kernel and the window come first.
NICENESS = 10
_MAX_MESSAGE = 300


def run_budget(seconds_to_error: float | None) -> float:
    """Seconds the patched script may run: 15 s plus twice what the learner's run took to fail, 60 s at most.

    Twice: the fixed script spends about as long again to reach the failing line (same code, same
    seed), and as long once more shows what it does beyond it.
    """
    taken = max(seconds_to_error or 0.0, 0.0)
    return float(min(MAX_BUDGET, round(MIN_BUDGET + 2 * taken)))


@dataclass
class ProofRequest:
    """What to prove: the whole *script*, the error *card* (``fix``, ``fix_mode``, ``fix_line``, ``line``)
    and its *frames* (``FrameInfo`` dicts), every line counted in the script's file."""

    script: str
    card: dict[str, Any]
    frames: list[dict[str, Any]] = field(default_factory=list)
    path: str | None = None  # the script's file: ``__file__`` and sibling imports, as in the learner's kernel
    cwd: str | None = None
    language: str = "en"
    budget: float = MIN_BUDGET
    start_timeout: float = START_TIMEOUT
    deadline: float | None = None  # time.monotonic() by which the whole proof must be over (the CLI's --timeout)

    def left(self) -> float:
        """Seconds until the deadline (infinite without one)."""
        return float("inf") if self.deadline is None else self.deadline - time.monotonic()


def verdict(status: str, **facts: Any) -> dict[str, Any]:
    """A verdict dict with every key present."""
    out: dict[str, Any] = {"status": status, "past_line": None, "error": None, "stopped_at": None,
                           "budget": None, "seconds": None, "reason": None, "detail": None}
    out.update(facts)
    return out


def not_checked(reason: str, **facts: Any) -> dict[str, Any]:
    return verdict("not_checked", reason=reason, **facts)


def has_code_fix(card: dict[str, Any] | None) -> bool:
    """True when the card offers code that applies at a line (not advice in comment lines)."""
    if not card or card.get("fix_mode") not in ("replace", "before") or not isinstance(card.get("fix_line"), int):
        return False
    return has_code(str(card.get("fix") or ""))


# -- lines ----------------------------------------------------------------------------------------
def original_line(line: int, patch: protocol.PatchedScript) -> int:
    """The learner's line of *line* of the patched script (a line of the fix itself is the fix's place)."""
    first, last, count = patch["first"], patch["last"], patch["lines"]
    if first is None or last is None or line < first:
        return line
    if line < first + count:
        return first
    return line - count + (last - first + 1)


def chain(frames: list[dict[str, Any]], fallback: Any = None) -> list[int]:
    """The script's lines of an error's frames, outermost first (the top-level statement, then each call)."""
    lines = [f["line"] for f in frames if f.get("in_code") and isinstance(f.get("line"), int)]
    if not lines and isinstance(fallback, int):
        lines = [fallback]
    return lines


def got_past(before: list[int], after: list[int]) -> bool:
    """True when *after* (where the fixed script stopped) lies beyond *before* (where the learner's failed).

    Compared call by call from the top level: at the first call where they differ, a later line is
    beyond. The same place, or deeper inside the same call, is not (the same statement still fails).
    """
    for old, new in zip(before, after):
        if old != new:
            return new > old
    return False


# -- cancelling -----------------------------------------------------------------------------------
class ProofJob:
    """One proof; :meth:`cancel` (from any thread) kills its kernel at once."""

    def __init__(self, request: ProofRequest) -> None:
        self.request = request
        self._cancelled = threading.Event()
        self._lock = threading.Lock()
        self._pid: int | None = None

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def cancel(self) -> None:
        self._cancelled.set()
        with self._lock:
            pid, self._pid = self._pid, None
        if pid is not None:
            _kill(pid)

    def run(self) -> dict[str, Any]:
        """Prove the fix (blocking); a cancelled job answers ``not_checked`` / ``cancelled``."""
        return prove(self.request, self)

    def _started(self, pid: int | None) -> bool:
        """Remember the kernel's pid; False when the job was cancelled meanwhile."""
        with self._lock:
            self._pid = pid if not self.cancelled else None
        return not self.cancelled

    def _ending(self) -> None:
        with self._lock:
            self._pid = None  # from here on the kernel is shut down by the job itself


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL if hasattr(signal, "SIGKILL") else signal.SIGTERM)
    except OSError:
        pass  # already gone


def _lower_priority(pid: int | None) -> None:
    """Let the proof kernel yield the CPU to the learner's kernel and the window (POSIX; best effort)."""
    if pid is None or not hasattr(os, "setpriority") or sys.platform == "win32":
        return
    try:
        os.setpriority(os.PRIO_PROCESS, pid, NICENESS)
    except OSError:
        pass


# -- proving --------------------------------------------------------------------------------------
def prove(request: ProofRequest, job: ProofJob | None = None) -> dict[str, Any]:
    """Run the script with the card's fix in a fresh kernel and say how far it got (blocking; never raises)."""
    started = time.monotonic()
    if not has_code_fix(request.card):
        return not_checked("no_fix")
    try:
        kernel = HeadlessKernel(cwd=request.cwd, language=request.language,
                                start_timeout=max(min(request.start_timeout, request.left()), 0.01))
    except (KernelStartTimeout, KernelDiedError, ExtensionError, OSError) as exc:
        reason = "cancelled" if job is not None and job.cancelled else "kernel"
        return not_checked(reason, detail=str(exc), seconds=time.monotonic() - started)
    try:
        pid = kernel.hello.get("pid")
        if job is not None and not job._started(pid):
            return not_checked("cancelled")
        _lower_priority(pid)
        result = _prove_in(kernel, request)
    except KernelDiedError:
        if job is not None and job.cancelled:
            return not_checked("cancelled")
        result = verdict("fails", error={"type": "KernelDied", "line": None, "title": None,
                                         "message": "the kernel process ended while running the fixed script"})
    except Exception as exc:  # noqa: BLE001 - a proof that cannot be made is "not checked", never a crash
        result = not_checked("cancelled" if job is not None and job.cancelled else "kernel",
                             detail=f"{type(exc).__name__}: {exc}")
    finally:
        if job is not None:
            job._ending()
        kernel.shutdown()
    result["seconds"] = round(time.monotonic() - started, 2)
    return result


def _prove_in(kernel: HeadlessKernel, request: ProofRequest) -> dict[str, Any]:
    """The proof in a started kernel: patch, seed, run within the budget, judge."""
    card = request.card
    if request.path:
        kernel.ask(protocol.ScriptContext(path=request.path), timeout=_wait(request))
    reply = kernel.ask(protocol.ApplyFix(code=request.script, fix=str(card["fix"]), fix_mode=str(card["fix_mode"]),
                                         fix_line=int(card["fix_line"])), timeout=_wait(request))
    patch = reply.result if reply.ok else None
    code = patch.get("code") if patch else None
    if patch is None or code is None:
        return not_checked("cannot_apply", detail=reply.message if not reply.ok else None)
    kernel.ask(protocol.SeedRandom(seed=PROOF_SEED), timeout=_wait(request))
    # Within a deadline, the interrupt, its grace and the report must fit after the run.
    budget = round(min(request.budget, request.left() - budgets.seconds(budgets.STOP_GRACE) - REPORT_RESERVE), 1)
    if budget < 1:
        return not_checked("no_time")
    try:
        outcome = kernel.run(code, timeout=budget)
    except KernelKilledError:  # it ignored the interrupt at the end of its time: where it was is unknown
        return verdict("timeout", budget=budget)
    if outcome["status"] == "ok" and not outcome["interrupted"]:
        return verdict("runs", past_line=_first(request), budget=budget)
    report = kernel.ask(protocol.AfterRun(code=code, failed=True, overlaps=False), timeout=_wait(request))
    if not report.ok or report.result is None:
        return not_checked("no_time" if report.error and report.error.type == "Timeout" else "kernel",
                           detail=report.message, budget=budget)
    raised = report.result.get("error")
    error: dict[str, Any] | None = dict(raised) if raised else None
    if error is None and not outcome["interrupted"]:  # a clean sys.exit(): the script ended normally
        return verdict("runs", past_line=_first(request), budget=budget)
    return _judge(request, patch, error or {}, outcome["interrupted"], budget)


def _wait(request: ProofRequest) -> float:
    """Seconds one request to the proof kernel may take."""
    return max(min(REPORT_TIMEOUT, request.left()), 0.5)


def _first(request: ProofRequest) -> int | None:
    """The learner's failing top-level line (what "runs past line N" names)."""
    lines = chain(request.frames, request.card.get("line"))
    return lines[0] if lines else None


def _judge(request: ProofRequest, patch: protocol.PatchedScript, error: dict[str, Any], interrupted: bool,
           budget: float) -> dict[str, Any]:
    """Where the fixed script stopped (an error, or the budget's interrupt) against where the learner's failed."""
    frames = [dict(f, line=original_line(f["line"], patch)) if f.get("in_code") and isinstance(f.get("line"), int)
              else f for f in error.get("frames") or [] if isinstance(f, dict)]
    line = error.get("line")
    line = original_line(line, patch) if isinstance(line, int) else None
    past = got_past(chain(request.frames, request.card.get("line")), chain(frames, line))
    past_line = _first(request) if past else None
    if interrupted:
        return verdict("timeout", past_line=past_line, stopped_at=line, budget=budget)
    message = str(error.get("message") or "")
    found = {"type": error.get("type"), "message": message[:_MAX_MESSAGE], "line": line, "title": error.get("title")}
    return verdict("fails", past_line=past_line, error=found, budget=budget)
