"""The real window: the frames of an error and code paused in ``breakpoint()``, shown in the inspector and the views."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests import frame_scripts
from tests.ui.window_helpers import TIMEOUT, press, row_text, type_code

DEEP = frame_scripts.DEEP

LOOP = """import numpy as np
total = 0.0
for i in range(3):
    w = np.full((2, 3), float(i))
    breakpoint()
    total += float(w.sum())
"""



def _repr(window, name: str) -> str | None:
    var = window.inspector_model.variable(name)
    return var.get("repr") if var else None


def _names(window) -> list[str]:
    return [var["name"] for var in window.inspector_model.variables()]


def _pick(qtbot, window, row: int, names: list[str]) -> None:
    """Choose *row* of the frames list as a user would, and wait for its variables."""
    window.inspector.frames.combo.setCurrentIndex(row)
    window.inspector.frames.combo.activated.emit(row)
    qtbot.waitUntil(lambda: _names(window) == names, timeout=TIMEOUT)


def test_an_error_three_calls_deep_offers_each_frames_locals(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, DEEP)
    press(qtbot, window, Qt.Key.Key_F5)
    frames = window.inspector.frames
    assert frames.isVisible()
    assert [frames.combo.itemText(i) for i in range(frames.combo.count())] == [
        "All variables (the namespace)", "top level, line 15", "f(), line 12", "g(), line 9", "h(), line 5"]
    assert "h(), line 5" in frames.status.text()
    assert window.error_card.isVisible() and "d" in window.error_card._variables.text()
    _pick(qtbot, window, 3, ["b", "part"])
    assert row_text(window, "b", "strides") == "(8, 32) B"  # x.T: NumPy strides in bytes
    assert row_text(window, "b", "memory_group") == row_text(window, "part", "memory_group") != ""
    assert window.editor.textCursor().blockNumber() + 1 == 9  # the editor shows where g() was
    _pick(qtbot, window, 4, ["c", "d"])
    window.details.setCurrentWidget(window.details.values)
    window.inspector.select("d")
    values = window.details.values
    qtbot.waitUntil(lambda: values.cell_text(1, 2) == "18", timeout=TIMEOUT)  # d = x.T[:2] * 2, d[1, 2] = x[2, 1] * 2
    qtbot.waitUntil(lambda: "d" in window.inspector.relation.text(), timeout=TIMEOUT)
    _pick(qtbot, window, 0, ["x"])  # functions and modules are not listed
    _pick(qtbot, window, 2, ["a"])
    type_code(qtbot, window, "y = 1\n")
    press(qtbot, window, Qt.Key.Key_F5)  # another run: the frames are gone, the inspector is on the namespace
    qtbot.waitUntil(lambda: _names(window) == ["x", "y"], timeout=TIMEOUT)
    assert not frames.isVisible()


def test_breakpoint_in_a_loop_pauses_shows_its_variables_and_continues(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, LOOP)
    frames, session = window.inspector.frames, window.session
    with qtbot.waitSignal(session.paused, timeout=TIMEOUT):
        press(qtbot, window, Qt.Key.Key_F5, wait_run=False)
    for i in range(3):
        qtbot.waitUntil(lambda i=i: frames.is_paused and window.inspector_model.variable("w") is not None
                        and _repr(window, "i") == str(i), timeout=TIMEOUT)
        assert frames.continue_button.isVisible() and "line 5" in frames.status.text()
        assert window.kernel_extras.continue_action.isEnabled()
        window.inspector.select("w")
        window.details.setCurrentWidget(window.details.values)
        qtbot.waitUntil(lambda i=i: window.details.values.cell_text(0, 0) == str(i), timeout=TIMEOUT)
        if i < 2:
            with qtbot.waitSignal(session.paused, timeout=TIMEOUT):
                qtbot.keyClick(window.editor, Qt.Key.Key_F8)
        else:
            with qtbot.waitSignal(session.run_finished, timeout=TIMEOUT):
                qtbot.keyClick(window.editor, Qt.Key.Key_F8)
    QApplication.processEvents()
    qtbot.waitUntil(lambda: _repr(window, "total") == "18.0", timeout=TIMEOUT)
    assert not frames.isVisible() and not window.kernel_extras.continue_action.isEnabled()


def test_stop_while_paused_ends_the_run(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "before = 1\nbreakpoint()\nafter = 2\n")
    with qtbot.waitSignal(window.session.paused, timeout=TIMEOUT):
        press(qtbot, window, Qt.Key.Key_F5, wait_run=False)
    with qtbot.waitSignal(window.session.run_finished, timeout=TIMEOUT):
        window.inspector.frames.stop_button.click()
    QApplication.processEvents()
    qtbot.waitUntil(lambda: window.inspector_model.variable("before") is not None, timeout=TIMEOUT)
    assert window.inspector_model.variable("after") is None


def test_input_is_asked_in_a_dialog(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "answer = input('size? ')\n")
    with qtbot.waitSignal(window.session.input_requested, timeout=TIMEOUT):
        press(qtbot, window, Qt.Key.Key_F5, wait_run=False)
    dialog = window.kernel_extras._dialog
    assert dialog is not None and dialog.labelText() == "size? "
    dialog.setTextValue("42")
    with qtbot.waitSignal(window.session.run_finished, timeout=TIMEOUT):
        dialog.accept()
    qtbot.waitUntil(lambda: window.inspector_model.variable("answer") is not None, timeout=TIMEOUT)
    assert _repr(window, "answer") == "'42'"
