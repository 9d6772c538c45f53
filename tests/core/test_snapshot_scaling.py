"""Every per-run cost of the snapshot path is linear in the number of variables (issue 10, item 8).

Not timed: the work is counted. A tracer counts the lines of ``explorer`` code
executed by the GUI's sequence after a run (build_snapshot, CopyHints.update,
ChangeTracker.update) on a second run where every variable was rebound or
changed through an alias; ``ast.parse`` calls are counted too. From n to 4n
variables the counts may grow about 4 times, not 16.
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import numpy as np
import pytest
import torch

import explorer
from explorer.core.snapshot.build import build_snapshot
from explorer.core.snapshot.changes import ChangeTracker
from explorer.core.snapshot.copy_hints import CopyHints

PACKAGE = str(Path(explorer.__file__).parent)


class _Work:
    """Counts executed lines of explorer code and calls of ast.parse while active."""

    def __init__(self) -> None:
        self.counts: Counter = Counter()

    def _trace(self, frame: FrameType, event: str, arg: Any) -> Callable | None:
        if not frame.f_code.co_filename.startswith(PACKAGE):
            return None
        self.counts["lines"] += event == "line"
        return self._trace

    def measure(self, action: Callable[[], Any], monkeypatch: pytest.MonkeyPatch) -> Counter:
        real_parse = ast.parse

        def counting_parse(*args: Any, **kwargs: Any) -> Any:
            self.counts["ast.parse"] += 1
            return real_parse(*args, **kwargs)

        self.counts.clear()
        with monkeypatch.context() as patch:
            patch.setattr(ast, "parse", counting_parse)
            sys.settrace(self._trace)
            try:
                action()
            finally:
                sys.settrace(None)
        return Counter(self.counts)


def _first_run(n: int) -> dict[str, Any]:
    """n groups of five: a tensor, an array, a view, a dict holding a tensor and an alias of that tensor."""
    ns: dict[str, Any] = {}
    for i in range(n):
        ns[f"t{i}"] = torch.zeros(4, 4)
        ns[f"a{i}"] = np.zeros(4)
        ns[f"v{i}"] = ns[f"t{i}"][1:]
        ns[f"d{i}"] = {"w": torch.zeros(2)}
        ns[f"alias{i}"] = ns[f"d{i}"]["w"]
    return ns


def _second_run(ns: dict[str, Any], n: int) -> str:
    """Rebind every tensor, array and view and write each dict's tensor through its alias; return the code."""
    lines = []
    for i in range(n):
        ns[f"t{i}"] = torch.ones(4, 4)
        ns[f"a{i}"] = np.ones(4)
        ns[f"v{i}"] = ns[f"t{i}"][1:]
        ns[f"alias{i}"].add_(1)
        lines += [f"t{i} = torch.ones(4, 4)", f"a{i} = np.ones(4)", f"v{i} = t{i}[1:]", f"alias{i}.add_(1)"]
    return "\n".join(lines)


def _after_run(ns: dict[str, Any], state: dict[str, Any], code: str) -> dict:
    """What the agent does after each run: build the snapshot, then copy hints and changes."""
    snap = build_snapshot(ns, overlaps=False)
    state["hints"].update(code, ns, snap["variables"])
    snap["changes"] = state["tracker"].update(ns, snap["variables"], code)
    return snap


def _second_run_work(n: int, monkeypatch: pytest.MonkeyPatch) -> tuple[Counter, dict]:
    ns = _first_run(n)
    state = {"tracker": ChangeTracker(), "hints": CopyHints()}
    _after_run(ns, state, "")
    code = _second_run(ns, n)
    result: dict = {}
    work = _Work().measure(lambda: result.update(_after_run(ns, state, code)), monkeypatch)
    return work, result


def test_second_run_work_grows_linearly(monkeypatch: pytest.MonkeyPatch) -> None:
    small, _snap = _second_run_work(40, monkeypatch)
    large, big_snap = _second_run_work(160, monkeypatch)
    # The run really exercised the tracker: rebinding, and writes through an alias.
    assert big_snap["changes"]["d7['w']"] == {"status": "changed_through", "through": "alias7"}
    assert big_snap["changes"]["t9"] == {"status": "changed", "through": None}
    assert len(big_snap["changes"]) == 5 * 160
    assert large["lines"] <= 4.6 * small["lines"], (small, large)
    assert large["ast.parse"] <= 4 * max(small["ast.parse"], 2), (small, large)
