"""The Edit menu, Help > Keyboard Shortcuts, where the editor's shortcuts work, both languages, presentation mode."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from explorer.ui.editor.edit_actions import SHORTCUTS
from explorer.ui.window.shortcuts_dialog import ShortcutsDialog
from tests.ui.window_helpers import TIMEOUT, type_code


def menu_entries(window, key: str) -> list[tuple[str, str]]:
    menu = window.actions_.menus[key]
    return [(a.text(), a.shortcut().toString()) for a in menu.actions() if not a.isSeparator()]


def test_the_edit_menu_lists_the_editing_actions_with_their_shortcuts(shared) -> None:
    _qtbot, window = shared
    entries = dict(menu_entries(window, "edit"))
    expected = {"&Undo": "Ctrl+Z", "Toggle &Comment": "Ctrl+/", "&Indent": "Tab", "&Dedent": "Shift+Tab",
                "D&uplicate Line": "Ctrl+Shift+D", "Move Line U&p": "Alt+Up", "Move Line Do&wn": "Alt+Down",
                "&Find…": "Ctrl+F", "Find &Next": "F3", "Find Pre&vious": "Shift+F3", "R&eplace…": "Ctrl+H",
                "&Go to Line…": "Ctrl+G", "Complete C&ode": "Ctrl+Space", "&Copy": "Ctrl+C", "&Paste": "Ctrl+V",
                "Cu&t": "Ctrl+X", "Select &All": "Ctrl+A"}
    assert {text: entries.get(text) for text in expected} == expected
    assert len(entries) == len(SHORTCUTS)
    titles = [a.text() for a in window.menuBar().actions()]
    assert titles[:2] == ["&File", "&Edit"]


def test_the_edit_menu_acts_on_the_editor(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "x = 1\ny = 2")
    window.actions_["comment"].trigger()
    assert window.editor.toPlainText() == "x = 1\n# y = 2"
    window.actions_["go_to_line"].trigger()
    assert window.editor.go_to_line_bar.isVisible()
    qtbot.keyClick(window.editor.go_to_line_bar.field, Qt.Key.Key_Escape)


def test_keyboard_shortcuts_lists_every_action_with_a_key_f8_included(shared) -> None:
    qtbot, window = shared
    seen: list[list[tuple[str, str, str]]] = []

    def read_and_close() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, ShortcutsDialog)
        seen.append(dialog.rows())
        dialog.reject()

    QTimer.singleShot(0, read_and_close)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=TIMEOUT)
    window.editor.setFocus()
    qtbot.keyClick(window.editor, Qt.Key.Key_F1)  # Help > Keyboard Shortcuts
    qtbot.waitUntil(lambda: bool(seen), timeout=TIMEOUT)
    keys = {action: shortcut for _menu, action, shortcut in seen[0]}
    assert keys["Continue"] == "F8"
    assert keys["Run File"] == "F5" and keys["Toggle Comment"] == "Ctrl+/" and keys["Find"] == "Ctrl+F"
    assert keys["Run Cell"] == "Ctrl+Return, Ctrl+Enter"  # every key of an action
    assert keys["Undo"] == "Ctrl+Z" and keys["Cut"] == "Ctrl+X"  # a standard key's first binding only
    with_keys = {id(a) for menu in window.actions_.menus.values() for a in menu.actions() if not a.shortcut().isEmpty()}
    assert len(seen[0]) >= len(with_keys)
    assert {menu for menu, _action, _keys in seen[0]} >= {"File", "Edit", "Run", "View", "Help"}


def test_editor_shortcuts_leave_the_console_alone(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "x = 1")
    console = window.console._control
    console.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is console, timeout=TIMEOUT)
    qtbot.keyClick(console, Qt.Key.Key_Slash, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(console, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert window.editor.toPlainText() == "x = 1"
    assert not window.editor.find_bar.isVisible()


def test_the_editor_speaks_chinese(shared) -> None:
    qtbot, window = shared
    try:
        window.set_language("zh_CN")
        qtbot.waitUntil(lambda: window.actions_.menus["edit"].title() == "编辑(&E)", timeout=TIMEOUT)
        assert dict(menu_entries(window, "edit"))["注释/取消注释(&C)"] == "Ctrl+/"
        window.editor.setFocus()
        qtbot.keyClick(window.editor, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
        bar = window.editor.find_bar
        assert bar.find_edit.placeholderText() == "查找"
        qtbot.keyClicks(bar.find_edit, "nowhere-to-be-found")
        assert bar.count_text() == "没有找到"
        qtbot.keyClick(bar.find_edit, Qt.Key.Key_Escape)
    finally:
        window.set_language("en")
    qtbot.waitUntil(lambda: window.actions_.menus["edit"].title() == "&Edit", timeout=TIMEOUT)
    assert window.editor.find_bar.find_edit.placeholderText() == "Find"


def test_presentation_mode_grows_the_editor_its_bars_and_its_list(shared) -> None:
    qtbot, window = shared
    normal = window.editor.font().pointSizeF()
    try:
        window.layout_.set_presentation(True)
        big = window.editor.font().pointSizeF()
        assert big > normal * 1.5
        window.layout_.focus_pane("editor")
        qtbot.keyClick(window.editor, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
        assert window.editor.find_bar.font().pointSizeF() == big
        assert window.editor.find_bar.find_edit.font().pointSizeF() == big
        qtbot.keyClick(window.editor.find_bar.find_edit, Qt.Key.Key_Escape)
        type_code(qtbot, window, "import os\n")
        with qtbot.waitSignal(window.editor.completion.shown, timeout=TIMEOUT):
            qtbot.keyClicks(window.editor, "os.pa")
            qtbot.keyClick(window.editor, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)
        assert window.editor.completion.popup.font().pointSizeF() == big
        qtbot.keyClick(window.editor, Qt.Key.Key_Escape)
    finally:
        window.layout_.set_presentation(False)
    assert window.editor.font().pointSizeF() == normal
