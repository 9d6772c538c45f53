"""Real learner scripts, one per beginner error, with what each card's fix must achieve when it runs."""

from __future__ import annotations

import numpy as np
import torch

from tests.core.errors.harness import Case


def _shape(name: str, shape: tuple[int, ...]):
    def check(ns: dict) -> None:
        assert tuple(ns[name].shape) == shape, (name, tuple(ns[name].shape))
    return check


def _all(*checks):
    def check(ns: dict) -> None:
        for one in checks:
            one(ns)
    return check


def _grad_not_none(*names: str):
    def check(ns: dict) -> None:
        for name in names:
            value = eval(name, ns)
            assert value.grad is not None, name
    return check


def _equal(expr: str, expected: str):
    def check(ns: dict) -> None:
        got, want = eval(expr, ns), eval(expected, ns)
        if isinstance(got, torch.Tensor):
            assert torch.allclose(got.double(), torch.as_tensor(want).double()), (expr, got, want)
        else:
            assert np.allclose(np.asarray(got, dtype=float), np.asarray(want, dtype=float)), (expr, got, want)
    return check


def _true(expr: str):
    def check(ns: dict) -> None:
        assert eval(expr, ns), expr
    return check


CASES: list[Case] = [
    # -- matrix products and layers ------------------------------------------------------------------
    Case("matmul_shape", "import torch\na = torch.randn(4, 3)\nb = torch.randn(4, 5)\nc = a @ b\n", 4,
         ("`a`", "[4, 3]", "`b`", "[4, 5]", "3 != 4"), _shape("c", (3, 5)),
         r"mat1 and mat2 shapes cannot be multiplied \(4x3 and 4x5\)", ("c = a.T @ b",)),
    Case("matmul_shape", "import torch\na = torch.randn(4, 3)\nb = torch.randn(5, 3)\nc = torch.mm(a, b)\n", 4,
         ("[4, 3]", "[5, 3]", "3 != 5"), _shape("c", (4, 5)), fix_has=("torch.mm(a, b.T)",)),
    Case("matmul_shape", "import numpy as np\na = np.ones((4, 3))\nb = np.ones((4, 5))\nc = a @ b\n", 4,
         ("[4, 3]", "[4, 5]"), _shape("c", (3, 5))),
    Case("matmul_shape", "import torch\na = torch.randn(2, 4, 3)\nb = torch.randn(2, 4, 5)\nc = a @ b\n", 4,
         ("[2, 4, 3]", "[2, 4, 5]", "3 != 4"), _shape("c", (2, 3, 5)), fix_has=("a.mT @ b",)),
    Case("matmul_shape", "import torch\na = torch.randn(4, 3)\nb = torch.randn(5, 6)\nc = a @ b\n", 4,
         ("[4, 3]", "[5, 6]", "3 != 5")),
    # A batch of matrices times one matrix, and one batch broadcast against another: the batch comes from the right.
    Case("matmul_shape", "import torch\na = torch.randn(4, 3)\nb = torch.randn(2, 4, 5)\nc = a @ b\n", 4,
         ("[4, 3]", "[2, 4, 5]"), _shape("c", (2, 3, 5)), fix_has=("a.mT @ b  # [3, 4] @ [2, 4, 5] -> [2, 3, 5]",)),
    Case("matmul_shape", "import torch\na = torch.randn(2, 1, 4, 3)\nb = torch.randn(5, 6, 3)\nc = a @ b\n", 4,
         ("[2, 1, 4, 3]", "[5, 6, 3]"), _shape("c", (2, 5, 4, 6)), fix_has=("a @ b.mT",)),
    Case("linear_in_features", "import torch\nlayer = torch.nn.Linear(3, 5)\nx = torch.randn(2, 4)\ny = layer(x)\n", 4,
         ("`layer`", "`x`", "[2, 4]", "in_features=3", "4 != 3"), _shape("y", (2, 5)),
         fix_has=("layer = torch.nn.Linear(4, 5)",), fix_line=2),
    Case("linear_in_features", "import torch\nimport torch.nn as nn\nmodel = nn.Sequential(nn.Linear(10, 8), nn.ReLU(), "
         "nn.Linear(16, 2))\nx = torch.randn(4, 10)\nout = model(x)\n", 5,
         ("`model[2]`", "in_features=16", "8"), _shape("out", (4, 2)), fix_has=("nn.Linear(8, 2)",), fix_line=3),
    Case("linear_in_features", "import torch\nfrom torch import nn\n\nclass Net(nn.Module):\n    def __init__(self):\n"
         "        super().__init__()\n        self.fc = nn.Linear(1024, 10)\n\n    def forward(self, x):\n"
         "        return self.fc(x.flatten(1))\n\nnet = Net()\nimages = torch.randn(2, 1, 28, 28)\nout = net(images)\n", 10,
         ("`self.fc`", "in_features=1024", "784"), _shape("out", (2, 10)), fix_has=("self.fc = nn.Linear(784, 10)",),
         fix_line=7),
    Case("missing_batch_dim", "import torch\nimport torch.nn as nn\nmodel = nn.Sequential(nn.Conv2d(3, 8, 3), nn.Flatten(), "
         "nn.Linear(8 * 30 * 30, 10))\nimg = torch.rand(3, 32, 32)\nout = model(img)\n", 5,
         ("`img`", "[3, 32, 32]", "batch", "[N, C, H, W]"), _shape("out", (1, 10)),
         r"mat1 and mat2 shapes cannot be multiplied", ("model(img.unsqueeze(0))",)),
    # -- reshape and view --------------------------------------------------------------------------------
    Case("reshape_size", "import torch\na = torch.arange(10)\nb = a.view(3, 4)\n", 3,
         ("`a`", "[10]", "10 elements", "[3, 4]", "12"), _all(_shape("b", (2, 5)), _equal("b.flatten()", "a")),
         r"shape '\[3, 4\]' is invalid for input of size 10", ("b = a.view(2, 5)",)),
    Case("reshape_size", "import torch\ngrid = torch.arange(10).view(4, 4)\n", 2,
         ("`torch.arange(10)`", "10 elements", "16"), _shape("grid", (2, 5)), fix_has=("torch.arange(10).view(2, 5)",)),
    Case("reshape_size", "import numpy as np\na = np.arange(10)\nb = a.reshape(3, 4)\n", 3,
         ("`a`", "[10]", "12"), _shape("b", (2, 5)), r"cannot reshape array of size 10"),
    Case("reshape_size", "import torch\na = torch.zeros(3, 4)\nb = a.view(-1, 5)\n", 3,
         ("[3, 4]", "12", "-1"), _shape("b", (3, 4))),
    Case("reshape_size", "import torch\none = torch.ones(1)\nb = one.view(2)\n", 3, ("1 element.",), _shape("b", (1,))),
    Case("view_noncontiguous", "import torch\na = torch.randn(3, 4).t()\nb = a.view(12)\n", 3,
         ("`a`", "[4, 3]", "(1, 4)", "contiguous"), _all(_shape("b", (12,)), _equal("b", "a.reshape(12)")),
         r"view size is not compatible with input tensor's size and stride", ("b = a.reshape(12)", "a.contiguous().view(12)")),
    # -- broadcasting ----------------------------------------------------------------------------------------
    Case("broadcast", "import torch\na = torch.randn(2, 3)\nb = torch.randn(2, 4)\nc = a + b\n", 4,
         ("`a`", "[2, 3]", "`b`", "[2, 4]", "3 != 4", "1"),
         message=r"The size of tensor a \(3\) must match the size of tensor b \(4\) at non-singleton dimension 1"),
    Case("broadcast", "import numpy as np\na = np.ones((2, 3))\nb = np.ones((2, 4))\nc = a + b\n", 4,
         ("[2, 3]", "[2, 4]", "(2,3) (2,4)"), message=r"operands could not be broadcast together"),
    Case("broadcast", "import torch\nscale = torch.randn(4)\nrows = torch.randn(4, 3)\nc = scale * rows\n", 4,
         ("[4]", "[4, 3]"), _all(_shape("c", (4, 3)), _equal("c", "scale[:, None] * rows")),
         fix_has=("scale.unsqueeze(-1) * rows",)),
    # The short operand second: the other branch of the check.
    Case("broadcast", "import torch\nrows = torch.randn(4, 3)\nscale = torch.randn(4)\nc = rows * scale\n", 4,
         ("[4, 3]", "[4]"), _all(_shape("c", (4, 3)), _equal("c", "rows * scale[:, None]")),
         fix_has=("rows * scale.unsqueeze(-1)  # [4] -> [4, 1]",)),
    Case("broadcast", "import torch\na = torch.zeros(2, 1)\nb = torch.ones(2, 4)\na += b\n", 4,
         ("[2, 1]", "[2, 4]"), _all(_shape("a", (2, 4)), _equal("a", "b")), fix_has=("a = a + b",)),
    Case("broadcast", "import torch\na = torch.randn(2, 3)\nb = torch.randn(3, 2)\nc = a + b\n", 4,
         ("[2, 3]", "[3, 2]"), _all(_shape("c", (2, 3)), _equal("c", "a + b.T"))),
    # -- layout -----------------------------------------------------------------------------------------------
    Case("permute_dims", "import torch\nimg = torch.rand(3, 8, 6)\nhwc = img.permute(1, 2, 0, 3)\n", 3,
         ("`img`", "[3, 8, 6]", "3", "4"), _shape("hwc", (8, 6, 3)), r"is not equal to len\(dims\) = 4",
         ("hwc = img.permute(1, 2, 0)",)),
    Case("cat_stack_size", "import torch\na = torch.randn(2, 3)\nb = torch.randn(2, 4)\nc = torch.cat([a, b], dim=0)\n", 4,
         ("`a`", "[2, 3]", "`b`", "[2, 4]", "0"), _shape("c", (2, 7)),
         r"Sizes of tensors must match except in dimension 0", ("torch.cat([a, b], dim=1)",)),
    Case("cat_stack_size", "import torch\na = torch.randn(2, 3)\nb = torch.randn(2, 4)\nc = torch.stack([a, b])\n", 4,
         ("[2, 3]", "[2, 4]"), message=r"stack expects each tensor to be equal size"),
    Case("cat_stack_size", "import numpy as np\na = np.ones((2, 3))\nb = np.ones((2, 4))\nc = np.concatenate([a, b])\n", 4,
         ("[2, 3]", "[2, 4]"), _shape("c", (2, 7)), fix_has=("np.concatenate([a, b], axis=1)",)),
    Case("cat_stack_size", "import torch\nxs = [torch.ones(2, 3), torch.ones(2, 5)]\nc = torch.cat(xs)\n", 3,
         ("`xs[0]`", "[2, 3]", "`xs[1]`", "[2, 5]"), _shape("c", (2, 8)), fix_has=("dim=1",)),
    Case("cat_needs_sequence", "import torch\na = torch.ones(2)\nb = torch.zeros(2)\nc = torch.cat(a, b)\n", 4,
         ("`a`", "`b`", "[2]"), _all(_shape("c", (4,)), _equal("c", "[1.0, 1.0, 0.0, 0.0]")),
         r"must be tuple of Tensors, not Tensor", ("torch.cat([a, b])",)),
    Case("conv_input_dims", "import torch\nconv = torch.nn.Conv2d(1, 4, 3)\npicture = torch.randn(8, 8)\ny = conv(picture)\n", 4,
         ("`picture`", "[8, 8]", "conv2d", "[N, C, H, W]"), _shape("y", (1, 4, 6, 6)),
         r"Expected 3D \(unbatched\) or 4D \(batched\) input to conv2d", ("conv(picture.unsqueeze(0).unsqueeze(0))",)),
    Case("conv_input_dims", "import torch\nconv = torch.nn.Conv2d(3, 4, 3)\npicture = torch.randn(8, 8)\ny = conv(picture)\n", 4,
         ("`picture`", "[8, 8]", "2 dimensions")),
    Case("conv_channels", "import torch\nconv = torch.nn.Conv2d(3, 4, 3)\nx = torch.randn(1, 8, 8, 3)\ny = conv(x)\n", 4,
         ("`x`", "[1, 8, 8, 3]", "3 channels"), _shape("y", (1, 4, 6, 6)), r"to have 3 channels, but got 8",
         ("conv(x.permute(0, 3, 1, 2))",)),
    Case("conv_channels", "import torch\nfrom torch import nn\nconv = nn.Conv2d(3, 4, 3, padding=1)\nx = torch.randn(2, 1, 8, 8)\n"
         "y = conv(x)\n", 5, ("`x`", "[2, 1, 8, 8]"), _shape("y", (2, 4, 8, 8)),
         fix_has=("conv = nn.Conv2d(1, 4, 3, padding=1)",), fix_line=3),
    Case("imshow_channels_first", "import numpy as np\nfrom matplotlib.figure import Figure\nimg = np.random.rand(3, 8, 8)\n"
         "ax = Figure().add_subplot()\nax.imshow(img)\n", 5, ("`img`", "[3, 8, 8]", "[H, W, 3 or 4]"), _true("True"),
         r"Invalid shape \(3, 8, 8\) for image data", ("ax.imshow(img.transpose(1, 2, 0))",)),
    Case("imshow_channels_first", "import torch\nfrom matplotlib.figure import Figure\nimg = torch.rand(3, 8, 8)\n"
         "ax = Figure().add_subplot()\nshown = ax.imshow(img)\n", 5, ("`img`", "[3, 8, 8]"),
         _true("shown.get_array().shape[:2] == (8, 8)"), fix_has=("img.permute(1, 2, 0)",)),
]

CASES += [
    # -- dtypes ---------------------------------------------------------------------------------------------
    Case("dtype_mismatch", "import torch\na = torch.randn(2, 3)\nb = torch.ones(3, 2, dtype=torch.long)\nc = a @ b\n", 4,
         ("`a`", "torch.float32", "`b`", "torch.int64"), _all(_shape("c", (2, 2)), _equal("c", "a @ b.float()")),
         r"expected m1 and m2 to have the same dtype", ("c = a @ b.float()",)),
    Case("dtype_mismatch", "import torch\nimport torch.nn as nn\nconv = nn.Conv2d(3, 4, 3)\n"
         "x = torch.ones(1, 3, 8, 8, dtype=torch.float64)\ny = conv(x)\n", 5,
         ("`x`", "torch.float64", "`conv`", "torch.float32"), _shape("y", (1, 4, 6, 6)),
         r"Input type \(double\) and bias type \(float\) should be the same", ("conv(x.float())",)),
    Case("dtype_mismatch", "import torch\nfc = torch.nn.Linear(3, 5)\nx = torch.ones(2, 3, dtype=torch.long)\ny = fc(x)\n", 4,
         ("`x`", "torch.int64", "`fc`"), _shape("y", (2, 5)), r"mat1 and mat2 must have the same dtype", ("fc(x.float())",)),
    Case("dtype_mismatch", "import torch\nconv = torch.nn.Conv2d(3, 4, 3, bias=False)\n"
         "x = torch.ones(1, 3, 8, 8, dtype=torch.long)\nloss = conv(x)\n", 4, ("`x`", "torch.int64"),
         _shape("loss", (1, 4, 6, 6)), r"expected scalar type Long but found Float", ("conv(x.float())",)),
    Case("grad_integer_dtype", "import torch\nw = torch.tensor([1, 2], requires_grad=True)\n", 2, ("int64",),
         _true("w.requires_grad and w.dtype == torch.float32 and w.tolist() == [1.0, 2.0]"),
         r"[Oo]nly Tensors of floating point", ("torch.tensor([1.0, 2.0], requires_grad=True)",)),
    Case("grad_integer_dtype", "import torch\nsteps = torch.arange(5, requires_grad=True)\n", 2, ("int64",),
         _true("steps.requires_grad and steps.is_floating_point()"), fix_has=("torch.arange(5.0, requires_grad=True)",)),
    Case("grad_integer_dtype", "import torch as T\nmask = T.zeros(3, dtype=T.long, requires_grad=True)\n", 2, ("int64",),
         _true("mask.requires_grad and mask.dtype == T.float32"), fix_has=("dtype=T.float32",)),
    Case("op_needs_float", "import torch\ncounts = torch.arange(4)\naverage = counts.mean()\n", 3,
         ("`counts`", "[4]", "int64"), _equal("average", "1.5"), r"could not infer output dtype",
         ("average = counts.float().mean()",)),
    Case("index_dtype", "import torch\na = torch.randn(3)\ni = torch.tensor([0.0, 1.0])\nv = a[i]\n", 4,
         ("`i`", "[2]", "torch.float32"), _equal("v", "a[:2]"),
         r"tensors used as indices must be long, int, byte or bool tensors", ("v = a[i.long()]",)),
    # -- autograd ------------------------------------------------------------------------------------------
    Case("backward_non_scalar", "import torch\nx = torch.randn(3, requires_grad=True)\ny = x * 2\ny.backward()\n", 4,
         ("`y`", "[3]", "3 elements"), _equal("x.grad", "[2.0, 2.0, 2.0]"),
         r"grad can be implicitly created only for scalar outputs", ("y.sum().backward()", "torch.ones_like(y)")),
    Case("backward_twice", "import torch\nx = torch.tensor(3.0, requires_grad=True)\nloss = 2 * x ** 3\nloss.backward()\n"
         "loss.backward()\n", 5, ("`loss`", "add up", "54", "108"), _equal("x.grad", "54.0"),
         r"Trying to backward through the graph a second time", ("x.grad = None", "loss = 2 * x ** 3")),
    Case("backward_twice", "import torch\nimport torch.nn as nn\nmodel = nn.Linear(3, 1)\nx = torch.randn(4, 3)\n"
         "out = model(x)\nloss = out.pow(2).mean()\nloss.backward()\nfirst = model.weight.grad.clone()\nloss.backward()\n", 9,
         ("`loss`",), _equal("model.weight.grad", "first"), fix_has=("model.zero_grad()", "out = model(x)")),
    Case("no_grad_fn", "import torch\na = torch.randn(3)\nloss = (a * 2).sum()\nloss.backward()\n", 4,
         ("`loss`", "requires_grad=False", "`a`"), _equal("a.grad", "[2.0, 2.0, 2.0]"),
         r"element 0 of tensors does not require grad", ("a.requires_grad_(True)", "loss = (a * 2).sum()")),
    Case("no_grad_fn", "import torch\nw = torch.randn(3, requires_grad=True)\nwith torch.no_grad():\n    loss = (w * 2).sum()\n"
         "loss.backward()\n", 5, ("`loss`", "no_grad()"), _equal("w.grad", "[2.0, 2.0, 2.0]")),
    Case("no_grad_fn", "import torch\nimport torch.nn as nn\nmodel = nn.Linear(3, 1)\nx = torch.randn(4, 3)\n"
         "out = model(x).detach()\nloss = out.sum()\nloss.backward()\n", 7, ("`out`", ".detach()"),
         _grad_not_none("model.weight", "model.bias"), fix_has=("out = model(x)\n", "loss = out.sum()")),
    Case("no_grad_fn", "import torch\nw = torch.randn(3, requires_grad=True)\nscore = (w * 2).sum().item()\n"
         "loss = torch.tensor(score)\nloss.backward()\n", 5, ("`loss`", ".item()")),
    Case("leaf_inplace", "import torch\nw = torch.ones(3, requires_grad=True)\nw += 1\n", 3,
         ("`w`", "[3]", "leaf"), _true("w.is_leaf and w.requires_grad and w.tolist() == [2.0, 2.0, 2.0]"),
         r"a leaf Variable that requires grad is being used in an in-place operation", ("with torch.no_grad():\n    w += 1",)),
    Case("inplace_modified", "import torch\nx = torch.randn(3, requires_grad=True)\ny = x.sigmoid()\ny.mul_(2)\n"
         "y.sum().backward()\n", 5, ("[3]", "Sigmoid", "`y`"),
         _equal("x.grad", "2 * torch.sigmoid(x.detach()) * (1 - torch.sigmoid(x.detach()))"),
         r"modified by an inplace operation", ("y = y * 2",), fix_line=4),
    Case("requires_grad_non_leaf", "import torch\nx = torch.randn(3, requires_grad=True)\ny = x * 2\ny.requires_grad_(False)\n",
         4, ("`y`", "MulBackward0", "leaf"), _true("not y.requires_grad and torch.equal(y, x.detach() * 2)"),
         r"you can only change requires_grad flags of leaf variables", ("y = y.detach()",)),
    Case("requires_grad_non_leaf", "import torch\nx = torch.randn(3, requires_grad=True)\ny = x * 2\ny.requires_grad = False\n",
         4, ("`y`",), _true("not y.requires_grad")),
    Case("grad_none_update", "import torch\nw = torch.randn(3)\nloss = (w * 2).sum()\nw = w - 0.1 * w.grad\n", 4,
         ("`w.grad`", "None", "requires_grad=True"), message=r"unsupported operand type\(s\) for \*: 'float' and 'NoneType'"),
    # -- devices and NumPy ------------------------------------------------------------------------------------
    Case("device_mismatch", "import torch\na = torch.randn(2, device='meta')\nb = torch.randn(2)\nc = a + b\n", 4,
         ("`a`", "meta", "`b`", "cpu"), message=r"is not on the expected device"),
    Case("numpy_requires_grad", "import torch\na = torch.randn(3, requires_grad=True)\nb = a.numpy()\n", 3,
         ("`a`", "[3]", "requires grad"), _equal("b", "a.detach()"), r"Can't call numpy\(\) on Tensor that requires grad",
         ("b = a.detach().numpy()",)),
    Case("numpy_device", "import torch\na = torch.randn(3, device='meta')\nb = a.numpy()\n", 3, ("`a`", "[3]", "meta"),
         message=r"can't convert meta device type tensor to numpy"),
    Case("numpy_not_tensor", "import torch\nimport numpy as np\na = torch.ones(2, 2)\nb = np.ones((2, 2))\nc = torch.mm(a, b)\n",
         5, ("`b`", "[2, 2]", "float64"), _equal("c", "[[2.0, 2.0], [2.0, 2.0]]"), r"must be Tensor, not numpy\.ndarray",
         ("torch.mm(a, torch.from_numpy(b).float())",)),
    Case("numpy_negative_strides", "import numpy as np\nimport torch\na = np.arange(6.0)\nrev = a[::-1]\n"
         "t = torch.from_numpy(rev)\n", 5, ("`rev`", "[6]", "(-8,)"), _equal("t", "[5.0, 4.0, 3.0, 2.0, 1.0, 0.0]"),
         r"At least one stride in the given numpy array is negative", ("torch.from_numpy(rev.copy())",)),
    Case("numpy_negative_strides", "import numpy as np\nimport torch\nflipped = np.flip(np.arange(4))\n"
         "t = torch.tensor(flipped)\n", 4, ("`flipped`",), _equal("t", "[3, 2, 1, 0]")),
    # -- losses ------------------------------------------------------------------------------------------------
    Case("loss_target_dtype", "import torch\nimport torch.nn.functional as F\nout = torch.randn(4, 3)\n"
         "target = torch.tensor([0., 1., 2., 1.])\nloss = F.cross_entropy(out, target)\n", 5,
         ("`target`", "[4]", "torch.float32", "[4, 3]", "int64", "3 classes"),
         _equal("loss", "F.cross_entropy(out, torch.tensor([0, 1, 2, 1]))"),
         r"expected target dtype to be Long or Byte, but got Float", ("F.cross_entropy(out, target.long())",)),
    Case("loss_target_dtype", "import torch\nfrom torch import nn\ncriterion = nn.CrossEntropyLoss()\n"
         "out = torch.randn(4, 3)\nlabels = torch.tensor([0., 1., 2., 1.])\nvalue = criterion(out, labels)\n", 6,
         ("`labels`", "[4]", "[4, 3]"), _equal("value", "criterion(out, labels.long())"), fix_has=("labels.long()",)),
    Case("loss_probabilities_dtype", "import torch\nimport torch.nn.functional as F\nout = torch.randn(4, 3)\n"
         "onehot = F.one_hot(torch.tensor([0, 1, 2, 1]), 3)\nloss = F.cross_entropy(out, onehot)\n", 5,
         ("`onehot`", "[4, 3]", "float"), _equal("loss", "F.cross_entropy(out, torch.tensor([0, 1, 2, 1]))"),
         r"Expected floating point type for target with class probabilities", ("onehot.argmax(dim=1)",)),
    Case("loss_target_shape", "import torch\nimport torch.nn.functional as F\nout = torch.randn(4, 3)\n"
         "target = torch.tensor([0, 1, 2])\nloss = F.cross_entropy(out, target)\n", 5, ("`target`", "[3]", "[4, 3]"),
         message=r"Expected input batch_size \(4\) to match target batch_size \(3\)"),
    Case("loss_target_shape", "import torch\nimport torch.nn.functional as F\nout = torch.randn(4, 3)\n"
         "onehot = torch.eye(3, dtype=torch.long)[[0, 1, 2, 1]]\nloss = F.nll_loss(out, onehot)\n", 5,
         ("`onehot`", "[4, 3]"), _equal("loss", "F.nll_loss(out, torch.tensor([0, 1, 2, 1]))"),
         r"0D or 1D target tensor expected, multi-target not supported", ("onehot.argmax(dim=1)",)),
    Case("loss_target_shape", "import torch\nimport torch.nn.functional as F\nout = torch.randn(4, 3)\n"
         "target = torch.tensor([[0], [1], [2], [1]])\nloss = F.cross_entropy(out, target)\n", 5, ("`target`", "[4, 1]"),
         _equal("loss", "F.cross_entropy(out, torch.tensor([0, 1, 2, 1]))"), fix_has=("target.squeeze(1)",)),
    Case("loss_target_class", "import torch\nimport torch.nn.functional as F\nout = torch.randn(4, 3)\n"
         "target = torch.tensor([0, 1, 5, 1])\nloss = F.cross_entropy(out, target)\n", 5,
         ("[4, 3]", "3 classes", "5", "0 … 2"), message=r"Target 5 is out of bounds"),
    # -- values and indexing -------------------------------------------------------------------------------------
    Case("index_out_of_range", "import torch\na = torch.randn(3)\nv = a[5]\n", 3, ("`a`", "[3]", "0 … 2", "5"),
         message=r"index 5 is out of bounds for dimension 0 with size 3"),
    Case("index_out_of_range", "import numpy as np\na = np.ones((3, 4))\nv = a[0, 9]\n", 3, ("`a`", "[3, 4]", "0 … 3", "9"),
         message=r"index 9 is out of bounds for axis 1 with size 4"),
    Case("embedding_index", "import torch\nfrom torch import nn\nemb = nn.Embedding(10, 3)\nidx = torch.tensor([11])\n"
         "v = emb(idx)\n", 5, ("num_embeddings=10", "0 … 9"), _shape("v", (1, 3)), r"index out of range in self",
         ("emb = nn.Embedding(12, 3)",), fix_line=3),
    Case("dim_out_of_range", "import torch\na = torch.randn(3)\ns = a.sum(dim=2)\n", 3, ("`a`", "[3]", "-1 … 0", "2"),
         message=r"Dimension out of range"),
    Case("item_many_elements", "import torch\na = torch.randn(3)\nv = a.item()\n", 3, ("`a`", "[3]", "3 elements"),
         _equal("v", "a"), r"a Tensor with 3 elements cannot be converted to Scalar", ("v = a.tolist()",)),
    Case("tensor_from_tensor_list", "import torch\na = torch.ones(2)\nb = torch.zeros(2)\nc = torch.tensor([a, b])\n", 4,
         ("`a`", "`b`", "[2]", "stack"), _all(_shape("c", (2, 2)), _equal("c", "[[1.0, 1.0], [0.0, 0.0]]")),
         r"only one element tensors can be converted to Python scalars", ("c = torch.stack([a, b])",)),
    Case("bool_ambiguous", "import torch\na = torch.tensor([1.0, -2.0, 3.0])\npositive = False\nif a > 0:\n"
         "    positive = True\n", 4, ("`a`", "[3]"), _true("positive is False"),
         r"Boolean value of Tensor with more than one value is ambiguous", ("if (a > 0).all():",)),
    Case("batchnorm_single_sample", "import torch\nbn = torch.nn.BatchNorm1d(3)\nx = torch.randn(1, 3)\ny = bn(x)\n", 4,
         ("`x`", "[1, 3]"), _shape("y", (1, 3)), r"Expected more than 1 value per channel when training", ("bn.eval()",)),
    # -- memory -----------------------------------------------------------------------------------------------
    Case("out_of_memory", "import torch\nhuge = torch.empty(2**44)\n", 2, ("64.0 TiB", "shape"),
         None, r"can't allocate memory: you tried to allocate 70368744177664 bytes"),
    Case("out_of_memory", "import numpy as np\nhuge = np.empty(2**44)\n", 2, ("128. TiB",),
         None, r"Unable to allocate 128\. TiB for an array"),
    # -- the API the wrong way round -----------------------------------------------------------------------------
    Case("shape_called", "import torch\nx = torch.ones(2, 3)\nrows, cols = x.shape()\n", 3, ("`x`", "[2, 3]"),
         _true("(rows, cols) == (2, 3)"), r"'torch\.Size' object is not callable", ("rows, cols = x.shape",)),
    Case("size_indexed", "import torch\nx = torch.ones(2, 3)\nn = x.size[0]\n", 3, ("`x`",), _true("n == 2"),
         r"'builtin_function_or_method' object is not subscriptable", ("n = x.size(0)",)),
    Case("module_init_missing", "import torch\nimport torch.nn as nn\n\nclass Net(nn.Module):\n    def __init__(self):\n"
         "        self.fc = nn.Linear(2, 3)\n\n    def forward(self, x):\n        return self.fc(x)\n\nnet = Net()\n"
         "out = net(torch.ones(1, 2))\n", 6, ("super().__init__()",), _shape("out", (1, 3)),
         r"cannot assign module before Module\.__init__\(\) call", ("super().__init__()",), fix_line=6),
    Case("optimizer_got_tensor", "import torch\nw = torch.randn(3, requires_grad=True)\nopt = torch.optim.SGD(w, lr=0.1)\n",
         3, ("list",), _true("opt.param_groups[0]['params'][0] is w"),
         r"params argument given to the optimizer should be an iterable of Tensors", ("torch.optim.SGD([w], lr=0.1)",)),
    Case("optimizer_got_module", "import torch\nfrom torch import nn, optim\nmodel = nn.Linear(2, 3)\n"
         "opt = optim.Adam(model, lr=0.01)\n", 4, ("parameters()",), _true("len(opt.param_groups[0]['params']) == 2"),
         r"'Linear' object is not iterable", ("optim.Adam(model.parameters(), lr=0.01)",)),
    Case("optimizer_got_module", "import torch\nmodel = torch.nn.Linear(2, 3)\nopt = torch.optim.SGD([model], lr=0.1)\n", 3,
         ("parameters()",), _true("len(opt.param_groups[0]['params']) == 2"),
         r"optimizer can only optimize Tensors", ("torch.optim.SGD(model.parameters(), lr=0.1)",)),
]

# The cards added for issue 22 live in their own module; imported last, after the helpers above.
from tests.core.errors.cases_more import MORE  # noqa: E402

CASES += MORE
