"""Before and after one step (explorer.core.step) through the real comm endpoint."""

from __future__ import annotations

import random

import numpy as np
import pytest
import torch

from explorer.core.step import CAPTURE_LIMIT, seed_everything, value_preview
from tests.agent_calls import Caller


def _step(caller: Caller, ns: dict, code: str) -> dict:
    """Capture, run *code* in *ns* as the kernel would, snapshot (changes), compare the changed names."""
    assert "error" not in caller.call("step_capture", code=code)
    exec(code, ns)
    ns.pop("__builtins__", None)
    changes = caller.call("after_run", code=code, delta=True)["result"]["snapshot"]["changes"]
    items = caller.call("step_compare", names=list(changes))["result"]["items"]
    return {item["name"]: item for item in items}


def test_a_write_through_a_view_shows_the_base_before_and_after() -> None:
    ns: dict = {"torch": torch}
    caller = Caller(ns)
    exec("t = torch.arange(6).reshape(2, 3)\nsub = t[:, 1:]", ns)
    ns.pop("__builtins__", None)
    caller.call("after_run", code="", delta=True)
    items = _step(caller, ns, "sub[0, 0] = 999")
    assert set(items) >= {"t", "sub"}
    assert items["t"]["before"]["text"] == "[[0, 1, 2],\n [3, 4, 5]]"
    assert "999" in items["t"]["after"]["text"] and "999" not in items["t"]["before"]["text"]
    assert items["t"]["before"]["full"] and items["t"]["captured"]


def test_new_variable_has_no_before_and_large_values_are_summaries() -> None:
    ns: dict = {"torch": torch, "np": np}
    caller = Caller(ns)
    caller.call("after_run", code="", delta=True)
    items = _step(caller, ns, "big = torch.arange(10_000.)")
    assert items["big"]["before"] is None and items["big"]["captured"]
    after = items["big"]["after"]
    assert not after["full"] and after["text"].startswith("[0., 1., 2.") and after["text"].endswith("…]")
    assert after["shape"] == [10_000] and after["mean"] == pytest.approx(4999.5) and after["max"] == 9999.0


def test_backward_twice_shows_the_gradient_adding_up() -> None:
    ns: dict = {"torch": torch}
    caller = Caller(ns)
    exec("x = torch.tensor(2.0, requires_grad=True)", ns)
    ns.pop("__builtins__", None)
    caller.call("after_run", code="", delta=True)
    first = _step(caller, ns, "(x * 3 * x * 3).backward()")
    assert first["x"]["before"]["grad"] is None and first["x"]["after"]["grad"]["text"] == "36."
    second = _step(caller, ns, "(x * 3 * x * 3).backward()")
    assert second["x"]["before"]["grad"]["text"] == "36." and second["x"]["after"]["grad"]["text"] == "72."
    zeroed = _step(caller, ns, "x.grad.zero_()")
    assert zeroed["x"]["after"]["grad"]["text"] == "0."


def test_arrays_and_other_values() -> None:
    preview = value_preview(np.arange(4, dtype=np.int32))
    assert preview["kind"] == "ndarray" and preview["text"] == "[0, 1, 2, 3]" and preview["full"]
    other = value_preview({"a": 1})
    assert other["kind"] == "other" and other["text"] == "{'a': 1}"
    half = value_preview(torch.ones(2, dtype=torch.bfloat16))
    assert half["text"] == "[1., 1.]" and half["dtype"] == "torch.bfloat16"


def test_capture_is_bounded_and_says_what_it_missed() -> None:
    ns = {f"v{i}": i for i in range(CAPTURE_LIMIT + 50)}
    caller = Caller(ns)
    assert caller.call("step_capture", code="v249 = -1")["result"]["captured"] == CAPTURE_LIMIT
    ns["v249"] = -1
    ns["v230"] = -2  # changed, but beyond the limit and not named by the code
    items = {i["name"]: i for i in caller.call("step_compare", names=["v249", "v230"])["result"]["items"]}
    assert items["v249"]["before"]["text"] == "249" and items["v249"]["captured"]
    assert items["v230"]["before"] is None and not items["v230"]["captured"]


def test_seeding_repeats_the_random_numbers() -> None:
    seed_everything(0)
    first = (random.random(), np.random.rand(), torch.rand(1).item())
    seed_everything(0)
    assert (random.random(), np.random.rand(), torch.rand(1).item()) == first
