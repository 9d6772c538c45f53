"""Whether the GUI thread ever waits, and how long it stops answering.

:class:`BlockingCalls` records every call that can make the GUI thread wait for
something outside it (the kernel, a thread, a process, a socket) while the app's
own code is on the stack: what the stall tests assert, with no stopwatch.
:class:`StallProbe` measures the longest gap between ticks of a 10 ms timer, for
``scripts/bench.py``'s stall rows against their millisecond goal: a timer that
fires on time gives gaps of about its interval, and anything that blocks the GUI
thread (a long slot, a paint, a blocking call) shows up as one long gap.
"""

from __future__ import annotations

import argparse
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer

INTERVAL_MS = 10


class StallProbe(QObject):
    """Records the longest gap between timer ticks while running."""

    def __init__(self, interval_ms: int = INTERVAL_MS, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._on_timer_timeout)
        self._last: float | None = None
        self.longest_ms = 0.0
        self.ticks = 0

    def start(self) -> None:
        self._last = time.perf_counter()
        self.longest_ms = 0.0
        self.ticks = 0
        self._timer.start()

    def stop(self) -> float:
        """Stop; returns the longest gap in milliseconds (the last tick up to now counts too)."""
        self._on_timer_timeout()
        self._timer.stop()
        return self.longest_ms

    def _on_timer_timeout(self) -> None:
        now = time.perf_counter()
        if self._last is not None:
            self.longest_ms = max(self.longest_ms, (now - self._last) * 1000.0)
        self._last = now
        self.ticks += 1


# -- blocking calls ---------------------------------------------------------------------------------
_THREAD_START = threading.Thread.start.__code__
_APP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep + "explorer" + os.sep


def _waits(name: str, args: tuple, kwargs: dict) -> bool:
    """Whether this call may wait (a zero timeout or a non-blocking flag does not)."""
    if name in ("Popen.communicate", "QEventLoop.exec"):
        return True
    if name in ("zmq recv", "zmq recv_multipart"):
        import zmq

        return not int(kwargs.get("flags", args[0] if args else 0)) & zmq.NOBLOCK
    if name == "queue.Queue.get":
        block = kwargs.get("block", args[0] if args else True)
        timeout = kwargs.get("timeout", args[1] if len(args) > 1 else None)
        return bool(block) and timeout != 0
    if name == "time.sleep":
        return bool(args and args[0] > 0)
    timeout = kwargs.get("timeout", args[0] if args else None)  # join, wait, poll: the first argument
    return timeout is None or timeout > 0


class BlockingCalls:
    """While active, records the calls that can make the GUI thread wait, made from the app's own code.

    ``time.sleep``, a thread's ``join``, an event's or a process's ``wait``, a blocking ``queue.get``,
    ``communicate``, a ZMQ ``recv``/``poll``, and a nested Qt event loop (``QEventLoop.exec``); each
    only when called on the main thread with a frame of ``explorer/`` on the stack (the test
    harness's own loop is not the app's).
    """

    def __init__(self) -> None:
        import zmq
        from PySide6.QtCore import QEventLoop

        self.calls: list[str] = []
        self._patched: list[tuple[Any, str, Any]] = []
        self._targets = [(time, "sleep", "time.sleep"), (threading.Thread, "join", "Thread.join"),
                         (threading.Event, "wait", "Event.wait"), (queue.Queue, "get", "queue.Queue.get"),
                         (subprocess.Popen, "wait", "Popen.wait"), (subprocess.Popen, "communicate", "Popen.communicate"),
                         (zmq.Socket, "recv", "zmq recv"), (zmq.Socket, "recv_multipart", "zmq recv_multipart"),
                         (zmq.Socket, "poll", "zmq poll"), (zmq.Poller, "poll", "zmq Poller.poll"),
                         (QEventLoop, "exec", "QEventLoop.exec")]

    def __enter__(self) -> BlockingCalls:
        for owner, attr, name in self._targets:
            original = getattr(owner, attr)
            self._patched.append((owner, attr, original))
            setattr(owner, attr, self._wrap(original, name, owner is time))
        return self

    def __exit__(self, *exc: object) -> None:
        for owner, attr, original in reversed(self._patched):
            setattr(owner, attr, original)
        self._patched = []

    def _wrap(self, original: Callable, name: str, plain: bool) -> Callable:
        def call(*args: Any, **kwargs: Any) -> Any:
            rest = args if plain else args[1:]  # past self for methods
            starting = sys._getframe(1).f_code is _THREAD_START  # a new thread's few microseconds to begin
            if threading.current_thread() is threading.main_thread() and not starting and _waits(name, rest, kwargs):
                where = _app_caller()
                if where:
                    self.calls.append(f"{name} from {where}")
            return original(*args, **kwargs)

        return call


def _app_caller() -> str | None:
    """``file:line`` of the innermost frame of the app's code on the stack (None: not called by the app)."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_filename.startswith(_APP):
            return f"{os.path.relpath(frame.f_code.co_filename, _APP)}:{frame.f_lineno}"
        frame = frame.f_back
    return None


# -- a real window, driven in-process (the stall tests and scripts/bench.py) --------------------------------------------------------
class DrivenWindow:
    """The real window and kernel in this process, with helpers to wait without sleeping blindly."""

    def __init__(self, freeze: bool = False) -> None:
        from PySide6.QtCore import QCoreApplication
        from PySide6.QtWidgets import QApplication

        self.app = QApplication.instance() or QApplication([])
        QCoreApplication.setOrganizationName("TensorExplorerBench")
        from PySide6.QtCore import QSettings

        from explorer.ui.window.window_steps import SPARE_KEY

        QSettings().setValue(SPARE_KEY, False)  # no spare kernel starting in the middle of a scenario (bench_restart turns it on)
        from explorer.app import create_window

        self.window, self.session = create_window(argparse.Namespace(lang="en", files=[], presentation=False,
                                                                     lesson=None))
        self.window.show()
        self.finished: list[dict] = []
        self.session.run_finished.connect(self.finished.append)
        from explorer.client import budgets

        self.wait(lambda: self.session.is_ready and self.session.status == "idle", budgets.seconds(2 * budgets.KERNEL_START))
        if freeze:
            from explorer.app import _freeze_startup_objects

            self.settle(1.0)
            _freeze_startup_objects()  # as the app does a few seconds after start (never inside pytest)

    def wait(self, done: Callable[[], bool], timeout: float = 120.0) -> None:
        end = time.monotonic() + timeout
        while not done():
            if time.monotonic() > end:
                raise TimeoutError("the window did not get there in time")
            self.app.processEvents()
            time.sleep(0.001)

    def settle(self, seconds: float = 0.3) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.app.processEvents()
            time.sleep(0.001)

    def run(self, code: str, timeout: float = 300.0) -> None:
        """Run *code* as the editor would, and wait until the inspector has the result."""
        from explorer.client.run_queue import Run

        count = len(self.finished)
        self.window.runs.submit(Run(code, 1, "file"))
        self.wait(lambda: len(self.finished) > count, timeout)

    def close(self) -> None:
        """Quit as the app does: the window closes, a worker thread stops the kernel (joined later)."""
        self.window.editor.document().setModified(False)
        self.window.close()
        self.worker = self.session.shutdown(wait=False)

    def join(self) -> None:
        if getattr(self, "worker", None) is not None:
            self.worker.join()


# -- stalls -------------------------------------------------------------------------------------
def stall_scenarios(win: DrivenWindow, big_file: str | None) -> list[tuple[str, float]]:
    """(scenario, longest gap of the 10 ms timer in ms) for each stall scenario of issue 16 item 3."""
    probe = StallProbe()
    out = []

    def measure(name: str, action: Callable[[], None]) -> None:
        probe.start()
        action()
        win.settle(0.3)
        out.append((name, probe.stop()))

    measure("the kernel runs a 5 s torch computation",
            lambda: win.run("import torch, time\nx = torch.randn(600, 600)\nt0 = time.time()\n"
                            "while time.time() - t0 < 5:\n    y = x @ x\n"))
    if big_file:
        loaded = []
        win.window.loader.loaded.connect(loaded.append)
        measure("a 2 GiB file loads", lambda: (win.window.files.open_paths([big_file]), win.wait(lambda: bool(loaded))))
    code = ("import torch, numpy as np\nfor i in range(10000):\n"
            "    globals()[f'v{i}'] = torch.zeros(4, 4) if i % 2 else np.zeros(3)\n")
    measure("10,000 variables appear (first run)", lambda: win.run(code))
    measure("10,000 variables refresh (every one re-bound)", lambda: win.run(code))
    # A variable 10,000 rows down: the tree is given the rows up to it (users reach it by scrolling or the filter).
    win.run("last = 1")
    measure("a variable 10,000 rows down is selected", lambda: win.window.inspector.select("last"))
    # The image row alone: what rendering it costs, not what laying out 10,000 rows above it costs.
    win.run("for i in range(10000):\n    del globals()[f'v{i}']\n")
    win.run("img = torch.rand(3, 4096, 4096)")
    win.window.details.setCurrentIndex(0)
    shown: list = []
    win.window.details.image.image_shown.connect(shown.append)
    measure("a 3x4096x4096 image is selected and drawn",
            lambda: (win.window.inspector.select("img"), win.wait(lambda: bool(shown))))
    measure("the app quits (kernel shut down)", win.close)
    win.join()
    return out
