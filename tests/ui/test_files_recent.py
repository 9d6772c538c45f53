"""Issue 23 "Files": File > Recent Files lists the last files, greys the missing ones and can be cleared."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from tests.ui.quiet_window import quiet_window


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("TENSOR_EXPLORER_DATA_DIR", str(tmp_path / "recovery"))
    QSettings().remove("recent_files")
    window = quiet_window(qtbot)
    yield window
    QSettings().remove("recent_files")
    window.close()


def _entries(window) -> list[tuple[str, bool]]:
    """The Recent Files menu as the user sees it once it opens: (text, enabled)."""
    menu = window.actions_.recent_menu
    menu.aboutToShow.emit()  # what opening it does
    return [(a.text(), a.isEnabled()) for a in menu.actions() if not a.isSeparator()]


def test_opened_and_saved_files_come_first_numbered(window, tmp_path) -> None:
    one, two = tmp_path / "one.py", tmp_path / "two.py"
    one.write_text("a = 1\n")
    two.write_text("b = 2\n")
    window.files.open_script(str(one))
    window.files.open_script(str(two))
    assert _entries(window)[:2] == [("&1 two.py", True), ("&2 one.py", True)]
    window.files.open_script(str(one))  # again: back on top, not twice
    assert [text for text, _ in _entries(window)][:2] == ["&1 one.py", "&2 two.py"]
    assert window.actions_.recent_menu.isEnabled()


def test_a_missing_file_is_greyed_and_one_gone_since_is_reported_and_removed(window, tmp_path) -> None:
    gone, moved, kept = tmp_path / "gone.py", tmp_path / "moved.py", tmp_path / "kept.py"
    for path in (gone, moved, kept):
        path.write_text("")
        window.files.open_script(str(path))
    moved.unlink()
    assert ("&2 moved.py  (not found)", False) in _entries(window)  # the menu opens with both others there
    gone.unlink()
    stale = next(a for a in window.actions_.recent_menu.actions() if "gone.py" in a.text())
    stale.trigger()  # deleted while the menu was open
    assert "gone.py no longer exists" in window.banner.text()
    assert all("gone.py" not in text for text, _ in _entries(window))
    assert window.files.file_path == str(kept)


def test_choosing_an_entry_opens_it_and_clear_empties_the_list(window, tmp_path) -> None:
    one, two = tmp_path / "one.py", tmp_path / "two.py"
    one.write_text("a = 1\n")
    two.write_text("b = 2\n")
    window.files.open_script(str(one))
    window.files.open_script(str(two))
    next(a for a in window.actions_.recent_menu.actions() if a.text() == "&2 one.py").trigger()
    assert window.files.file_path == str(one) and window.editor.toPlainText() == "a = 1\n"
    clear = next(a for a in window.actions_.recent_menu.actions() if a.objectName() == "action_clear_recent")
    assert clear.text() == "&Clear Recent Files"
    clear.trigger()
    assert _entries(window) == [("&Clear Recent Files", True)] and not window.actions_.recent_menu.isEnabled()


def test_files_of_the_same_name_show_their_folder(window, tmp_path) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "train.py").write_text("")
        window.files.open_script(str(tmp_path / folder / "train.py"))
    assert [text for text, _ in _entries(window)][:2] == ["&1 train.py  (b)", "&2 train.py  (a)"]
