"""Copies that look like views get an "independent copy" hint; real views do not."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from tests.agent_calls import Caller


def _snapshot_after(code: str, setup: str = "") -> dict[str, dict]:
    ns: dict = {"torch": torch, "np": np}
    agent = Caller(ns)
    if setup:
        exec(setup, ns)
        agent.call("snapshot", code=setup)
    exec(code, ns)
    reply = agent.call("snapshot", code=code)
    return {v["name"]: v for v in reply["result"]["variables"]}


@pytest.mark.parametrize(
    "code, name, words",
    [
        ("arr = np.ones(3)\nt = torch.tensor(arr)", "t", "torch.tensor always copies"),
        ("a = torch.ones(3)\nb = a.clone()", "b", "clone"),
        ("a = torch.arange(6).reshape(2, 3).T\nb = a.reshape(6)", "b", "reshape had to copy"),
        ("a = torch.arange(6).reshape(2, 3).T\nb = a.contiguous()", "b", "contiguous() copied"),
        ("arr = np.ones(3)\nb = np.array(arr)", "b", "np.array copies"),
    ],
)
def test_copies_get_a_hint(code: str, name: str, words: str) -> None:
    variables = _snapshot_after(code)
    assert words in (variables[name]["copy_hint"] or "")
    assert variables[name]["memory_group"] is None


@pytest.mark.parametrize(
    "code, name",
    [
        ("a = torch.arange(6)\nb = a.reshape(2, 3)", "b"),  # reshape of a contiguous tensor is a view
        ("a = torch.ones(3)\nb = a.contiguous()", "b"),  # already contiguous: the same tensor
        ("arr = np.ones(3)\nt = torch.from_numpy(arr)", "t"),
    ],
)
def test_views_get_no_copy_hint(code: str, name: str) -> None:
    assert _snapshot_after(code)[name]["copy_hint"] is None


def test_hint_survives_later_runs_until_rebound() -> None:
    ns: dict = {"torch": torch}
    agent = Caller(ns)

    def snap(code: str) -> dict:
        exec(code, ns)
        reply = agent.call("snapshot", code=code)
        return {v["name"]: v for v in reply["result"]["variables"]}

    snap("a = torch.ones(3)\nb = a.clone()")
    assert snap("other = 1")["b"]["copy_hint"]
    assert snap("b = a[:2]")["b"]["copy_hint"] is None
