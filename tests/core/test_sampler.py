"""The watch sampler without a kernel: a loop on a thread, the sampler reading that thread's frame.

Covers what the kernel tests cannot easily arrange: values that must be skipped (with a reason)
rather than read, the rate dropping by itself when a sample costs more than its share, and
nothing sent once the run has stopped.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
import torch

from explorer import protocol
from explorer.client import budgets
from explorer.core.agent.sample_read import Unreadable, read_value
from explorer.core.agent.sampler import Sampler, watch_state
from tests.warnings_seen import raised_by

#: The file name the loop is compiled under: a cell, as IPython names them.
CELL = "<watch-test-cell>"


class _Watcher:
    """A comm as the sampler sees it: a watch state, and where samples go."""

    def __init__(self, names: list[str], every: float = 0.05) -> None:
        self.state = watch_state(protocol.Watch(names=names, every=every))
        self.samples: list[dict[str, Any]] = []
        self.enough = threading.Event()
        self.wanted = 5

    def watch_state(self) -> Any:
        return self.state

    def notify(self, name: str, data: dict[str, Any]) -> None:
        assert name == protocol.WATCH_EVENT
        self.samples.append(data)
        if len(self.samples) >= self.wanted:
            self.enough.set()


def _sample_a_loop(watcher: _Watcher, values: dict[str, Any]) -> list[dict[str, Any]]:
    """Run a loop holding *values* as locals on a thread, sample it until *watcher* has enough."""
    done = threading.Event()
    started = threading.Event()
    # A function whose parameters are the values: real locals, as in a learner's train().
    source = f"def loop(done, started, {', '.join(values)}):\n    started.set()\n    while not done.wait(0.005):\n        pass\n"
    namespace: dict[str, Any] = {}
    exec(compile(source, CELL, "exec"), namespace)
    loop = namespace["loop"]

    thread = threading.Thread(target=loop, kwargs=dict(values, done=done, started=started), daemon=True)
    thread.start()
    started.wait()
    sampler = Sampler(lambda: [watcher], dict, dict, lambda: {CELL})
    assert sampler.start(thread.ident)
    try:
        assert watcher.enough.wait(budgets.seconds(budgets.HANDSHAKE)), watcher.samples
    finally:
        sampler.stop()
        done.set()
        thread.join()
    after = len(watcher.samples)
    done.wait(0.2)
    assert len(watcher.samples) == after  # nothing once stopped
    return watcher.samples


class _Dispatching(torch.Tensor):
    """A subclass with __torch_dispatch__: every op on it is its Python code."""

    @classmethod
    def __torch_dispatch__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        raise AssertionError("the sampler ran __torch_dispatch__")


def test_values_that_cannot_be_read_safely_are_skipped_with_a_reason() -> None:
    dispatching = torch.Tensor._make_subclass(_Dispatching, torch.ones(3))
    values = {"sparse": torch.eye(3).to_sparse(), "dispatching": dispatching, "text": "abc",
              "w": torch.full((4,), 3.0), "steps": 3, "doubled": torch.ones(2, requires_grad=True) * 2}
    watcher = _Watcher(list(values) + ["w.grad", "absent"])
    with raised_by() as caught:  # reading a non-leaf's .grad would warn the user
        samples = _sample_a_loop(watcher, values)
    assert [str(w.message) for w in caught] == []
    last = samples[-1]
    assert set(last["skipped"]) == {"sparse", "dispatching", "text", "absent"}
    assert all(isinstance(why, str) and why for why in last["skipped"].values())
    assert last["values"]["w"]["norm"] == 6.0 and last["values"]["steps"] == 3
    assert last["values"]["doubled"]["mean"] == 2.0 and last["values"]["doubled"]["grad_norm"] is None
    assert last["values"]["w.grad"] is None  # no gradient yet: null
    assert last["frame"] == "loop" and {"sparse", "w", "steps"} <= set(last["names"])


def test_the_rate_drops_when_a_sample_costs_more_than_its_share() -> None:
    cheap = _sample_a_loop(_Watcher(["n"], every=0.05), {"n": 1})
    assert {s["every"] for s in cheap} == {0.05}
    costly = _Watcher(["big"], every=0.05)
    costly.wanted = 4
    samples = _sample_a_loop(costly, {"big": torch.ones(8_000_000)})
    assert samples[-1]["values"]["big"]["mean"] == 1.0
    assert samples[-1]["every"] > 0.05  # three passes over 32 MB cost more than 5% of 50 ms
    assert samples[-1]["every"] == pytest.approx(max(0.05, samples[-1]["every"]))


def test_read_value_refuses_what_it_cannot_read() -> None:
    with pytest.raises(Unreadable):
        read_value(object())
    assert read_value(float("inf")) == "inf" and read_value(True) is True
    facts = read_value(torch.tensor([1.0, float("nan"), 3.0]))
    assert facts["nan"] == 1 and facts["min"] == 1.0 and facts["max"] == 3.0 and facts["mean"] == 2.0


def test_a_histogram_is_read_only_where_asked_and_counts_the_finite_values() -> None:
    import numpy as np

    values = torch.cat([torch.zeros(30), torch.ones(10), torch.tensor([float("nan"), float("inf")])])
    assert read_value(values)["hist"] is None  # one more pass over the data: not unless asked
    for value in (values, values.to(torch.bfloat16), values.numpy()):  # NumPy view, torch path, array
        hist = read_value(value, histogram=True)["hist"]
        assert (hist["lo"], hist["hi"]) == (0.0, 1.0) and len(hist["counts"]) == 24
        assert hist["counts"][0] == 30 and hist["counts"][-1] == 10 and sum(hist["counts"]) == 40
    flat = read_value(np.full(5, 2.0), histogram=True)["hist"]
    assert (flat["lo"], flat["hi"]) == (1.5, 2.5) and sum(flat["counts"]) == 5
    assert read_value(torch.tensor([3.0]), histogram=True)["hist"] is None  # one element: its value says it all


def test_a_watch_asks_histograms_only_of_watched_names() -> None:
    state = watch_state(protocol.Watch(names=["w", "loss"], histograms=["w", "elsewhere"]))
    assert state is not None and state.histograms == frozenset({"w"})
    watcher = _Watcher(["w", "loss"])
    watcher.state = state
    samples = _sample_a_loop(watcher, {"w": torch.arange(100.0), "loss": 0.5})
    values = samples[-1]["values"]
    assert sum(values["w"]["hist"]["counts"]) == 100 and values["loss"] == 0.5
