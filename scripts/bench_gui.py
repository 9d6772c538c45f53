"""The window's rows of ``scripts/bench.py``: what a user waits on in the GUI process itself.

* run -> inspector updated (the kernel pushes the run's reply; the old asked path beside it), and a bare
  round trip through the comm;
* (F5 of a script re-binding 3,000 variables: ``scripts/bench_f5.py``, with Spyder's path beside it);
* a 4096 image from selection to drawn;
* launch -> window painted and kernel ready, beside ``jupyter qtconsole``'s launch;
* the inspector model's update at 1k-16k variables (first and re-bound runs);
* stalls: the longest gap of a 10 ms timer in the GUI thread while the kernel
  computes, a 2 GiB file loads, a 4096 image renders, 10,000 variables refresh,
  and the app quits (``tests/ui/stall_probe.py``; goal < 50 ms).
"""

from __future__ import annotations

import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import numpy as np

Row = tuple[str, str, str, str]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests.ui.stall_probe import DrivenWindow as Window  # noqa: E402
from tests.ui.stall_probe import stall_scenarios  # noqa: E402


def _spread(values: list[float], unit: str = "ms") -> str:
    values = sorted(values)
    return f"{statistics.median(values):.1f} {unit} ({values[0]:.1f}-{values[-1]:.1f}, n={len(values)})"


def load_average(since: float | None = None) -> str:
    """The 1-minute load average now, or from *since* (an earlier reading) to now: read a row against it."""
    now = os.getloadavg()[0]
    return f"load average {now:.2f}" if since is None else f"load average {since:.2f} -> {now:.2f}"


def _wait(win: Window, done: Any, timeout: float = 120.0) -> None:
    """Run the event loop until ``done()`` (checked every millisecond by a timer), as the app's loop runs.

    ``Window.wait`` sleeps a millisecond between turns, which the app never does: a reply decoded a
    chunk per turn would pay it at every chunk.
    """
    from PySide6.QtCore import QEventLoop, QTimer

    loop, timer, end = QEventLoop(), QTimer(), time.monotonic() + timeout

    def check() -> None:
        if done() or time.monotonic() > end:
            loop.quit()

    timer.timeout.connect(check)
    timer.start(1)
    if not done():
        loop.exec()
    timer.stop()
    if not done():
        raise TimeoutError("the window did not get there in time")


def _run(win: Window, code: str, done: Any, finished: bool = True) -> float:
    """Milliseconds from submitting *code* to the editor's run queue until ``done()`` (and, with *finished*,
    the run finished too); the next run starts only once this one finished, either way."""
    from explorer.client.run_queue import Run

    count = len(win.finished)
    start = time.perf_counter()
    win.window.runs.submit(Run(code, 1, "file"))
    _wait(win, lambda: (len(win.finished) > count or not finished) and done())
    took = (time.perf_counter() - start) * 1000
    _wait(win, lambda: len(win.finished) > count)
    return took


def _settled(win: Window) -> bool:
    """The inspector model has applied all of the last snapshot (a big delta goes a slice per turn)."""
    model = win.window.inspector_model
    return not model._pending and model._building is None


def _push_or_ask(win: Window, push: bool, default: Any) -> None:
    """The kernel pushes each run's reply (the app's path), or the window asks AfterRun at idle (the old path)."""
    win.session.client.set_push(default if push else None)


def _counting_after_runs(win: Window) -> list[int]:
    """How many AfterRun the window asks, counted at the client's send."""
    asked = [0]
    real = win.session.client._send

    def counting(request: Any, callback: Any, valid: Any) -> None:
        asked[0] += type(request).__name__ == "AfterRun"
        real(request, callback, valid)

    win.session.client._send = counting
    return asked


def bench_run_to_updated(runs: int = 50) -> list[Row]:
    """`a = N` from the run queue to the inspector showing N: pushed reply vs asked, interleaved in blocks."""
    from explorer import protocol

    win = Window(freeze=True)  # as the app is a few seconds after its start
    try:
        default, asked = win.session.client.push, _counting_after_runs(win)
        times: dict[bool, list[float]] = {True: [], False: []}
        counter = itertools.count()
        for block in range(10 + 1):  # the first block warms up
            for push in (True, False):
                _push_or_ask(win, push, default)
                before = asked[0]
                for _ in range(runs // 10):
                    i = next(counter)
                    took = _run(win, f"a = {i}", lambda n=i: (win.window.inspector_model.variable("a") or {}).get("repr") == str(n))
                    if block:
                        times[push].append(took)
                assert (asked[0] == before) == push, "the push path asks nothing, the old one asks each run"
        _push_or_ask(win, True, default)
        rtt = []
        for _ in range(runs):
            replies: list = []
            start = time.perf_counter()
            win.session.ask(protocol.SetLanguage(lang="en"), replies.append)
            win.wait(lambda replies=replies: bool(replies))
            rtt.append((time.perf_counter() - start) * 1000)
        load = load_average()
    finally:
        win.close()
        win.join()
    return [("run `a = 1` -> inspector updated (warm kernel; the kernel pushes the run's reply)", _spread(times[True]),
             f"asked after idle (the old path, interleaved): {_spread(times[False])}; bare comm round trip "
             f"{statistics.median(rtt):.1f} ms; {load}", "<= 20 ms")]


def image_draw_ms(img: Any) -> list[float]:
    """Selection -> pixels drawn on the Image tab's canvas, through the real agent in-process."""
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    sys.path.insert(0, ROOT)
    from explorer.core.summary.dispatch import summarize
    from explorer.ui.app_state import AppState
    from explorer.ui.image.image_view import ImageView
    from tests.ui.fakes import InProcessSource

    app = QApplication.instance() or QApplication([])
    view = ImageView(InProcessSource({"img": img}), AppState())
    view.resize(900, 700)
    view.show()
    app.processEvents()
    var = summarize("img", img)
    times = []
    for _ in range(5):
        loop = QEventLoop()
        view.image_shown.connect(loop.quit)
        start = time.perf_counter()
        view.app_state.select(dict(var))
        QTimer.singleShot(10_000, loop.quit)
        loop.exec()
        times.append((time.perf_counter() - start) * 1000)
        view.image_shown.disconnect(loop.quit)
        view.app_state.select(None)
    return times[1:]


# -- start-up -----------------------------------------------------------------------------------
# Both launch scripts time the first paint of their window with this event filter.
_FIRST_PAINT = """
class FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and not painted:
            painted.append(time.time() - start)
        return False
"""

_STARTUP = """
import time, sys, argparse
start = float(sys.argv[1])
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([])
QCoreApplication.setOrganizationName("TensorExplorerBench")
from explorer.app import create_window
window, session = create_window(argparse.Namespace(lang="en", files=[], presentation=False, lesson=None))
painted = []
""" + _FIRST_PAINT + """
spy = FirstPaint()
window.installEventFilter(spy)
window.show()
session.ready.connect(lambda _hello: app.quit())
QTimer.singleShot(60000, app.quit)
app.exec()
print(painted[0], time.time() - start, "torch" in sys.modules)
session.shutdown()
"""

_QTCONSOLE = """
import time, sys
start = float(sys.argv[1])
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([])
from qtconsole.manager import QtKernelManager
from qtconsole.rich_jupyter_widget import RichJupyterWidget
manager = QtKernelManager(kernel_name="python3")
manager.start_kernel()
client = manager.client()
client.start_channels()
widget = RichJupyterWidget()
widget.kernel_manager, widget.kernel_client = manager, client
painted, ready = [], []
""" + _FIRST_PAINT + """
spy = FirstPaint()
widget.installEventFilter(spy)
widget.show()
def ping():
    client.kernel_info()
client.shell_channel.message_received.connect(lambda msg: (ready.append(time.time() - start), app.quit())
                                             if msg["msg_type"] == "kernel_info_reply" and not ready else None)
QTimer.singleShot(0, ping)
QTimer.singleShot(60000, app.quit)
app.exec()
print(painted[0] if painted else -1, ready[0] if ready else -1)
client.stop_channels()
manager.shutdown_kernel(now=True)
"""


def bench_startup() -> list[Row]:
    """Launch -> window painted, and -> kernel ready; `jupyter qtconsole` (a console on a fresh kernel) beside it."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=ROOT)
    shown, ready, qc_shown, qc_ready = [], [], [], []
    load = os.getloadavg()[0]
    for _ in range(5):  # interleaved pairs: each ratio compares the two under the same machine load
        out = subprocess.run([sys.executable, "-c", _STARTUP, repr(time.time())], capture_output=True, text=True,
                             env=env, timeout=120)
        first, second, torch_loaded = out.stdout.split()
        assert torch_loaded == "False", "the GUI process imported torch"
        peer = subprocess.run([sys.executable, "-c", _QTCONSOLE, repr(time.time())], capture_output=True, text=True,
                              env=env, timeout=120)
        painted, kernel = peer.stdout.split()
        for values, seconds in ((shown, first), (ready, second), (qc_shown, painted), (qc_ready, kernel)):
            values.append(float(seconds) * 1000)
    ratios = [ours / theirs for ours, theirs in zip(ready, qc_ready)]
    return [
        ("launch -> window painted (process start included; the GUI never imports torch)", _spread(shown),
         f"jupyter qtconsole: console painted {_spread(qc_shown)}", "< 1000 ms"),
        ("launch -> kernel ready (extension loaded, handshake done)", _spread(ready),
         f"jupyter qtconsole: kernel_info answered {_spread(qc_ready)}; ours/qtconsole per pair "
         f"x{statistics.median(ratios):.2f} (x{min(ratios):.2f}-x{max(ratios):.2f}); {load_average(load)}", "<= qtconsole's"),
    ]


# -- the inspector model -----------------------------------------------------------------------
def _var(name: str, shape: tuple[int, ...] = (32, 32)) -> dict:
    """A VAR as the kernel sends it: every field present (the model reads ``children``, ``note``...)."""
    from explorer import protocol

    made = dict(protocol.null_var(name, "tensor", "Tensor"))
    made.update({"shape": list(shape), "dtype": "torch.float32", "device": "cpu", "strides": [shape[-1], 1],
                 "storage_offset": 0, "is_contiguous": True})
    return made


def bench_model() -> list[Row]:
    """Applying a snapshot to the inspector shown in a tree view: all new, then all re-bound, 1k-16k."""
    from PySide6.QtWidgets import QApplication

    sys.path.insert(0, ROOT)
    from explorer.ui.app_state import AppState
    from explorer.ui.inspector.inspector_model import InspectorModel
    from explorer.ui.inspector.inspector_view import InspectorView
    from tests.ui.fakes import InProcessSource

    app = QApplication.instance() or QApplication([])
    sizes, first, second = [1000, 2000, 4000, 8000, 16000], [], []
    for n in sizes:
        model = InspectorModel()
        view = InspectorView(model, InProcessSource({}), AppState())
        view.resize(900, 700)
        view.show()
        app.processEvents()
        fresh = [_var(f"v{i}") for i in range(n)]
        start = time.perf_counter()
        model.apply_snapshot({"full": False, "seq": 1, "variables": fresh, "removed": [],
                              "order": [v["name"] for v in fresh], "changes": {}})
        app.processEvents()
        first.append((time.perf_counter() - start) * 1000)
        again = [_var(f"v{i}", (16, 64)) for i in range(n)]
        changes = {v["name"]: {"status": "changed", "through": None} for v in again}
        start = time.perf_counter()
        model.apply_snapshot({"full": False, "seq": 2, "variables": again, "removed": [], "order": None,
                              "changes": changes})
        app.processEvents()
        second.append((time.perf_counter() - start) * 1000)
        view.close()
    label = "/".join(f"{n // 1000}k" for n in sizes)
    return [
        (f"inspector model + tree view, names all new, {label} variables",
         " / ".join(f"{ms:.1f}" for ms in first) + " ms", _growth(first), "~x2"),
        (f"inspector model + tree view, all re-bound (a delta of every VAR), {label} variables",
         " / ".join(f"{ms:.1f}" for ms in second) + " ms", _growth(second), "~x2"),
    ]


def bench_filter() -> list[Row]:
    """100,000 variables in the inspector: the first paint, then each key typed into the filter box."""
    from PySide6.QtWidgets import QApplication

    sys.path.insert(0, ROOT)
    from explorer.ui.app_state import AppState
    from explorer.ui.inspector.inspector_model import InspectorModel
    from explorer.ui.inspector.inspector_view import InspectorView
    from tests.ui.fakes import InProcessSource

    app = QApplication.instance() or QApplication([])
    model = InspectorModel()
    view = InspectorView(model, InProcessSource({}), AppState())
    view.resize(900, 700)
    view.show()
    app.processEvents()
    fresh = [_var(f"v{i}") for i in range(100_000)]
    start = time.perf_counter()
    model.apply_snapshot({"full": False, "seq": 1, "variables": fresh, "removed": [],
                          "order": [v["name"] for v in fresh], "changes": {}})
    app.processEvents()
    shown = (time.perf_counter() - start) * 1000
    keys = []
    for text in ("v", "v9", "v99", "v999", "v9999", "v99999", "v9999", "v999", "v99", "v9", "v", ""):
        start = time.perf_counter()
        view.set_filter_text(text)  # the box's textChanged, as a key press gives it
        app.processEvents()
        view.tree.viewport().repaint()
        keys.append((time.perf_counter() - start) * 1000)
    view.close()
    return [("100,000 variables: snapshot applied and the tree painted", f"{shown:.0f} ms", "", ""),
            ("100,000 variables: a key typed into the filter -> tree repainted (12 keys, typing then deleting)",
             _spread(keys), f"slowest key {max(keys):.1f} ms", "< 100 ms")]


def _growth(values: list[float]) -> str:
    return "growth per doubling " + " ".join(f"x{b / a:.2f}" for a, b in itertools.pairwise(values) if a > 0)


# -- stalls ---------------------------------------------------------------------------------------
#: Busy loops beside the loaded stall run (a CI machine's load of 8-14 on 2 cores).
BUSY_LOOPS = 8


def bench_stalls() -> list[Row]:
    """Each stall scenario quiet, then again with BUSY_LOOPS processes spinning beside the app."""
    big_dir = tempfile.mkdtemp(prefix="te-stall-")
    path = os.path.join(big_dir, "big.npy")
    try:
        np.lib.format.open_memmap(path, mode="w+", dtype=np.float32, shape=(2**29,)).flush()  # 2 GiB
        load = os.getloadavg()[0]
        quiet = stall_scenarios(Window(freeze=True), path)  # the app freezes its start-up objects; so does this copy
        busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(BUSY_LOOPS)]
        try:
            time.sleep(5)  # let the load average show them
            loaded = stall_scenarios(Window(freeze=True), path)
        finally:
            for proc in busy:
                proc.kill()
                proc.wait()
    finally:
        for name in os.listdir(big_dir):
            os.remove(os.path.join(big_dir, name))
        os.rmdir(big_dir)
    beside = dict(loaded)
    rows = [(f"GUI stall while {name}: longest gap of a 10 ms timer", f"{gap:.0f} ms",
             f"with {BUSY_LOOPS} busy loops on the 2 cores beside it: {beside.get(name, float('nan')):.0f} ms",
             "< 50 ms") for name, gap in quiet]
    rows.append((f"GUI stall, the worst of the scenarios above (quiet run: load average {load:.1f})",
                 f"{max(g for _, g in quiet):.0f} ms",
                 f"with {BUSY_LOOPS} busy loops: {max(g for _, g in loaded):.0f} ms; before: 2,028 ms (3,000 variables)",
                 "< 50 ms"))
    return rows
