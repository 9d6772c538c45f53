"""Issue 20 item 2: autosave into a folder that cannot be written says so once and leaves nothing half-written."""

from __future__ import annotations

import errno
import glob
import os

from PySide6.QtWidgets import QMessageBox

from tests.ui.quiet_window import answer_box_later, quiet_window, type_keys


def _no_space(*_args, **_kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_folder_that_cannot_be_created_leaves_a_working_window_that_asks_before_closing(qtbot, tmp_path, monkeypatch) -> None:
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("TENSOR_EXPLORER_DATA_DIR", str(blocker / "recovery"))  # its parent is a file: as root too
    window = quiet_window(qtbot)
    assert "Autosave is off" in window.banner.text() and str(blocker) in window.banner.text()
    assert window.findChild(type(window.kernel_label), "autosave_off_label").isVisible()
    type_keys(qtbot, window, "unsaved = 1")
    assert window.recovery.save_now() is False  # the timer's call: no exception
    questions: list[str] = []
    answer_box_later(qtbot, QMessageBox.StandardButton.Cancel, questions)
    window.close()
    assert window.isVisible() and window.editor.toPlainText() == "unsaved = 1"
    assert "autosave is off" in questions[0]
    target = tmp_path / "kept.py"
    window.files.file_path = str(target)
    answer_box_later(qtbot, QMessageBox.StandardButton.Save)
    window.close()
    assert not window.isVisible() and target.read_text() == "unsaved = 1"


def test_a_full_disk_stops_autosave_once_and_leaves_no_partial_file(qtbot, tmp_path, monkeypatch) -> None:
    folder = tmp_path / "recovery"
    monkeypatch.setenv("TENSOR_EXPLORER_DATA_DIR", str(folder))
    window = quiet_window(qtbot)
    assert not window.banner.isVisible()
    failures: list[str] = []
    window.recovery.failed.connect(failures.append)
    type_keys(qtbot, window, "first = 1")
    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", _no_space)
        assert window.recovery.save_now() is False
        type_keys(qtbot, window, "\nsecond = 2")
        assert window.recovery.save_now() is False  # the next tick: nothing new said, nothing written
    assert failures == [f"{folder}: {os.strerror(errno.ENOSPC)}"]
    assert "Autosave is off" in window.banner.text() and os.strerror(errno.ENOSPC) in window.banner.text()
    assert glob.glob(str(folder / ".recovery-*")) == [] and glob.glob(str(folder / "recovery*.json")) == []
    answer_box_later(qtbot, QMessageBox.StandardButton.Discard)
    window.close()  # the disk has room again, but autosave stays off: the close asks
    assert not window.isVisible()
    assert os.listdir(folder) == []


def test_an_older_autosave_is_kept_while_writing_fails_and_goes_when_the_user_discards(qtbot, tmp_path, monkeypatch) -> None:
    folder = tmp_path / "recovery"
    monkeypatch.setenv("TENSOR_EXPLORER_DATA_DIR", str(folder))
    window = quiet_window(qtbot)
    type_keys(qtbot, window, "kept = 1")
    assert window.recovery.save_now()
    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", _no_space)
        type_keys(qtbot, window, "\nlost = 2")
        assert window.recovery.save_now() is False
    assert len(glob.glob(str(folder / "recovery-*.json"))) == 1  # a crash now still finds the older text
    assert glob.glob(str(folder / ".recovery-*")) == []
    answer_box_later(qtbot, QMessageBox.StandardButton.Discard)
    window.close()
    assert glob.glob(str(folder / "recovery*.json")) == []
