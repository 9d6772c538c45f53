"""Issue 20 item 3: every way out is a hot exit; the next start puts unsaved text back silently and says nothing false."""

from __future__ import annotations

import signal

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from tests.ui.quiet_window import (
    CHILD_TIMEOUT,
    answer_box_later,
    app_in_child,
    quiet_window,
    recovery_texts,
    type_keys,
)


@pytest.fixture
def folder(tmp_path, monkeypatch) -> str:
    path = str(tmp_path / "recovery")
    monkeypatch.setenv("TENSOR_EXPLORER_DATA_DIR", path)
    return path


def _press_ctrl_q(qtbot, window) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window.editor, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)


WAYS_OUT = {
    "ctrl_q": _press_ctrl_q,
    "file_quit": lambda qtbot, window: window.actions_["quit"].trigger(),
    "close_button": lambda qtbot, window: window.close(),  # what the window manager's button sends
}


def _assert_back_silently(qtbot, folder: str, text: str) -> None:
    window = quiet_window(qtbot)
    assert window.editor.toPlainText() == text
    assert window.editor.document().isModified() and window.isWindowModified()
    assert not window.banner.isVisible(), window.banner.text()  # no "did not close normally", no question
    assert "back" in window.statusBar().currentMessage()
    assert recovery_texts(folder) == [text]  # this window's own copy now: the old file is gone
    window.editor.document().setModified(False)
    window.close()


@pytest.mark.parametrize("way_out", sorted(WAYS_OUT))
def test_quitting_in_the_window_keeps_unsaved_text_for_next_time(qtbot, folder, way_out) -> None:
    window = quiet_window(qtbot)
    type_keys(qtbot, window, "unsaved = 'typed, then quit'")
    WAYS_OUT[way_out](qtbot, window)
    qtbot.waitUntil(lambda: not window.isVisible())  # at once: no question asked
    _assert_back_silently(qtbot, folder, "unsaved = 'typed, then quit'")


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT", "quit"])
def test_the_app_ended_from_outside_keeps_unsaved_text_for_next_time(qtbot, folder, how) -> None:
    proc = app_in_child(folder, "unsaved = 'then the session ended'", then="quit" if how == "quit" else "signal")
    if how != "quit":
        proc.send_signal(getattr(signal, how))
    out, err = proc.communicate(timeout=CHILD_TIMEOUT)
    assert proc.returncode == 0 and "EXIT 0" in out, err[-2000:]
    _assert_back_silently(qtbot, folder, "unsaved = 'then the session ended'")


def test_an_unchanged_lesson_leaves_nothing_behind(qtbot, folder) -> None:
    proc = app_in_child(folder, "", lesson="03")
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=CHILD_TIMEOUT)
    assert recovery_texts(folder) == []
    window = quiet_window(qtbot)
    assert window.editor.toPlainText() == "" and not window.banner.isVisible(), window.banner.text()
    window.close()


def test_an_unchanged_file_is_not_kept(qtbot, folder, tmp_path) -> None:
    script = tmp_path / "same.py"
    script.write_text("same = 1\n")
    window = quiet_window(qtbot)
    assert window.files.open_script(str(script))
    type_keys(qtbot, window, "x")
    assert window.isWindowModified()
    qtbot.keyClick(window.editor, Qt.Key.Key_Backspace)  # back as it is on disk
    assert not window.isWindowModified()
    window.recovery.save_now()
    window.close()
    assert recovery_texts(folder) == []


def test_text_kept_at_quit_is_offered_when_the_next_start_opens_a_file(qtbot, folder, tmp_path) -> None:
    window = quiet_window(qtbot)
    type_keys(qtbot, window, "kept = 1")
    window.close()
    script = tmp_path / "other.py"
    script.write_text("other = 2\n")
    second = quiet_window(qtbot, files=[str(script)])
    assert second.editor.toPlainText() == "other = 2\n"  # what was asked for is not pushed aside
    assert "closed with unsaved changes" in second.banner.text() and "did not close normally" not in second.banner.text()
    second.banner.click("Restore")
    assert second.editor.toPlainText() == "kept = 1" and second.windowFilePath() == ""
    second.editor.document().setModified(False)
    second.close()


class _Manager:
    """What commit_data uses of a QSessionManager (Qt makes the real one only at a real logout)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def allowsInteraction(self) -> bool:
        self.calls.append("allowsInteraction")
        return True

    def cancel(self) -> None:
        self.calls.append("cancel")

    def release(self) -> None:
        self.calls.append("release")


def test_logout_keeps_the_text_without_a_question(qtbot, folder) -> None:
    window = quiet_window(qtbot)
    type_keys(qtbot, window, "logout = 1")
    manager = _Manager()
    window.unsaved.commit_data(manager)
    assert manager.calls == [] and recovery_texts(folder) == ["logout = 1"]
    window.editor.document().setModified(False)
    window.close()


def test_logout_with_autosave_off_asks_and_cancel_stops_the_logout(qtbot, tmp_path, monkeypatch) -> None:
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    monkeypatch.setenv("TENSOR_EXPLORER_DATA_DIR", str(blocker / "recovery"))
    window = quiet_window(qtbot)
    type_keys(qtbot, window, "logout = 2")
    manager = _Manager()
    answer_box_later(qtbot, QMessageBox.StandardButton.Cancel)
    window.unsaved.commit_data(manager)
    assert manager.calls == ["allowsInteraction", "cancel", "release"]
    window.editor.document().setModified(False)
    window.close()


def test_an_edited_lesson_comes_back_as_that_lesson(qtbot, folder) -> None:
    window = quiet_window(qtbot)
    window.files.open_lesson_by_id("03")
    type_keys(qtbot, window, "\n# my own note")
    window.close()
    second = quiet_window(qtbot)
    assert second.editor.toPlainText().endswith("\n# my own note") and second.files.lesson_open()
    assert second.windowTitle() == "Indexing, slicing and views[*] — Tensor Explorer" and second.isWindowModified()
    assert "Indexing, slicing and views" in second.statusBar().currentMessage()
    second.editor.document().setModified(False)
    second.close()
