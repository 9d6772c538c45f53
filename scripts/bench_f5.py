"""Issue 25 goal 1: F5 of a script that re-binds 3,000 variables, measured the way the user meets it.

* ours: the real window and kernel in one process, from submitting the script to the editor's run queue
  until the tree has painted the run's result (the kernel pushes the run's reply; the old path, where the
  window asks after idle, is interleaved beside it);
* Spyder's same path: a spyder-kernels kernel (Spyder 6's), driven over Jupyter messages as Spyder's
  console drives it: a ``spyder_api`` comm, the variable explorer's settings sent with
  ``set_configuration``, then the script executed; after the execution the kernel pushes ``update_state``
  (``make_remote_view`` of the namespace and ``get_var_properties``), and the time stops when that
  message has arrived and been decoded. Spyder's table is not built or drawn, so its time is a lower
  bound of what a Spyder user waits.

Each side runs in fresh processes, alternating, so both meet the same machine.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from typing import Any

Row = tuple[str, str, str, str]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

#: 3,000 variables, a third each 32x32 tensors, 32x32 arrays and views (bench_snapshot.small_code(3000)).
REBIND_3000 = ("import torch\nimport numpy as np\nfor i in range(1000):\n"
               "    globals()[f't{i}'] = torch.rand(32, 32)\n"
               "    globals()[f'a{i}'] = np.random.rand(32, 32)\n"
               "    globals()[f'v{i}'] = globals()[f't{i}'][1:, ::2]\n")


# -- ours -----------------------------------------------------------------------------------------
def f5_rebound_ms(win: Any, push: bool, default: Any, stamp: int) -> float:
    """One F5 of :data:`REBIND_3000` in the real window, until the tree has painted the run's result."""
    from bench_gui import _push_or_ask, _run, _settled
    from PySide6.QtCore import QEvent, QObject

    _push_or_ask(win, push, default)
    model = win.window.inspector_model

    def complete() -> bool:  # the idle after the reply (the kernel tidying up) may come later
        return _settled(win) and (model.variable("stamp") or {}).get("repr") == str(stamp)

    class PaintSpy(QObject):
        """Notes the first paint of the tree once the model is complete (the next turn finds it done)."""
        painted = False

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt names it
            if event.type() == QEvent.Type.Paint and not self.painted and complete():
                self.painted = True
            return False

    spy, viewport = PaintSpy(), win.window.inspector.tree.viewport()
    viewport.installEventFilter(spy)
    try:
        return _run(win, REBIND_3000 + f"stamp = {stamp}", lambda: spy.painted, finished=False)
    finally:
        viewport.removeEventFilter(spy)


def f5_rebound_times(runs: int) -> dict[bool, list[float]]:
    """F5 of :data:`REBIND_3000` *runs* times each way, interleaved, in one window (this process)."""
    from tests.ui.stall_probe import DrivenWindow

    win = DrivenWindow(freeze=True)  # as the app is a few seconds after its start
    try:
        default = win.session.client.push
        f5_rebound_ms(win, True, default, 0)  # the first run: every name new
        times: dict[bool, list[float]] = {True: [], False: []}
        for i in range(runs):
            for push in (True, False):  # interleaved: both paths under the same load
                times[push].append(f5_rebound_ms(win, push, default, 2 * i + (not push) + 1))
    finally:
        win.close()
        win.join()
    return times


# -- Spyder ---------------------------------------------------------------------------------------
class SpyderConsole:
    """A spyder-kernels kernel and the messages Spyder's console sends it over its ``spyder_api`` comm."""

    def __init__(self) -> None:
        from bench_snapshot import SPYDER_SETTINGS
        from jupyter_client import KernelManager
        from jupyter_client.kernelspec import KernelSpec

        self.km = KernelManager()
        self.km._kernel_spec = KernelSpec(argv=[sys.executable, "-m", "spyder_kernels.console", "-f",
                                                "{connection_file}"], display_name="spyder", language="python")
        self.km.start_kernel()
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=120)
        self.comm_id = uuid.uuid4().hex
        self.kc.shell_channel.send(self.kc.session.msg(
            "comm_open", {"comm_id": self.comm_id, "target_name": "spyder_api", "data": {}}))
        ready = self._next_call(lambda data: data["content"].get("call_name") == "_comm_ready")
        self._send("remote_call_reply", {"is_error": False, "call_id": ready["call_id"], "call_name": "_comm_ready",
                                         "call_return_value": None})
        call_id = uuid.uuid4().hex
        self._send("remote_call", {"call_name": "set_configuration", "call_id": call_id,
                                   "settings": {"blocking": True, "send_reply": True},
                                   "call_args": [{"namespace_view_settings": SPYDER_SETTINGS}], "call_kwargs": {},
                                   "buffered_args": [], "buffered_kwargs": []})
        reply = self._next_call(lambda data: data["content"].get("call_id") == call_id)
        if reply["is_error"]:
            raise RuntimeError(f"spyder-kernels refused the variable explorer's settings: {reply}")

    def _send(self, kind: str, content: dict) -> None:
        data = {"spyder_msg_type": kind, "content": content}
        self.kc.shell_channel.send(self.kc.session.msg("comm_msg", {"comm_id": self.comm_id, "data": data}))

    def _next_call(self, wanted: Any) -> dict:
        """The content of the next message on our comm that *wanted* accepts (jupyter_client has decoded it)."""
        while True:
            msg = self.kc.get_iopub_msg(timeout=120)
            if msg["msg_type"] == "comm_msg" and msg["content"]["comm_id"] == self.comm_id:
                data = msg["content"]["data"]
                if wanted(data):
                    return data["content"]

    def f5_ms(self, stamp: int) -> float:
        """Execute :data:`REBIND_3000` until the frontend holds the pushed state with the run's variables."""
        start = time.perf_counter()
        msg_id = self.kc.execute(REBIND_3000 + f"stamp = {stamp}")

        def has_run(data: dict) -> bool:
            content = data["content"]
            if data["spyder_msg_type"] != "remote_call" or content.get("call_name") != "update_state":
                return False
            view = content["call_args"][0].get("namespace_view") or {}
            return view.get("stamp", {}).get("view") == str(stamp) and len(view) >= 3000

        self._next_call(has_run)
        took = (time.perf_counter() - start) * 1000
        while True:  # the next run starts once this one is idle
            msg = self.kc.get_iopub_msg(timeout=120)
            if (msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle"
                    and msg["parent_header"].get("msg_id") == msg_id):
                return took

    def close(self) -> None:
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)


def spyder_f5_times(runs: int) -> list[float]:
    console = SpyderConsole()
    try:
        console.f5_ms(0)  # the first run: every name new
        return [console.f5_ms(i + 1) for i in range(runs)]
    finally:
        console.close()


# -- the rows -------------------------------------------------------------------------------------
def _child(side: str, runs: int) -> Any:
    child = subprocess.run([sys.executable, os.path.abspath(__file__), side, str(runs)], capture_output=True,
                           text=True, timeout=900, check=True)
    return json.loads(child.stdout.strip().splitlines()[-1])


def bench_f5_rebound(runs: int = 8, windows: int = 3) -> list[Row]:
    """Ours (fresh window processes) and Spyder's (fresh kernels), alternating; the old path interleaved in ours.

    On this machine the same runs took 115-195 ms in one process and another (a process's draw, not the load),
    so one process's median says little: each side gets *windows* processes.
    """
    from bench_gui import _spread, load_average

    try:
        import spyder_kernels
    except ImportError as exc:
        spyder: str | None = f"spyder-kernels unavailable ({exc}; see docs/benchmarks.md for its install)"
    else:
        spyder = None
        version = spyder_kernels.__version__
    load = os.getloadavg()[0]
    pushed: list[float] = []
    asked: list[float] = []
    theirs: list[float] = []
    ratios, medians = [], []
    for _ in range(windows):
        got = _child("f5", runs)
        pushed += got["push"]
        asked += got["ask"]
        medians.append(statistics.median(got["push"]))
        if spyder is None:
            try:
                theirs_now = _child("spyder", runs)
            except subprocess.CalledProcessError as exc:  # e.g. a kernel dependency missing: the row says so
                last = (exc.stderr or "").strip().splitlines()[-1:] or ["no message"]
                spyder = f"Spyder's kernel did not run ({last[0]})"
                continue
            theirs += theirs_now
            ratios.append(statistics.median(theirs_now) / medians[-1])
    per_window = ", ".join(f"{m:.0f}" for m in medians)
    what = ("F5 -> inspector painted, 3,000 re-bound variables (32x32 tensors, arrays, views), real window, "
            f"{windows} windows of {runs} runs: {{path}}")
    ours = f"{_spread(pushed)}; per window {per_window} ms"
    if spyder is None:
        reference = (f"Spyder's path (spyder-kernels {version}: the pushed update_state until the frontend has "
                     f"it decoded, its table not drawn), {windows} kernels: {_spread(theirs)}; ours is "
                     f"{statistics.median(ratios):.1f}x ({min(ratios):.1f}-{max(ratios):.1f}) faster per window pair")
    else:
        reference = spyder
    return [(what.format(path="the kernel pushes the run's reply"), ours, f"{reference}; {load_average(load)}",
             "<= 100 ms"),
            (what.format(path="the old path, the window asks after idle (interleaved with the row above)"),
             _spread(asked), f"pushed, the row above: {_spread(pushed)}", "")]


if __name__ == "__main__" and sys.argv[1:2] == ["f5"]:  # one window of bench_f5_rebound, in its own process
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    found = f5_rebound_times(int(sys.argv[2]))
    print(json.dumps({"push": found[True], "ask": found[False]}))
elif __name__ == "__main__" and sys.argv[1:2] == ["spyder"]:  # one Spyder kernel of bench_f5_rebound
    print(json.dumps(spyder_f5_times(int(sys.argv[2]))))
