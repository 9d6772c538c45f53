"""Explaining never runs the learner's code again: classes that count their calls see no new call."""

from __future__ import annotations

import pytest

from explorer.core.errors.explain import explain, hints
from tests.core.errors.harness import CELL, raise_script, run

PRELUDE = '''import torch
from torch import nn

calls = {"n": 0}

class Box:
    @property
    def data(self):
        calls["n"] += 1
        return torch.ones(3)

    def __getattr__(self, name):
        calls["n"] += 1
        raise AttributeError(name)

class Counted(list):
    def __len__(self):
        calls["n"] += 1
        return list.__len__(self)

    def __getitem__(self, i):
        calls["n"] += 1
        return list.__getitem__(self, i)

class Traced(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        calls["n"] += 1
        return super().__torch_function__(func, types, args, kwargs or {})

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def parameters(self, recurse=True):
        calls["n"] += 1
        return super().parameters(recurse)

    def named_parameters(self, *args, **kwargs):
        calls["n"] += 1
        return super().named_parameters(*args, **kwargs)

    def forward(self, x):
        return self.fc(x)
'''


@pytest.mark.parametrize("failing", [
    "box = Box()\ny = box.data @ torch.ones(4, 4)\n",
    "box = Box()\ny = box.weights + torch.ones(2)\n",
    "xs = Counted([torch.ones(2, 3), torch.ones(2, 5)])\nc = torch.cat(xs)\n",
    "t = torch.ones(10).as_subclass(Traced)\ny = t.view(3, 4)\n",
    "t = torch.ones(2, 3).as_subclass(Traced)\ny = t @ t\n",
    "net = Net()\nx = torch.ones(2, 3, dtype=torch.float64)\ny = net(x)\n",
    "net = Net()\ny = net(torch.ones(2, 4))\n",
])
def test_explain_calls_nothing(failing: str) -> None:
    code = PRELUDE + failing
    exc, ns = raise_script(code)
    before = ns["calls"]["n"]
    result = explain(exc, ns, code_filenames={CELL}, code=code)
    assert result is not None and result["title"]
    assert ns["calls"]["n"] == before, result


@pytest.mark.parametrize("script", [
    "box = Box()\nw = torch.randn(3, requires_grad=True)\nloss = (w * 2).sum()\nloss.backward()\nbox\n",
    "net = Net()\nout = net(torch.ones(1, 3)).detach()\nt = torch.zeros(1, requires_grad=True)\n"
    "loss = (out + t).sum()\nloss.backward()\n",
    "t = torch.ones(3).as_subclass(Traced).requires_grad_()\nloss = (t * 2).sum()\nloss.backward()\nd = t.data\n",
    "net = Net()\nopt = torch.optim.SGD(net.parameters(), lr=0.1)\nloss = net(torch.ones(1, 3)).sum()\nloss.backward()\n",
])
def test_hints_call_nothing(script: str) -> None:
    code = PRELUDE + script
    exc, ns = run(code)
    assert exc is None, exc
    before = ns["calls"]["n"]
    found = hints(code, ns)
    assert isinstance(found, list)
    assert ns["calls"]["n"] == before, found


def test_the_module_hint_still_sees_parameters_read_statically() -> None:
    code = PRELUDE + ("net = Net()\nout = net(torch.ones(1, 3)).detach()\nt = torch.zeros(1, requires_grad=True)\n"
                      "loss = (out + t).sum()\nloss.backward()\n")
    _, ns = run(code)
    [hint] = [h for h in hints(code, ns) if h["key"] == "grads_none"]
    assert "`net.fc.weight`" in hint["explanation"] and "`net.fc.bias`" in hint["explanation"]


def test_explaining_adds_no_warning_of_its_own() -> None:
    import warnings

    from explorer.core.errors.explain import explain_warning
    from tests.core.errors.harness import warned
    from tests.warnings_seen import raised_by

    code = "import torch\nx = torch.tensor(2.0, requires_grad=True)\ny = x * 3\ny.backward()\ng = y.grad\nz = torch.ones(2, 3, 4).T\n"
    seen, ns = warned(code)
    bad = "import torch\nx = torch.tensor(2.0, requires_grad=True)\ny = x * 3\nv = y.grad @ torch.ones(3, 2, 2).T\n"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exc, ns2 = raise_script(bad)  # the learner's own run warns; explaining it must not
    with raised_by() as caught:
        for w in seen:
            explain_warning(w["message"], w["category"], w["filename"], w["lineno"], ns, code, code_filenames={CELL})
        hints(code, ns)
        explain(exc, ns2, code_filenames={CELL}, code=bad)
    assert [str(w.message)[:60] for w in caught] == []
