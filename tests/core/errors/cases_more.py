"""More learner scripts, one per catalogue entry added for issue 22 (their own module keeps cases.py short)."""

from __future__ import annotations

from tests.core.errors.harness import Case


def _true(expr: str):
    def check(ns: dict) -> None:
        assert eval(expr, ns), expr
    return check


_CKPT = "import io\nimport torch\nfrom torch import nn\nbuf = io.BytesIO()\n"

MORE: list[Case] = [
    Case("bce_target_shape", "import torch\nfrom torch import nn\nout = torch.rand(4, 1)\ny = torch.tensor([0., 1., 1., 0.])\n"
         "loss = nn.BCELoss()(out, y)\n", 5, ("`out`", "[4, 1]", "`y`", "[4]"), _true("loss.dim() == 0"),
         r"Using a target size \(torch\.Size\(\[4\]\)\) that is different to the input size", ("y.unsqueeze(1)",)),
    Case("bce_target_dtype", "import torch\nfrom torch import nn\nlogits = torch.randn(3)\nlabels = torch.tensor([0, 1, 1])\n"
         "loss = nn.BCEWithLogitsLoss()(logits, labels)\n", 5, ("float",), _true("loss.dim() == 0"),
         r"result type Float can't be cast to the desired output type Long", ("labels.float()",)),
    Case("state_dict_size", _CKPT + "torch.save(nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 5)).state_dict(), buf)\n"
         "buf.seek(0)\nnet = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 2))\nstate = torch.load(buf)\n"
         "net.load_state_dict(state)\n", 9, ("`1.weight`", "[5, 4]", "[2, 4]"),
         _true("net[1].weight.shape == (2, 4) and torch.equal(net[0].weight, state['0.weight'])"),
         r"size mismatch for 1.weight", ("strict=False",)),
    Case("state_dict_keys", _CKPT + "net = nn.Linear(3, 2)\ntorch.save({'model': net.state_dict(), 'epoch': 1}, buf)\n"
         "buf.seek(0)\nckpt = torch.load(buf)\nnet.load_state_dict(ckpt)\n", 9, ("`model`", "`epoch`"),
         _true("net.weight.shape == (2, 3)"), r"Unexpected key\(s\) in state_dict", ("ckpt['model']",)),
    Case("optimizer_empty_params", "import torch\nfrom torch import nn\n\nclass Net(nn.Module):\n    def __int__(self):\n"
         "        super().__init__()\n        self.fc = nn.Linear(2, 1)\n\nnet = Net()\n"
         "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n", 10, ("`__int__`", "`__init__`"),
         _true("len(opt.param_groups[0]['params']) == 2"), r"optimizer got an empty parameter list",
         ("def __init__(self):",), fix_line=5),
    Case("loader_stack_sizes", "import torch\nfrom torch.utils.data import DataLoader\nseqs = [(torch.ones(2), 0), "
         "(torch.ones(3), 1)]\nloader = DataLoader(seqs, batch_size=2)\nfor x, y in loader:\n    last = x\n", 5,
         ("`x`", "[2]", "[3]"), _true("last.shape == (2, 3)"), r"stack expects each tensor to be equal size",
         ("collate_fn=pad_batch",), fix_line=4),
    Case("state_carried_across_iterations", "import torch\nw = torch.tensor(0.5, requires_grad=True)\n"
         "h = torch.zeros(())\nfor step in range(3):\n    h = h * w + 1\n    loss = h * h\n    loss.backward()\n", 7,
         ("`h`", "line 5"), _true("w.grad is not None"), r"Trying to backward through the graph a second time",
         ("h = h.detach()",), fix_line=5),
    Case("state_carried_across_iterations", "import torch\nfrom torch import nn\ncell = nn.RNNCell(2, 3)\nh = None\n"
         "for step in range(3):\n    h = cell(torch.ones(1, 2), h)\n    out = h.sum()\n    out.backward()\n", 8,
         ("`h`",), _true("cell.weight_ih.grad is not None"), fix_has=("h = h.detach() if h is not None else None",),
         fix_line=6),
    Case("grad_none_attribute", "import torch\nw = torch.ones(2, requires_grad=True)\nw.grad.zero_()\n"
         "loss = (w * 3).sum()\nloss.backward()\n", 3, ("`w.grad`", "None"), _true("w.grad.tolist() == [3.0, 3.0]"),
         r"'NoneType' object has no attribute 'zero_'", ("w.grad = torch.zeros_like(w)",)),
]
