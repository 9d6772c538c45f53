"""In the real window: an error card's fix runs on the script in a background kernel; the learner's is untouched."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import Qt

from tests.ui.window_helpers import TIMEOUT, press, type_code

MATMUL_THEN_VIEW = "import torch\na = torch.ones(4, 3)\nb = torch.ones(4, 5)\nc = a @ b\nd = c.view(7)"
RUNS_ON = "import torch\na = torch.ones(4, 3)\nb = torch.ones(4, 5)\nc = a @ b\nwhile True:\n    c = c + 1"


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return True
    return False


@pytest.fixture
def window(shared):
    qtbot, window = shared
    window.running.set_check_fixes(True)
    yield qtbot, window
    window.fix_prover.cancel()


def test_the_card_says_checking_then_what_the_fix_did(window) -> None:
    qtbot, window = window
    type_code(qtbot, window, MATMUL_THEN_VIEW)
    press(qtbot, window, Qt.Key.Key_F5)
    card = window.error_card
    assert card.title_text() and card.fix_text().startswith("c = a.T @ b")
    assert card.proof_status() == "checking" and "Checking this fix" in card.proof_text()
    qtbot.waitUntil(lambda: card.proof_status() != "checking", timeout=TIMEOUT)
    assert card.proof_text().startswith("✓ Checked: with this fix your script runs past line 4. Then line 5 fails: "
                                        "RuntimeError"), card.proof_text()
    # The fixed script ran elsewhere: the learner's kernel never made c (its line 4 failed there).
    assert window.inspector_model.variable("c") is None and window.inspector_model.variable("a") is not None


def test_a_cell_is_proved_on_the_whole_editor_text_in_file_lines(window) -> None:
    qtbot, window = window
    type_code(qtbot, window, "# %%\nimport torch\na = torch.ones(4, 3)\nb = torch.ones(4, 5)\n# %%\nc = a @ b\nd = c.view(7)")
    window.editor.go_to_line(2)
    press(qtbot, window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    window.editor.go_to_line(6)
    press(qtbot, window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    card = window.error_card
    qtbot.waitUntil(lambda: card.proof_status() not in (None, "checking"), timeout=TIMEOUT)
    assert "runs past line 6. Then line 7 fails" in card.proof_text(), card.proof_text()


def test_a_new_run_cancels_the_pending_proof_and_kills_its_kernel(window) -> None:
    qtbot, window = window
    type_code(qtbot, window, RUNS_ON)
    press(qtbot, window, Qt.Key.Key_F5)
    prover = window.fix_prover
    qtbot.waitUntil(lambda: prover._job is not None and prover._job._pid is not None, timeout=TIMEOUT)
    pid = prover._job._pid
    assert window.error_card.proof_status() == "checking" and not _gone(pid)
    type_code(qtbot, window, "x = 1")
    press(qtbot, window, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: _gone(pid), timeout=TIMEOUT)
    assert not prover.is_checking() and window.error_card.proof_status() is None


def test_console_code_is_not_run_as_a_script(window) -> None:
    qtbot, window = window
    type_code(qtbot, window, "import torch\na = torch.ones(4, 3)\nb = torch.ones(4, 5)")
    press(qtbot, window, Qt.Key.Key_F5)
    with qtbot.waitSignal(window.runs.finished, timeout=TIMEOUT):
        window.console.execute("c = a @ b", interactive=True)
    card = window.error_card
    qtbot.waitUntil(lambda: card.proof_status() is not None, timeout=TIMEOUT)
    assert card.proof_text().startswith("Not checked: this code was typed in the console"), card.proof_text()
    assert not window.fix_prover.is_checking()


def test_checking_can_be_turned_off(window) -> None:
    qtbot, window = window
    window.actions_["check_fixes"].trigger()  # Run > Check Fixes on My Script, now off
    assert not window.fix_prover.enabled
    type_code(qtbot, window, MATMUL_THEN_VIEW)
    press(qtbot, window, Qt.Key.Key_F5)
    assert window.error_card.fix_text() and window.error_card.proof_status() is None
    assert not window.fix_prover.is_checking()
    window.actions_["check_fixes"].trigger()
    assert window.fix_prover.enabled and window.actions_["check_fixes"].isChecked()
