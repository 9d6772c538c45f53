"""Driving the real main window with a real kernel, as a user would."""

from __future__ import annotations

import argparse
import os

from PySide6.QtCore import QCoreApplication, QSettings, Qt
from PySide6.QtWidgets import QApplication

from explorer.app import create_window
from explorer.client import budgets
from explorer.ui.window.window_steps import SPARE_KEY
from tests.waits import scaled_ms

#: A kernel start, restart or run in the real window: a hang guard, scaled by TENSOR_EXPLORER_TIME_SCALE.
TIMEOUT = budgets.milliseconds(1.5 * budgets.KERNEL_START)


def open_window(qtbot, keep_recovery: bool = False, spare: bool = False, **options):
    """The real window with a real kernel; text an earlier test's window left behind is discarded unless kept.

    The spare kernel (Run > Keep a Spare Kernel, on in the app) is off unless *spare*: a test window
    that lives past the spare's delay would start a second kernel that nothing of the test uses.
    """
    if not keep_recovery:
        from explorer.ui.window.recovery import claim_orphans, recovery_dir

        if os.path.isdir(recovery_dir()):
            for orphan in claim_orphans(recovery_dir()):  # never a window's that still runs
                orphan.discard()
    QCoreApplication.setOrganizationName("TensorExplorerTests")
    QCoreApplication.setApplicationName("Tensor Explorer Tests")
    QSettings().setValue(SPARE_KEY, spare)
    settings = {"lang": "en", "files": [], "presentation": False, "lesson": None, **options}
    window, session = create_window(argparse.Namespace(**settings))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(lambda: session.is_ready and session.status == "idle", timeout=TIMEOUT)
    qtbot.waitUntil(lambda: window.console.__class__.__name__ != "QLabel", timeout=TIMEOUT)
    return window, session


def close_window(window, session) -> None:
    """Close a window of :func:`open_window` without its unsaved-text question, and shut its kernel down."""
    window.editor.document().setModified(False)
    window.close()
    session.shutdown()


def type_code(qtbot, window, code: str) -> None:
    # Shortcuts reach only the active window: another test's window may have been active last.
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=TIMEOUT)
    window.editor.setFocus()
    window.editor.selectAll()
    window.editor.textCursor().removeSelectedText()
    lines = code.split("\n")
    for i, line in enumerate(lines):
        # The editor indents new lines itself (as Python wants): type each line's text after
        # bringing the indentation to the line's own, with Backspace and spaces, as a user would.
        indent_to(qtbot, window.editor, len(line) - len(line.lstrip(" ")))
        if line.strip():
            qtbot.keyClicks(window.editor, line.lstrip(" "))
        if i < len(lines) - 1:
            qtbot.keyClick(window.editor, Qt.Key.Key_Return)  # QTest cannot type "\n" as text
    assert window.editor.toPlainText() == code


def indent_to(qtbot, editor, width: int) -> None:
    """Bring the blank start of the cursor's line to *width* spaces: Backspace removes a level, spaces add."""
    while editor.textCursor().positionInBlock() > width:
        qtbot.keyClick(editor, Qt.Key.Key_Backspace)
    missing = width - editor.textCursor().positionInBlock()
    if missing > 0:
        qtbot.keyClicks(editor, " " * missing)


def press(qtbot, window, key, modifier=Qt.KeyboardModifier.NoModifier, wait_run: bool = True) -> None:
    """Press a key in the editor; optionally wait until the run it starts has updated the window.

    The window is made active first: its shortcuts only fire in the active window, and a
    test that opened (and closed) another window may have left that one active.
    """
    if QApplication.activeWindow() is not window:
        window.activateWindow()
        window.raise_()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=scaled_ms(5000))
    if not wait_run:
        qtbot.keyClick(window.editor, key, modifier)
        return
    with qtbot.waitSignal(window.session.run_finished, timeout=TIMEOUT):
        qtbot.keyClick(window.editor, key, modifier)
    QApplication.processEvents()


def row_text(window, name: str, column: str) -> str:
    model = window.inspector_model
    index = model.index_of(name)
    assert index.isValid(), f"{name} is not in the inspector"
    return model.index(index.row(), model.column_of(column), index.parent()).data()
