"""hints(): teaching hints after a run that raised nothing."""

from __future__ import annotations

import json
import re

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.errors.explain import hints
from tests.core.test_errors_cells import fresh_namespace

HINT_KEYS = {"key", "severity", "line", "title", "explanation", "fix", "fix_mode", "fix_line"}


def run(code: str) -> dict:
    ns = fresh_namespace()
    exec(compile(code, "<cell-1>", "exec"), ns)
    return ns


def by_key(found: list[dict], key: str) -> list[dict]:
    return [h for h in found if h["key"] == key]


def test_grad_none_after_detach() -> None:
    code = ("w = torch.randn(3, requires_grad=True)\nb = torch.zeros(1, requires_grad=True)\n"
            "loss = (w.detach() * 2).sum() + b.sum()\nloss.backward()")
    found = hints(code, run(code))
    [hint] = by_key(found, "grads_none")
    assert set(hint) == HINT_KEYS and hint["line"] == 3 and hint["fix_line"] == 3  # the line that cut the chain
    assert "`w`" in hint["explanation"] and "`b`" not in hint["explanation"]
    assert "detach" in hint["explanation"] and "no_grad" in hint["explanation"]


@pytest.mark.parametrize(("create", "fix"), [
    ("torch.randn(3, requires_grad=True) * 0.01", "w = (torch.randn(3) * 0.01).requires_grad_()"),
    ("0.01 * torch.randn(3, requires_grad=True)", "w = (0.01 * torch.randn(3)).requires_grad_()"),
    ("torch.randn(3, requires_grad=True).double()", "w = torch.randn(3).double().requires_grad_()"),
])
def test_all_grads_none_on_a_hidden_leaf(create: str, fix: str) -> None:
    code = f"w = {create}\nx = torch.ones(3)\nloss = (w * x).sum()\nloss.backward()"
    found = hints(code, run(code))
    [hint] = by_key(found, "grad_non_leaf")
    assert "`w`" in hint["explanation"] and hint["line"] == 1
    assert hint["fix"].split("  #")[0] == fix
    fixed = fresh_namespace()
    exec(hint["fix"], fixed)  # the suggested line really makes a leaf that collects a gradient
    (fixed["w"] * 2).sum().backward()
    assert fixed["w"].is_leaf and fixed["w"].grad is not None


def test_grads_none_when_nothing_required_grad() -> None:
    # The only tracked tensor is created inline, so no variable the user can see gets a gradient.
    code = ("w = torch.randn(3)\nx = torch.ones(3)\n"
            "loss = (w * x).sum() + torch.zeros(1, requires_grad=True).sum()\nloss.backward()")
    [hint] = by_key(hints(code, run(code)), "grads_none")
    assert "`w`" in hint["explanation"] and "`x`" in hint["explanation"]
    assert hint["fix"] == "w = torch.randn(3, requires_grad=True)" and hint["fix_line"] == 1


def test_no_hint_when_gradients_arrived() -> None:
    code = "w = torch.randn(3, requires_grad=True)\nx = torch.ones(3)\nloss = (w * x).sum()\nloss.backward()"
    assert hints(code, run(code)) == []


def test_no_grad_hint_without_backward() -> None:
    code = "w = torch.randn(3, requires_grad=True)\ny = w.detach() * 2"
    assert by_key(hints(code, run(code)), "grads_none") == []


def test_module_parameters_are_checked() -> None:
    code = ("model = nn.Linear(3, 1)\nx = torch.randn(4, 3)\nt = torch.zeros(1, requires_grad=True)\n"
            "with torch.no_grad():\n    out = model(x)\nloss = (out + t).sum()\nloss.backward()")
    [hint] = by_key(hints(code, run(code)), "grads_none")
    assert "`model.weight`" in hint["explanation"] and "`model.bias`" in hint["explanation"]


@pytest.mark.parametrize(("code", "fix"), [
    ("x = torch.Tensor(2, 3)", "x = torch.zeros(2, 3)"),
    ("y = torch.FloatTensor(4)", "y = torch.zeros(4)"),
    ("n = 5\nz = torch.LongTensor(n, 2)", "z = torch.zeros(n, 2, dtype=torch.long)"),
])
def test_legacy_constructor_with_sizes(code: str, fix: str) -> None:
    [hint] = by_key(hints(code, run(code)), "tensor_uninitialised")
    assert hint["line"] == len(code.splitlines())
    assert "never cleared" in hint["explanation"] and fix in hint["fix"]
    assert "torch.tensor(" in hint["explanation"]


@pytest.mark.parametrize("code", [
    "x = torch.Tensor([1, 2])", "x = torch.tensor(2)", "x = torch.Tensor(torch.ones(2))", "x = torch.Tensor()",
])
def test_legacy_constructor_with_data_is_fine(code: str) -> None:
    assert by_key(hints(code, run(code)), "tensor_uninitialised") == []


def test_data_attribute_hint() -> None:
    code = "w = torch.randn(3, requires_grad=True)\nw.data.mul_(2)"
    [hint] = by_key(hints(code, run(code)), "data_attr")
    assert hint["line"] == 2 and hint["fix"] == "with torch.no_grad():\n    w.mul_(2)"


def test_hints_in_chinese() -> None:
    code = "x = torch.Tensor(2, 3)"
    [hint] = hints(code, run(code), lang="zh_CN")
    assert re.search(r"[\u4e00-\u9fff]", hint["title"] + hint["explanation"])
    assert hint["fix"].startswith("x = torch.zeros(2, 3)  # ") and re.search(r"[\u4e00-\u9fff]", hint["fix"])


@pytest.mark.parametrize("code", ["def (:", "", "\x00", "x = " + "(" * 300 + ")" * 300])
def test_bad_code_gives_no_hints(code: str) -> None:
    assert hints(code, {}) == []


@settings(max_examples=40, deadline=None)
@given(code=st.text(max_size=200))
def test_hints_never_raise(code: str) -> None:
    result = hints(code, {"x": torch.ones(2), "y": object()})
    assert isinstance(result, list)
    json.dumps(result)


def test_no_hint_for_a_module_the_loss_does_not_use() -> None:
    # The layer runs forward only; the loss comes from w alone: nothing about the layer to say.
    code = ("layer = nn.Linear(3, 2)\nout = layer(torch.ones(1, 3))\nw = torch.tensor(2.0, requires_grad=True)\n"
            "loss = w * w\nloss.backward()")
    assert by_key(hints(code, run(code)), "grads_none") == []


def test_no_hint_for_data_the_loss_uses() -> None:
    # x is data: it does not require grad and nobody reads x.grad.
    code = "x = torch.ones(3)\nw = torch.zeros(3, requires_grad=True)\nloss = (w * x).sum()\nloss.backward()"
    assert hints(code, run(code)) == []
