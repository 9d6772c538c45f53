#!/usr/bin/env python
"""Tensor Explorer benchmarks: each row puts our time beside its reference, in one run.

usage: .venv/bin/python scripts/bench.py [--quick] [--only GROUP] [--write docs/benchmarks.md]
  --quick   skip the rows that need GiB-sized tensors and files
  --only    run the groups whose name contains GROUP (machine, snapshot, rerun, memory, image, stats, files, ...)
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from typing import Any, Callable

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MPLBACKEND", "Agg")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
import torch  # noqa: E402

Row = tuple[str, str, str, str]  # what, ours, reference, target


def median_ms(fn: Callable[[], Any], repeat: int = 15, warmup: int = 2) -> float:
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def bench_machine() -> list[Row]:
    """How fast this machine runs plain Python right now (shared VMs vary run to run)."""
    ms = median_ms(lambda: sum(range(1_000_000)), repeat=9)
    return [("calibration: sum(range(10**6)) in plain Python", f"{ms:.1f} ms",
             "pure-Python rows scale with this between runs", "")]


def bench_snapshot() -> list[Row]:
    from explorer.core.snapshot.build import build_snapshot

    ns: dict[str, Any] = {}
    for i in range(1000):
        ns[f"t{i}"] = torch.zeros(4, 4)
        ns[f"a{i}"] = np.zeros((4, 4))
        ns[f"v{i}"] = ns[f"t{i}"][1:, ::2]
    ms = median_ms(lambda: build_snapshot(ns, overlaps=False), repeat=15)
    ms_exact = median_ms(lambda: build_snapshot(ns, exact_overlaps=True), repeat=9)
    big = {"x": torch.empty(2**28)}  # 1 GiB of float32
    small = {"x": torch.zeros(2)}  # 8 bytes
    ms_big = median_ms(lambda: build_snapshot(big), repeat=200)
    ms_small = median_ms(lambda: build_snapshot(small), repeat=200)
    return [
        ("snapshot, 3,000 variables (1,000 tensors, 1,000 arrays, 1,000 views), GUI: groups, overlaps on selection",
         f"{ms:.1f} ms", "Spyder's namespace view ~380 ms (brief)", "< 25 ms"),
        ("same namespace, CLI: every overlap exact", f"{ms_exact:.1f} ms", "", ""),
        ("snapshot, one 1 GiB tensor vs one 8-byte tensor", f"{ms_big * 1000:.0f} us vs {ms_small * 1000:.0f} us",
         f"ratio {ms_big / ms_small:.2f}x", "<= 1.2x"),
    ]


def bench_memory_groups() -> list[Row]:
    from explorer.core.memory.groups import assign_memory
    from explorer.core.summary.dispatch import summarize_into

    bases = [torch.zeros(1000) for _ in range(100)]
    entries: list = []
    for i in range(10_000):
        base = bases[i % 100]
        start = (i // 100) % 900
        summarize_into(f"v{i}", base[start:start + 50], entries)

    from explorer.core.snapshot.build import _gc_paused

    def groups(**options: Any) -> float:
        fresh = [(dict(var), value) for var, value in entries]  # copying is not timed
        with _gc_paused():  # as inside build_snapshot, the only caller
            begin = time.perf_counter()
            assign_memory(fresh, **options)
            return (time.perf_counter() - begin) * 1000

    ms = statistics.median(groups(overlaps=False) for _ in range(9))
    ms_bounded = statistics.median(groups() for _ in range(5))
    pairs = 2000
    t0 = time.perf_counter()
    arrays = [x.numpy() for _, x in entries[:64]]
    done = 0
    for i, a in enumerate(arrays):
        for b in arrays[i + 1:]:
            np.shares_memory(a, b, max_work=None)
            done += 1
            if done >= pairs:
                break
        if done >= pairs:
            break
    per_pair = (time.perf_counter() - t0) / done
    full = per_pair * 10_000 * 9_999 / 2
    return [("memory groups, 10,000 views over 100 allocations (sort-and-sweep)", f"{ms:.1f} ms",
             f"pairwise np.shares_memory ~{full:.0f} s (extrapolated from {done} pairs)", "< 20 ms"),
            ("same, plus bounded exact overlaps within groups", f"{ms_bounded:.0f} ms", "", "")]


_RERUN_CODE = (  # the run's code as the tracker and copy hints see it (a loop: the script's size is fixed)
    "for i in range(N):\n"
    "    globals()[f't{i}'] = torch.rand(32, 32)\n"
    "    globals()[f'a{i}'] = np.random.rand(32, 32)\n"
    "    globals()[f'v{i}'] = globals()[f't{i}'][1:, ::2]\n"
)


def _rebind(ns: dict[str, Any], n: int) -> None:
    """What the script does: n variables, a third each 32x32 tensors, 32x32 arrays and views of the tensors."""
    for i in range(n // 3):
        ns[f"t{i}"] = t = torch.rand(32, 32)
        ns[f"a{i}"] = np.random.rand(32, 32)
        ns[f"v{i}"] = t[1:, ::2]


def _after_run_ms(n: int, repeat: int) -> tuple[float, float]:
    """Median ms of the core path the GUI takes after a run (first run, then a second with all rebound).

    The agent's do_snapshot sequence: build_snapshot (groups, overlaps on selection),
    CopyHints.update and ChangeTracker.update with the run's code (replicated here
    rather than imported from explorer.core.agent, which is being rewritten).
    """
    from explorer.core.snapshot.build import build_snapshot
    from explorer.core.snapshot.changes import ChangeTracker
    from explorer.core.snapshot.copy_hints import CopyHints

    code = _RERUN_CODE.replace("range(N)", f"range({n // 3})")
    first, second = [], []
    for _ in range(repeat):
        ns: dict[str, Any] = {}
        tracker, hints = ChangeTracker(), CopyHints()
        for times in (first, second):
            _rebind(ns, n)
            start = time.perf_counter()
            snap = build_snapshot(ns, overlaps=False)
            hints.update(code, ns, snap["variables"])
            snap["changes"] = tracker.update(ns, snap["variables"], code)
            times.append((time.perf_counter() - start) * 1000)
            assert len(snap["changes"]) == 3 * (n // 3), "every variable is new or changed"
    return statistics.median(first), statistics.median(second)


def bench_rerun_scaling() -> list[Row]:
    """Snapshot + copy hints + change tracker after a run, at 1k to 16k variables: growth per doubling."""
    rows: list[Row] = []
    previous: tuple[float, float] | None = None
    for n in (1000, 2000, 4000, 8000, 16000):
        first, second = _after_run_ms(n, repeat=7 if n <= 4000 else 3)
        growth = "" if previous is None else f"x{first / previous[0]:.2f} / x{second / previous[1]:.2f} per doubling"
        rows.append((f"after a run, {n:,} variables (32x32 tensors, arrays, views): first run / second run, all rebound",
                     f"{first:.1f} / {second:.1f} ms", growth, "growth ~x2 (linear)"))
        previous = (first, second)
    first, second = _after_run_ms(3000, repeat=9)
    rows.append(("after a run, 3,000 variables re-bound (second run): snapshot + copy hints + change tracker",
                 f"{second:.1f} ms", f"first run {first:.1f} ms", "< 25 ms"))
    rows.append(_issue_rerun_row())
    return rows


def _issue_rerun_row() -> Row:
    """Issue 10's example: re-running a loop that rebinds 2,000 small tensors (24 s in the kernel before)."""
    from explorer.core.snapshot.build import build_snapshot
    from explorer.core.snapshot.changes import ChangeTracker
    from explorer.core.snapshot.copy_hints import CopyHints

    code = 'for i in range(2000): globals()[f"v{i}"] = torch.zeros(i % 7 + 1)'
    ns: dict[str, Any] = {}
    tracker, hints = ChangeTracker(), CopyHints()

    def run() -> None:
        exec(code, {"torch": torch, "globals": lambda: ns})  # noqa: S102 - the benchmark's own code
        snap = build_snapshot(ns, overlaps=False)
        hints.update(code, ns, snap["variables"])
        tracker.update(ns, snap["variables"], code)

    ms = median_ms(run, repeat=9)
    return ("re-run `for i in range(2000): globals()[f\"v{i}\"] = torch.zeros(i % 7 + 1)`: "
            "rebinding + snapshot + copy hints + change tracker", f"{ms:.1f} ms", "", "")


def bench_run_to_updated(runs: int = 50) -> list[Row]:
    from PySide6.QtCore import QEventLoop, QTimer

    from explorer.kernel.session import KernelSession

    session = KernelSession()
    loop = QEventLoop()
    session.agent_installed.connect(loop.quit)
    session.start()
    QTimer.singleShot(60_000, loop.quit)
    loop.exec()
    times: list[float] = []
    rtt: list[float] = []

    def one(measure: list[float], action: Callable[[], None], signal) -> None:
        inner = QEventLoop()
        signal.connect(inner.quit)
        start = time.perf_counter()
        action()
        QTimer.singleShot(10_000, inner.quit)
        inner.exec()
        measure.append((time.perf_counter() - start) * 1000)
        signal.disconnect(inner.quit)

    for i in range(runs + 3):
        one(times, lambda: session.execute("a = 1"), session.namespace_changed)
    for _ in range(runs):
        replies: list = []
        inner = QEventLoop()
        start = time.perf_counter()
        session.request("set_language", {"lang": "en"}, lambda r: (replies.append(r), inner.quit()))
        inner.exec()
        rtt.append((time.perf_counter() - start) * 1000)
    session.shutdown()
    return [("run `a = 1` -> inspector updated (median of 50, warm kernel)", f"{statistics.median(times[3:]):.1f} ms",
             f"bare agent round trip {statistics.median(rtt):.1f} ms", "< 30 ms")]


def bench_image() -> list[Row]:
    from explorer.core.image.payload import image_payload

    img = torch.rand(3, 4096, 4096)
    ms = median_ms(lambda: image_payload(img, name="img", max_width=800, max_height=600), repeat=7)
    batch = torch.rand(100, 3, 64, 64)
    ms_batch = median_ms(lambda: image_payload(batch, name="batch", max_width=800, max_height=600), repeat=7)
    drawn = _view_draw_ms(img)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    def naive() -> None:
        fig = Figure(figsize=(8, 6))
        FigureCanvasAgg(fig)
        fig.add_subplot().imshow(img.permute(1, 2, 0).numpy())
        fig.canvas.draw()

    naive_ms = median_ms(naive, repeat=3, warmup=1)
    return [
        ("image 3x4096x4096 float: kernel payload (downsample + scale)", f"{ms:.0f} ms", "", ""),
        ("image 3x4096x4096 float: selection -> drawn on the canvas", f"{drawn:.0f} ms",
         f"naive full-res imshow {naive_ms:.0f} ms", "< 150 ms"),
        ("batch grid 100x3x64x64: kernel payload", f"{ms_batch:.0f} ms", "", "quick"),
    ]


def _view_draw_ms(img: torch.Tensor) -> float:
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from explorer.core.agent.handlers import Agent, decode_reply
    from explorer.core.summary.dispatch import summarize
    from explorer.ui.image.image_view import ImageView

    app = QApplication.instance() or QApplication([])

    class Source:
        agent = Agent({"img": img})

        def request(self, method: str, params: dict, callback) -> None:
            import json

            reply = decode_reply(repr(self.agent.call(method, json.dumps(params))))
            QTimer.singleShot(0, lambda: callback(reply))

    view = ImageView(Source())
    view.resize(900, 700)
    view.show()
    app.processEvents()
    var = summarize("img", img)
    times = []
    for _ in range(5):
        loop = QEventLoop()
        view.image_shown.connect(loop.quit)
        start = time.perf_counter()
        view.set_variable(dict(var))
        QTimer.singleShot(10_000, loop.quit)
        loop.exec()
        times.append((time.perf_counter() - start) * 1000)
        view.image_shown.disconnect(loop.quit)
        view.set_variable(None)
    return statistics.median(times[1:])


def bench_stats() -> list[Row]:
    from explorer.core.stats.job import StatsJob

    def nan_sprinkled(n: int) -> torch.Tensor:
        return torch.randn(n).index_fill_(0, torch.randint(0, n, (5000,)), float("nan"))

    cases = (
        ("torch.rand, values in [0, 1)", torch.rand, "<= 4x"),
        ("torch.randn, both signs", torch.randn, "<= 4x"),
        ("relu(randn): half the values exact zeros", lambda n: torch.relu(torch.randn(n)), "(not set)"),
        ("randn with 5000 NaN scattered over every block", nan_sprinkled, "(not set)"),
    )
    rows = []
    for label, make, target in cases:
        data = make(2**28)  # 1 GiB of float32
        StatsJob(data).run()  # warm-up
        sums, jobs, ratios = [], [], []
        for _ in range(5):  # interleaved, so each ratio compares the two under the same machine load
            sums.append(median_ms(data.sum, repeat=3, warmup=0))
            jobs.append(median_ms(lambda: StatsJob(data).run(), repeat=1, warmup=0))
            ratios.append(jobs[-1] / sums[-1])
        rows.append((f"stats over 1 GiB float32, {label} (min/max/mean/std/NaN/Inf/zeros/histogram)",
                     f"{statistics.median(jobs):.0f} ms",
                     f"one t.sum() {statistics.median(sums):.0f} ms -> ratio {statistics.median(ratios):.1f}x "
                     f"(median of 5 interleaved pairs; {min(ratios):.1f}-{max(ratios):.1f}x)", target))
        data = None  # free 1 GiB before the next case
    return rows


def bench_files() -> list[Row]:
    from explorer.core.files.prepare import prepare_load
    from explorer.core.summary.dispatch import summarize

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        npy, pt = os.path.join(tmp, "big.npy"), os.path.join(tmp, "big.pt")
        data = np.ones(2**29, dtype=np.float32)  # 2 GiB
        np.save(npy, data)
        torch.save({"w": torch.from_numpy(data)}, pt)
        del data  # 2 GiB: not held while loading is timed
        for label, path, full in (("2 GiB .npy", npy, lambda p: np.load(p)), ("2 GiB .pt", pt, lambda p: torch.load(p, weights_only=True))):
            def ours() -> None:
                plan = prepare_load(path)
                ns: dict[str, Any] = {}
                exec(plan["code"], ns)
                summarize(plan["name"], ns[plan["name"]])

            ours_ms = median_ms(ours, repeat=5, warmup=1)
            full_ms = median_ms(lambda: full(path), repeat=2, warmup=0)
            rows.append((f"open {label} -> metadata (mmap)", f"{ours_ms:.1f} ms",
                         f"full load {full_ms:.0f} ms -> {full_ms / ours_ms:.0f}x faster", "< 50 ms, >= 20x"))
    return rows


_STARTUP = """
import time, sys
start = float(sys.argv[1])
import argparse
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([])
QCoreApplication.setOrganizationName("TensorExplorerBench")
from explorer.app import create_window
window, session = create_window(argparse.Namespace(lang="en", files=[], presentation=False, lesson=None))
painted = []

class FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and not painted:
            painted.append(time.time() - start)
        return False

spy = FirstPaint()
window.installEventFilter(spy)
window.show()
session.agent_installed.connect(app.quit)
QTimer.singleShot(60000, app.quit)
app.exec()
print(painted[0], time.time() - start, "torch" in sys.modules)
session.shutdown()
"""


def bench_startup() -> list[Row]:
    import subprocess

    shown, ready = [], []
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", _STARTUP, repr(time.time())], capture_output=True, text=True,
                             env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), timeout=120)
        first, second, torch_loaded = out.stdout.split()
        assert torch_loaded == "False", "the GUI process imported torch"
        shown.append(float(first) * 1000)
        ready.append(float(second) * 1000)
    return [("launch -> window painted (process start included; GUI never imports torch)",
             f"{statistics.median(shown):.0f} ms", f"kernel ready behind it at {statistics.median(ready):.0f} ms",
             "< 1000 ms")]


def bench_graph_layout() -> list[Row]:
    from PySide6.QtWidgets import QApplication

    from explorer.ui.graph_view import layered_positions

    QApplication.instance() or QApplication([])
    ids = [f"n{i}" for i in range(500)]
    edges = [[f"n{i}", f"n{i + 1}"] for i in range(499)] + [[f"n{i}", f"n{i + 7}"] for i in range(0, 493, 3)]
    ms = median_ms(lambda: layered_positions(ids, edges), repeat=7)
    return [("graph layout, 500 nodes (networkx layers)", f"{ms:.0f} ms", "", "< 1000 ms")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--write", help="also write the table to this Markdown file")
    parser.add_argument("--only", help="run only the groups whose name contains this (e.g. stats, image)")
    args = parser.parse_args()
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])  # one for every row that needs Qt  # noqa: F841
    groups = [bench_machine, bench_snapshot, bench_rerun_scaling, bench_memory_groups, bench_run_to_updated,
              bench_startup, bench_graph_layout]
    if not args.quick:
        groups += [bench_image, bench_stats, bench_files]
    if args.only:
        groups = [g for g in [bench_machine, bench_snapshot, bench_rerun_scaling, bench_memory_groups,
                              bench_run_to_updated, bench_startup, bench_graph_layout, bench_image, bench_stats,
                              bench_files] if args.only in g.__name__]
    rows: list[Row] = []
    for group in groups:
        print(f"... {group.__name__}", file=sys.stderr, flush=True)
        rows += group()
    header = ("what", "Tensor Explorer", "reference (same run)", "target")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    machine = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, torch {torch.__version__}, numpy {np.__version__}"
    table = "\n".join(lines)
    print(table)
    if args.write:
        with open(args.write, "w", encoding="utf-8") as handle:
            handle.write("# Benchmarks\n\nProduced by `.venv/bin/python scripts/bench.py --write docs/benchmarks.md` "
                         f"on {time.strftime('%Y-%m-%d')} ({machine}).\nEach row's reference was measured in the same run. "
                         "This is a shared 2-core VM: between runs the pure-Python rows varied by up to 1.7x "
                         "(the calibration row shows the machine's speed at the time).\n\n")
            handle.write(table + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
