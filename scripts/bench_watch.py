"""Benchmark rows of watching running code (issue 26): what sampling costs the loop, and the GUI thread.

* the loop's own speed, four samples a second of five watched 1M-element tensors, beside the same loop
  unwatched, interleaved in one kernel (median of the per-pair ratios);
* a tiny loop under a watch of five 16M-element tensors: the interval the sampler chose by itself (a
  sample may cost at most ``COST_SHARE`` of the time between two), and what the loop lost;
* the longest gap of a 10 ms timer in the real window while samples arrive and the Watch tab draws
  them, beside the same run unwatched.

The loops time themselves in the kernel (``time.perf_counter``) and write the seconds to a file:
what the user's loop would see, without the client's round trips.
"""

from __future__ import annotations

import os
import statistics
import tempfile

from explorer import protocol
from explorer.client.headless import HeadlessKernel

Row = tuple[str, str, str, str]
PAIRS = 5
WATCHED = [f"w{i}" for i in range(5)]

SETUP = "import time, torch\n" + "".join(f"w{i} = torch.randn({{size}})\n" for i in range(5))
# A training-like step over the five tensors, repeated for about three seconds.
HEAVY = ("t0 = time.perf_counter()\nfor k in range({steps}):\n    for w in (w0, w1, w2, w3, w4):\n"
         "        w.mul_(0.9999).add_(1e-4)\n    loss = float(k)\n"
         "open({path!r}, 'w').write(str(time.perf_counter() - t0))\n")
# Pure Python, each iteration far cheaper than reading one 16M tensor.
TINY = ("t0 = time.perf_counter()\nk = 0\nwhile k < {steps}:\n    k += 1\n"
        "open({path!r}, 'w').write(str(time.perf_counter() - t0))\n")


def _timed(kernel: HeadlessKernel, code: str, watch: bool, every: float = 0.25) -> tuple[float, list[dict]]:
    """Run *code* watched or not; (its own seconds, the samples that arrived)."""
    request = protocol.Watch(names=[*WATCHED, "loss", "k"], every=every) if watch else protocol.Watch(enabled=False)
    assert kernel.ask(request, timeout=120).ok
    kernel.samples.clear()
    handle, path = tempfile.mkstemp(prefix="te-bench-watch-")
    os.close(handle)
    try:
        assert kernel.run(code.format(path=path, steps="{steps}"))["status"] == "ok"
        with open(path) as handle:
            seconds = float(handle.read())
    finally:
        if os.path.exists(path):
            os.remove(path)
    return seconds, list(kernel.samples)


def _pairs(kernel: HeadlessKernel, code: str) -> tuple[list[float], list[float], list[dict]]:
    """PAIRS interleaved (unwatched, watched) runs: their seconds and the watched runs' samples."""
    plain, watched, samples = [], [], []
    for _ in range(PAIRS):
        plain.append(_timed(kernel, code, watch=False)[0])
        seconds, got = _timed(kernel, code, watch=True)
        watched.append(seconds)
        samples.extend(got)
    return plain, watched, samples


def _ratio_text(plain: list[float], watched: list[float]) -> tuple[float, str]:
    ratios = sorted(w / p for p, w in zip(plain, watched, strict=True))
    median = statistics.median(ratios)
    return median, f"x{median:.3f} (x{ratios[0]:.3f}-x{ratios[-1]:.3f}, n={len(ratios)})"


def _load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def _kernel_rows() -> list[Row]:
    kernel = HeadlessKernel()
    try:
        assert kernel.run(SETUP.format(size=1_000_000))["status"] == "ok"
        # One step's cost sets the steps of a three-second loop.
        _timed(kernel, HEAVY.replace("{steps}", "20"), watch=False)  # warm up
        probe, _ = _timed(kernel, HEAVY.replace("{steps}", "100"), watch=False)
        heavy = HEAVY.replace("{steps}", str(max(100, int(3.0 / (probe / 100)))))
        plain, watched, samples = _pairs(kernel, heavy)
        _, text = _ratio_text(plain, watched)
        rate = len(samples) / sum(watched)
        rows: list[Row] = [(
            "watched loop: its own speed with 4 samples/s of five watched 1M-element tensors (+ a scalar)",
            f"{statistics.median(watched):.2f} s per loop, {rate:.1f} samples/s",
            f"same loop unwatched {statistics.median(plain):.2f} s; watched/unwatched {text}; {_load()}",
            "<= x1.05")]
        assert kernel.run(SETUP.format(size=16_000_000))["status"] == "ok"
        probe, _ = _timed(kernel, TINY.replace("{steps}", "100000"), watch=False)
        tiny = TINY.replace("{steps}", str(int(6.0 / (probe / 100000))))
        plain, watched, samples = _pairs(kernel, tiny)
        _, text = _ratio_text(plain, watched)
        chosen = max([s["every"] for s in samples if isinstance(s.get("every"), float)] or [0.0])
        cost = statistics.median([s["cost"] for s in samples if isinstance(s.get("cost"), float)] or [0.0])
        rows.append((
            "tiny Python loop (6 s) under a watch of five 16M-element tensors: the interval the sampler chose",
            f"every {chosen:.2f} s after the first sample (asked 0.25 s), {len(samples) / sum(watched):.2f} "
            f"samples/s; one sample {cost * 1000:.0f} ms of CPU",
            f"loop watched/unwatched {text}; {_load()}", "rate drops by itself"))
        return rows
    finally:
        kernel.shutdown()


def _gui_row() -> Row:
    from tests.ui.stall_probe import DrivenWindow, StallProbe

    win = DrivenWindow(freeze=True)
    try:
        win.run(SETUP.format(size=1_000_000))
        loop = ("t0 = time.perf_counter()\nk = 0\nwhile time.perf_counter() - t0 < 4:\n"
                "    for w in (w0, w1, w2, w3, w4):\n        w.mul_(0.9999).add_(1e-4)\n    k += 1\n    loss = 1.0 / k\n")
        details = win.window.details
        details.setCurrentWidget(details.watch)
        gaps: dict[str, list[float]] = {"unwatched": [], "watched": []}
        probe = StallProbe()
        for _ in range(3):
            for kind in ("unwatched", "watched"):
                win.window.watch.set_names([*WATCHED, "loss", "k"] if kind == "watched" else [])
                win.settle(0.3)
                probe.start()
                win.run(loop)
                win.settle(0.3)
                gaps[kind].append(probe.stop())
        points = len(win.window.watch.curves.current.curves.get("k", ((), ()))[1])
    finally:
        win.close()
        win.join()
    watched, plain = max(gaps["watched"]), max(gaps["unwatched"])
    each = ", ".join(f"{g:.0f}" for g in gaps["watched"])
    return ("GUI stall while samples of 7 watched values arrive and the Watch tab draws them (4 s loop, x3): "
            "longest gap of a 10 ms timer", f"{watched:.0f} ms (runs: {each}; {points} points in the last run)",
            f"same runs unwatched {plain:.0f} ms (matplotlib charts before: 256 ms); {_load()}", "< 50 ms")


def bench_watch() -> list[Row]:
    return [*_kernel_rows(), _gui_row()]


if __name__ == "__main__":
    for row in bench_watch():
        print(" | ".join(row))
