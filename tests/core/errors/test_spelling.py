"""Fixes only use names the learner's script has: how it spells torch.nn.Linear, and the guard on every fix."""

from __future__ import annotations

import pytest

from explorer.core.errors.explain import explain, is_clean_exit
from explorer.core.errors.source import apply_fix, is_code
from explorer.core.errors.spelling import spell, unknown_names
from tests.core.errors.harness import CELL, card, run


def _scope(imports: str) -> dict:
    ns: dict = {}
    exec(imports, ns)
    return ns


@pytest.mark.parametrize(("imports", "path", "spelled"), [
    ("import torch", "torch.nn.Linear", "torch.nn.Linear"),
    ("import torch.nn as nn", "torch.nn.Linear", "nn.Linear"),
    ("from torch import nn", "torch.nn.Linear", "nn.Linear"),
    ("import torch\nfrom torch.nn import Linear", "torch.nn.Linear", "Linear"),
    ("import torch as T", "torch.nn.functional.cross_entropy", "T.nn.functional.cross_entropy"),
    ("import torch.nn.functional as F\nimport torch", "torch.nn.functional.cross_entropy", "F.cross_entropy"),
    ("import numpy as np", "numpy.concatenate", "np.concatenate"),
    ("x = 1", "torch.nn.Linear", None),
    ("import torch\ntorch = 3", "torch.nn.Linear", None),
])
def test_spell(imports: str, path: str, spelled: str | None) -> None:
    assert spell(path, [_scope(imports)]) == spelled


def test_an_earlier_scope_hides_a_later_one() -> None:
    import torch

    assert spell("torch.nn.Linear", [{"nn": 3}, {"nn": torch.nn, "torch": torch}]) == "torch.nn.Linear"


@pytest.mark.parametrize(("code", "unknown"), [
    ("x = x.float()", ["x"]),
    ("y = torch.zeros(3)\nz = y + 1", ["torch"]),
    ("with torch.no_grad():\n    w += 1", ["torch", "w"]),
    ("if (a > 0).all():", ["a"]),
    ("s = [v * 2 for v in range(3)]", []),
    ("def f(q):\n    return q", []),
    ("nn.Sequential(1024, 10", None),
])
def test_unknown_names(code: str, unknown: list[str] | None) -> None:
    assert unknown_names(code, [{}]) == unknown


def test_a_layer_fix_follows_the_scripts_imports() -> None:
    # Only `import torch`: the fix must not say nn.Linear, and it must run.
    code = "import torch\nlayer = torch.nn.Sequential(torch.nn.Linear(3, 5))\nx = torch.randn(2, 4)\ny = layer(x)\n"
    _, _, result = card(code)
    assert "nn.Linear(4, 5)" in result["fix"] and " nn.Linear" not in result["fix"].replace("torch.nn.Linear", "")
    exc, ns = run(apply_fix(code, result), "<cell-fixed>")
    assert exc is None and tuple(ns["y"].shape) == (2, 5)


def test_a_layer_made_elsewhere_is_rebuilt_with_the_scripts_spelling() -> None:
    code = "import torch\nfrom torch.nn import Linear\nlayers = {'fc': Linear(3, 5)}\nfc = layers['fc']\ny = fc(torch.randn(2, 4))\n"
    _, _, result = card(code)
    assert result["key"] == "linear_in_features" and result["fix_mode"] == "before"
    assert result["fix"].startswith("fc = Linear(4, 5)")
    exc, ns = run(apply_fix(code, result), "<cell-fixed>")
    assert exc is None and tuple(ns["y"].shape) == (2, 5)


def test_a_layer_returned_by_a_function_is_rebuilt_not_the_function_call() -> None:
    code = "import torch\ndef make():\n    import torch.nn as hidden\n    return hidden.Linear(3, 5)\nfc = make()\ny = fc(torch.randn(2, 4))\n"
    _, _, result = card(code)
    assert result["key"] == "linear_in_features" and result["fix"].startswith("fc = torch.nn.Linear(4, 5)")
    assert "make(" not in result["fix"]


def test_without_any_name_for_the_class_the_fix_is_words() -> None:
    code = "def make():\n    import torch\n    return torch.nn.Linear(3, 5), torch.randn(2, 4)\nfc, x = make()\ny = fc(x)\n"
    _, _, result = card(code)
    assert result["key"] == "linear_in_features" and not is_code(result["fix"]) and result["fix_mode"] is None
    assert "in_features = 4" in result["fix"]


def test_a_fix_naming_something_the_script_lacks_becomes_advice() -> None:
    # The only tracked tensor is made without a name: there is nothing in the script to switch on.
    code = "import torch\nloss = torch.ones(3).sum()\nloss.backward()\n"
    _, _, result = card(code)
    assert result["key"] == "no_grad_fn" and not is_code(result["fix"]) and result["fix_mode"] is None


def test_clean_exit_has_no_card() -> None:
    for code, clean in (("raise SystemExit(None)", True), ("raise SystemExit(0)", True), ("raise SystemExit()", True),
                        ("raise SystemExit(3)", False), ("raise SystemExit('bye')", False)):
        try:
            exec(compile(code, CELL, "exec"), {})
        except SystemExit as exc:
            assert is_clean_exit(exc) is clean
            result = explain(exc, {}, code_filenames={CELL}, code=code)
            assert (result is None) is clean
            if not clean:
                assert result["type"] == "SystemExit" and result["line"] == 1
