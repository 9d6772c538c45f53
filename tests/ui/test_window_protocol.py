"""The real window on the comm protocol: filter while selected, lines in the file, %reset, files at start."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.ui.window_helpers import TIMEOUT, open_window, press, type_code

FOUR = "import torch\nt = torch.arange(12).reshape(3, 4)\nv = t[:, 1:3]\nn = t.numpy()\nimg = torch.rand(3, 64, 96)\n"



def _visible_names(window) -> list[str]:
    model = window.inspector_model
    return [model.index(r, 0).data() for r in range(model.rowCount())]


def test_typing_in_the_filter_while_a_partner_is_highlighted(shared) -> None:
    """Issue 10 item 2: select t (its partners highlight), type 'i' (hides t): no recursion, no crash."""
    qtbot, window = shared
    type_code(qtbot, window, FOUR)
    press(qtbot, window, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: window.inspector_model.variable("img") is not None, timeout=TIMEOUT)
    tree = window.inspector.tree
    index = window.inspector_model.index_of("t")
    rect = tree.visualRect(index)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: "v is a view of t" in window.inspector.relation.text(), timeout=TIMEOUT)
    assert window.inspector_model.data(window.inspector_model.index_of("v"), Qt.ItemDataRole.BackgroundRole)
    box = window.inspector._filter
    box.setFocus()
    qtbot.keyClicks(box, "i")
    QApplication.processEvents()
    assert _visible_names(window) == ["img"]
    assert window.app_state.selected_name == "t"  # still the selection, though hidden by the filter
    qtbot.keyClicks(box, "mg")
    qtbot.keyClick(box, Qt.Key.Key_Backspace)
    qtbot.keyClick(box, Qt.Key.Key_Backspace)
    qtbot.keyClick(box, Qt.Key.Key_Backspace)
    QApplication.processEvents()
    assert _visible_names(window) == ["t", "v", "n", "img"]
    assert window.inspector.tree.currentIndex().data() == "t"  # the selected row is back
    window.inspector.select("img")
    box.setText("zzz")
    assert _visible_names(window) == []
    box.clear()


def test_error_line_is_the_file_line_after_blank_lines_and_in_a_cell(shared) -> None:
    """Issue 10 item 6 in the window: the editor mark and the card speak of the file's line."""
    qtbot, window = shared
    type_code(qtbot, window, "\n\n\nimport torch\na = torch.ones(4, 3)\nb = torch.ones(4, 5)\nc = a @ b\n")
    press(qtbot, window, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: window.editor.error_line == 7, timeout=TIMEOUT)
    assert window.error_card.isVisible()
    type_code(qtbot, window, "import torch\n# %%\n\nx = torch.ones(2, 3)\n\ny = x.view(4, 4)\n")
    window.editor.go_to_line(4)
    press(qtbot, window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.editor.error_line == 6, timeout=TIMEOUT)
    window.editor.go_to_line(6)
    press(qtbot, window, Qt.Key.Key_F9)  # the selection (this line) alone
    qtbot.waitUntil(lambda: window.editor.error_line == 6, timeout=TIMEOUT)


def test_reset_leaves_the_inspector_working(shared) -> None:
    """Nothing of ours lives in the user's namespace: %reset -f and deleting every name change nothing."""
    qtbot, window = shared
    type_code(qtbot, window, "before = 1\n")
    press(qtbot, window, Qt.Key.Key_F5)
    type_code(qtbot, window, "%reset -f\n")
    press(qtbot, window, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: window.inspector_model.variable("before") is None, timeout=TIMEOUT)
    type_code(qtbot, window, "for k in [k for k in globals() if not k.startswith('_')]:\n    del globals()[k]\nafter = 2\n")
    press(qtbot, window, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: window.inspector_model.variable("after") is not None, timeout=TIMEOUT)


def test_files_named_at_start_load_when_the_kernel_is_ready(qtbot, tmp_path) -> None:
    """Issue 10 item 11: `scripts/run photo.npy` must not say 'the kernel is still starting'."""
    np.save(tmp_path / "photo.npy", np.zeros((8, 8, 3), dtype=np.uint8))
    (tmp_path / "lesson.py").write_text("x = 1\n")
    window, session = open_window(qtbot, files=[str(tmp_path / "photo.npy"), str(tmp_path / "lesson.py")])
    try:
        qtbot.waitUntil(lambda: window.inspector_model.variable("photo") is not None, timeout=TIMEOUT)
        assert window.editor.toPlainText() == "x = 1\n"
        assert not window.banner.isVisible() or "starting" not in window.banner.text()
    finally:
        window.close()
        session.shutdown()


def test_language_survives_a_kernel_restart(qtbot) -> None:
    """Issue 14 item 4: after a restart the kernel still writes Chinese (the handshake carries the language)."""
    window, session = open_window(qtbot)
    try:
        window.set_language("zh_CN")
        with qtbot.waitSignal(session.ready, timeout=TIMEOUT):
            window.running.restart()
        type_code(qtbot, window, "import torch\na = torch.ones(4, 3)\nc = a @ torch.ones(4, 5)\n")
        press(qtbot, window, Qt.Key.Key_F5)
        qtbot.waitUntil(lambda: window.error_card.isVisible(), timeout=TIMEOUT)
        title = window.error_card.title_text()
        assert any("\u4e00" <= ch <= "\u9fff" for ch in title), title
    finally:
        window.set_language("en")
        window.close()
        session.shutdown()


def test_a_kernel_of_another_release_gets_one_clear_banner(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "import explorer\nexplorer.__version__ = '0.0.1-other'\n")
    press(qtbot, window, Qt.Key.Key_F5)
    with qtbot.waitSignal(window.session.ready, timeout=TIMEOUT):
        window.session.client.connect_comm()
    qtbot.waitUntil(lambda: "0.0.1-other" in window.banner.text(), timeout=TIMEOUT)
    assert "pip install tensor-explorer==" in window.banner.text()
    type_code(qtbot, window, "import explorer\nexplorer.__version__ = " + repr(__import__("explorer").__version__) + "\n")
    press(qtbot, window, Qt.Key.Key_F5)
    window.banner.hide()


def _answer_unsaved_box(qtbot, button) -> None:
    """Click *button* in the Save/Discard/Cancel box as soon as it opens (it is modal)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QMessageBox

    def click() -> None:
        box = next((w for w in QApplication.topLevelWidgets()
                    if isinstance(w, QMessageBox) and w.objectName() == "unsaved_changes_box" and w.isVisible()), None)
        if box is None:
            QTimer.singleShot(20, click)
            return
        box.button(button).click()

    QTimer.singleShot(0, click)


def test_new_open_and_lessons_ask_before_replacing_unsaved_text(shared, tmp_path) -> None:
    """Issue 10 item 12: Save / Discard / Cancel, as every editor asks."""
    from PySide6.QtWidgets import QMessageBox

    qtbot, window = shared
    type_code(qtbot, window, "precious = 1\n")
    assert window.editor.document().isModified()
    _answer_unsaved_box(qtbot, QMessageBox.StandardButton.Cancel)
    window.actions_["new"].trigger()
    assert window.editor.toPlainText() == "precious = 1\n"
    _answer_unsaved_box(qtbot, QMessageBox.StandardButton.Cancel)
    window.files.open_lesson_by_id("01")
    assert window.editor.toPlainText() == "precious = 1\n"
    target = tmp_path / "kept.py"
    window.files.file_path = str(target)
    _answer_unsaved_box(qtbot, QMessageBox.StandardButton.Save)
    window.files.open_lesson_by_id("01")
    assert target.read_text() == "precious = 1\n" and "torch" in window.editor.toPlainText()
    type_code(qtbot, window, "scratch = 2\n")
    _answer_unsaved_box(qtbot, QMessageBox.StandardButton.Discard)
    window.actions_["new"].trigger()
    assert window.editor.toPlainText() == ""
    window.files.new_script()  # nothing to lose: no question asked


def test_the_kernel_died_banner_goes_once_the_kernel_is_back(qtbot) -> None:
    window, session = open_window(qtbot)
    try:
        with qtbot.waitSignal(session.ready, timeout=TIMEOUT):
            window.session.execute("import os; os._exit(1)")
            qtbot.waitUntil(lambda: window.banner.topic() == "kernel", timeout=TIMEOUT)
        qtbot.waitUntil(lambda: window.banner.topic() == "restarted", timeout=TIMEOUT)  # no more "restarting"
    finally:
        window.close()
        session.shutdown()
