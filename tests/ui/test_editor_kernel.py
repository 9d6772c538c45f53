"""Completion and call tips in the real window, from the real kernel: live objects, and the fallback while it runs."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.window_helpers import TIMEOUT, press, type_code


def new_line_at_end(qtbot, window) -> None:
    window.editor.moveCursor(window.editor.textCursor().MoveOperation.End)
    window.editor.setFocus()


def test_dot_after_a_tensor_that_ran_lists_its_methods_from_the_kernel(shared) -> None:
    qtbot, window = shared
    # made at run time only: the script's text cannot tell what `live` is, the kernel can
    type_code(qtbot, window, "import torch\nglobals()['live'] = torch.zeros(3)\n")
    press(qtbot, window, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: window.inspector_model.variable("live") is not None, timeout=TIMEOUT)
    new_line_at_end(qtbot, window)
    with qtbot.waitSignal(window.editor.completion.shown, timeout=TIMEOUT) as shown:
        qtbot.keyClicks(window.editor, "live.")
    assert shown.args == ["kernel"]
    names = window.editor.completion.popup.names()
    assert {"view", "reshape", "sum", "requires_grad"} <= set(names)
    assert not any(name.startswith("_") for name in names)
    qtbot.keyClicks(window.editor, "resh")
    qtbot.keyClick(window.editor, Qt.Key.Key_Tab)
    assert window.editor.toPlainText().endswith("\nlive.reshape")


def test_open_paren_after_torch_zeros_shows_its_signature_from_the_kernel(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "import torch\n")
    press(qtbot, window, Qt.Key.Key_F5)
    new_line_at_end(qtbot, window)
    with qtbot.waitSignal(window.editor.completion.calltip_shown, timeout=TIMEOUT) as shown:
        qtbot.keyClicks(window.editor, "t = torch.zeros(")
    tip = window.editor.completion.calltip
    assert shown.args == ["kernel"]
    assert tip.signature.startswith("zeros(*size, *, out=None, dtype=None")
    assert tip.doc.startswith("Returns a tensor filled with the scalar value `0`")
    qtbot.keyClick(window.editor, Qt.Key.Key_Escape)


def test_while_the_kernel_runs_code_the_scripts_text_completes(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "import time, torch\nt = torch.zeros(3)\ntime.sleep(120)\n")
    with qtbot.waitSignal(window.session.run_started, timeout=TIMEOUT):
        press(qtbot, window, Qt.Key.Key_F5, wait_run=False)
    qtbot.waitUntil(lambda: window.session.status == "busy", timeout=TIMEOUT)
    try:
        new_line_at_end(qtbot, window)
        with qtbot.waitSignal(window.editor.completion.shown, timeout=TIMEOUT) as shown:
            qtbot.keyClicks(window.editor, "t.")
        assert shown.args == ["static"]  # never waiting for the busy kernel
        assert {"view", "reshape"} <= set(window.editor.completion.popup.names())
        qtbot.keyClick(window.editor, Qt.Key.Key_Escape)
    finally:
        with qtbot.waitSignal(window.session.run_finished, timeout=TIMEOUT):
            qtbot.keyClick(window.editor, Qt.Key.Key_Period, Qt.KeyboardModifier.ControlModifier)  # Stop


def test_completing_never_calls_the_users_properties_or_getitem(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "class Probe:\n"
                             "    def __init__(self):\n"
                             "        self.calls = []\n"
                             "    @property\n"
                             "    def prop(self):\n"
                             "        self.calls.append('prop')\n"
                             "        return 1\n"
                             "    def __getitem__(self, key):\n"
                             "        self.calls.append('getitem')\n"
                             "        return 1\n"
                             "p = Probe()\n")
    press(qtbot, window, Qt.Key.Key_F5)
    new_line_at_end(qtbot, window)
    for text in ("p.", "p.prop.", "p[0].", "q = p.prop.real."):
        start = window.editor.textCursor().position()
        with qtbot.waitSignal(window.editor.completion.shown, timeout=TIMEOUT):
            qtbot.keyClicks(window.editor, text)
        qtbot.keyClick(window.editor, Qt.Key.Key_Escape)
        cursor = window.editor.textCursor()
        cursor.setPosition(start, cursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
    qtbot.keyClicks(window.editor, "count = len(p.calls)")
    press(qtbot, window, Qt.Key.Key_F9)  # run this line
    qtbot.waitUntil(lambda: (window.inspector_model.variable("count") or {}).get("repr") is not None, timeout=TIMEOUT)
    assert window.inspector_model.variable("count")["repr"] == "0"
