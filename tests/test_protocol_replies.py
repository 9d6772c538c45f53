"""Every handler answers the reply its request declares: by annotation, and in what it really sends."""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any, get_args, get_type_hints

import numpy as np
import pytest
import torch

from explorer import protocol
from explorer.core.agent.handlers import HANDLERS, Agent
from tests.agent_calls import Caller
from tests.typed_check import mismatches


def _declared(cls: type[protocol.Request[Any]]) -> Any:
    """The ``R`` of ``class X(Request[R])``."""
    base = next(b for b in cls.__orig_bases__ if getattr(b, "__origin__", None) is protocol.Request)
    return get_args(base)[0]


@pytest.mark.parametrize("cls", list(protocol.REQUESTS.values()), ids=lambda c: c.method)
def test_each_handler_is_annotated_with_its_requests_reply(cls: type[protocol.Request[Any]]) -> None:
    hints = get_type_hints(HANDLERS[cls], vars(sys.modules["explorer.core.agent.handlers"]))
    assert hints["return"] is _declared(cls)


def _namespace(tmp_path: Path) -> dict[str, Any]:
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    np.save(tmp_path / "batch.npy", np.zeros((2, 3), np.float32))
    base = torch.arange(12.0).reshape(3, 4)
    return {"x": x, "y": y, "img": torch.rand(3, 8, 8), "base": base, "rows": base[1:], "a": np.arange(6)}


def _requests(tmp_path: Path) -> list[protocol.Request[Any]]:
    return [
        protocol.Hello(), protocol.AfterRun(code="z = 1"), protocol.AfterRun(code="1/0", failed=True),
        protocol.AfterRun(code="", delta=True, overlaps=False), protocol.Snapshot(exact_overlaps=True),
        protocol.AfterRun(code="rows = base[1:]", overlaps=False, selected="rows"),
        protocol.Overlaps(name="rows"), protocol.SetLanguage(lang="en"), protocol.ScriptContext(path=None),
        protocol.Image(name="img"), protocol.Values(name="base"), protocol.MemoryMap(name="rows"),
        protocol.MemoryMap(name="x"), protocol.Graph(name="y"), protocol.Graph(name="x"), protocol.Graph(name="a"),
        protocol.Render(name="img", out=str(tmp_path / "img.png")),
        protocol.PrepareLoad(path=str(tmp_path / "batch.npy")), protocol.PrepareLoad(path=str(tmp_path / "no.npy")),
        protocol.ClearError(), protocol.StepCapture(code="x"), protocol.StepCompare(names=["x", "gone"]),
        protocol.SeedRandom(seed=1), protocol.WatchGradients(), protocol.SelectFrame(index=None),
        protocol.StatsPoll(job=99),
    ]


def test_what_each_handler_sends_is_what_its_reply_declares(tmp_path: Path) -> None:
    caller = Caller(_namespace(tmp_path))
    wrong: dict[str, list[str]] = {}
    for request in _requests(tmp_path):
        if isinstance(request, protocol.AfterRun) and request.failed:
            try:
                exec("1/0", {})  # the error the card explains
            except ZeroDivisionError:
                sys.last_value = sys.exc_info()[1]
        reply = caller.ask(request)
        assert reply.ok, (request, reply.message)
        found = mismatches(reply.result, _declared(type(request)), request.method)
        if found:
            wrong[repr(request)] = found
    assert wrong == {}


def test_a_statistics_job_answers_as_declared() -> None:
    caller = Caller({"t": torch.arange(100.0)})
    started = caller.ask(protocol.StatsStart(name="t"))
    assert mismatches(started.result, protocol.StatsJob) == []
    job = started.result["job"]
    for thread in threading.enumerate():
        if thread.name == f"te-stats-{job}":
            thread.join()  # the job's own thread: no clock involved
    status = caller.ask(protocol.StatsPoll(job=job)).result
    assert status["state"] == "done"
    assert mismatches(status, protocol.StatsStatus) == []
    assert mismatches(caller.ask(protocol.StatsCancel(job=12345)).result, protocol.StatsJob) == []


def test_the_handlers_table_covers_every_request_once() -> None:
    assert set(HANDLERS) == set(protocol.REQUESTS.values())
    assert all(callable(getattr(Agent, handler.__name__)) for handler in HANDLERS.values())
