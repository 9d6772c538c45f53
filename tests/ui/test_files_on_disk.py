"""Issue 23 "Files": the open file changed on disk (another editor, git checkout) is reloaded or offered."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import Qt

from tests.ui.quiet_window import quiet_window, type_keys

WAIT = 20_000  # the watcher's notice, then a short settling pause


@pytest.fixture(autouse=True)
def _own_recovery_folder(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TENSOR_EXPLORER_DATA_DIR", str(tmp_path / "recovery"))


def _replace(path, text: str) -> None:
    """Write as many editors (and git) do: a new file renamed over the old one."""
    tmp = path.with_name(path.name + ".new")
    tmp.write_text(text)
    os.replace(tmp, path)


def test_an_unchanged_buffer_follows_the_file_silently_also_when_it_is_replaced(qtbot, tmp_path) -> None:
    script = tmp_path / "model.py"
    script.write_text("a = 1\nb = 2\nc = 3\n")
    window = quiet_window(qtbot, files=[str(script)])
    window.editor.go_to_line(2)
    script.write_text("a = 1\nb = 20\nc = 3\n")  # written in place
    qtbot.waitUntil(lambda: window.editor.toPlainText() == "a = 1\nb = 20\nc = 3\n", timeout=WAIT)
    assert not window.isWindowModified() and not window.banner.isVisible()
    assert "Reloaded model.py" in window.statusBar().currentMessage()
    assert window.editor.textCursor().blockNumber() == 1  # the cursor stays on its line
    _replace(script, "replaced = 1\n")
    qtbot.waitUntil(lambda: window.editor.toPlainText() == "replaced = 1\n", timeout=WAIT)
    _replace(script, "again = 2\n")  # the watcher lost the old file: it follows the new one
    qtbot.waitUntil(lambda: window.editor.toPlainText() == "again = 2\n", timeout=WAIT)
    window.close()


def test_unsaved_changes_are_never_overwritten_without_asking(qtbot, tmp_path) -> None:
    script = tmp_path / "model.py"
    script.write_text("a = 1\n")
    window = quiet_window(qtbot, files=[str(script)])
    type_keys(qtbot, window, "mine = 2\n")
    _replace(script, "theirs = 3\n")
    qtbot.waitUntil(lambda: window.banner.topic() == "disk", timeout=WAIT)
    assert "model.py changed on disk" in window.banner.text()
    assert window.banner.button_titles()[:2] == ["Reload", "Keep Mine"]
    assert window.editor.toPlainText() == "a = 1\nmine = 2\n"
    window.banner.click("Keep Mine")
    assert window.editor.toPlainText() == "a = 1\nmine = 2\n" and window.isWindowModified()
    assert window.files.save_script()
    assert script.read_text() == "a = 1\nmine = 2\n"
    _replace(script, "theirs = 4\n")  # nothing unsaved this time: reloaded silently
    qtbot.waitUntil(lambda: window.editor.toPlainText() == "theirs = 4\n", timeout=WAIT)
    window.close()


def test_reload_from_the_banner_takes_the_files_text(qtbot, tmp_path) -> None:
    script = tmp_path / "model.py"
    script.write_text("a = 1\n")
    window = quiet_window(qtbot, files=[str(script)])
    type_keys(qtbot, window, "mine = 2\n")
    script.write_text("theirs = 3\n")
    qtbot.waitUntil(lambda: window.banner.topic() == "disk", timeout=WAIT)
    window.banner.click("Reload")
    assert window.editor.toPlainText() == "theirs = 3\n" and not window.isWindowModified()
    window.close()


def test_the_apps_own_saves_are_no_change_on_disk(qtbot, tmp_path) -> None:
    script = tmp_path / "model.py"
    script.write_text("a = 1\n")
    window = quiet_window(qtbot, files=[str(script)])
    changes: list[str] = []
    window.files.disk_watch.changed.connect(changes.append)
    for line in ("b = 2", "c = 3"):
        type_keys(qtbot, window, line + "\n")
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow)
        qtbot.keyClick(window.editor, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
        assert not window.isWindowModified()
    script.write_text("outside = 1\n")  # an outside change after our saves is still seen
    qtbot.waitUntil(lambda: window.editor.toPlainText() == "outside = 1\n", timeout=WAIT)
    assert changes == [str(script)]
    window.close()


def test_a_deleted_file_keeps_its_text_as_unsaved_and_its_return_is_noticed(qtbot, tmp_path) -> None:
    script = tmp_path / "model.py"
    script.write_text("a = 1\n")
    window = quiet_window(qtbot, files=[str(script)])
    script.unlink()  # git checkout of a branch without it
    qtbot.waitUntil(lambda: window.banner.topic() == "disk", timeout=WAIT)
    assert "model.py was deleted or moved" in window.banner.text()
    assert window.isWindowModified() and window.editor.toPlainText() == "a = 1\n"
    script.write_text("a = 1\n")  # and back
    qtbot.waitUntil(lambda: not window.isWindowModified(), timeout=WAIT)
    assert not window.banner.isVisible()
    window.close()
