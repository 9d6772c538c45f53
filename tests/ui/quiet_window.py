"""The real main window on a stand-in session (no kernel process), and windows that die in a child process.

Recovery, quitting and file handling never talk to the kernel, so these tests
drive the real window, its menus and keys without starting one; a "crash" is a
real process killed with SIGKILL, so its lock is as a crash leaves it.
"""

from __future__ import annotations

import glob
import json
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QApplication, QMessageBox

from explorer.client.states import KernelStatus
from tests.child_output import first_line

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHILD_TIMEOUT = 180


class StandInSession(QObject):
    """Has every member of ``WindowLink`` (what the window uses of a KernelSession); answers nothing."""

    status_changed = Signal(str)
    namespace_changed = Signal(dict)
    kernel_died = Signal(str)
    kernel_restarted = Signal()
    ready = Signal(dict)
    problem = Signal(str, dict)
    run_finished = Signal(dict)
    paused = Signal(dict)
    resumed = Signal(dict)
    input_requested = Signal(str, bool)
    connection_lost = Signal()
    selected_overlaps = Signal(object)
    watch_sampled = Signal(object)

    def __init__(self, **_options: Any) -> None:
        super().__init__()
        self.status: KernelStatus = "idle"
        self.is_ready = True
        self.is_paused = False
        self.owns_kernel = True
        self.spare_enabled = False
        self.connection: dict[str, Any] | None = None
        self.kernel_client: Any = None
        self.selection: Callable[[], str | None] = lambda: None
        self.asked: list[Any] = []

    def set_language(self, lang: str) -> None: ...

    def launch(self) -> None: ...

    def start(self) -> None: ...

    def ask(self, request: Any, on_reply: Any, valid: Any = None) -> None:
        self.asked.append(request)

    def execute(self, code: str) -> str:
        return "stand-in"

    def interrupt(self) -> None: ...

    def restart(self) -> None: ...

    def shutdown(self, wait: bool = True) -> None: ...

    def answer_input(self, text: str) -> None: ...

    def pause_watch(self, paused: bool) -> bool:
        return False

    def set_spare(self, on: bool) -> None: ...

    def selection_moved(self, *_args: Any) -> None: ...


def quiet_window(qtbot, lang: str = "en", files: list[str] | None = None):
    """A main window as ``create_window`` makes it (*files* opened, then its recovery offered), without a kernel."""
    from explorer.ui.app_state import AppState
    from explorer.ui.window.main_window import MainWindow

    state = AppState(lang)
    state.set_language(lang, remember=False)
    window = MainWindow(StandInSession(), state)
    qtbot.addWidget(window)
    window.files.open_paths(files or [])
    window.unsaved.offer_recovery()
    window.show()
    qtbot.waitExposed(window)
    return window


def type_keys(qtbot, window, text: str) -> None:
    """Type *text* with real key presses at the end of the editor's text."""
    window.activateWindow()
    window.editor.setFocus()
    window.editor.moveCursor(window.editor.textCursor().MoveOperation.End)
    for i, line in enumerate(text.split("\n")):
        if i:
            qtbot.keyClick(window.editor, Qt.Key.Key_Return)
        if line:
            qtbot.keyClicks(window.editor, line)


def answer_box_later(qtbot, button: QMessageBox.StandardButton, seen: list[str] | None = None) -> None:
    """Press *button* in the next Save / Discard / Cancel box as soon as it opens (it is modal)."""
    from PySide6.QtCore import QTimer

    def click() -> None:
        box = next((w for w in QApplication.topLevelWidgets()
                    if isinstance(w, QMessageBox) and w.objectName() == "unsaved_changes_box" and w.isVisible()), None)
        if box is None:
            QTimer.singleShot(20, click)
            return
        if seen is not None:
            seen.append(box.text())
        box.button(button).click()

    QTimer.singleShot(0, click)


def recovery_texts(folder: str) -> list[str]:
    """The texts of every recovery file in *folder*."""
    texts = []
    for path in glob.glob(os.path.join(folder, "recovery*.json")):
        with open(path, encoding="utf-8") as handle:
            texts.append(json.load(handle)["text"])
    return sorted(texts)


_CHILD = textwrap.dedent("""
    import os, signal, sys
    sys.path.insert(0, {root!r})
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from tests.ui.quiet_window import StandInSession
    from explorer.ui.app_state import AppState
    from explorer.ui.window.main_window import MainWindow
    window = MainWindow(StandInSession(), AppState("en"))
    window.unsaved.offer_recovery()
    window.show()
    window.editor.setFocus()
    from PySide6.QtTest import QTest
    QTest.keyClicks(window.editor, sys.argv[1])
    window.recovery.save_now()  # what the 3-second timer does
    print("SAVED", flush=True)
    if sys.argv[2] == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    sys.stdin.readline()  # alive until the test kills it
""")


def window_in_child(folder: str, text: str, then: str = "kill") -> subprocess.Popen:
    """A window in another process that types *text* and autosaves; ``then="kill"``: it is SIGKILLed at once,
    ``"wait"``: it runs until the test kills it. Returns once the text is on disk."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", TENSOR_EXPLORER_DATA_DIR=folder)
    proc = subprocess.Popen([sys.executable, "-c", _CHILD.format(root=ROOT), text, then], cwd=ROOT, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    line = first_line(proc).strip()
    assert line == "SAVED", f"the child window did not autosave ({line!r})"
    if then == "kill":
        proc.wait(timeout=CHILD_TIMEOUT)
        assert proc.returncode == -signal.SIGKILL
    return proc


_APP_CHILD = textwrap.dedent("""
    import argparse, os, sys
    sys.path.insert(0, {root!r})
    from PySide6.QtCore import QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QLabel
    import explorer.app, explorer.client.session
    from tests.ui.quiet_window import StandInSession
    explorer.client.session.KernelSession = StandInSession  # the real app, without a kernel process
    explorer.app.make_console = lambda session: QLabel("console")
    app = QApplication([])  # before the timer below: run_app takes this one
    text, lesson, then = sys.argv[1], sys.argv[2] or None, sys.argv[3]

    def typed():
        window = next(w for w in QApplication.topLevelWidgets() if w.objectName() == "main_window")
        window.editor.setFocus()
        QTest.keyClicks(window.editor, text)
        window.recovery.save_now()  # what the 3-second timer does
        print("READY", flush=True)
        if then == "quit":
            app.quit()  # the app ends without closing its window first

    QTimer.singleShot(200, typed)
    options = argparse.Namespace(lang="en", files=[], presentation=False, lesson=lesson, connection=None)
    print("EXIT", explorer.app.run_app(options), flush=True)
""")


def app_in_child(folder: str, text: str, lesson: str | None = None, then: str = "signal") -> subprocess.Popen:
    """The real app (``run_app``) in another process, *text* typed and autosaved; returns once it is."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", TENSOR_EXPLORER_DATA_DIR=folder)
    proc = subprocess.Popen([sys.executable, "-c", _APP_CHILD.format(root=ROOT), text, lesson or "", then], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = first_line(proc).strip()
    assert line == "READY", f"the app did not start ({line!r}): {proc.stderr.read()[-2000:] if proc.stderr else ''}"
    return proc


def kill(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=CHILD_TIMEOUT)
