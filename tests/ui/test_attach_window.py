"""The window on a kernel it did not start (``--existing``): inspected, Stop works, Restart is off, left running."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from explorer import protocol
from explorer.client.connection import resolve
from tests.client.tcp_kernel import run_in, tcp_kernel
from tests.ui.window_helpers import TIMEOUT, open_window, press, type_code


@pytest.fixture()
def running_kernel(tmp_path):
    with tcp_kernel(str(tmp_path)) as kernel:
        run_in(kernel["file"], "import numpy as np\nfrom_notebook = np.ones((2, 3))")
        yield kernel


def _names(window) -> list[str]:
    return [var["name"] for var in window.inspector_model.variables()]


def test_window_attaches_inspects_and_leaves_the_kernel_running(qtbot, running_kernel) -> None:
    window, session = open_window(qtbot, connection=resolve(running_kernel["file"]))
    assert not session.owns_kernel
    qtbot.waitUntil(lambda: "from_notebook" in _names(window), timeout=TIMEOUT)  # shown at once, without a run
    assert not window.actions_["restart"].isEnabled()
    assert "kernel-te-test.json" in window.kernel_extras.attached_label.text()
    type_code(qtbot, window, "view = from_notebook[:, 1]\n")
    press(qtbot, window, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: "view" in _names(window), timeout=TIMEOUT)
    # Code the notebook runs shows up too.
    with qtbot.waitSignal(session.namespace_changed, timeout=TIMEOUT):
        run_in(running_kernel["file"], "later = 3")
    qtbot.waitUntil(lambda: "later" in _names(window), timeout=TIMEOUT)
    # Stop interrupts the kernel through Jupyter's interrupt_request (we have no process to signal).
    type_code(qtbot, window, "import time\nwhile True:\n    time.sleep(0.01)\n")
    with qtbot.waitSignal(session.run_started, timeout=TIMEOUT):
        press(qtbot, window, Qt.Key.Key_F5, wait_run=False)
    with qtbot.waitSignal(session.run_finished, timeout=TIMEOUT) as finished:
        window.running.stop()
    assert finished.args[0]["error"]["type"] == "KeyboardInterrupt"
    type_code(qtbot, window, "%reset -f\n")
    press(qtbot, window, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: _names(window) == [], timeout=TIMEOUT)
    type_code(qtbot, window, "again = [1, 2]\n")
    press(qtbot, window, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: _names(window) == ["again"], timeout=TIMEOUT)
    window.close()
    session.shutdown()
    QApplication.processEvents()
    assert running_kernel["process"].poll() is None
    assert run_in(running_kernel["file"], "assert again == [1, 2]")["status"] == "ok"


def test_leaving_while_paused_lets_the_code_go_on(qtbot, running_kernel) -> None:
    window, session = open_window(qtbot, connection=resolve(running_kernel["file"]))
    type_code(qtbot, window, "stage = 1\nbreakpoint()\nstage = 2\n")
    with qtbot.waitSignal(session.paused, timeout=TIMEOUT):
        press(qtbot, window, Qt.Key.Key_F5, wait_run=False)
    window.close()
    session.shutdown()
    # The kernel is not left waiting for an answer nobody will give: its next client runs at once.
    assert run_in(running_kernel["file"], "assert stage == 2")["status"] == "ok"


def test_attached_to_a_kernel_with_torch_the_status_says_so_and_the_console_stays_quiet(qtbot, tmp_path) -> None:
    """Issue 24 item 8: "torch (not imported yet)" and "No such comm ..." lines on attaching."""
    with tcp_kernel(str(tmp_path)) as kernel:
        run_in(kernel["file"], "import torch\nt = torch.ones(2)")
        window, session = open_window(qtbot, connection=resolve(kernel["file"]))
        qtbot.waitUntil(lambda: "t" in _names(window), timeout=TIMEOUT)
        import torch

        assert window.torch_label.text() == f"torch {torch.__version__}"
        type_code(qtbot, window, "u = t * 2\n")
        press(qtbot, window, Qt.Key.Key_F5)  # output of a run after the handshake: the console has caught up
        text = window.console._control.toPlainText()
        assert "No such comm" not in text, text
        window.close()
        session.shutdown()


def test_a_notebook_cell_running_in_an_attached_kernel_is_watched_from_the_window(qtbot, running_kernel) -> None:
    """Issue 26: an engineer's notebook trains on a server; the window attached to its kernel draws the loop live."""
    import threading

    window, session = open_window(qtbot, connection=resolve(running_kernel["file"]))
    qtbot.waitUntil(lambda: "from_notebook" in _names(window), timeout=TIMEOUT)
    window.watch.set_names(["step", "loss"])
    # Requests are answered in order: once this one is, the kernel has the watch.
    answered: list[object] = []
    session.ask(protocol.Snapshot(), answered.append)
    qtbot.waitUntil(lambda: bool(answered), timeout=TIMEOUT)
    code = ("import time\nend = time.monotonic() + 3\nstep = 0\nwhile time.monotonic() < end:\n"
            "    step += 1\n    loss = 1.0 / step\n    time.sleep(0.01)\n")
    notebook = threading.Thread(target=run_in, args=(running_kernel["file"], code))  # another client runs the cell
    notebook.start()
    try:
        # Samples arrive while the notebook's cell is still running.
        qtbot.waitUntil(lambda: len(_points(window, "step")) >= 5, timeout=TIMEOUT)
        assert notebook.is_alive()
    finally:
        notebook.join(timeout=TIMEOUT / 1000)
    steps = _points(window, "step")
    assert steps == sorted(steps) and steps[-1] > steps[0]
    losses = _points(window, "loss")
    assert losses and losses[-1] < losses[0]
    window.close()
    session.shutdown()
    QApplication.processEvents()
    assert running_kernel["process"].poll() is None


def _points(window, name: str) -> list[float]:
    run = window.watch.curves.current
    curve = run.curves.get(name) if run is not None else None
    return [y for y in (curve[1] if curve else []) if y is not None]
