"""The training-loop hints read values without running the learner's code: a tensor subclass that counts its
torch calls, a module and an optimizer that count their methods see no new call, and the hints still appear."""

from __future__ import annotations

import pytest

from explorer.core.errors.explain import hints
from tests.core.errors.harness import run

PRELUDE = '''import torch
from torch import nn
import torch.nn.functional as F

calls = {"n": 0}

class Traced(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        calls["n"] += 1
        return super().__torch_function__(func, types, args, kwargs or {})

    def __ge__(self, other):
        calls["n"] += 1
        return torch.Tensor.ge(self, other)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.drop = nn.Dropout(0.5)

    def parameters(self, recurse=True):
        calls["n"] += 1
        return super().parameters(recurse)

    def __getattr__(self, name):
        calls["n"] += 1
        return super().__getattr__(name)

    def forward(self, x):
        return self.drop(self.fc(x)).as_subclass(Traced)

class CountingSGD(torch.optim.SGD):
    def zero_grad(self, set_to_none=True):
        calls["n"] += 1
        super().zero_grad(set_to_none)

    def __getattr__(self, name):
        calls["n"] += 1
        raise AttributeError(name)

torch.manual_seed(0)
x = torch.randn(8, 4)
labels = torch.randint(0, 3, (8,))
model = Net()
optimizer = CountingSGD(list(nn.Module.parameters(model)), lr=0.1)
'''

CASES = {
    "softmax_over_batch": "logits = model(x)\nprobs = F.softmax(logits, dim=0)\n",
    "loss_given_probabilities": ("criterion = nn.CrossEntropyLoss()\nfor step in range(3):\n"
                                 "    optimizer.zero_grad()\n    out = model(x)\n    probs = F.softmax(out, dim=1)\n"
                                 "    loss = criterion(probs, labels)\n    loss.backward()\n    optimizer.step()\n"),
    "running_total_keeps_graph": ("total = 0\nfor step in range(3):\n    optimizer.zero_grad()\n"
                                  "    loss = F.cross_entropy(model(x), labels)\n    loss.backward()\n    optimizer.step()\n"
                                  "    total += loss\n"),
    "grad_never_zeroed": ("for step in range(3):\n    loss = F.cross_entropy(model(x), labels)\n    loss.backward()\n"
                          "    optimizer.step()\n"),
    "eval_mode_missing": "with torch.no_grad():\n    scores = model(x)\n",
    "validation_records_graph": "model.eval()\nfor xb in x.split(4):\n    out = model(xb)\n",
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_a_hint_reads_the_values_without_calling_them(key: str) -> None:
    code = PRELUDE + CASES[key]
    exc, ns = run(code)
    assert exc is None, repr(exc)
    before = ns["calls"]["n"]
    found = hints(code, ns)
    assert key in [h["key"] for h in found], found  # the check ran on these very values
    assert ns["calls"]["n"] == before, found
