"""The frames of a traceback: the learner's names for forward's parameters, and fixes that stay out of forward."""

from __future__ import annotations

from explorer.core.errors.source import apply_fix, is_code
from tests.core.errors.harness import card, run

NET = ("import torch\nfrom torch import nn\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
       "        self.fc = nn.Linear(784, 10)\n\n    def forward(self, x):\n        return self.fc(x)\n\nnet = Net()\n")


def test_a_parameter_is_named_as_the_caller_named_it() -> None:
    _, _, result = card(NET + "images = torch.rand(4, 1, 28, 28)\nout = net(images)\n")
    assert "`images` is [4, 1, 28, 28] (torch.float32, cpu), which `forward` calls `x`" in result["explanation"]
    assert [v["name"] for v in result["variables"]] == ["x", "images"]


def test_a_reassigned_parameter_is_described_by_its_own_value_and_the_call() -> None:
    code = NET.replace("return self.fc(x)", "x = x * 2\n        return self.fc(x)") + \
        "images = torch.rand(4, 1, 28, 28)\nout = net(images)\n"
    _, _, result = card(code)
    assert "`x` is [4, 1, 28, 28]" in result["explanation"]  # the tensor forward made ...
    assert "`forward` was called with `images`, which is [4, 1, 28, 28], on line 15" in result["explanation"]
    assert "which `forward` calls `x`" not in result["explanation"]  # ... is not the caller's tensor any more
    assert "self.fc(x.flatten(1))" in result["fix"]  # forward made it, so it is flattened there, batch kept


def test_the_data_is_fixed_where_it_was_passed_not_in_forward() -> None:
    code = NET + "images = torch.rand(4, 1, 28, 28)\nout = net(images)\n"
    _, _, result = card(code)
    assert result["line"] == 10 and result["fix_line"] == 14 and "net(images.flatten(1))" in result["fix"]
    exc, ns = run(apply_fix(code, result), "<fixed>")
    assert exc is None and tuple(ns["out"].shape) == (4, 10)


def test_no_layer_is_built_inside_forward() -> None:
    """A layer the card cannot find the creation of is never made again in forward (a new random layer per call)."""
    code = ("import torch\nfrom torch import nn\n\ndef head(n):\n    return nn.Linear(n, 2)\n\nclass Net(nn.Module):\n"
            "    def __init__(self):\n        super().__init__()\n        self.fc = head(5)\n\n    def forward(self, x):\n"
            "        return self.fc(x.flatten(1))\n\nnet = Net()\nout = net(torch.rand(3, 7))\n")
    _, _, result = card(code)
    assert result["key"] == "linear_in_features" and not is_code(result["fix"]), result["fix"]


def test_view_minus_one_inside_forward_keeps_the_batch() -> None:
    code = ("import torch\nfrom torch import nn\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.conv = nn.Conv2d(1, 4, 5)\n        self.fc = nn.Linear(4 * 24 * 24, 10)\n\n    def forward(self, x):\n"
            "        x = self.conv(x)\n        x = x.view(-1, 4 * 24 * 24)\n        return self.fc(x)\n\n"
            "net = Net()\nout = net(torch.rand(2, 1, 32, 32))\n")
    _, _, result = card(code)
    assert result["key"] == "reshape_size" and "x = x.flatten(1)" in result["fix"]
    assert "in_features=3136" in result["explanation"]
    exc, _ = run(apply_fix(code, result), "<fixed>")
    assert "2x3136 and 2304x10" in str(exc)  # the stated next step: the layer's size, which the next card fixes


def test_a_numpy_card_says_requires_grad_only_of_a_tensor_that_does() -> None:
    """Two .numpy() calls on one line: the plain one is not said to require grad (it does not)."""
    code = ("import torch\nfrom torch import nn\nemb = nn.Embedding(1000, 4)\nx = torch.arange(768)\n"
            "pair = (x.numpy(), emb(x).numpy())\n")
    _, _, result = card(code)
    assert "`x` is [768] (torch.int64, cpu), and it requires grad" not in result["explanation"]
    assert "`emb(x)` is computed from tensors that require grad" in result["explanation"], result["explanation"]
    assert "pair = (x.numpy(), emb(x).detach().numpy())" in result["fix"]
