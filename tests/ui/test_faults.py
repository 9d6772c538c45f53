"""Faults with a real kernel and the real window: crashes, memory, endless loops, leaks, kills, quitting."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from PySide6.QtCore import Qt

from explorer.client import budgets
from tests.cli.helpers import process_gone
from tests.ui.window_helpers import TIMEOUT, close_window, open_window, press, type_code


def _rss_kib() -> int:
    with open(f"/proc/{os.getpid()}/status", encoding="ascii") as handle:
        return next(int(line.split()[1]) for line in handle if line.startswith("VmRSS:"))


@pytest.mark.parametrize("crash", [
    "import os\nos._exit(3)",
    "import os\nos.abort()",
    "import ctypes\nctypes.string_at(0)",  # a segfault
])
def test_a_crashing_kernel_restarts_with_a_message_and_keeps_the_text(qtbot, crash) -> None:
    window, session = open_window(qtbot)
    try:
        code = f"precious = 1\n{crash}\n"
        type_code(qtbot, window, code)
        with qtbot.waitSignal(session.kernel_restarted, timeout=TIMEOUT):
            press(qtbot, window, Qt.Key.Key_F5, wait_run=False)
        qtbot.waitUntil(lambda: session.is_ready and session.status == "idle", timeout=TIMEOUT)
        assert window.editor.toPlainText() == code
        assert window.banner.topic() in ("kernel", "restarted")
        type_code(qtbot, window, "alive_again = 1\n")
        press(qtbot, window, Qt.Key.Key_F5)
        qtbot.waitUntil(lambda: window.inspector_model.variable("alive_again") is not None, timeout=TIMEOUT)
    finally:
        close_window(window, session)



def test_stop_ends_an_endless_loop(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "import time\nstarted = time.time()\nwhile True: pass\n")
    press(qtbot, window, Qt.Key.Key_F5, wait_run=False)
    qtbot.waitUntil(lambda: window.session.status == "busy", timeout=TIMEOUT)
    with qtbot.waitSignal(window.session.run_finished, timeout=TIMEOUT) as blocker:
        window.actions_["stop"].trigger()
    assert blocker.args[0]["failed"] is True  # ended by KeyboardInterrupt, in the time the bench measures
    assert not window.error_card.isVisible()  # Stop is not an error to explain


def test_asking_for_more_memory_than_exists_is_a_clear_error(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "import torch\nhuge = torch.empty(2**44)\n")  # 64 TiB of float32
    press(qtbot, window, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: window.error_card.isVisible(), timeout=TIMEOUT)
    text = (window.error_card.title_text() + " " + window.error_card.explanation_text()).lower()
    assert "memory" in text
    assert window.session.status == "idle"  # the kernel survived


def test_fifty_runs_leak_no_memory_in_the_window(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "import torch, numpy as np\nfor i in range(300):\n"
                             "    globals()[f'm{i}'] = torch.zeros(8, 8) if i % 2 else np.zeros(5)\n")
    sizes = []
    for run in range(1, 51):
        press(qtbot, window, Qt.Key.Key_F5)
        if run in (10, 50):
            gc.collect()
            sizes.append(_rss_kib())
    assert sizes[1] <= sizes[0] * 1.10, f"RSS grew from {sizes[0]} KiB at run 10 to {sizes[1]} KiB at run 50"


# The real app in a process of its own: it starts a loop in the kernel, then quits once the loop runs.
QUIT_BUSY = """\
import os, sys, argparse
sys.path.insert(0, ROOT)
from PySide6.QtWidgets import QApplication
from PySide6.QtCore import QCoreApplication, QTimer
from tests.ui.stall_probe import BlockingCalls
QCoreApplication.setOrganizationName("TensorExplorerTests")
app = QApplication([])
from explorer.app import create_window
window, session = create_window(argparse.Namespace(lang="en", files=[], presentation=False, lesson=None))
window.show()
app.aboutToQuit.connect(lambda: session.shutdown(wait=False))  # as explorer.app wires it
waits = BlockingCalls()
LOOP = "import os\\nopen(%r, 'w').write(str(os.getpid()))\\nwhile True: pass" % MARKER

def quit_when_busy():
    if session.status != "busy" or not os.path.exists(MARKER):
        QTimer.singleShot(20, quit_when_busy)
        return
    waits.__enter__()
    window.close()
    app.quit()

def busy():
    if not (session.is_ready and session.status == "idle"):
        QTimer.singleShot(50, busy)
        return
    session.execute(LOOP)
    quit_when_busy()

busy()
app.exec()
waits.__exit__()
print("WAITS", waits.calls, flush=True)
"""


def test_quitting_with_a_busy_kernel_waits_for_nothing(tmp_path) -> None:
    """The real app, quit (as a window manager's close leads to) while the kernel loops: from the close to the end
    of the event loop the GUI thread waits for nothing (the kernel is stopped by a worker thread), and the kernel
    is gone when the process has ended. No stopwatch: on a loaded machine it would time the scheduler."""
    marker = tmp_path / "kernel.pid"
    script = tmp_path / "quit_busy.py"
    script.write_text(QUIT_BUSY.replace("ROOT", repr(os.getcwd())).replace("MARKER", repr(str(marker))))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env,
                          timeout=budgets.seconds(3 * budgets.KERNEL_START))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "WAITS []" in proc.stdout, proc.stdout
    assert process_gone(int(marker.read_text())), "the busy kernel outlived the app"


def test_a_killed_window_offers_the_unsaved_text_back(tmp_path) -> None:
    """SIGKILL of the GUI: nothing runs at exit, yet the relaunch offers the typed text back."""
    data = tmp_path / "data"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", TENSOR_EXPLORER_DATA_DIR=str(data),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    first = tmp_path / "first.py"
    first.write_text(textwrap.dedent(f"""
        import sys, time, argparse
        sys.path.insert(0, {os.getcwd()!r})
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from explorer.app import create_window
        window, session = create_window(argparse.Namespace(lang="en", files=[], presentation=False, lesson=None))
        window.show()
        window.editor.setPlainText("typed_before_the_kill = 42\\n")
        window.editor.document().setModified(True)  # as typing leaves it: only unsaved text is autosaved
        window.recovery.saved.connect(lambda: print("SAVED", flush=True))
        app.exec()
    """))
    proc = subprocess.Popen([sys.executable, str(first)], stdout=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.stdout.readline().strip() != "SAVED":
            pass
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    second = tmp_path / "second.py"
    second.write_text(textwrap.dedent(f"""
        import sys, argparse
        sys.path.insert(0, {os.getcwd()!r})
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from explorer.app import create_window
        window, session = create_window(argparse.Namespace(lang="en", files=[], presentation=False, lesson=None))
        print("BANNER", window.banner.isVisible() or window.banner.text() != "", flush=True)
        window.banner.click("Restore")
        print("TEXT", repr(window.editor.toPlainText()), flush=True)
        session.shutdown()
    """))
    out = subprocess.run([sys.executable, str(second)], capture_output=True, text=True, env=env, timeout=120)
    assert "TEXT 'typed_before_the_kill = 42\\n'" in out.stdout, out.stdout + out.stderr[-2000:]
