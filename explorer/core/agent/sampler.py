"""Samples of a running program, taken on a thread of the kernel while the main thread runs the user's code.

While a cell runs, the kernel's main thread is busy: no request can be answered. A client that
asked for a watch (:class:`explorer.protocol.Watch`) gets instead, about four times a second, a
:class:`explorer.protocol.WatchSample` event on its comm, sent from this thread (the comm's
messages go out through ipykernel's IOPub thread, so nothing waits for the main thread).

Each sample reads the innermost *user* frame of the main thread (``sys._current_frames()``): a
loop inside ``train()`` is watched through ``train``'s locals, a loop at the top level through
the namespace. Watched name paths are resolved as the inspector resolves them
(:mod:`explorer.core.resolve`) and read by :mod:`explorer.core.agent.sample_read`; what cannot
be read safely is skipped with its reason. The builtins this module calls are the ones copied at
start, and the process-wide guard is never used here (it would change the builtins under the
user's running code).

The rate adapts: a sample may take at most :data:`COST_SHARE` of the time between samples (CPU
time of this thread, the cheapest of the last :data:`COST_WINDOW` samples), so a watch of many large tensors over a tiny loop samples less often
instead of slowing the loop; each sample says the interval in use (``every``).
"""

from __future__ import annotations

import sys
import threading
import time
from collections import ChainMap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from types import FrameType
from typing import Any

from explorer import protocol
from explorer.core.agent.frames import is_user_frame
from explorer.core.agent.sample_read import Unreadable, read_value
from explorer.core.i18n import _
from explorer.core.resolve import resolve
from explorer.core.summary.guard import PRISTINE_BUILTINS
from explorer.core.summary.namespace import is_hidden

globals()["__builtins__"] = PRISTINE_BUILTINS

#: The shortest interval a client may ask for (20 samples a second).
MIN_EVERY = 0.05
#: The share of the time between two samples that one sample may cost (CPU time of the thread).
COST_SHARE = 0.05
#: Samples whose cost sets the interval (the cheapest of them counts).
COST_WINDOW = 3
#: Names listed per sample (a namespace of 100,000 names must not make every sample huge).
MAX_NAMES = 500
#: Name paths watched per client.
MAX_WATCHED = 64
#: Seconds the end of a run waits for a sample being taken.
STOP_WAIT = 2.0


@dataclass(frozen=True)
class WatchState:
    """One client's watch: the name paths, the seconds between samples, whether it is paused."""

    names: tuple[str, ...] = ()
    every: float = 1.0 / protocol.WATCH_RATE
    paused: bool = False
    histograms: frozenset[str] = frozenset()

    def reply(self) -> protocol.WatchSet:
        return {"names": list(self.names), "every": self.every, "paused": self.paused}

    def with_paused(self, paused: bool) -> WatchState:
        return replace(self, paused=paused)


def watch_state(req: protocol.Watch) -> WatchState | None:
    """The state a :class:`~explorer.protocol.Watch` request asks for (None: no watch)."""
    if not req.enabled:
        return None
    names = tuple(dict.fromkeys(str(n) for n in (req.names or [])))[:MAX_WATCHED]
    try:
        every = float(req.every)
    except (TypeError, ValueError):
        every = 1.0 / protocol.WATCH_RATE
    every = every if every == every else 1.0 / protocol.WATCH_RATE  # NaN
    histograms = frozenset(str(n) for n in (req.histograms or []) if str(n) in names)
    return WatchState(names, max(MIN_EVERY, min(every, 60.0)), bool(req.paused), histograms)


class Sampler:
    """Starts a thread when a run starts (if any client watches) and stops it when the run ends.

    Parameters
    ----------
    watchers : callable
        The comms now open (objects with ``watch_state()`` and ``notify(name, data)``).
    namespace : callable
        The user namespace without IPython's names (read for a frame at the top level).
    user_ns : callable
        IPython's ``user_ns`` itself (a top-level frame's ``f_locals`` is this dict).
    code_filenames : callable
        The file names of the cells that ran (to tell the user's frames from the libraries').
    """

    def __init__(self, watchers: Callable[[], list[Any]], namespace: Callable[[], dict[str, Any]],
                 user_ns: Callable[[], dict[str, Any]], code_filenames: Callable[[], set[str]]) -> None:
        self._watchers = watchers
        self._namespace = namespace
        self._user_ns = user_ns
        self._code_filenames = code_filenames
        self._main = threading.main_thread().ident
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.samples = 0  # taken in the last run (for tests and the benchmark)

    @property
    def running(self) -> bool:
        return self._thread is not None

    def start(self, main_ident: int | None = None) -> bool:
        """Start sampling the thread *main_ident* (default: the main thread) when some client watches."""
        self.stop()
        if not any(w.watch_state() is not None for w in self._watchers()):
            return False
        self._stop = threading.Event()
        self.samples = 0
        target = self._main if main_ident is None else main_ident
        self._thread = threading.Thread(target=self._run, args=(self._stop, target), name="tensor-explorer-watch",
                                        daemon=True)
        self._thread.start()
        return True

    def stop(self) -> None:
        """End sampling (the run ended); waits for a sample being taken, so none is sent after this."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._stop.set()
        thread.join(STOP_WAIT)

    # -- the thread ------------------------------------------------------------------------
    def _run(self, stop: threading.Event, target: int | None) -> None:
        started = time.perf_counter()
        seq = 0
        interval = self._every()
        costs: list[float] = []
        while not stop.wait(interval):
            clock = time.thread_time()
            try:
                seq += 1
                self._sample_once(seq, time.perf_counter() - started, target, interval, stop)
            except Exception:  # noqa: BLE001 - a sample must never end the thread or reach the user's console
                pass
            costs = [*costs[-(COST_WINDOW - 1):], time.thread_time() - clock]
            # The cheapest of the last few: a one-off cost (a first read imports a module) changes nothing.
            interval = max(self._every(), min(costs) / COST_SHARE)

    def _every(self) -> float:
        states = [w.watch_state() for w in self._watchers()]
        everies = [s.every for s in states if s is not None and not s.paused]
        return min(everies) if everies else 1.0 / protocol.WATCH_RATE

    def _sample_once(self, seq: int, t: float, target: int | None, interval: float, stop: threading.Event) -> None:
        watchers = [(w, w.watch_state()) for w in self._watchers()]
        watchers = [(w, s) for w, s in watchers if s is not None and not s.paused]
        if not watchers:
            return
        frame = self._user_frame(target)
        if frame is None:
            return
        scope, shown, function, line = self._scope(frame)
        del frame  # the frame is not kept between samples
        clock = time.thread_time()
        # Every name path is resolved first (plain lookups, the GIL held throughout), then read: a tensor's
        # statistics release the GIL, and the loop moving on meanwhile must not change what the others name.
        found: dict[str, tuple[bool, Any]] = {}
        histograms: set[str] = set()
        for _watcher, state in watchers:
            histograms |= state.histograms
            for name in state.names:
                if name not in found:
                    found[name] = _resolve(scope, name)
        read = {name: _read(value, name in histograms) if ok else (False, value) for name, (ok, value) in found.items()}
        # The names the inspector would list (no modules, functions, classes or private names): type-level
        # tests, after the reads, so the values are read as close to the frame's copy as they can be.
        names = [k for k in list(shown)[:MAX_NAMES * 2] if not is_hidden(k, dict.get(shown, k))][:MAX_NAMES]
        cost = time.thread_time() - clock
        if stop.is_set():  # the run ended while we read: its snapshot takes over
            return
        for watcher, state in watchers:
            sample: protocol.WatchSample = {
                "seq": seq, "t": round(t, 4), "frame": function, "line": line, "names": names,
                "values": {n: read[n][1] for n in state.names if read[n][0]},
                "skipped": {n: read[n][1] for n in state.names if not read[n][0]},
                "every": round(interval, 4), "cost": round(cost, 6),
            }
            try:
                watcher.notify(protocol.WATCH_EVENT, dict(sample))
            except Exception:  # noqa: BLE001 - a comm closed meanwhile: the others still get theirs
                pass
        self.samples += 1

    def _user_frame(self, target: int | None) -> FrameType | None:
        """The innermost frame of the learner's code on thread *target*, or None (the thread is elsewhere)."""
        frame = sys._current_frames().get(target) if target is not None else None
        cells = self._code_filenames()
        while frame is not None:
            if _sampled(frame, cells):
                return frame
            frame = frame.f_back
        return None

    def _scope(self, frame: FrameType) -> tuple[Mapping[str, Any], dict[str, Any], str, int | None]:
        """What names resolve in (locals, then the frame's globals, as Python looks them up), the names
        the frame shows with their values (its locals; the namespace at the top level), its name and line."""
        local = frame.f_locals
        if local is self._user_ns():
            scope = self._namespace()
            return scope, scope, frame.f_code.co_name, frame.f_lineno
        own = dict.copy(local) if type(local) is dict else dict(local)
        return ChainMap(own, frame.f_globals), own, frame.f_code.co_name, frame.f_lineno


def _sampled(frame: FrameType, cells: set[str]) -> bool:
    """A frame of the learner's code: a cell that ran, or a file outside the libraries.

    Code that libraries compile at run time (``<string>``: dataclasses, namedtuples) is not the learner's.
    """
    filename = frame.f_code.co_filename
    if filename in cells:
        return True
    return not filename.startswith("<") and is_user_frame(frame, cells)


def _resolve(scope: Mapping[str, Any], name: str) -> tuple[bool, Any]:
    """``(True, the object)`` or ``(False, why not)`` for one watched name path."""
    try:
        return True, resolve(scope, name)
    except ValueError as exc:  # ResolveError: no such name here, an attribute that needs the class's code
        return False, str(exc)
    except Exception as exc:  # noqa: BLE001 - a container changing under the lookup: skipped this time
        return False, _("it could not be read this time ({error})").format(error=type(exc).__name__)


def _read(value: Any, histogram: bool = False) -> tuple[bool, Any]:
    """``(True, value read)`` or ``(False, why not)`` for one resolved object."""
    try:
        return True, read_value(value, histogram)
    except Unreadable as exc:
        return False, str(exc)
    except Exception as exc:  # noqa: BLE001 - a value changing under the read: skipped this time
        return False, _("it could not be read this time ({error})").format(error=type(exc).__name__)
