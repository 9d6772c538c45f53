"""Benchmark rows of the kernel's snapshot path: the GUI's after-run reply, its peers, and its scaling.

Imported by ``scripts/bench.py`` (run that; ``--only peers``, ``--only scaling``, ``--only files``).
Every ratio compares timings taken in the same loop iteration, so both sides see
the same machine load; the table gives the median ratio and its spread (min-max).
Peers (spyder-kernels, lovely-tensors) come from the ``bench`` extra; a missing
peer is reported in its row, never a reason to fail.
"""

from __future__ import annotations

import gc
import itertools
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import torch

Row = tuple[str, str, str, str]  # what, ours, reference, target

GIB_FLOATS = 2**28  # float32 elements in 1 GiB

# Spyder 6's default variable-explorer settings (its config's "variable_explorer" section).
SPYDER_SETTINGS = {
    "check_all": False, "exclude_private": True, "exclude_uppercase": False, "exclude_capitalized": False,
    "exclude_unsupported": False, "exclude_callables_and_modules": True, "excluded_names": [],
    "minmax": False, "show_callable_attributes": True, "show_special_attributes": False, "filter_on": True,
}
SPYDER_EXCLUDED = ["In", "Out", "exit", "get_ipython", "quit"]  # what spyder-kernels adds itself


def _ms(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def _spread(values: list[float], unit: str = "ms", digits: int = 1) -> str:
    """``median (min-max, n=N)``."""
    return (f"{statistics.median(values):.{digits}f} {unit} ({min(values):.{digits}f}-{max(values):.{digits}f}, "
            f"n={len(values)})").replace(" x (", "x (")


def _verdict(ratios: list[float]) -> str:
    """"ours is 16x (12-20, n=9) faster" from their/our time ratios (or how many times longer ours takes)."""
    if statistics.median(ratios) >= 1:
        return f"ours is {_spread(ratios, 'x')} faster"
    return f"ours takes {_spread([1 / r for r in ratios], 'x')} as long"


# -- our GUI path --------------------------------------------------------------------
class GuiPath:
    """The kernel's answer to the window after a run: ``Agent.after_run`` with a delta, in-process.

    Run inside ``inspecting()``, as the kernel's comm endpoint runs every request: the
    cyclic GC waits until the reply is sent. That deferred pass is timed separately
    (:attr:`gc_ms`, triggered right after each run, outside the timed part).
    """

    def __init__(self, ns: dict[str, Any], code: str) -> None:
        from explorer import protocol
        from explorer.core.agent.handlers import Agent, ClientState

        self.agent = Agent(lambda: ns)
        self.client = ClientState()
        self.request = protocol.AfterRun(code=code, failed=False, overlaps=False, delta=True)
        self.gc_ms: list[float] = []

    def run(self) -> tuple[float, dict]:
        """Milliseconds of one ``after_run`` and its reply."""
        from explorer.core.summary.guard import inspecting

        _GC_SPENT[0] = 0.0
        gc.callbacks.append(_on_gc)
        try:
            with inspecting():
                start = time.perf_counter()
                reply = self.agent.after_run(self.request, self.client)
                took = (time.perf_counter() - start) * 1000
            [[] for _ in range(8)]
        finally:
            gc.callbacks.remove(_on_gc)
        self.gc_ms.append(_GC_SPENT[0] * 1000)
        return took, reply


_GC_START: list[float] = []
_GC_SPENT: list[float] = [0.0]


def _on_gc(phase: str, info: dict) -> None:
    if phase == "start":
        _GC_START[:] = [time.perf_counter()]
    elif _GC_START:
        _GC_SPENT[0] += time.perf_counter() - _GC_START[0]


def small_code(n: int) -> str:
    """The script that makes the 3-kinds namespace, as the change tracker and copy hints see it."""
    return ("for i in range(N):\n"
            "    globals()[f't{i}'] = torch.rand(32, 32)\n"
            "    globals()[f'a{i}'] = np.random.rand(32, 32)\n"
            "    globals()[f'v{i}'] = globals()[f't{i}'][1:, ::2]\n").replace("N", str(n // 3))


def rebind_small(ns: dict[str, Any], n: int) -> None:
    """What the script does: n variables, a third each 32x32 tensors, 32x32 arrays and views of the tensors."""
    for i in range(n // 3):
        ns[f"t{i}"] = t = torch.rand(32, 32)
        ns[f"a{i}"] = np.random.rand(32, 32)
        ns[f"v{i}"] = t[1:, ::2]


def after_run_ms(n: int, repeat: int) -> tuple[list[float], list[float]]:
    """First-run and second-run (every variable re-bound) times of the GUI path, *repeat* fresh sessions each."""
    first, second = [], []
    for _ in range(repeat):
        ns: dict[str, Any] = {}
        path = GuiPath(ns, small_code(n))
        for times in (first, second):
            rebind_small(ns, n)
            took, reply = path.run()
            times.append(took)
            assert len(reply["snapshot"]["changes"]) == 3 * (n // 3), "every variable is new or changed"
    return first, second


# -- peers -------------------------------------------------------------------------------
def _spyder() -> Callable[[dict], Any] | str:
    """spyder-kernels' namespace view of a namespace, or why it is unavailable."""
    try:
        from spyder_kernels.utils.nsview import make_remote_view
    except Exception as exc:  # noqa: BLE001 - reported in the row
        return f"spyder-kernels unavailable ({type(exc).__name__}: {exc})"
    return lambda ns: make_remote_view(ns, SPYDER_SETTINGS, SPYDER_EXCLUDED)


def _lovely() -> Callable[[dict], Any] | str:
    """lovely-tensors' (and lovely-numpy's) text of every tensor/array, or why it is unavailable."""
    try:
        from lovely_numpy import lovely as lovely_array
        from lovely_tensors import lovely as lovely_tensor
    except Exception as exc:  # noqa: BLE001
        return f"lovely-tensors unavailable ({type(exc).__name__}: {exc})"

    def texts(ns: dict) -> list[str]:
        out = []
        for value in ns.values():
            if isinstance(value, torch.Tensor):
                out.append(str(lovely_tensor(value)))
            elif isinstance(value, np.ndarray):
                out.append(str(lovely_array(value)))
        return out

    return texts


def _peer_rows(label: str, ns: dict[str, Any], code: str, rebind: Callable[[], None], repeat: int) -> list[Row]:
    """Our second-run time beside Spyder's and lovely's on the same namespace, interleaved, *repeat* times."""
    path = GuiPath(ns, code)
    path.run()  # the first run: every variable new
    peers = {"spyder-kernels make_remote_view": _spyder(), "lovely-tensors repr of every variable": _lovely()}
    ours: list[float] = []
    theirs: dict[str, list[float]] = {name: [] for name in peers}
    for _ in range(repeat):
        rebind()
        ours.append(path.run()[0])
        for name, peer in peers.items():
            if callable(peer):
                start = time.perf_counter()
                peer(ns)
                theirs[name].append((time.perf_counter() - start) * 1000)
    gc_text = f"then {statistics.median(path.gc_ms[1:]):.1f} ms of deferred GC after the reply"
    rows = [(f"{label}: our GUI path (`Agent.after_run`, second run, all re-bound)", _spread(ours), gc_text, "")]
    for name, peer in peers.items():
        if not callable(peer):
            rows.append((f"{label}: {name}", "", peer, ""))
            continue
        ratios = [t / o for t, o in zip(theirs[name], ours)]
        target = ">= 15x (issue 16)" if name.startswith("spyder") else ""
        rows.append((f"{label}: {name}", "", f"{_spread(theirs[name])}; {_verdict(ratios)}", target))
    return rows


def bench_peers(quick: bool = False) -> list[Row]:
    """Issue 16 item 1: our GUI snapshot vs Spyder's namespace view and lovely-tensors, same namespaces."""
    ns: dict[str, Any] = {}
    rows = _peer_rows("3,000 small variables (32x32 tensors, arrays, views)", ns, small_code(3000),
                      lambda: rebind_small(ns, 3000), repeat=9)
    if quick:
        return rows
    for count in (1, 2):
        rows += _big_peer_rows(count)
    return rows


def _big_peer_rows(count: int) -> list[Row]:
    """Peers on *count* 1 GiB tensors; two sets are bound in turn, so every run re-binds each name."""
    sets = [[torch.rand(GIB_FLOATS) for _ in range(count)] for _ in range(2)]
    big: dict[str, Any] = {}
    turn = [0]

    def rebind_big() -> None:
        turn[0] ^= 1
        for i, t in enumerate(sets[turn[0]]):
            big[f"x{i}"] = t

    rebind_big()
    code = "\n".join(f"x{i} = torch.rand({GIB_FLOATS})" for i in range(count))
    label = "one 1 GiB tensor" if count == 1 else "2 x 1 GiB tensors"
    return _peer_rows(label, big, code, rebind_big, repeat=5)


# -- scaling -----------------------------------------------------------------------------
SIZES = (1000, 2000, 4000, 8000, 16000)


def _growth(values: list[float]) -> str:
    """``x2.01 x1.98 ...``: each size's median over the previous one's."""
    return " ".join(f"x{b / a:.2f}" for a, b in itertools.pairwise(values))


def bench_scaling() -> list[Row]:
    """Issue 16 item 2 / issue 10 item 8: first and second run of the GUI path, and memory groups, 1k-16k."""
    firsts, seconds = [], []
    for n in SIZES:
        first, second = after_run_ms(n, repeat=7 if n <= 4000 else 3)
        firsts.append(statistics.median(first))
        seconds.append(statistics.median(second))
    sizes = "/".join(f"{n // 1000}k" for n in SIZES)
    rows = [
        (f"GUI path after a run, first run (all new), {sizes} variables",
         " / ".join(f"{ms:.1f}" for ms in firsts) + " ms", f"growth per doubling {_growth(firsts)}", "~x2"),
        (f"GUI path after a run, second run (all re-bound), {sizes} variables",
         " / ".join(f"{ms:.1f}" for ms in seconds) + " ms", f"growth per doubling {_growth(seconds)}", "~x2"),
    ]
    groups = [statistics.median(_groups_ms(n) for _ in range(7)) for n in SIZES]
    rows.append((f"memory groups (sort-and-sweep), {sizes} views over n/100 allocations",
                 " / ".join(f"{ms:.2f}" for ms in groups) + " ms", f"growth per doubling {_growth(groups)}", "~x2"))
    first, second = after_run_ms(3000, repeat=15)
    rows.append(("GUI path after a run, 3,000 variables re-bound (issue 10 item 8)", _spread(second),
                 f"first run {statistics.median(first):.1f} ms", "< 25 ms"))
    return rows


def _groups_ms(n: int) -> float:
    """assign_memory (groups only, as the GUI asks) over n views of n/100 tensors; copying VARs is not timed."""
    from explorer.core.memory.groups import assign_memory
    from explorer.core.summary.dispatch import summarize_into
    from explorer.core.summary.static import gc_paused

    bases = [torch.zeros(1000) for _ in range(max(1, n // 100))]
    entries: list = []
    for i in range(n):
        start = (i // len(bases)) % 900
        summarize_into(f"v{i}", bases[i % len(bases)][start:start + 50], entries)
    fresh = [(dict(var), value) for var, value in entries]
    with gc_paused():  # as inside build_snapshot, its only caller
        return _ms(lambda: assign_memory(fresh, overlaps=False))


# -- files -------------------------------------------------------------------------------
def bench_files() -> list[Row]:
    """Our file open (prepare_load + memory-mapped load + summary) vs a full load, 1 GiB .npy and .pt."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        npy, pt = os.path.join(tmp, "big.npy"), os.path.join(tmp, "big.pt")
        data = np.ones(GIB_FLOATS, dtype=np.float32)
        np.save(npy, data)
        torch.save({"w": torch.from_numpy(data)}, pt)
        del data  # not held while loading is timed
        rows.append(_file_row("1 GiB .npy", npy, np.load))
        rows.append(_file_row("1 GiB .pt", pt, lambda p: torch.load(p, weights_only=True)))
    return rows


def _file_row(label: str, path: str, full_load: Callable[[str], Any]) -> Row:
    """Our open of *path* (plan, memory-mapped load, summary) vs *full_load*, interleaved 5 times."""
    from explorer.core.files.prepare import prepare_load
    from explorer.core.summary.dispatch import summarize

    def ours() -> None:
        plan = prepare_load(path)
        ns: dict[str, Any] = {}
        exec(plan["code"], ns)  # noqa: S102 - the snippet the kernel would run
        summarize(plan["name"], ns[plan["name"]])

    ours()  # warm-up (page cache, imports)
    mine, full = [], []
    for _ in range(5):
        mine.append(_ms(ours))
        full.append(_ms(lambda: full_load(path)))
    ratios = [f / m for f, m in zip(full, mine)]
    return (f"open {label} -> variable + metadata (prepare_load, memory-mapped load)", _spread(mine),
            f"full load {_spread(full, digits=0)}; ours is {_spread(ratios, 'x', 0)} faster", "< 50 ms, >= 20x")


def peer_versions() -> str:
    """Installed versions of the peers, for the table's header."""
    from importlib.metadata import PackageNotFoundError, version

    found = []
    for name in ("spyder-kernels", "lovely-tensors", "lovely-numpy"):
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            found.append(f"{name} not installed")
    return ", ".join(found)
