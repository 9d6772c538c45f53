"""Scripts that run without an error but teach something wrong: hints after the run, and warnings torch gives."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Silent:
    """A script, the hint or warning card it must get, and what its fix must change."""

    key: str
    script: str
    line: int
    says: tuple[str, ...] = ()
    effect: Callable[[dict], None] | None = None  # checks on the patched script's namespace
    fix_has: tuple[str, ...] = ()
    fix_line: int | None = None
    once: str = ""  # torch gives this warning once per process: its message, shown as the hook would

    @property
    def id(self) -> str:
        return f"{self.key}:{self.script.strip().splitlines()[-1][:40]}"


def _true(expr: str):
    def check(ns: dict) -> None:
        assert eval(expr, ns), expr
    return check


HINTS: list[Silent] = [
    Silent("tensor_uninitialised", "import torch\nx = torch.Tensor(2, 3)\n", 2, ("torch.Tensor(2, 3)", "SHAPE"),
           _true("torch.equal(x, torch.zeros(2, 3))"), ("x = torch.zeros(2, 3)",), 2),
    Silent("tensor_uninitialised", "import torch\nn = 5\nz = torch.LongTensor(n, 2)\n", 3, ("torch.LongTensor(n, 2)",),
           _true("z.dtype == torch.long and z.shape == (5, 2) and not z.any()"),
           ("z = torch.zeros(n, 2, dtype=torch.long)",), 3),
    Silent("empty_uninitialised", "import torch as T\nbuffer = T.empty(2, 3)\ntotal = buffer.sum()\n", 2,
           ("torch.empty(2, 3)", "`buffer`"), _true("torch_zero(buffer)"), ("buffer = T.zeros(2, 3)",), 2),
    Silent("grads_none", "import torch\nw = torch.randn(3, requires_grad=True)\nb = torch.zeros(1, requires_grad=True)\n"
           "loss = (w.detach() * 2).sum() + b.sum()\nloss.backward()\n", 4, ("`w`", "detach", "no_grad"),
           _true("w.grad is not None and b.grad is not None"), ("loss = (w * 2).sum() + b.sum()",), 4),
    Silent("grads_none", "import torch\nw = torch.randn(3)\nx = torch.ones(3)\n"
           "loss = (w * x).sum() + torch.zeros(1, requires_grad=True).sum()\nloss.backward()\n", 2, ("`w`", "`x`"),
           _true("w.grad is not None"), ("w = torch.randn(3, requires_grad=True)",), 2),
    Silent("grads_none", "import torch\nforgot = torch.tensor(3.0)\ntracked = torch.tensor(1.0, requires_grad=True)\n"
           "loss = forgot * tracked\nloss.backward()\nforgot_grad = forgot.grad\n", 2, ("`forgot`", "requires_grad=True"),
           _true("forgot.grad is not None and forgot_grad.item() == 1.0"),
           ("forgot = torch.tensor(3.0, requires_grad=True)",), 2),
    Silent("grad_non_leaf", "import torch\nw = torch.randn(3, requires_grad=True) * 0.01\nx = torch.ones(3)\n"
           "loss = (w * x).sum()\nloss.backward()\n", 2, ("`w`", "leaf"), _true("w.is_leaf and w.grad is not None"),
           ("w = (torch.randn(3) * 0.01).requires_grad_()",), 2),
    Silent("grad_non_leaf", "import torch\nw = torch.randn(3, requires_grad=True).double()\nloss = (w * 2).sum()\n"
           "loss.backward()\n", 2, ("`w`",), _true("w.is_leaf and w.grad is not None and w.dtype == torch.float64"),
           ("w = torch.randn(3).double().requires_grad_()",), 2),
    Silent("data_attr", "import torch\nw = torch.ones(3, requires_grad=True)\nw.data.mul_(2)\n", 3, ("`w.data`",),
           _true("w.tolist() == [2.0, 2.0, 2.0] and w.is_leaf and w.requires_grad"),
           ("with torch.no_grad():\n    w.mul_(2)",), 3),
    Silent("data_attr", "import torch\nw = torch.ones(3, requires_grad=True)\nsnapshot = w.data\n", 3, ("`w`",),
           _true("not snapshot.requires_grad and snapshot.tolist() == [1.0, 1.0, 1.0]"), ("snapshot = w.detach()",), 3),
    Silent("weights_never_change", "import torch\nx = torch.linspace(-1, 1, 20).unsqueeze(1)\ny = 3 * x\n"
           "w = torch.zeros(1)\nb = torch.zeros(1, requires_grad=True)\nopt = torch.optim.SGD([w, b], lr=0.5)\n"
           "for step in range(60):\n    opt.zero_grad()\n    loss = ((x * w + b - y) ** 2).mean()\n    loss.backward()\n"
           "    opt.step()\n", 4, ("`w`", "requires_grad=True", "step()"), _true("abs(w.item() - 3) < 0.2"),
           ("w = torch.zeros(1, requires_grad=True)",), 4),
]

WARNINGS: list[Silent] = [
    Silent("loss_shape_broadcast", "import torch\nimport torch.nn.functional as F\npred = torch.randn(8, 1)\n"
           "y = torch.randn(8)\nloss = F.mse_loss(pred, y)\n", 5, ("[8, 1]", "[8]", "[8, 8]"),
           _true("torch.allclose(loss, ((pred - y[:, None]) ** 2).mean())"), ("F.mse_loss(pred, y.unsqueeze(-1))",)),
    Silent("loss_shape_broadcast", "import torch\nfrom torch import nn\ncriterion = nn.MSELoss()\npred = torch.randn(8)\n"
           "y = torch.randn(8, 1)\nloss = criterion(pred, y)\n", 6, ("[8]", "[8, 1]"),
           _true("torch.allclose(loss, ((pred - y[:, 0]) ** 2).mean())"), ("criterion(pred, y.squeeze(-1))",)),
    Silent("nonleaf_grad_read", "import torch\nx = torch.tensor(2.0, requires_grad=True)\ny = x * 3\nz = y * y\n"
           "z.backward()\ny_grad = y.grad\n", 6, ("`y`", "retain_grad"), _true("y_grad.item() == 12.0"),
           ("y.retain_grad()",), 5),
    Silent("softmax_without_dim", "import torch\nimport torch.nn.functional as F\nscores = torch.randn(4, 3)\n"
           "probs = F.softmax(scores)\n", 4, ("`scores`", "[4, 3]", "dim="),
           _true("torch.allclose(probs, torch.softmax(scores, 1))"), ("F.softmax(scores, dim=1)",)),
    Silent("tensor_of_tensor", "import torch\nx = torch.randn(3, requires_grad=True)\ny = torch.tensor(x)\n", 3,
           ("`x`", ".detach().clone()"), _true("torch.equal(y, x.detach()) and not y.requires_grad"),
           ("y = x.detach().clone()",)),
    Silent("transpose_not_matrix", "import torch\nbatch = torch.randn(2, 3, 4)\nflipped = batch.T\n", 3,
           ("`batch`", ".mT"), _true("flipped.shape == (4, 3, 2) and torch.equal(flipped, batch.permute(2, 1, 0))"),
           ("flipped = batch.permute(2, 1, 0)",), once="The use of `x.T` on tensors of dimension other than 2 to reverse "
           "their shape is deprecated and it will throw an error in a future release. Consider `x.mT` to transpose "
           "batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor."),
]
