"""Issue 25 goal 4 in the real window: Restart swaps to the spare kernel and the console follows it;
Step back replays in one execution, past an earlier error; quitting leaves no kernel behind."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time

from PySide6.QtCore import QSettings, Qt

from explorer.ui.window.window_steps import SPARE_KEY
from tests.ui.window_helpers import TIMEOUT, close_window, open_window, type_code

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _spare_ready(qtbot, session) -> None:
    if not session.spare.started:
        session._start_spare()  # now, not after the app's delay
    qtbot.waitUntil(lambda: session.spare.is_ready, timeout=TIMEOUT)


def _pid(manager) -> int:
    return manager.provisioner.process.pid


def test_restart_swaps_to_the_spare_and_the_console_works_on_it(qtbot) -> None:
    window, session = open_window(qtbot, spare=True)
    try:
        assert session.spare_enabled and window.actions_["spare_kernel"].isChecked()  # on unless turned off
        _spare_ready(qtbot, session)
        spare, old_console = _pid(session.spare.manager), window.console.kernel_client
        with qtbot.waitSignal(session.ready, timeout=TIMEOUT):
            window.actions_["restart"].trigger()
        assert _pid(session.manager) == spare
        assert window.console.kernel_client is not old_console and window.console.kernel_manager is session.manager
        with qtbot.waitSignal(session.run_finished, timeout=TIMEOUT):
            window.console.execute("typed_in_console = 42")  # the console's input reaches the new kernel
        qtbot.waitUntil(lambda: window.inspector_model.variable("typed_in_console") is not None, timeout=TIMEOUT)
    finally:
        close_window(window, session)


def test_step_back_replays_past_an_earlier_error_in_the_spare(qtbot) -> None:
    window, session = open_window(qtbot, spare=True)
    try:
        type_code(qtbot, window, "a = 1\nbroken = 1 / 0\nb = a + 1\nc = 3")
        window.stepper.reset()
        window.editor.go_to_line(1)
        for _ in range(4):
            with qtbot.waitSignal(window.stepper.stepped, timeout=TIMEOUT):
                qtbot.keyClick(window.editor, Qt.Key.Key_F10)
        _spare_ready(qtbot, session)
        spare = _pid(session.spare.manager)
        with qtbot.waitSignal(window.stepper.stepped, timeout=TIMEOUT) as blocker:
            qtbot.keyClick(window.editor, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
        result = blocker.args[0]
        assert _pid(session.manager) == spare  # the replay ran in the spare
        assert result.replayed == 3 and result.statement.code == "b = a + 1" and result.error is None
        assert window.inspector_model.variable("b") is not None and window.inspector_model.variable("c") is None
        assert window.editor.step_marks == ((3, 3), 4) and not window.error_card.isVisible()
    finally:
        close_window(window, session)


def test_the_setting_turns_the_spare_off_and_is_kept(qtbot) -> None:
    window, session = open_window(qtbot, spare=True)
    try:
        _spare_ready(qtbot, session)
        window.actions_["spare_kernel"].trigger()
        assert not session.spare_enabled and not session.spare.started
        assert QSettings().value(SPARE_KEY) in (False, "false")
    finally:
        QSettings().remove(SPARE_KEY)
        close_window(window, session)


_CHILD = """
import argparse, sys
sys.path.insert(0, {root!r})
from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QApplication
from explorer.client import session as session_module
from explorer.app import run_app

session_module.SPARE_DELAY_MS = 0  # the spare at once, not after the app's delay
app = QApplication(sys.argv[:1])

def report():
    window = next((w for w in QApplication.topLevelWidgets() if hasattr(w, "session")), None)
    spare = window.session.spare if window is not None else None
    if spare is not None and spare.is_ready:
        print(window.session.manager.provisioner.process.pid, spare.manager.provisioner.process.pid, flush=True)
    else:
        QTimer.singleShot(50, report)

QTimer.singleShot(200, report)
raise SystemExit(run_app(argparse.Namespace(lang="en", files=[], presentation=False, lesson=None, connection=None)))
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as handle:
            return "\\nState:\\tZ" not in handle.read()
    except OSError:
        return False


def test_quitting_the_app_ends_its_kernel_and_the_spare(tmp_path) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"),
               TENSOR_EXPLORER_DATA_DIR=str(tmp_path / "data"))
    proc = subprocess.Popen([sys.executable, "-c", _CHILD.format(root=ROOT)], cwd=str(tmp_path), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], TIMEOUT / 1000)
        line = proc.stdout.readline().split() if ready else []
        assert len(line) == 2, proc.stderr.read()[-2000:] if proc.stderr else ""
        pids = [int(pid) for pid in line]
        assert all(_alive(pid) for pid in pids)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=TIMEOUT / 1000)
        deadline = time.monotonic() + TIMEOUT / 1000
        while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(_alive(pid) for pid in pids)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
