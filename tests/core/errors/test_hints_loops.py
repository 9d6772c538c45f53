"""Silent training-loop mistakes (nothing raises): each hint shows on the wrong loop, in the learner's names,
and is gone from the corrected loop (the hint's own fix applied, or the correction written out), in both
languages. Each wrong loop follows a real question; its source is its first line."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from explorer.core.errors.explain import hints
from explorer.core.errors.source import apply_fix, is_code
from tests.core.errors.harness import CJK, english_left, language, run

HINT_KEYS = {"key", "severity", "line", "title", "explanation", "fix", "fix_mode", "fix_line"}
SETUP = ("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\ntorch.manual_seed(0)\n"
         "x = torch.randn(32, 4)\ny = x @ torch.tensor([[1.0], [-2.0], [0.5], [3.0]])\n")  # lines 2-7
CLASSES = ("labels = torch.randint(0, 3, (32,))\n"
           "model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Dropout(0.5), nn.Linear(16, 3))\n"
           "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n")  # lines 8-10


@dataclass(frozen=True)
class Loop:
    """A wrong loop, the hint it must get, and the corrected loop (None: the hint's own fix is the correction)."""

    key: str
    script: str
    line: int
    says: tuple[str, ...]
    fix_has: tuple[str, ...] = ()
    fix_line: int | None = None
    fix_mode: str | None = "replace"
    corrected: str | None = None
    effect: Callable[[dict], object] | None = None

    @property
    def id(self) -> str:
        return f"{self.key}:{self.script.split(chr(10), 1)[0][-30:]}"


def _src(url: str) -> str:
    return f"# {url}\n"


LOOPS = [
    Loop("grad_never_zeroed", _src("https://flisks.com/python-why-do-we-need-to-call-zero-grad-in-pytorch") + SETUP
         + "model = nn.Linear(4, 1)\noptimizer = torch.optim.SGD(model.parameters(), lr=0.05)\n"
         "for epoch in range(30):\n    loss = F.mse_loss(model(x), y)\n    loss.backward()\n    optimizer.step()\n",
         12, ("optimizer.step()", "never clears", "sum of all the gradients"), ("optimizer.zero_grad()",), 12, "before",
         effect=lambda ns: mse_now(ns) < 1.0),
    Loop("grad_never_zeroed", _src("https://theneuralbase.com/pytorch/learn/beginner/optimizer-zero-grad-clearing-old-"
                                   "gradients/") + SETUP
         + "model = nn.Linear(4, 1)\noptimizer = torch.optim.SGD(model.parameters(), lr=0.05)\n"
         "for epoch in range(5):\n    optimizer.zero_grad()  # once per epoch: the batches still add up\n"
         "    for xb, yb in zip(x.split(8), y.split(8)):\n        loss = F.mse_loss(model(xb), yb)\n"
         "        loss.backward()\n        optimizer.step()\n",
         14, ("optimizer.step()",), ("optimizer.zero_grad()",), 14, "before"),
    Loop("grad_never_zeroed", _src("https://flisks.com/python-why-do-we-need-to-call-zero-grad-in-pytorch") + SETUP
         + "w = torch.zeros(4, 1, requires_grad=True)\nfor step in range(30):\n    loss = ((x @ w - y) ** 2).mean()\n"
         "    loss.backward()\n    with torch.no_grad():\n        w -= 0.05 * w.grad\n",
         11, ("w -= 0.05 * w.grad",), ("w.grad = None",), 11, "before",
         effect=lambda ns: ((ns["x"] @ ns["w"] - ns["y"]) ** 2).mean().item() < 1.0),
    Loop("grad_zeroed_before_step", _src("https://velog.io/@rhss10/기본-optimizer.zerograd는-어디에-넣어주어야-할까")
         + SETUP + "model = nn.Linear(4, 1)\noptimizer = torch.optim.SGD(model.parameters(), lr=0.05)\n"
         "for epoch in range(30):\n    loss = F.mse_loss(model(x), y)\n    loss.backward()\n    optimizer.zero_grad()\n"
         "    optimizer.step()\n",
         13, ("`optimizer.zero_grad()`", "before the step"), fix_mode=None,
         corrected=SETUP + "model = nn.Linear(4, 1)\noptimizer = torch.optim.SGD(model.parameters(), lr=0.05)\n"
         "for epoch in range(30):\n    loss = F.mse_loss(model(x), y)\n    optimizer.zero_grad()\n    loss.backward()\n"
         "    optimizer.step()\n"),
    Loop("step_without_backward", _src("https://theneuralbase.com/pytorch/learn/beginner/forward-pass-loss-backward-step/")
         + SETUP + "model = nn.Linear(4, 1)\noptimizer = torch.optim.SGD(model.parameters(), lr=0.05)\n"
         "for epoch in range(30):\n    optimizer.zero_grad()\n    loss = F.mse_loss(model(x), y)\n    optimizer.step()\n",
         13, ("`optimizer.step()`", "None"), ("loss.backward()",), 13, "before", effect=lambda ns: mse_now(ns) < 1.0),
    Loop("optimizer_other_model", _src("https://theneuralbase.com/pytorch/learn/beginner/model-parameters-accessing-"
                                       "weights/") + SETUP
         + "model = nn.Linear(4, 1)\noptimizer = torch.optim.Adam(model.parameters(), lr=0.1)\n"
         "model = nn.Linear(4, 1)  # made again, e.g. a cell run twice\nfor epoch in range(40):\n"
         "    optimizer.zero_grad()\n    loss = F.mse_loss(model(x), y)\n    loss.backward()\n    optimizer.step()\n",
         11, ("`model` was made again on line 10", "`optimizer.step()`"),
         ("optimizer = torch.optim.Adam(model.parameters(), lr=0.1)",), 11, "before",
         effect=lambda ns: mse_now(ns) < 1.0),
    Loop("eval_mode_missing", _src("https://www.codetd.com/article/15115577") + SETUP + CLASSES
         + "for epoch in range(20):\n    optimizer.zero_grad()\n    F.cross_entropy(model(x), labels).backward()\n"
         "    optimizer.step()\nwith torch.no_grad():\n    test_pred = model(x).argmax(dim=1)\n",
         15, ("`model`", "Dropout", "`model.eval()`"), ("model.eval()",), 15, "before",
         effect=lambda ns: ns["model"].training is False),
    Loop("train_mode_not_restored", _src("https://earino.github.io/applied-deep-learning/pre-work/03_train_eval_mode/"
                                         "slides.html") + SETUP + CLASSES
         + "for epoch in range(3):\n    for xb, yb in zip(x.split(8), labels.split(8)):\n        optimizer.zero_grad()\n"
         "        F.cross_entropy(model(xb), yb).backward()\n        optimizer.step()\n    model.eval()\n"
         "    with torch.no_grad():\n        accuracy = (model(x).argmax(1) == labels).float().mean()\n",
         12, ("`model.eval()` on line 16", "eval mode"), ("model.train()",), 12, "before"),
    Loop("validation_records_graph", _src("https://www.stubbornhuang.com/2322/") + SETUP + CLASSES
         + "model.eval()\nval_batches = list(zip(x.split(8), labels.split(8)))\nval_losses = []\n"
         "for xb, yb in val_batches:\n    out = model(xb)\n    val_losses.append(F.cross_entropy(out, yb).item())\n",
         15, ("`out`", "operations", "torch.no_grad()"), ("with torch.no_grad():", "out = model(xb)"), 15,
         effect=lambda ns: ns["out"].grad_fn is None),
    Loop("running_total_keeps_graph", _src("https://androidkt.com/how-to-calculate-running-loss-using-loss-item-in-"
                                           "pytorch/") + SETUP + CLASSES
         + "running_loss = 0.0\nfor xb, yb in zip(x.split(8), labels.split(8)):\n    optimizer.zero_grad()\n"
         "    loss = F.cross_entropy(model(xb), yb)\n    loss.backward()\n    optimizer.step()\n    running_loss += loss\n",
         17, ("`loss`", "`running_loss`", "operations", "loss.item()"), ("running_loss += loss.item()",), 17,
         effect=lambda ns: isinstance(ns["running_loss"], float)),
    Loop("running_total_keeps_graph", _src("https://www.stubbornhuang.com/2322/") + SETUP + CLASSES
         + "model.eval()\nlosses = []\nfor xb, yb in zip(x.split(8), labels.split(8)):\n"
         "    losses.append(F.cross_entropy(model(xb), yb))\n",
         14, ("`losses`", "4 tensors"), ("losses.append(F.cross_entropy(model(xb), yb).item())",), 14),
    Loop("softmax_over_batch", _src("https://runebook.dev/en/articles/pytorch/generated/torch.nn.softmax") + SETUP
         + CLASSES + "logits = model(x)\nprobs = F.softmax(logits, dim=0)\npred = probs.argmax(dim=1)\n",
         12, ("`logits` is [32, 3]", "dim=0", "dim=1"), ("probs = F.softmax(logits, dim=1)",), 12,
         effect=lambda ns: torch_allclose(ns["probs"].sum(dim=1), 1.0)),
    Loop("loss_given_probabilities", _src("https://discuss.pytorch.org/t/cross-entropy-loss-is-not-decreasing/43814/16")
         + SETUP + CLASSES + "criterion = nn.CrossEntropyLoss()\nfor epoch in range(10):\n    optimizer.zero_grad()\n"
         "    out = model(x)\n    loss = criterion(F.softmax(out, dim=1), labels)\n    loss.backward()\n"
         "    optimizer.step()\n",
         15, ("CrossEntropyLoss", "`F.softmax(out, dim=1)`", "logits"), ("loss = criterion(out, labels)",), 15),
    Loop("loss_given_probabilities", _src("https://runebook.dev/en/articles/pytorch/generated/torch.nn.softmax") + SETUP
         + CLASSES + "for epoch in range(10):\n    optimizer.zero_grad()\n    out = model(x)\n"
         "    loss = F.nll_loss(F.softmax(out, dim=1), labels)\n    loss.backward()\n    optimizer.step()\n",
         14, ("log_softmax",), ("loss = F.nll_loss(F.log_softmax(out, dim=1), labels)",), 14,
         effect=lambda ns: ns["loss"].item() > 0),
    Loop("loss_given_probabilities", _src("https://runebook.dev/en/docs/pytorch/generated/torch.nn.functional.sigmoid")
         + SETUP + "target = (y > 0).float()\nmodel = nn.Linear(4, 1)\n"
         "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\ncriterion = nn.BCEWithLogitsLoss()\n"
         "for epoch in range(10):\n    optimizer.zero_grad()\n    out = model(x)\n    probs = torch.sigmoid(out)\n"
         "    loss = criterion(probs, target)\n    loss.backward()\n    optimizer.step()\n",
         16, ("BCEWithLogitsLoss", "`probs`", "sigmoid twice"), ("loss = criterion(out, target)",), 16),
    Loop("functional_dropout_always_on", _src("https://theneuralbase.com/torchvision/learn/beginner/model-eval-inference-"
                                              "mode/") + SETUP
         + "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc1 = nn.Linear(4, 16)\n"
         "        self.fc2 = nn.Linear(16, 3)\n\n    def forward(self, x):\n        x = F.relu(self.fc1(x))\n"
         "        x = F.dropout(x, p=0.5)\n        return self.fc2(x)\n\nmodel = Net()\nmodel.eval()\n"
         "with torch.no_grad():\n    first, second = model(x), model(x)\n",
         16, ("`F.dropout(x, p=0.5)`", "Net.forward", "training=self.training"),
         ("x = F.dropout(x, p=0.5, training=self.training)",), 16,
         effect=lambda ns: bool((ns["first"] == ns["second"]).all())),
]


def mse_now(ns: dict) -> float:
    return ((ns["model"](ns["x"]) - ns["y"]) ** 2).mean().item()


def torch_allclose(t, value: float) -> bool:
    import torch

    return bool(torch.allclose(t, torch.full_like(t, value)))


def _found(code: str, key: str, lang: str = "en") -> list[dict]:
    exc, ns = run(code)
    assert exc is None, repr(exc)
    with language(lang):
        return [h for h in hints(code, ns) if h["key"] == key]


def _hint(case: Loop, lang: str = "en") -> dict:
    found = _found(case.script, case.key, lang)
    assert len(found) == 1, hints(case.script, run(case.script)[1])
    return found[0]


@pytest.mark.parametrize("case", LOOPS, ids=lambda c: c.id)
def test_the_wrong_loop_gets_the_hint(case: Loop) -> None:
    hint = _hint(case)
    assert set(hint) == HINT_KEYS and hint["severity"] == "hint"
    assert hint["line"] == case.line, hint
    for text in case.says:
        assert text in hint["explanation"], (text, hint["explanation"])
    assert hint["fix_mode"] == case.fix_mode and hint["fix_line"] == case.fix_line, hint
    for text in case.fix_has:
        assert text in hint["fix"], (text, hint["fix"])
    json.dumps(hint)


@pytest.mark.parametrize("case", LOOPS, ids=lambda c: c.id)
def test_the_corrected_loop_gets_none(case: Loop) -> None:
    hint = _hint(case)
    if case.corrected is None:
        assert is_code(hint["fix"]), hint["fix"]
        fixed = apply_fix(case.script, hint)
        assert fixed is not None
    else:
        fixed = case.corrected
    exc, ns = run(fixed, "<cell-fixed>")
    assert exc is None, f"{exc!r}\n{fixed}"
    if case.effect is not None:
        assert case.effect(ns), fixed
    assert hints(fixed, ns) == [], (fixed, hints(fixed, ns))


@pytest.mark.parametrize("case", LOOPS, ids=lambda c: c.id)
def test_the_hint_in_chinese(case: Loop) -> None:
    en, zh = _hint(case), _hint(case, "zh_CN")
    assert CJK.search(zh["title"]) and CJK.search(zh["explanation"]), zh
    assert english_left(zh["title"] + " " + zh["explanation"]) == [], zh["explanation"]
    assert re.sub(r"#.*", "", zh["fix"] or "") == re.sub(r"#.*", "", en["fix"] or "") or not is_code(en["fix"])
    assert (zh["line"], zh["fix_line"], zh["fix_mode"]) == (en["line"], en["fix_line"], en["fix_mode"])
