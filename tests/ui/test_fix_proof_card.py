"""The error card says what its fix did on the learner's script: "checking…" at once, then the verdict."""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QLabel

from explorer.client.fix_proof import not_checked, verdict
from explorer.ui.error_card_view import ErrorCardView
from tests.waits import scaled_ms

CJK = re.compile(r"[\u4e00-\u9fff]")
ERROR = {"type": "RuntimeError", "message": "mat1 and mat2 shapes cannot be multiplied (4x3 and 4x5)", "line": 4,
         "title": "Matrix shapes don't fit", "explanation": "`a` is [4, 3]", "fix": "c = a.T @ b",
         "fix_mode": "replace", "fix_line": 4, "key": "matmul_shapes"}
RUNS = verdict("runs", past_line=4, budget=15.0, seconds=2.1)
LATER = verdict("fails", past_line=4, budget=15.0, seconds=2.0,
                error={"type": "RuntimeError", "message": "shape '[7]' is invalid", "line": 5, "title": "Reshape"})
STILL = verdict("fails", budget=15.0, seconds=2.0,
                error={"type": "RuntimeError", "message": "mat1 and mat2 <shapes>", "line": 4, "title": "Matmul"})


@pytest.fixture
def card(qtbot) -> ErrorCardView:
    view = ErrorCardView()
    qtbot.addWidget(view)
    view.resize(700, 600)
    view.show()
    qtbot.waitExposed(view)
    view.show_error(ERROR)
    return view


def _proof_label(card: ErrorCardView) -> QLabel:
    return card.findChild(QLabel, "fixProof")


def test_checking_is_shown_at_once_then_the_verdict(card: ErrorCardView) -> None:
    assert card.proof_status() is None and card.proof_text() == "" and not _proof_label(card).isVisible()
    card.show_proof({"status": "checking", "budget": 15.0})
    assert card.proof_status() == "checking" and "Checking this fix on your script…" in card.proof_text()
    assert _proof_label(card).isVisible() and card.fix_shown()
    card.show_proof(RUNS)
    assert card.proof_text() == "✓ Checked: with this fix your script runs to the end."
    assert "separate background Python process" in _proof_label(card).toolTip()
    assert "2.1 s" in _proof_label(card).toolTip()


def test_a_fix_that_gets_further_names_both_lines_as_links(card: ErrorCardView, qtbot) -> None:
    card.show_proof(LATER)
    assert card.proof_text() == ("✓ Checked: with this fix your script runs past line 4. "
                                 "Then line 5 fails: RuntimeError: shape '[7]' is invalid")
    assert card.fix_shown()
    with qtbot.waitSignal(card.line_activated) as blocker:
        _proof_label(card).linkActivated.emit("line:5")
    assert blocker.args == [5]


def test_a_fix_that_does_not_work_is_dropped_and_says_what_still_fails(card: ErrorCardView) -> None:
    card.show_proof(STILL)
    text = card.proof_text()
    assert text.startswith("✗ This fix does not work on your script: line 4 still fails (RuntimeError: mat1 and "
                           "mat2 <shapes>), so it is not offered."), text
    assert not card.fix_shown()
    _proof_label(card).linkActivated.emit("show-fix")  # "Show it anyway"
    assert card.fix_shown() and card.fix_text() == "c = a.T @ b"


def test_the_title_row_shows_the_verdict_at_a_glance(card: ErrorCardView) -> None:
    assert card.badge_text() == ""
    card.show_proof({"status": "checking"})
    assert card.badge_text() == "checking the fix…"
    card.show_proof(LATER)
    assert card.badge_text() == "✓ fix checked"
    card.show_proof(STILL)
    assert card.badge_text() == "✗ the fix does not work"
    card.show_proof(not_checked("console"))
    assert card.badge_text() == ""
    card.show_proof(RUNS)
    card.show_error(dict(ERROR, line=9))
    assert card.badge_text() == ""


def test_timeouts_and_reasons(card: ErrorCardView) -> None:
    card.show_proof(verdict("timeout", past_line=4, stopped_at=9, budget=15.0))
    assert card.proof_text() == ("✓ Checked: with this fix your script runs past line 4; it was still running "
                                 "line 9 when the check stopped after 15 s.")
    card.show_proof(verdict("timeout", budget=15.0))
    assert card.proof_text() == "Not proven: after 15 s the fixed script had not got past line 4 yet."
    card.show_proof(not_checked("console"))
    assert card.proof_text().startswith("Not checked: this code was typed in the console")
    card.show_proof(not_checked("cancelled"))
    assert card.proof_status() == "not_checked" and card.proof_text() == "" and not _proof_label(card).isVisible()


def test_a_new_error_forgets_the_last_verdict(card: ErrorCardView) -> None:
    card.show_proof(STILL)
    card.show_error(dict(ERROR, line=7, fix="x = 1"))
    assert card.proof_status() is None and card.fix_shown()


def test_no_verdict_without_a_code_fix(card: ErrorCardView) -> None:
    card.show_error(dict(ERROR, fix=None, fix_mode=None))
    card.show_proof({"status": "checking"})
    assert card.proof_status() is None and not _proof_label(card).isVisible()


def test_the_verdict_in_chinese(card: ErrorCardView) -> None:
    from explorer.ui.i18n import install_language

    install_language("zh_CN")
    try:
        for proof in ({"status": "checking"}, RUNS, LATER, STILL, verdict("timeout", past_line=4, budget=15.0),
                      not_checked("console")):
            card.show_proof(proof)
            text = card.proof_text()
            assert CJK.search(text), text
            assert not card.badge_text() or CJK.search(card.badge_text()), card.badge_text()
            assert not re.search(r"\b(?:fix|script|line|checked)\b", text, re.I), text
    finally:
        install_language("en")
    card.show_proof(RUNS)
    assert card.proof_text().startswith("✓ Checked")  # back in English, retranslated from the verdict


def test_the_prover_always_answers(qtbot, monkeypatch: pytest.MonkeyPatch) -> None:
    """A proof that breaks in its thread still ends "checking…": the card gets a verdict."""
    from types import SimpleNamespace

    from PySide6.QtCore import QObject, Signal

    from explorer.client import fix_prover
    from explorer.client.run_queue import Run

    class Runs(QObject):
        started = Signal(object)

    def broken(_job):
        raise RuntimeError("the thread broke")

    monkeypatch.setattr(fix_prover.ProofJob, "run", broken)
    runs = Runs()
    prover = fix_prover.FixProver(runs, SimpleNamespace(owns_kernel=True), lambda: "en")
    prover.enabled = True
    with qtbot.waitSignal(prover.checked, timeout=scaled_ms(30_000)) as blocker:
        state = prover.check(Run("x = 1\n", 1, "file"), ERROR, "x = 1\n", None)
        assert state == {"status": "checking", "budget": 15.0}
    assert blocker.args[0]["status"] == "not_checked" and "the thread broke" in blocker.args[0]["detail"]
    assert not prover.is_checking()


def test_a_new_run_makes_a_pending_verdict_stale(qtbot, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading
    from types import SimpleNamespace

    from PySide6.QtCore import QObject, Signal

    from explorer.client import fix_prover
    from explorer.client.run_queue import Run

    class Runs(QObject):
        started = Signal(object)

    release = threading.Event()

    def slow(_job):
        release.wait(30)
        return verdict("runs", past_line=4)

    monkeypatch.setattr(fix_prover.ProofJob, "run", slow)
    runs = Runs()
    prover = fix_prover.FixProver(runs, SimpleNamespace(owns_kernel=True), lambda: "en")
    prover.enabled = True
    seen: list = []
    prover.checked.connect(seen.append)
    prover.check(Run("x = 1\n", 1, "file"), ERROR, "x = 1\n", None)
    thread = prover._thread
    runs.started.emit(Run("y = 2\n", 1, "file"))  # the learner runs again: the proof is out of date
    assert not prover.is_checking()
    release.set()
    qtbot.waitUntil(lambda: not thread.is_alive(), timeout=scaled_ms(30_000))
    from PySide6.QtWidgets import QApplication

    QApplication.processEvents()  # the worker's queued answer is delivered here, if it were to be
    assert seen == []


def test_what_the_prover_does_not_run() -> None:
    """An attached kernel's files are elsewhere; console code is no script; advice and Stop are no fix."""
    from types import SimpleNamespace

    from PySide6.QtCore import QObject, Signal

    from explorer.client.fix_prover import FixProver
    from explorer.client.run_queue import Run

    class Runs(QObject):
        started = Signal(object)

    run = Run("x = 1\n", 1, "file")
    attached = FixProver(Runs(), SimpleNamespace(owns_kernel=False), lambda: "en")
    attached.enabled = True
    assert attached.check(run, ERROR, "x = 1\n", None) == not_checked("attached")
    prover = FixProver(Runs(), SimpleNamespace(owns_kernel=True), lambda: "en")
    prover.enabled = True
    assert prover.check(None, ERROR, "x = 1\n", None) == not_checked("console")
    assert prover.check(Run("np.load('a.npy')", None, "load"), ERROR, "", None) == not_checked("console")
    assert prover.check(run, dict(ERROR, fix="# read the message", fix_mode=None), "x = 1\n", None) is None
    assert prover.check(run, dict(ERROR, type="KeyboardInterrupt"), "x = 1\n", None) is None
    prover.enabled = False
    assert prover.check(run, ERROR, "x = 1\n", None) is None
    assert not attached.is_checking() and not prover.is_checking()
