"""Issue 20 item 1: each window owns its recovery file; an offer stays on disk until it is answered."""

from __future__ import annotations

import os

import pytest

from tests.ui.quiet_window import kill, quiet_window, recovery_texts, type_keys, window_in_child


@pytest.fixture
def folder(tmp_path, monkeypatch) -> str:
    path = str(tmp_path / "recovery")
    monkeypatch.setenv("TENSOR_EXPLORER_DATA_DIR", path)
    return path


def _close(window) -> None:
    window.editor.document().setModified(False)  # nothing of this window's own is worth keeping
    window.close()


def test_an_offer_survives_the_next_windows_autosave_and_an_unanswered_close(qtbot, folder) -> None:
    window_in_child(folder, "precious = 'typed before the crash'")
    second = quiet_window(qtbot)
    assert "did not close normally" in second.banner.text() and "Restore" in second.banner.button_titles()
    second.recovery.save_now()  # its own autosave, with its own (empty) editor
    assert recovery_texts(folder) == ["precious = 'typed before the crash'"]
    second.close()  # closed without answering
    assert recovery_texts(folder) == ["precious = 'typed before the crash'"]
    third = quiet_window(qtbot)
    assert "did not close normally" in third.banner.text()
    third.banner.click("Restore")
    assert third.editor.toPlainText() == "precious = 'typed before the crash'"
    assert third.editor.document().isModified()
    third.recovery.save_now()
    assert recovery_texts(folder) == ["precious = 'typed before the crash'"]  # now third's own file, the old one gone
    third.banner.hide()
    _close(third)
    assert recovery_texts(folder) == []


def test_a_live_windows_file_is_neither_offered_nor_deleted_by_another_window(qtbot, folder) -> None:
    first = window_in_child(folder, "alpha = 1", then="wait")
    try:
        second = quiet_window(qtbot)
        assert not second.banner.isVisible(), second.banner.text()  # the first window still runs
        type_keys(qtbot, second, "beta = 2")
        second.recovery.save_now()
        assert recovery_texts(folder) == ["alpha = 1", "beta = 2"]
        second.editor.document().setModified(False)
        second.close()  # a normal close removes its own file only
        assert recovery_texts(folder) == ["alpha = 1"]
    finally:
        kill(first)  # now the first window crashes
    third = quiet_window(qtbot)
    assert "did not close normally" in third.banner.text()
    third.banner.click("Restore")
    assert third.editor.toPlainText() == "alpha = 1"
    _close(third)


def test_an_offer_one_window_shows_is_not_shown_by_another_at_the_same_time(qtbot, folder) -> None:
    window_in_child(folder, "gamma = 3")
    second = quiet_window(qtbot)
    third = quiet_window(qtbot)
    assert second.banner.isVisible() and not third.banner.isVisible()
    second.banner.click("Discard")  # answered: the file goes
    assert recovery_texts(folder) == []
    _close(second)
    _close(third)


def test_several_dead_windows_are_offered_one_after_another(qtbot, folder) -> None:
    window_in_child(folder, "older = 1")
    window_in_child(folder, "newer = 2")
    window = quiet_window(qtbot)
    assert "2 texts to restore" in window.banner.text() and "untitled" in window.banner.text()
    window.banner.click("Discard")  # the newest first
    assert recovery_texts(folder) == ["older = 1"]
    assert window.banner.isVisible() and "texts to restore" not in window.banner.text()
    window.banner.click("Restore")
    assert window.editor.toPlainText() == "older = 1"
    assert not window.banner.isVisible()
    _close(window)


def test_the_shared_file_of_earlier_releases_is_offered_too(qtbot, folder) -> None:
    os.makedirs(folder)
    with open(os.path.join(folder, "recovery.json"), "w", encoding="utf-8") as handle:
        handle.write('{"text": "legacy = 1", "file": null, "saved_at": 1.0, "closed": false}')
    window = quiet_window(qtbot)
    window.banner.click("Restore")
    assert window.editor.toPlainText() == "legacy = 1"
    assert not os.path.exists(os.path.join(folder, "recovery.json"))
    _close(window)


def test_two_windows_in_one_process_keep_separate_files_and_rewrite_a_lost_one(qtbot, folder) -> None:
    first, second = quiet_window(qtbot), quiet_window(qtbot)
    type_keys(qtbot, first, "alpha = 1")
    type_keys(qtbot, second, "beta = 2")
    first.recovery.save_now()
    second.recovery.save_now()
    assert recovery_texts(folder) == ["alpha = 1", "beta = 2"]
    second.editor.document().setModified(False)  # e.g. saved; then closed normally
    second.close()
    assert recovery_texts(folder) == ["alpha = 1"]
    os.remove(first.recovery.path)  # lost (a cleaner, a user): the next tick writes it again
    first.recovery.save_now()
    assert recovery_texts(folder) == ["alpha = 1"]
    _close(first)
