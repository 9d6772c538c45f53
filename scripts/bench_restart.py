"""``scripts/bench.py --only restart``: Restart and Step back with the spare kernel and without it, in one run.

The real window and kernel in this process (``tests/ui/stall_probe.DrivenWindow``):

* Restart -> kernel ready (handshake done, idle), and the longest gap of a 10 ms GUI timer meanwhile;
* Step back (Shift+F10) at statement 20 of lesson 07: until the step panel has the replayed
  statement's before and after; with the spare (swap, one execution), without it (restart in
  place, one execution), and as before issue 25 (restart in place, one execution per statement).
  The spare's row says where its time goes: the swap until the new kernel is ready, the replay's
  one execution, and the last statement stepped as F10 steps it.
* the spare's memory: the resident size of the idle spare kernel.

Every row says the load average (1 minute) at its start and end: another program on the machine
shows up in it.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from typing import Any

Row = tuple[str, str, str, str]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests.ui.stall_probe import DrivenWindow, StallProbe  # noqa: E402

STEPS = 20  # "statement 20 of lesson 07"


def _load() -> str:
    return f"{os.getloadavg()[0]:.2f}"


def _median(values: list[float]) -> str:
    values = sorted(values)
    return f"{statistics.median(values):.0f} ms ({values[0]:.0f}-{values[-1]:.0f}, n={len(values)})"


def _ready_spare(win: DrivenWindow) -> None:
    """The spare started (now, not after the app's delay) and ready, and the machine quiet again."""
    session = win.session
    session.set_spare(True)
    if not session.spare.started:
        session._start_spare()
    win.wait(lambda: session.spare.is_ready)
    win.settle(1.0)


def _restart(win: DrivenWindow) -> tuple[float, float]:
    """(Restart -> ready ms, longest GUI gap ms)."""
    session = win.session
    probe = StallProbe()
    win.settle(0.2)
    probe.start()
    start = time.perf_counter()
    win.window.running.restart()
    win.wait(lambda: session.is_ready and session.status == "idle")
    took = (time.perf_counter() - start) * 1000
    return took, probe.stop()


def _step(win: DrivenWindow, back: bool = False) -> Any:
    results: list[Any] = []
    win.window.stepper.stepped.connect(results.append)
    try:
        if back:
            win.window.steps.step_back()
        else:
            win.window.steps.step()
        win.wait(lambda: bool(results))
    finally:
        win.window.stepper.stepped.disconnect(results.append)
    return results[0]


def _step_back(win: DrivenWindow, marks: dict[str, float]) -> tuple[float, float]:
    """Shift+F10 at statement STEPS (stepping forwards to it first): (ms until the panel has the result, start)."""
    while (win.window.stepper.next_index or 0) < STEPS:
        _step(win)
    win.settle(0.3)
    marks.clear()
    start = time.perf_counter()
    result = _step(win, back=True)
    assert result.replayed == STEPS - 1, result
    marks["stepped"] = time.perf_counter()
    return (marks["stepped"] - start) * 1000, start


def bench_restart() -> list[Row]:
    from explorer.lessons import lesson_path

    load_start = _load()
    win = DrivenWindow()
    session = win.session
    marks: dict[str, float] = {}
    session.ready.connect(lambda _hello: marks.setdefault("ready", time.perf_counter()))
    win.window.runs.finished.connect(
        lambda run, _result: marks.setdefault("replayed", time.perf_counter()) if run and run.origin == "replay" else None)
    try:
        spare_restart, spare_gap, plain_restart, plain_gap = [], [], [], []
        for _ in range(3):
            _ready_spare(win)
            took, gap = _restart(win)
            spare_restart.append(took)
            spare_gap.append(gap)
        _ready_spare(win)
        rss = session.spare.rss_bytes()
        session.set_spare(False)
        for _ in range(3):
            took, gap = _restart(win)
            plain_restart.append(took)
            plain_gap.append(gap)
        load_mid = _load()
        win.window.files.open_lesson(lesson_path("07"))
        parts: dict[str, list[float]] = {"ready": [], "replayed": [], "stepped": []}
        with_spare, without, before = [], [], []
        for _ in range(2):
            _ready_spare(win)
            took, start = _step_back(win, marks)
            with_spare.append(took)
            for key in parts:
                parts[key].append((marks[key] - start) * 1000)
        session.set_spare(False)
        for _ in range(2):
            without.append(_step_back(win, marks)[0])
        session.replays_at_once = False  # as before issue 25: one execution per statement
        for _ in range(2):
            before.append(_step_back(win, marks)[0])
        del session.replays_at_once
    finally:
        win.close()
    load_end = _load()
    ready, replayed, stepped = (statistics.median(parts[k]) for k in ("ready", "replayed", "stepped"))
    loads = f"load avg {load_start} -> {load_mid}"
    loads_steps = f"load avg {load_mid} -> {load_end}"
    return [
        (f"Restart -> kernel ready, with the spare kernel ({loads})", _median(spare_restart),
         f"without the spare: {_median(plain_restart)}", "<= 300 ms"),
        (f"GUI freeze during Restart: longest gap of a 10 ms timer, with the spare ({loads})", _median(spare_gap),
         f"without the spare: {_median(plain_gap)}", "<= 50 ms"),
        (f"Step back at statement 20 of lesson 07, with the spare ({loads_steps}); of which: swap -> ready "
         f"{ready:.0f} ms, replay's one execution done {replayed:.0f} ms, statement 19 stepped {stepped:.0f} ms",
         _median(with_spare), f"without the spare: {_median(without)}; one run per statement, no spare "
         f"(before issue 25): {_median(before)}", "<= 1.5 s"),
        ("the spare kernel's memory: resident size of the idle spare (torch imported, extension loaded)",
         f"{(rss or 0) / 2**20:.0f} MiB", "", "said in README.md"),
    ]
