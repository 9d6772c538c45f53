"""Worker threads that touch Qt end before Python finalizes: a quit during one is a clean exit, never an abort."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading

from explorer.client import workers
from explorer.ui.editor import static_completer
from explorer.ui.editor.static_completer import StaticCompleter
from tests.ui.quiet_window import CHILD_TIMEOUT, ROOT

# The real window (no kernel) quits while a detail tab's module is imported on the worker thread.
QUIT_DURING_IMPORT = textwrap.dedent("""
    import argparse, sys
    sys.path.insert(0, {root!r})
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QLabel
    import explorer.app, explorer.client.session, explorer.ui.detail_tabs_widget as tabs
    from tests.ui.quiet_window import StandInSession
    explorer.client.session.KernelSession = StandInSession
    explorer.app.make_console = lambda session: QLabel("console")
    tabs._MODULES = (("tests.ui.slow_tab_module", "SlowView"),) + tabs._MODULES[1:]
    app = QApplication([])
    window, session = explorer.app.create_window(
        argparse.Namespace(lang="en", files=[], presentation=False, lesson=None, connection=None))
    window.show()

    def quit_once_importing():
        if "tests.ui.slow_tab_module" not in sys.modules:
            QTimer.singleShot(10, quit_once_importing)
            return
        window.close()
        app.quit()

    def start():
        window.findChild(tabs.DetailTabsWidget).start_building()
        quit_once_importing()

    QTimer.singleShot(0, start)
    app.exec()
    print("EXEC DONE", flush=True)
""")


def test_quitting_while_a_tab_module_is_imported_ends_cleanly() -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, "-c", QUIT_DURING_IMPORT.format(root=ROOT)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=CHILD_TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-2000:]  # was -6: "terminate called without an active exception"
    lines = proc.stdout.split()
    assert "IMPORTING" in proc.stdout and lines[-1] == "IMPORTED", proc.stdout  # the exit waited for the import


def test_end_all_stops_and_joins_each_live_thread() -> None:
    release = threading.Event()
    stopped: list[str] = []
    waiting = workers.start(release.wait, "te-test-waiting", stop=lambda: (stopped.append("waiting"), release.set()))
    short = workers.start(lambda: None, "te-test-short")
    short.join(CHILD_TIMEOUT)
    assert waiting in workers.live() and short not in workers.live()
    assert workers.end_all(limit=CHILD_TIMEOUT, only=[waiting, short]) == []
    assert stopped == ["waiting"] and not waiting.is_alive() and waiting not in workers.live()


def test_a_failing_stop_does_not_keep_the_others_running() -> None:
    first, second = threading.Event(), threading.Event()

    def broken() -> None:
        raise OSError("already closed")

    a = workers.start(first.wait, "te-test-a", stop=broken)
    b = workers.start(second.wait, "te-test-b", stop=second.set)
    first.set()  # a ends by itself; its stop fails
    assert workers.end_all(limit=CHILD_TIMEOUT, only=[a, b]) == []
    assert not a.is_alive() and not b.is_alive()


def test_the_jedi_threads_end_when_asked_and_the_next_request_starts_another(qtbot) -> None:
    completer = StaticCompleter()
    with qtbot.waitSignal(completer.completed, timeout=CHILD_TIMEOUT * 1000):
        completer.complete(1, "import os\nos.pa", 2, len("os.pa"))
    jedi = [thread for thread in workers.live() if thread.name.startswith("te-jedi-")]
    assert len(jedi) == 2
    process = static_completer._worker._process
    assert workers.end_all(limit=CHILD_TIMEOUT, only=jedi) == []  # what happens at exit
    assert process is not None and process.wait(CHILD_TIMEOUT) is not None
    with qtbot.waitSignal(completer.completed, timeout=CHILD_TIMEOUT * 1000) as answer:
        completer.complete(2, "import os\nos.pa", 2, len("os.pa"))
    assert answer.args[0] == 2 and "path" in {name for name, _kind, _typed in answer.args[1]}
