"""Issue 23 "Files": the title names the file and marks unsaved changes; Ctrl+S and Ctrl+Shift+S save."""

from __future__ import annotations

import os
import stat

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from tests.ui.quiet_window import quiet_window, type_keys

CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture(autouse=True)
def _own_recovery_folder(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TENSOR_EXPLORER_DATA_DIR", str(tmp_path / "recovery"))


def _press(qtbot, window, key, modifier=CTRL) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window.editor, key, modifier)


def test_the_title_names_the_file_and_marks_unsaved_changes_until_ctrl_s(qtbot, tmp_path) -> None:
    script = tmp_path / "train.py"
    script.write_text("lr = 0.1\n")
    window = quiet_window(qtbot, files=[str(script)])
    assert window.windowTitle() == "train.py[*] — Tensor Explorer"  # Qt shows "*" at [*] while modified
    assert window.windowFilePath() == str(script) and not window.isWindowModified()
    type_keys(qtbot, window, "epochs = 3\n")
    assert window.isWindowModified()
    _press(qtbot, window, Qt.Key.Key_S)
    assert script.read_text() == "lr = 0.1\nepochs = 3\n"
    assert not window.isWindowModified()
    assert "Saved" in window.statusBar().currentMessage()
    window.close()


def test_an_untitled_script_and_a_lesson_have_titles_too(qtbot) -> None:
    window = quiet_window(qtbot)
    assert window.windowTitle() == "untitled[*] — Tensor Explorer" and window.windowFilePath() == ""
    window.files.open_lesson_by_id("03")
    assert window.windowTitle() == "Indexing, slicing and views[*] — Tensor Explorer" and not window.isWindowModified()
    type_keys(qtbot, window, "# my note")
    assert window.isWindowModified()
    window.editor.document().setModified(False)
    window.close()


def test_ctrl_shift_s_saves_under_a_new_name_and_the_title_follows(qtbot, tmp_path, monkeypatch) -> None:
    target = tmp_path / "copy.py"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), "")))
    window = quiet_window(qtbot)
    type_keys(qtbot, window, "x = 1")
    _press(qtbot, window, Qt.Key.Key_S, CTRL | Qt.KeyboardModifier.ShiftModifier)
    assert target.read_text() == "x = 1"
    assert window.windowTitle().startswith("copy.py[*]") and window.windowFilePath() == str(target)
    assert not window.isWindowModified()
    window.close()


def test_a_failed_save_as_keeps_the_old_name_and_says_why(qtbot, tmp_path, monkeypatch) -> None:
    script = tmp_path / "kept.py"
    script.write_text("old = 1\n")
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(blocker / "new.py"), "")))
    window = quiet_window(qtbot, files=[str(script)])
    type_keys(qtbot, window, "new = 2\n")
    assert window.files.save_script_as() is False
    assert window.files.file_path == str(script) and window.windowTitle().startswith("kept.py")
    assert window.isWindowModified() and "Could not save" in window.banner.text()
    assert script.read_text() == "old = 1\n"
    window.editor.document().setModified(False)
    window.close()


def test_saving_keeps_the_files_permissions_and_writes_through_a_link(qtbot, tmp_path) -> None:
    real = tmp_path / "real.py"
    real.write_text("a = 1\n")
    os.chmod(real, 0o600)
    link = tmp_path / "link.py"
    link.symlink_to(real)
    window = quiet_window(qtbot, files=[str(link)])
    type_keys(qtbot, window, "b = 2\n")
    assert window.files.save_script()
    assert link.is_symlink() and real.read_text() == "a = 1\nb = 2\n"
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left
    window.close()


def test_ctrl_s_saves_also_while_the_console_has_the_focus(qtbot, tmp_path) -> None:
    """qtconsole's "Save as HTML" also took Ctrl+S: Qt found the shortcut ambiguous and nothing was saved."""
    from explorer.app import make_console

    class NoKernel:
        manager = None

        def console_client(self) -> None:
            return None

    script = tmp_path / "from_console.py"
    script.write_text("")
    window = quiet_window(qtbot, files=[str(script)])
    window.attach_console(make_console(NoKernel()))
    type_keys(qtbot, window, "kept = 1\n")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.console._control.setFocus()
    qtbot.waitUntil(window.console._control.hasFocus)
    qtbot.keyClick(window.console._control, Qt.Key.Key_S, CTRL)
    assert script.read_text() == "kept = 1\n" and not window.isWindowModified()
    window.close()
