"""Issue 20 items 1-3 and issue 23 "Files" in Chinese: the offers, notices and menu entries are translated."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from tests.ui.quiet_window import quiet_window, window_in_child


def _chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


@pytest.fixture
def chinese(qtbot):
    yield
    from explorer.ui.i18n import install_language

    install_language("en")  # the other tests' language


def test_the_crash_offer_and_its_buttons_are_in_chinese(qtbot, tmp_path, monkeypatch, chinese) -> None:
    folder = str(tmp_path / "recovery")
    monkeypatch.setenv("TENSOR_EXPLORER_DATA_DIR", folder)
    window_in_child(folder, "x = 1")
    window = quiet_window(qtbot, lang="zh_CN")
    assert "没有正常关闭" in window.banner.text() and "未命名脚本" in window.banner.text()
    assert window.banner.button_titles() == ["恢复", "丢弃", "关闭"]
    window.banner.click("恢复")
    assert window.editor.toPlainText() == "x = 1"
    assert window.windowTitle() == "未命名[*] — Tensor Explorer" and window.isWindowModified()
    window.editor.document().setModified(False)
    window.close()


def test_autosave_off_and_the_recent_files_menu_are_in_chinese(qtbot, tmp_path, monkeypatch, chinese) -> None:
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    monkeypatch.setenv("TENSOR_EXPLORER_DATA_DIR", str(blocker / "recovery"))
    QSettings().remove("recent_files")
    window = quiet_window(qtbot, lang="zh_CN")
    assert window.banner.text().startswith("自动保存已关闭") and str(blocker) in window.banner.text()
    script = tmp_path / "gone.py"
    script.write_text("")
    window.files.open_script(str(script))
    window.files.new_script()  # the file is only in the list now
    script.unlink()
    menu = window.actions_.recent_menu
    menu.aboutToShow.emit()
    assert [a.text() for a in menu.actions() if not a.isSeparator()] == ["&1 gone.py  （找不到了）", "清空最近文件列表(&C)"]
    assert _chinese(window.actions_["quit"].toolTip())
    QSettings().remove("recent_files")
    window.close()
