"""The curves of a watch: for each watched name, the numbers its samples gave, over time.

Plain data (no Qt, no drawing), so applying a sample costs a few list appends on the GUI thread.
A name's number is the value itself for a scalar, the element for a one-element tensor, else the
tensor's norm (``model.fc.weight`` is drawn as ``‖model.fc.weight‖``); a gradient's norm is kept as
a second curve (``grad ‖w‖``). The curves of the current run are kept until the next run starts;
then they become the *previous* run, so the last two runs can be compared.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

# Points kept per curve (a long run keeps its last ones; four a second is over 40 minutes).
MAX_POINTS = 10_000
# The suffix of a curve that holds a gradient's norm.
GRAD_SUFFIX = ".grad"


def number_of(value: Any) -> float | None:
    """The number a sampled value is drawn as, or None (no finite number: a gap in the curve)."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, dict):
        for key in ("value", "norm"):
            found = value.get(key)
            if isinstance(found, (int, float)) and not isinstance(found, bool) and math.isfinite(found):
                return float(found)
        if value.get("nan") or value.get("inf"):
            return None
    return None


@dataclass
class Run:
    """The curves of one run: name -> (times, numbers); the sample count and the last sample's frame."""

    curves: dict[str, tuple[list[float], list[float | None]]] = field(default_factory=dict)
    samples: int = 0
    frame: str | None = None
    last_seq: int = 0
    label: str = ""
    nonfinite: set[str] = field(default_factory=set)  # names whose value was NaN/Inf at some point
    scalars: set[str] = field(default_factory=set)  # names drawn as their value (not a tensor's norm)
    # name -> the last sample's histogram (lo, hi, counts), for the names watched as histograms
    histograms: dict[str, tuple[float, float, list[int]]] = field(default_factory=dict)

    def add(self, name: str, t: float, y: float | None) -> None:
        times, ys = self.curves.setdefault(name, ([], []))
        times.append(t)
        ys.append(y)
        if len(times) > MAX_POINTS:
            del times[: len(times) - MAX_POINTS]
            del ys[: len(ys) - MAX_POINTS]

    def last(self, name: str) -> float | None:
        found = self.curves.get(name)
        return found[1][-1] if found and found[1] else None


class WatchCurves:
    """Samples in, curves out: the current run's and the previous run's."""

    def __init__(self) -> None:
        self.current = Run()
        self.previous: Run | None = None
        self._runs = 0

    def new_run(self, label: str = "") -> None:
        """A run starts: the current curves (if any) become the previous run's."""
        if self.current.samples:
            self.previous = self.current
        self._runs += 1
        self.current = Run(label=label or str(self._runs))

    def clear(self) -> None:
        self.current = Run(label=self.current.label)
        self.previous = None

    def add_sample(self, sample: dict[str, Any], names: Iterable[str]) -> bool:
        """Add one ``watch_sample``; False when it is stale (an older ``seq`` than the last one)."""
        seq = sample.get("seq")
        if isinstance(seq, int):
            if seq <= self.current.last_seq:
                return False
            self.current.last_seq = seq
        t = sample.get("t")
        t = float(t) if isinstance(t, (int, float)) else float(self.current.samples)
        found = sample.get("values")
        values: dict[str, Any] = found if isinstance(found, dict) else {}
        run = self.current
        run.samples += 1
        run.frame = sample.get("frame") if isinstance(sample.get("frame"), str) else run.frame
        for name in names:
            if name not in values:
                continue
            value = values[name]
            y = number_of(value)
            if (y is None and value is not None) or (isinstance(value, dict) and (value.get("nan") or value.get("inf"))):
                run.nonfinite.add(name)
            run.add(name, t, y)
            if not isinstance(value, dict) or value.get("numel") == 1:
                run.scalars.add(name)
            hist = value.get("hist") if isinstance(value, dict) else None
            if isinstance(hist, dict) and _is_histogram(hist):
                run.histograms[name] = (float(hist["lo"]), float(hist["hi"]), [int(c) for c in hist["counts"]])
            if isinstance(value, dict) and value.get("grad_norm") is not None:
                run.add(name + GRAD_SUFFIX, t, number_of(value.get("grad_norm")))
        return True


def _is_histogram(hist: dict[str, Any]) -> bool:
    """A sample's ``hist`` as the kernel sends it: two finite bounds and a list of counts."""
    lo, hi, counts = hist.get("lo"), hist.get("hi"), hist.get("counts")
    return (isinstance(lo, (int, float)) and isinstance(hi, (int, float)) and math.isfinite(lo)
            and math.isfinite(hi) and isinstance(counts, list) and all(isinstance(c, int) for c in counts))
