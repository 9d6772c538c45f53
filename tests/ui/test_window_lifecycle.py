"""Kernel death, restart and crash recovery keep the user's text."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.window_helpers import TIMEOUT, open_window, type_code


def test_kernel_death_restarts_and_keeps_the_editor_text(qtbot) -> None:
    window, session = open_window(qtbot)
    try:
        type_code(qtbot, window, "import os\nos._exit(1)\n")
        with qtbot.waitSignal(session.kernel_restarted, timeout=TIMEOUT):
            qtbot.keyClick(window.editor, Qt.Key.Key_F5)
            # the death is reported while the kernel restarts (a "restarted" notice follows)
            qtbot.waitUntil(lambda: window.banner.topic() == "kernel", timeout=TIMEOUT)
        qtbot.waitUntil(lambda: session.status == "idle", timeout=TIMEOUT)
        assert window.editor.toPlainText() == "import os\nos._exit(1)\n"
        qtbot.waitUntil(lambda: window.banner.topic() == "restarted", timeout=TIMEOUT)
        assert "restarted" in window.banner.text() and "Run it again" in window.banner.text()
        type_code(qtbot, window, "back = 1")
        with qtbot.waitSignal(session.run_finished, timeout=TIMEOUT):
            qtbot.keyClick(window.editor, Qt.Key.Key_F5)
        qtbot.waitUntil(lambda: window.inspector_model.variable("back") is not None, timeout=TIMEOUT)
        assert window.banner.topic() == ""  # the notice has served: the script ran again
    finally:
        session.shutdown()


def test_unsaved_text_is_offered_back_after_a_crash(qtbot) -> None:
    window, session = open_window(qtbot)
    try:
        type_code(qtbot, window, "precious = 'typed before the crash'")
        window.recovery.save_now()  # the 3-second timer would do the same
        window.recovery.release()  # what a killed process leaves: a lock nobody holds (tests/ui/test_recovery_windows.py kills real ones)
    finally:
        session.shutdown()  # no closeEvent: as if the app was killed
    second, session2 = open_window(qtbot, keep_recovery=True)
    try:
        assert second.banner.isVisible()
        assert "did not close normally" in second.banner.text()
        assert "Restore" in second.banner.button_titles()
        second.banner.click("Restore")
        assert second.editor.toPlainText() == "precious = 'typed before the crash'"
    finally:
        second.close()
        session2.shutdown()


def test_a_normal_close_with_unsaved_changes_is_not_called_a_crash(qtbot) -> None:
    window, session = open_window(qtbot)
    try:
        type_code(qtbot, window, "kept = 'typed, then the window closed'")
        window.close()  # a normal quit: the text is kept for next time (hot exit)
    finally:
        session.shutdown()
    second, session2 = open_window(qtbot, keep_recovery=True)
    try:
        assert second.editor.toPlainText() == "kept = 'typed, then the window closed'"  # back, silently
        assert second.editor.document().isModified()
        assert not second.banner.isVisible(), second.banner.text()
    finally:
        second.editor.document().setModified(False)
        second.close()
        session2.shutdown()


def test_pane_sizes_are_remembered(qtbot) -> None:
    window, session = open_window(qtbot)
    try:
        main = window._splitters["main"]
        main.setSizes([300, 1100])
        first = main.sizes()
        window.close()
    finally:
        session.shutdown()
    second, session2 = open_window(qtbot)
    try:
        assert second._splitters["main"].sizes() == first
    finally:
        second.close()
        session2.shutdown()
