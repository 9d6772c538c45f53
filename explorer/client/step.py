"""Step-through: run the editor's script one top-level statement at a time, forwards and back.

F10 runs the next statement (:mod:`explorer.client.statements`), after asking
the kernel to remember the variables as they are (``StepCapture``); once it
ran, the variables the snapshot reports as changed come back before and after
(``StepCompare``). Run to cursor runs the statements up to the cursor's one and
stops at the first that raises. Stepping back cannot undo code, so it is a
replay: a fresh kernel (the session's spare, when it has one ready),
``random``/NumPy/torch seeded as for the first step, and the statements before
the target run again in one execution (:func:`replay_code`; errors included, as
they happened the first time, and they do not stop it); the target itself is
stepped as F10 steps it. Every statement runs as a :class:`Run` with
its file line, so an error card speaks of the file's lines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, Signal

from explorer import protocol
from explorer.client.link import KernelLink
from explorer.client.run_queue import Run, RunQueue
from explorer.client.statements import Statement, index_at_or_after, split_statements

#: The seed of every step-through and replay.
STEP_SEED = 0


@dataclass
class StepResult:
    """What one step (or run to cursor, or replay) did.

    Attributes
    ----------
    statement : Statement or None
        The last statement that ran (None after a replay to the very start).
    index, total : int
        Its 0-based index and the number of statements in the script.
    items : list of dict
        :class:`explorer.protocol.BeforeAfter` of each changed variable.
    changes : dict
        The snapshot's ``changes`` of every statement that ran (new, changed, through).
    error : dict or None
        The error card of the statement that raised (lines of the statement's code).
    replayed : int or None
        How many statements a replay ran in the fresh kernel; None for a forward step.
    ran : int
        How many statements ran forwards (1 for F10, more for run to cursor).
    """

    statement: Statement | None
    index: int
    total: int
    items: list[dict] = field(default_factory=list)
    changes: dict = field(default_factory=dict)
    error: dict | None = None
    replayed: int | None = None
    ran: int = 1


class Stepper(QObject):
    """Steps through a script on the window's kernel *session*, through its run queue *runs*."""

    stepped = Signal(object)  # StepResult
    position_changed = Signal(object, object)  # (Statement that ran last or None, next Statement or None)
    replay_started = Signal(int)  # how many statements will be replayed
    ended = Signal()  # F10 at the end of the script: nothing left to run
    busy_changed = Signal(bool)
    queued_changed = Signal(int)  # F10 presses waiting for the step that runs now (0: none left)
    replay_progressed = Signal(int, int)  # (statements replayed so far, statements the replay runs)

    def __init__(self, session: KernelLink, runs: RunQueue, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._runs = runs
        self._next: int | None = None  # index of the statement F10 runs next; None: start at the cursor
        self._busy = False
        self._statements: list[Statement] = []
        self._pending: list[int] = []
        self._changes: dict = {}
        self._last_changes: dict = {}
        self._error: dict | None = None
        self._replaying = 0
        self._replay_target = 0
        self._first_run = 0
        self._queued = 0  # F10 presses while a step ran: each runs the next statement in turn
        self._queued_text = ""
        session.namespace_changed.connect(self._on_session_namespace_changed)

    # -- state --------------------------------------------------------------------------
    @property
    def next_index(self) -> int | None:
        return self._next

    @property
    def busy(self) -> bool:
        """A step, run to cursor or replay is under way (until its before/after comparison is back)."""
        return self._busy

    def is_replaying(self) -> bool:
        return self._busy and self._replaying > 0

    @property
    def queued(self) -> int:
        """F10 presses waiting to run, one statement each, after the step that runs now."""
        return self._queued

    def _set_queued(self, count: int) -> None:
        if count != self._queued:
            self._queued = count
            self.queued_changed.emit(count)

    def reset(self) -> None:
        """Forget the position (new text, a run of the whole file, a restart by the user)."""
        self._set_queued(0)
        if self._busy:
            return
        self._next = None
        self.position_changed.emit(None, None)

    # -- commands ------------------------------------------------------------------------
    def step(self, text: str, cursor_line: int) -> bool:
        """Run the next statement (the first at or after *cursor_line* when no step ran yet).

        Pressed while a step (or the kernel's start under it) is still running, the press is queued:
        it runs the statement after, as soon as that step is done; a replay is not stepped into.
        """
        if self._busy:
            if self._replaying:
                return False
            self._queued_text = text
            self._set_queued(self._queued + 1)
            return True
        statements = self._current(text)
        start = self._next if self._next is not None else index_at_or_after(statements, cursor_line)
        if start >= len(statements):
            self._set_queued(0)
            self.ended.emit()
            return False
        self._forward(statements, start, start + 1)
        return True

    def run_to(self, text: str, line: int) -> bool:
        """Run up to the statement at *line* (it runs next); back to it by a replay when it already ran."""
        if self._busy:
            return False
        statements = self._current(text)
        target = index_at_or_after(statements, line)
        current = self._next if self._next is not None else 0
        if target > current:
            self._forward(statements, current, target)
        elif target < current:
            self._replay(statements, target)
        else:
            return False
        return True

    def step_back(self, text: str) -> bool:
        """Undo the last statement by replaying the ones before it in a fresh kernel."""
        statements = self._current(text)
        if self._busy or not self._next:
            return False
        self._replay(statements, self._next - 1)
        return True

    def _current(self, text: str) -> list[Statement]:
        """The statements of *text*; the position is forgotten when they are not the ones stepped so far.

        Comments may change (a lesson shown in the other language): only the
        statements and their lines count.
        """
        statements = split_statements(text)
        if statements != self._statements and not self._busy:
            self._next = None
            self._statements = statements
        return statements

    # -- running -------------------------------------------------------------------------
    def _set_busy(self, busy: bool) -> None:
        if busy != self._busy:
            self._busy = busy
            self.busy_changed.emit(busy)

    def _forward(self, statements: list[Statement], start: int, stop: int, replayed: int | None = None) -> None:
        """Run ``statements[start:stop]`` one after another, remembering the variables before the first."""
        self._statements = statements
        self._pending = list(range(start, stop))
        self._first_run = start
        self._changes, self._error = {}, None
        self._replaying = 0 if replayed is None else replayed
        self._set_busy(True)
        self._submit_next()

    def _submit_next(self) -> None:
        index = self._pending.pop(0)
        statement = self._statements[index]
        code = statement.code

        def before() -> None:
            self._last_changes = {}
            if index == 0:
                self._session.ask(protocol.SeedRandom(seed=STEP_SEED), _ignore)
            if index == self._first_run:
                self._session.ask(protocol.StepCapture(code=code), _ignore)

        self._runs.submit(Run(code, statement.first_line, "step", before=before,
                              on_finished=lambda result: self._on_statement_finished(index, result)))

    def _on_statement_finished(self, index: int, result: dict) -> None:
        if result.get("dropped"):  # the kernel died or was restarted meanwhile: the position means nothing
            self._pending = []
            self._set_queued(0)
            self._set_busy(False)
            self._next = None
            self.position_changed.emit(None, None)
            return
        self._next = index + 1
        self._changes.update(self._last_changes)
        self.position_changed.emit(self._statements[index], self._at(index + 1))
        if result.get("failed") or result.get("error"):
            self._error = result.get("error")
            self._pending = []  # run to cursor stops at the statement that raised
            self._set_queued(0)  # and queued F10 presses stop there too: the error is what to look at
        if self._pending:
            self._submit_next()
            return
        names = list(self._changes)
        self._session.ask(protocol.StepCompare(names=names), lambda reply: self._on_compared(index, reply))

    def _on_compared(self, index: int, reply: protocol.Reply[Any]) -> None:
        items = list((reply.result or {}).get("items") or []) if reply.ok else []
        result = StepResult(self._statements[index], index, len(self._statements), items, dict(self._changes),
                            self._error, self._replaying or None, index + 1 - self._first_run)
        if self._replaying:
            self.replay_progressed.emit(self._replaying, self._replaying)
        self._replaying = 0
        self._set_busy(False)
        self.stepped.emit(result)
        if self._queued:
            self._set_queued(self._queued - 1)
            self.step(self._queued_text, 1)  # the position is known: the line is not used

    def _at(self, index: int) -> Statement | None:
        return self._statements[index] if 0 <= index < len(self._statements) else None

    # -- replay ---------------------------------------------------------------------------
    def _replay(self, statements: list[Statement], target: int) -> None:
        """A fresh kernel, seeded, then the statements before *target*; the last one shows before and after."""
        self._statements = statements
        self._set_queued(0)
        self._set_busy(True)
        self._replaying = max(target, 1)
        self.replay_started.emit(target)
        self._session.ready.connect(self._on_session_ready_for_replay)
        self._replay_target = target
        self._session.restart()

    def _on_session_ready_for_replay(self, _hello: dict) -> None:
        self._session.ready.disconnect(self._on_session_ready_for_replay)
        target = self._replay_target
        self._session.ask(protocol.SeedRandom(seed=STEP_SEED), _ignore)
        if target == 0:
            self._next = 0
            self._set_busy(False)
            self.position_changed.emit(None, self._at(0))
            self.stepped.emit(StepResult(None, -1, len(self._statements), replayed=0, ran=0))
            return
        self.replay_progressed.emit(0, target)
        if getattr(self._session, "replays_at_once", False) and target > 1:
            # One execution (our extension's cell magic), one snapshot: not one of each per statement.
            self._runs.submit(Run(replay_code(self._statements[:target - 1]), None, "replay",
                                  on_finished=self._replayed_callback(target - 1, target)))
        else:
            for index in range(target - 1):
                statement = self._statements[index]
                self._runs.submit(Run(statement.code, statement.first_line, "replay",
                                      on_finished=self._replayed_callback(index + 1, target)))
        # The last one is stepped as F10 stepped it: before and after, selection, marks.
        self._forward(self._statements, target - 1, target, replayed=target)

    def _replayed_callback(self, done: int, total: int) -> Callable[[dict], None]:
        def on_finished(_result: dict) -> None:
            if self._busy and self._replaying:
                self.replay_progressed.emit(done, total)
        return on_finished

    # -- signals --------------------------------------------------------------------------
    def _on_session_namespace_changed(self, snapshot: protocol.SnapshotReply) -> None:
        self._last_changes = dict(snapshot["changes"])


def replay_code(statements: list[Statement]) -> str:
    """The cell that replays *statements* as one execution (see ``explorer.core.step.replay``)."""
    specs = " ".join(f"{s.first_line}:{s.code.count(chr(10)) + 1}" for s in statements)
    return f"%%{protocol.REPLAY_MAGIC} {specs}\n" + "\n".join(s.code for s in statements)


def _ignore(_reply: protocol.Reply[Any]) -> None:
    """Nothing to do with the answer."""
