"""Benchmark rows of the fix proof: how long the background proof of an error card's fix takes, and the window's
event loop meanwhile (the proof runs in a worker thread and a second kernel, so the GUI must not stall).

The scripts run first as the learner's run (a fresh kernel, the time to the error measured), their card comes
from the real explainer, then :func:`explorer.client.fix_proof.prove` runs the fixed script as the window does.
"""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

from explorer import protocol
from explorer.client.fix_proof import ProofRequest, prove, run_budget
from explorer.client.headless import HeadlessKernel

Row = tuple[str, str, str, str]

# A lesson-sized script (lesson 10's regression, then a product whose shapes do not fit, then more work).
LESSON = """import torch
torch.manual_seed(0)
x = torch.linspace(-1, 1, 20).unsqueeze(1)
y = 3 * x + 0.5 + 0.1 * torch.randn(20, 1)
w = torch.zeros(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
optimizer = torch.optim.SGD([w, b], lr=0.3)
for _ in range(100):
    loss = ((x * w + b - y) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
features = torch.ones(4, 3)
weights = torch.ones(4, 5)
scores = features @ weights
total = scores.sum()
"""
# The same error, then a training loop that runs for 30 s.
TRAINS_30S_AFTER = """import time
import torch
features = torch.ones(4, 3)
weights = torch.ones(4, 5)
scores = features @ weights
model = torch.nn.Linear(64, 64)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
batch = torch.randn(256, 64)
end = time.monotonic() + 30
while time.monotonic() < end:
    optimizer.zero_grad()
    loss = model(batch).pow(2).mean()
    loss.backward()
    optimizer.step()
"""
# 30 s of training first, then the error: the learner waited 30 s for it.
TRAINS_30S_BEFORE = TRAINS_30S_AFTER.replace("scores = features @ weights\n", "").replace(
    "    optimizer.step()\n", "    optimizer.step()\nscores = features @ weights\n")


def _learners_run(code: str) -> tuple[dict[str, Any], float]:
    """The error card of *code* run as the window runs it, and the seconds the run took to fail."""
    with HeadlessKernel() as kernel:
        start = time.monotonic()
        outcome = kernel.run(code, timeout=120)
        taken = time.monotonic() - start
        reply = kernel.ask(protocol.AfterRun(code=code, failed=outcome["status"] == "error", overlaps=False))
    error = (reply.result or {}).get("error")
    assert error and error.get("fix_mode"), error
    return dict(error), taken


def _proof_row(label: str, code: str, reference: str) -> Row:
    card, taken = _learners_run(code)
    request = ProofRequest(code, card, list(card.get("frames") or []), budget=run_budget(taken))
    start = time.monotonic()
    verdict = prove(request)
    wall = time.monotonic() - start
    said = f"{verdict['status']}" + (f", past line {verdict['past_line']}" if verdict.get("past_line") else "")
    return (f"fix proof, {label}: kernel start + the fixed script + verdict ({said})", f"{wall:.1f} s",
            f"{reference}; the learner's run failed after {taken:.1f} s; budget {request.budget:g} s",
            f"<= budget + start ({run_budget(None):g}-60 s)")


def _gui_gap_during_proof() -> Row:
    """The longest gap of a 10 ms timer in the window's thread while a proof of the lesson's fix runs.

    Measured in a process of its own: the window's process never imports torch (the bench's does, and a
    process that big takes longer to fork the proof's kernel).
    """
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, __file__, "--gui-gap"], capture_output=True, text=True, check=True,
                         timeout=600)
    facts = json.loads(out.stdout.strip().splitlines()[-1])
    return ("GUI while the fix proof of the lesson-sized script runs: longest gap of a 10 ms timer",
            f"{facts['proving']:.0f} ms", f"idle for as long ({facts['took']:.1f} s): {facts['idle']:.0f} ms",
            "< 50 ms")


def _measure_gui_gap() -> dict[str, float]:
    """The measurement itself (the ``--gui-gap`` process)."""
    from PySide6.QtCore import QEventLoop, QObject, QTimer, Signal
    from PySide6.QtWidgets import QApplication

    from explorer.client.fix_prover import FixProver
    from explorer.client.run_queue import Run

    class _Runs(QObject):
        started = Signal(object)

    app = QApplication.instance() or QApplication([])  # noqa: F841 - the window's event loop
    card, _taken = _learners_run(LESSON)
    prover = FixProver(_Runs(), SimpleNamespace(owns_kernel=True), lambda: "en")
    prover.enabled = True
    loop, gaps, last = QEventLoop(), [], [time.monotonic()]

    def tick() -> None:
        now = time.monotonic()
        gaps.append(now - last[0])
        last[0] = now

    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(tick)
    prover.checked.connect(lambda _verdict: loop.quit())
    timer.start()
    state = prover.check(Run(LESSON, 1, "file"), card, LESSON, None)
    assert state and state["status"] == "checking", state
    started = time.monotonic()
    loop.exec()
    took = time.monotonic() - started
    proving, gaps[:] = max(gaps), []
    QTimer.singleShot(int(took * 1000), loop.quit)  # the same time with nothing in the background
    last[0] = time.monotonic()
    loop.exec()
    timer.stop()
    return {"proving": proving * 1000, "idle": max(gaps) * 1000, "took": took}


def bench_hints() -> list[Row]:
    """The hints after a run that raised nothing (every check, the training-loop ones included), in the kernel."""
    import statistics

    from explorer.core.errors.explain import hints
    from tests.core.errors.harness import run
    from tests.core.errors.test_hints_correct import CORRECT

    rows = []
    for label, code in (("lesson 10 (a training loop, 70 lines)", _lesson("10_linear_regression")),
                        ("2,200 lines of correct training loops", "\n".join(CORRECT.values()) * 5)):
        exc, ns = run(code)
        assert exc is None, exc
        times = []
        for _ in range(5):
            start = time.perf_counter()
            found = hints(code, ns)
            times.append((time.perf_counter() - start) * 1000)
        rows.append((f"hints after a run: {label}", f"{statistics.median(times):.0f} ms ({len(found)} hints)",
                     "before the per-script facts: 62 s for the 2,200 lines", "< 1 s"))
    return rows


def _lesson(name: str) -> str:
    from explorer.lessons import lesson_cells

    return "".join(cell["source"] for cell in lesson_cells(name))


def bench_fix_proof() -> list[Row]:
    """The background proof of a fix: a lesson-sized script, and scripts that train for 30 s."""
    return [
        _proof_row("lesson-sized script", LESSON, "the fixed script alone runs in well under a second"),
        _proof_row("the script then trains for 30 s", TRAINS_30S_AFTER,
                   "the fixed script would run 30 s; the proof stops at its budget"),
        _proof_row("30 s of training before the error", TRAINS_30S_BEFORE,
                   "the budget grows with the learner's run, so the proof reaches the line and passes it"),
        _gui_gap_during_proof(),
    ]


if __name__ == "__main__":  # the --gui-gap measurement, in a process without torch
    import json
    import os
    import sys

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if "--gui-gap" in sys.argv:
        print(json.dumps(_measure_gui_gap()))
