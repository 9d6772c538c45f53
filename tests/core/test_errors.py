"""Every catalogue entry, raised for real by torch/numpy code run as a cell, then explained."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest

from explorer.core.errors.catalogue import all_entries
from explorer.core.errors.explain import explain
from tests.core.test_errors_cells import CELL, raise_in_cell


@dataclass(frozen=True)
class Case:
    key: str
    code: str
    line: int
    says: tuple[str, ...]  # substrings the explanation must contain
    fix: tuple[str, ...] = ()  # substrings the fix must contain
    message: str = ""  # a regex the real message must match (pins the torch 2.13 wording)
    variables: tuple[str, ...] = field(default=())


CASES = [
    Case("matmul_shape", "a = torch.randn(4, 3)\nb = torch.randn(4, 5)\nc = a @ b", 3,
         ("`a`", "[4, 3]", "`b`", "[4, 5]", "3 != 4"), ("c = a.T @ b",),
         r"mat1 and mat2 shapes cannot be multiplied \(4x3 and 4x5\)", ("a", "b")),
    Case("matmul_shape", "a = torch.randn(4, 3)\nb = torch.randn(4, 5)\nc = torch.mm(a, b)", 3,
         ("[4, 3]", "[4, 5]", "3 != 4"), ("a.T @ b",)),
    Case("matmul_shape", "layer = nn.Linear(3, 5)\nx = torch.randn(2, 4)\ny = layer(x)", 3,
         ("`layer`", "`x`", "[2, 4]", "4 != 3"), ("nn.Linear(4, 5)",), variables=("x",)),
    Case("matmul_shape", "a = np.ones((4, 3))\nb = np.ones((4, 5))\nc = a @ b", 3,
         ("[4, 3]", "[4, 5]", "3 != 4"), ("a.T @ b",)),
    Case("matmul_shape", "a = torch.randn(2, 4, 3)\nb = torch.randn(2, 4, 5)\nc = a @ b", 3,
         ("[2, 4, 3]", "[2, 4, 5]", "3 != 4"), ("a.mT @ b",)),
    Case("dtype_mismatch", "a = torch.randn(2, 3)\nb = torch.ones(3, 2, dtype=torch.long)\nc = a @ b", 3,
         ("`a`", "torch.float32", "`b`", "torch.int64"), ("b = b.float()",),
         r"expected m1 and m2 to have the same dtype"),
    Case("dtype_mismatch", "a = torch.ones(1, 2, 2)\nb = torch.ones(1, 2, 2, dtype=torch.long)\nc = torch.bmm(a, b)", 3,
         ("torch.float32", "torch.int64"), ("b = b.float()",), r"expected scalar type Float but found Long"),
    Case("dtype_mismatch", "conv = nn.Conv2d(3, 4, 3)\nx = torch.ones(1, 3, 8, 8, dtype=torch.float64)\ny = conv(x)", 3,
         ("`x`", "torch.float64", "`conv`", "torch.float32"), ("x = x.float()",),
         r"Input type \(double\) and bias type \(float\) should be the same"),
    Case("dtype_mismatch", "fc = nn.Linear(3, 5)\nx = torch.ones(2, 3, dtype=torch.long)\ny = fc(x)", 3,
         ("`x`", "torch.int64", "`fc`"), ("x = x.float()",), r"mat1 and mat2 must have the same dtype"),
    Case("device_mismatch", "a = torch.randn(2, device='meta')\nb = torch.randn(2)\nc = a + b", 3,
         ("`a`", "meta", "`b`", "cpu"), ("b = b.to(device)",), r"is not on the expected device"),
    Case("backward_non_scalar", "x = torch.randn(3, requires_grad=True)\ny = x * 2\ny.backward()", 3,
         ("`y`", "[3]"), ("y.sum().backward()", "torch.ones_like(y)"),
         r"grad can be implicitly created only for scalar outputs"),
    Case("backward_twice", "x = torch.randn(3, requires_grad=True)\nloss = (x * x).sum()\nloss.backward()\nloss.backward()",
         4, ("`loss`",), ("loss.backward(retain_graph=True)",), r"Trying to backward through the graph a second time"),
    Case("reshape_size", "a = torch.arange(10)\nb = a.view(3, 4)", 2,
         ("`a`", "[10]", "10 elements", "[3, 4]", "12"), ("a.reshape(2, 5)",),
         r"shape '\[3, 4\]' is invalid for input of size 10"),
    Case("reshape_size", "a = np.arange(10)\nb = a.reshape(3, 4)", 2,
         ("`a`", "[10]", "12"), ("a.reshape(2, 5)",), r"cannot reshape array of size 10"),
    Case("reshape_size", "a = torch.zeros(3, 4)\nb = a.view(-1, 5)", 2,
         ("[3, 4]", "12", "-1"), ("a.reshape(",)),
    Case("view_noncontiguous", "a = torch.randn(3, 4).t()\nb = a.view(12)", 2,
         ("`a`", "[4, 3]", "(1, 4)", "contiguous"), ("b = a.reshape(12)", "a.contiguous().view"),
         r"view size is not compatible with input tensor's size and stride"),
    Case("no_grad_fn", "a = torch.randn(3)\nloss = (a * 2).sum()\nloss.backward()", 3,
         ("`loss`", "requires_grad=False"), ("a.requires_grad_(True)",),
         r"element 0 of tensors does not require grad and does not have a grad_fn"),
    Case("no_grad_fn", "w = torch.randn(3, requires_grad=True)\nwith torch.no_grad():\n    loss = (w * 2).sum()\nloss.backward()",
         4, ("`loss`", "no_grad"), ("w",)),
    Case("numpy_requires_grad", "a = torch.randn(3, requires_grad=True)\nb = a.numpy()", 2,
         ("`a`", "[3]", "requires grad"), ("b = a.detach().numpy()",),
         r"Can't call numpy\(\) on Tensor that requires grad"),
    # Real CUDA cannot be raised on this CPU-only machine; a meta tensor raises the same kind of message.
    Case("numpy_device", "a = torch.randn(3, device='meta')\nb = a.numpy()", 2,
         ("`a`", "[3]", "meta"), ("a.detach().cpu().numpy()",), r"can't convert meta device type tensor to numpy"),
    Case("broadcast", "a = torch.randn(2, 3)\nb = torch.randn(2, 4)\nc = a + b", 3,
         ("`a`", "[2, 3]", "`b`", "[2, 4]", "3 != 4", "dimension 1"), ("a.shape", "b.shape"),
         r"The size of tensor a \(3\) must match the size of tensor b \(4\) at non-singleton dimension 1"),
    Case("broadcast", "a = np.ones((2, 3))\nb = np.ones((2, 4))\nc = a + b", 3,
         ("[2, 3]", "[2, 4]", "(2,3) (2,4)"), (), r"operands could not be broadcast together"),
    Case("broadcast", "a = torch.randn(4)\nb = torch.randn(4, 3)\nc = a * b", 3,
         ("[4]", "[4, 3]"), ("a[..., None]",)),
    Case("broadcast", "a = torch.zeros(2, 1)\nb = torch.ones(2, 4)\na += b", 3,
         ("[2, 1]", "[2, 4]"), ("a = a + b",)),
    Case("cat_stack_size", "a = torch.randn(2, 3)\nb = torch.randn(2, 4)\nc = torch.cat([a, b], dim=0)", 3,
         ("`a`", "[2, 3]", "`b`", "[2, 4]", "dimension 0"), ("torch.cat([a, b], dim=1)",),
         r"Sizes of tensors must match except in dimension 0"),
    Case("cat_stack_size", "a = torch.randn(2, 3)\nb = torch.randn(2, 4)\nc = torch.stack([a, b])", 3,
         ("[2, 3]", "[2, 4]", "identical"), (), r"stack expects each tensor to be equal size"),
    Case("cat_stack_size", "a = np.ones((2, 3))\nb = np.ones((2, 4))\nc = np.concatenate([a, b])", 3,
         ("[2, 3]", "[2, 4]"), ("np.concatenate([a, b], axis=1)",)),
    Case("cat_stack_size", "xs = [torch.ones(2, 3), torch.ones(2, 5)]\nc = torch.cat(xs)", 2,
         ("`xs[0]`", "[2, 3]", "`xs[1]`", "[2, 5]"), ("dim=1",)),
    Case("index_out_of_range", "a = torch.randn(3)\nv = a[5]", 2,
         ("`a`", "[3]", "0 … 2", "5"), ("a[2]", "a[-1]"), r"index 5 is out of bounds for dimension 0 with size 3"),
    Case("index_out_of_range", "a = np.ones((3, 4))\nv = a[0, 9]", 2,
         ("`a`", "[3, 4]", "0 … 3", "9"), ("a[:, 3]",), r"index 9 is out of bounds for axis 1 with size 4"),
    Case("index_out_of_range", "emb = nn.Embedding(10, 3)\nidx = torch.tensor([11])\nv = emb(idx)", 3,
         ("num_embeddings=10", "0 … 9"), ("nn.Embedding(",), r"index out of range in self"),
    Case("leaf_inplace", "w = torch.randn(3, requires_grad=True)\nw += 1", 2,
         ("`w`", "[3]", "leaf"), ("with torch.no_grad():\n    w += 1",),
         r"a leaf Variable that requires grad is being used in an in-place operation"),
    Case("inplace_modified", "x = torch.randn(3, requires_grad=True)\ny = x.sigmoid()\ny.mul_(2)\ny.sum().backward()", 4,
         ("[3]", "Sigmoid", "`y`"), ("y = y * 2", "set_detect_anomaly"),
         r"one of the variables needed for gradient computation has been modified by an inplace operation"),
    Case("conv_input_dims", "conv = nn.Conv2d(3, 4, 3)\nx = torch.randn(8, 8)\ny = conv(x)", 3,
         ("`x`", "[8, 8]", "conv2d", "[N, C, H, W]"), ("x = x.unsqueeze(0).unsqueeze(0)",),
         r"Expected 3D \(unbatched\) or 4D \(batched\) input to conv2d"),
    Case("conv_channels", "conv = nn.Conv2d(3, 4, 3)\nx = torch.randn(1, 8, 8, 3)\ny = conv(x)", 3,
         ("`x`", "[1, 8, 8, 3]", "3 channels"), ("x = x.permute(0, 3, 1, 2)",), r"to have 3 channels, but got 8"),
    Case("loss_target_dtype", "out = torch.randn(4, 3)\ntarget = torch.tensor([0., 1., 2., 1.])\nloss = F.cross_entropy(out, target)",
         3, ("`target`", "[4]", "torch.float32", "[4, 3]", "int64"), ("target = target.long()",),
         r"expected target dtype to be Long or Byte, but got Float"),
    Case("loss_target_shape", "out = torch.randn(4, 3)\ntarget = torch.tensor([0, 1, 2])\nloss = F.cross_entropy(out, target)",
         3, ("`target`", "[3]", "[4, 3]"), ("out.shape", "target.shape"), r"Expected input batch_size \(4\) to match target batch_size \(3\)"),
    Case("loss_target_shape", "out = torch.randn(4, 3)\nonehot = torch.eye(3, dtype=torch.long)[[0, 1, 2, 1]]\nloss = F.nll_loss(out, onehot)",
         3, ("`onehot`", "[4, 3]"), ("onehot = onehot.argmax(dim=1)",), r"0D or 1D target tensor expected, multi-target not supported"),
    Case("loss_target_shape", "out = torch.randn(2, 3, 4)\ntarget = torch.zeros(2, 5, dtype=torch.long)\nloss = F.cross_entropy(out, target)",
         3, ("`target`", "[2, 5]"), (), r"Expected target size"),
    Case("loss_target_class", "out = torch.randn(4, 3)\ntarget = torch.tensor([0, 1, 5, 1])\nloss = F.cross_entropy(out, target)",
         3, ("[4, 3]", "3 classes", "5", "0 … 2"), ("target.max()",), r"Target 5 is out of bounds"),
    Case("permute_dims", "img = torch.rand(3, 8, 8)\nhwc = img.permute(1, 2, 0, 3)", 2,
         ("`img`", "[3, 8, 8]", "3", "4"), ("hwc = img.permute(1, 2, 0)",), r"is not equal to len\(dims\) = 4"),
    Case("imshow_channels_first", "from matplotlib.figure import Figure\nimg = np.random.rand(3, 8, 8)\nax = Figure().add_subplot()\nax.imshow(img)",
         4, ("`img`", "[3, 8, 8]", "[H, W, 3/4]"), ("ax.imshow(img.transpose(1, 2, 0))",), r"Invalid shape \(3, 8, 8\) for image data"),
    Case("item_many_elements", "a = torch.randn(3)\nv = a.item()", 2, ("`a`", "[3]", "3 elements"), ("a.sum().item()",),
         r"a Tensor with 3 elements cannot be converted to Scalar"),
    Case("bool_ambiguous", "a = torch.randn(3)\nif a > 0:\n    pass", 2, ("`a`", "[3]"), ("(a > 0).all()",),
         r"Boolean value of Tensor with more than one value is ambiguous"),
    Case("grad_integer_dtype", "w = torch.tensor([1, 2], requires_grad=True)", 1, ("int64",),
         ("dtype=torch.float32, requires_grad=True",), r"Only Tensors of floating point and complex dtype can require gradients"),
    Case("op_needs_float", "a = torch.arange(4)\nm = a.mean()", 2, ("`a`", "[4]", "torch.int64"), ("a = a.float()",),
         r"could not infer output dtype"),
    Case("index_dtype", "a = torch.randn(3)\ni = torch.tensor([0.0, 1.0])\nv = a[i]", 3, ("`i`", "[2]", "torch.float32"),
         ("i = i.long()",), r"tensors used as indices must be long, int, byte or bool tensors"),
    Case("numpy_not_tensor", "a = torch.ones(2, 2)\nb = np.ones((2, 2))\nc = torch.mm(a, b)", 3, ("`b`", "[2, 2]", "float64"),
         ("b = torch.from_numpy(b)",), r"must be Tensor, not numpy\.ndarray"),
    Case("dim_out_of_range", "a = torch.randn(3)\ns = a.sum(dim=2)", 2, ("`a`", "[3]", "-1 … 0", "2"), ("a.ndim",),
         r"Dimension out of range"),
    Case("batchnorm_single_sample", "bn = nn.BatchNorm1d(3)\nx = torch.randn(1, 3)\ny = bn(x)", 3, ("`x`", "[1, 3]"),
         ("bn.eval()",), r"Expected more than 1 value per channel when training"),
]


def _case_id(case: Case) -> str:
    return f"{case.key}-{case.code.splitlines()[-1][:30]}"


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_real_error_is_explained(case: Case) -> None:
    exc, ns = raise_in_cell(case.code)
    if case.message:
        assert re.search(case.message, str(exc)), str(exc)
    result = explain(exc, ns, code_filenames={CELL})
    assert result["key"] == case.key, (result["key"], str(exc))
    assert result["line"] == case.line
    assert result["code_line"] == case.code.splitlines()[case.line - 1].strip()
    assert result["type"] == type(exc).__name__
    assert result["message"] == str(exc)[:2000]
    for text in case.says:
        assert text in result["explanation"], (text, result["explanation"])
    for text in case.fix:
        assert text in result["fix"], (text, result["fix"])
    names = [v["name"] for v in result["variables"]]
    for name in case.variables:
        assert name in names


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_chinese_card_keeps_the_facts(case: Case) -> None:
    exc, ns = raise_in_cell(case.code)
    en = explain(exc, ns, code_filenames={CELL}, lang="en")
    zh = explain(exc, ns, code_filenames={CELL}, lang="zh_CN")
    assert zh["key"] == en["key"] and zh["line"] == en["line"]
    assert re.search(r"[\u4e00-\u9fff]", zh["title"]) and re.search(r"[\u4e00-\u9fff]", zh["explanation"])
    assert zh["title"] != en["title"]
    # Facts that are not English words (shapes, numbers, `names`, dtypes) must survive translation.
    facts = [t for t in case.says if not re.search(r"[A-Za-z]", re.sub(r"`[^`]*`|torch\.\w+", "", t))]
    for text in facts:
        assert text in zh["explanation"], (text, zh["explanation"])


def test_every_catalogue_entry_is_raised_for_real() -> None:
    assert {e.key for e in all_entries()} <= {c.key for c in CASES}


def test_variables_record_shapes_dtypes_devices() -> None:
    exc, ns = raise_in_cell("a = torch.randn(4, 3, requires_grad=True)\nb = torch.randn(4, 5)\nc = a @ b")
    result = explain(exc, ns, code_filenames={CELL})
    assert result["variables"] == [
        {"name": "a", "shape": [4, 3], "dtype": "torch.float32", "device": "cpu", "requires_grad": True},
        {"name": "b", "shape": [4, 5], "dtype": "torch.float32", "device": "cpu", "requires_grad": False},
    ]
