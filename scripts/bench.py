#!/usr/bin/env python
"""Tensor Explorer benchmarks: each row puts our time beside its reference, in one run.

usage: .venv/bin/python scripts/bench.py [--quick] [--only GROUP] [--write docs/benchmarks.md]
(with --only, --write replaces only those groups' rows in the table and keeps the others)
  --quick   skip the rows that need GiB-sized tensors and files
  --only    run the groups whose name contains GROUP (machine, snapshot, peers, scaling, rerun, memory,
            image, stats, files, model, stalls, startup, editor, fix_proof, hints, attach, watch, restart ...)
Peers (spyder-kernels, lovely-tensors) are the ``bench`` extra: ``pip install -e '.[bench]'``.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MPLBACKEND", "Agg")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np
import torch
from bench_attach import bench_attach_growth
from bench_editor import bench_editor_completion, bench_editor_typing
from bench_f5 import bench_f5_rebound
from bench_gui import (
    bench_filter,
    bench_model,
    bench_run_to_updated,
    bench_stalls,
    bench_startup,
    image_draw_ms,
    load_average,
)
from bench_proof import bench_fix_proof, bench_hints
from bench_restart import bench_restart
from bench_snapshot import bench_files, bench_peers, bench_scaling, peer_versions
from bench_watch import bench_watch

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
    """The CLI's snapshot (every overlap exact), and a 1 GiB tensor costing what an 8-byte one costs."""
    from explorer.core.snapshot.build import build_snapshot

    ns: dict[str, Any] = {}
    for i in range(1000):
        ns[f"t{i}"] = torch.zeros(4, 4)
        ns[f"a{i}"] = np.zeros((4, 4))
        ns[f"v{i}"] = ns[f"t{i}"][1:, ::2]
    ms_exact = median_ms(lambda: build_snapshot(ns, exact_overlaps=True), repeat=9)
    big = {"x": torch.empty(2**28)}  # 1 GiB of float32
    small = {"x": torch.zeros(2)}  # 8 bytes
    ms_big = median_ms(lambda: build_snapshot(big), repeat=200)
    ms_small = median_ms(lambda: build_snapshot(small), repeat=200)
    return [
        ("snapshot, 3,000 variables (1,000 4x4 tensors, 1,000 arrays, 1,000 views), CLI: every overlap exact",
         f"{ms_exact:.1f} ms", "", ""),
        ("snapshot, one 1 GiB tensor vs one 8-byte tensor", f"{ms_big * 1000:.0f} us vs {ms_small * 1000:.0f} us",
         f"ratio {ms_big / ms_small:.2f}x", "<= 1.2x"),
    ]


def bench_rerun() -> list[Row]:
    """Issue 10's loop, re-run."""
    return [_issue_rerun_row()]


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


def _issue_rerun_row() -> Row:
    """Issue 10's example: re-running a loop that rebinds 2,000 small tensors (24 s in the kernel before)."""
    from bench_snapshot import GuiPath

    code = 'for i in range(2000): globals()[f"v{i}"] = torch.zeros(i % 7 + 1)'
    ns: dict[str, Any] = {}
    path = GuiPath(ns, code)

    def run() -> None:
        exec(code, {"torch": torch, "globals": lambda: ns})  # noqa: S102 - the benchmark's own code
        path.run()

    ms = median_ms(run, repeat=9)
    return ("re-run `for i in range(2000): globals()[f\"v{i}\"] = torch.zeros(i % 7 + 1)`: "
            "rebinding + GUI path (`Agent.after_run`)", f"{ms:.1f} ms", "24 s in the kernel before issue 10", "")


def bench_image() -> list[Row]:
    from explorer.core.image.payload import image_payload

    img = torch.rand(3, 4096, 4096)
    ms = median_ms(lambda: image_payload(img, name="img", max_width=800, max_height=600), repeat=7)
    batch = torch.rand(100, 3, 64, 64)
    ms_batch = median_ms(lambda: image_payload(batch, name="batch", max_width=800, max_height=600), repeat=7)
    drawn = statistics.median(image_draw_ms(img))
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


def bench_big_tensor() -> list[Row]:
    """One 20,000 x 20,000 float32 tensor (1.6 GB): each view's request, through the real comm endpoint."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from explorer import protocol
    from tests.ui.fakes import InProcessSource

    big = torch.rand(20_000, 20_000)
    source = InProcessSource({"big": big})
    requests = [
        ("after a run (the inspector's row)", protocol.AfterRun(code="big = torch.rand(20_000, 20_000)")),
        ("shared memory of the selection", protocol.Overlaps(name="big")),
        ("Image tab", protocol.Image(name="big")),
        ("Values tab, the window at the middle", protocol.Values(name="big", row0=10_000, col0=10_000)),
        ("Stats tab, the job started (the pass runs in a thread)", protocol.StatsStart(name="big")),
        ("Memory tab", protocol.MemoryMap(name="big")),
        ("Graph tab", protocol.Graph(name="big")),
    ]
    rows, slowest, replies = [], 0.0, []
    for label, request in requests:
        times = []
        for _ in range(5):
            start = time.perf_counter()
            deliver = source.answer(request, replies.append)
            times.append((time.perf_counter() - start) * 1000)
            deliver()
            reply = replies.pop()
            if not reply.ok:
                raise RuntimeError(f"{label}: {reply.message}")
            if isinstance(request, protocol.StatsStart):  # the next rows must not share the CPU with it
                source.answer(protocol.StatsCancel(job=reply.result["job"]), replies.append)()
                replies.pop()
        slowest = max(slowest, statistics.median(times))
        rows.append((f"one 20,000 x 20,000 float32 tensor: {label}, request -> reply",
                     f"{statistics.median(times):.1f} ms ({min(times):.1f}-{max(times):.1f}, n=5)", "", "< 200 ms"))
    sums = median_ms(big.sum, repeat=3)
    rows.append(("one 20,000 x 20,000 float32 tensor: the slowest view", f"{slowest:.1f} ms",
                 f"one big.sum() {sums:.0f} ms", "< 200 ms"))
    return rows


def bench_stats() -> list[Row]:
    from explorer.core.stats.job import StatsJob

    def nan_sprinkled(n: int) -> torch.Tensor:
        return torch.randn(n).index_fill_(0, torch.randint(0, n, (5000,)), float("nan"))

    cases = (
        ("torch.rand, values in [0, 1)", torch.rand, "<= 4x"),
        ("torch.randn, both signs", torch.randn, "<= 4x"),
        ("relu(randn): half the values exact zeros", lambda n: torch.relu(torch.randn(n)), "<= 4x"),
        ("randn with 5000 NaN scattered over every block", nan_sprinkled, "<= 4x"),
    )
    rows = []
    for label, make, target in cases:
        load = os.getloadavg()[0]
        data = make(2**28)  # 1 GiB of float32
        StatsJob(data).run()  # warm-up
        sums, jobs, ratios = [], [], []
        for _ in range(5):  # interleaved, so each ratio compares the two under the same machine load
            sums.append(median_ms(data.sum, repeat=3, warmup=0))
            jobs.append(median_ms(lambda data=data: StatsJob(data).run(), repeat=1, warmup=0))
            ratios.append(jobs[-1] / sums[-1])
        rows.append((f"stats over 1 GiB float32, {label} (min/max/mean/std/NaN/Inf/zeros/histogram)",
                     f"{statistics.median(jobs):.0f} ms",
                     f"one t.sum() {statistics.median(sums):.0f} ms -> ratio {statistics.median(ratios):.1f}x "
                     f"(median of 5 interleaved pairs; {min(ratios):.1f}-{max(ratios):.1f}x); "
                     f"{load_average(load)}", target))
        data = None  # free 1 GiB before the next case
    return rows


def bench_graph_layout() -> list[Row]:
    from PySide6.QtWidgets import QApplication

    from explorer.ui.graph_view import layered_positions

    QApplication.instance() or QApplication([])
    ids = [f"n{i}" for i in range(500)]
    edges = [[f"n{i}", f"n{i + 1}"] for i in range(499)] + [[f"n{i}", f"n{i + 7}"] for i in range(0, 493, 3)]
    ms = median_ms(lambda: layered_positions(ids, edges), repeat=7)
    return [("graph layout, 500 nodes (networkx layers)", f"{ms:.0f} ms", "", "< 1000 ms")]


GROUPS: list[Callable[[], list[Row]]] = [
    bench_machine, bench_snapshot, bench_peers, bench_scaling, bench_model, bench_rerun, bench_memory_groups,
    bench_run_to_updated, bench_f5_rebound, bench_startup, bench_graph_layout, bench_image, bench_stats, bench_files, bench_stalls,
    bench_filter, bench_big_tensor, bench_editor_typing, bench_editor_completion, bench_fix_proof, bench_hints,
    bench_attach_growth, bench_watch, bench_restart,
]
BIG = {"bench_image", "bench_stats", "bench_files", "bench_stalls", "bench_big_tensor"}  # rows that need GiB-sized tensors and files


def _run_group(group: Callable[..., list[Row]], quick: bool) -> list[Row]:
    """A group's rows; a group that fails gives one row saying why instead of ending the run."""
    try:
        return group(quick=quick) if group is bench_peers else group()
    except Exception as exc:  # noqa: BLE001 - one broken row must not hide the others
        return [(f"{group.__name__}: failed", "", f"{type(exc).__name__}: {exc}", "")]


START, END = "<!-- bench:start -->", "<!-- bench:end -->"


def _write(path: str, generated: str) -> None:
    """Put *generated* between the markers of *path* (the prose around them stays); a new file gets a heading."""
    try:
        with open(path, encoding="utf-8") as handle:
            old = handle.read()
    except FileNotFoundError:
        old = ""
    if START in old and END in old:
        head, rest = old.split(START, 1)
        text = head + START + "\n" + generated + rest[rest.index(END):]
    else:
        text = f"# Benchmarks\n\n{START}\n{generated}{END}\n"
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def _merge(path: str, rows: list[tuple[str, ...]], commands: list[str], stamp: str) -> str | None:
    """The table of *path* with the rows of *commands* replaced by *rows* (new groups go last); None without one."""
    try:
        with open(path, encoding="utf-8") as handle:
            old = handle.read()
    except FileNotFoundError:
        return None
    if START not in old or END not in old:
        return None
    block = old.split(START, 1)[1].split(END, 1)[0].strip("\n").split("\n")
    fresh = ["| " + " | ".join(r) + " |" for r in rows]
    kept: list[str] = []
    for line in block:
        mine = line.startswith("| ") and line.rstrip(" |").endswith(tuple(f"{c}" for c in commands))
        if mine and fresh:
            kept += fresh  # the group's new rows where its old ones were
            fresh = []
        elif not mine:
            kept.append(line)
    kept += fresh
    if kept and kept[0].startswith("Produced by"):
        kept[0] = re.sub(re.escape(stamp.split(" on ")[0]) + r" on [0-9-]+\.", "", kept[0]).rstrip() + f" {stamp}"
    return "\n".join(kept) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--write", help="also write the table to this Markdown file")
    parser.add_argument("--only", help="run only the groups whose name contains this (e.g. stats, image)")
    args = parser.parse_args()
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])  # one for every row that needs Qt  # noqa: F841
    groups = [g for g in GROUPS if not (args.quick and g.__name__ in BIG)]
    if args.only:
        groups = [g for g in GROUPS if args.only in g.__name__]
    rows: list[tuple[str, ...]] = []
    for group in groups:
        print(f"... {group.__name__}", file=sys.stderr, flush=True)
        command = f"`scripts/bench.py --only {group.__name__.removeprefix('bench_')}`"
        rows += [(*row, command) for row in _run_group(group, args.quick)]
    header = ("what", "Tensor Explorer", "reference (same run)", "target", "reproduce")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    machine = (f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
               f"Python {platform.python_version()}, torch {torch.__version__}, numpy {np.__version__}")
    table = "\n".join(lines)
    print(table)
    if args.write and args.only:  # re-measure some groups: their rows are replaced in the table, the rest stays
        commands = [f"`scripts/bench.py --only {g.__name__.removeprefix('bench_')}`" for g in groups]
        merged = _merge(args.write, rows, commands,
                        f"Rows of `--only {args.only}` re-measured on {time.strftime('%Y-%m-%d')}.")
        if merged is not None:
            _write(args.write, merged)
            return 0
    if args.write:
        _write(args.write, f"Produced by `.venv/bin/python scripts/bench.py --write docs/benchmarks.md` on "
               f"{time.strftime('%Y-%m-%d')} ({machine}; peers: {peer_versions()}).\n\n" + table + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
