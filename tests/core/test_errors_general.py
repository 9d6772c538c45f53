"""explain(): unknown errors, frame choice, message-only matches, hostile input, the agent request."""

from __future__ import annotations

import json
import re
import sys

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.agent.handlers import Agent
from explorer.core.errors.explain import explain
from tests.agent_calls import Caller
from tests.core.test_errors_cells import CELL, fresh_namespace, raise_in_cell, register

KEYS = {"type", "message", "line", "title", "explanation", "fix", "fix_mode", "fix_line", "severity", "variables",
        "code_line", "key", "traceback"}


def test_unknown_error_still_gets_a_full_card() -> None:
    exc, ns = raise_in_cell("d = {}\nx = torch.ones(2, 3)\nv = d[x.shape[0]]")
    result = explain(exc, ns, code_filenames={CELL})
    assert set(result) == KEYS
    assert result["key"] == "unknown"
    assert result["type"] == "KeyError"
    assert result["title"] == "KeyError in your code"
    assert result["line"] == 3 and result["code_line"] == "v = d[x.shape[0]]"
    assert "`x` is [2, 3]" in result["explanation"] and "line 3" in result["explanation"]
    assert result["fix"].startswith("# ") and result["fix_mode"] is None and result["severity"] == "error"
    assert "KeyError" in result["traceback"] and "<cell-1>" in result["traceback"]
    assert [v["name"] for v in result["variables"]] == ["x"]


def test_unknown_error_in_chinese() -> None:
    exc, ns = raise_in_cell("x = torch.ones(2, 3)\nraise LookupError(x.shape)")
    result = explain(exc, ns, code_filenames={CELL}, lang="zh_CN")
    assert result["key"] == "unknown" and "LookupError" in result["title"]
    assert re.search(r"[\u4e00-\u9fff]", result["title"]) and "[2, 3]" in result["explanation"]


def test_line_is_the_deepest_user_frame_and_uses_its_locals() -> None:
    code = "def mul(p, q):\n    return p @ q\n\na = torch.randn(4, 3)\nb = torch.randn(4, 5)\nc = mul(a, b)"
    exc, ns = raise_in_cell(code)
    result = explain(exc, ns, code_filenames={CELL})
    assert result["line"] == 2 and result["code_line"] == "return p @ q"
    # The parameters are named with the caller's variables too (issue 22, item 3).
    assert "`a` is [4, 3] (torch.float32, cpu), which `mul` calls `p`" in result["explanation"]
    assert "`b` is [4, 5] (torch.float32, cpu), which `mul` calls `q`" in result["explanation"]


def test_frames_from_other_filenames_are_skipped() -> None:
    register("def helper(t):\n    return t.view(7)\n", "<lib-file>")
    ns = fresh_namespace()
    exec(compile("def helper(t):\n    return t.view(7)\n", "<lib-file>", "exec"), ns)
    exc, ns = raise_in_cell("x = torch.zeros(10)\ny = helper(x)", ns)
    result = explain(exc, ns, code_filenames={CELL})
    assert result["line"] == 2 and result["key"] == "reshape_size"
    assert "`x` is [10]" in result["explanation"]


def test_without_code_filenames_library_frames_are_skipped() -> None:
    exc, ns = raise_in_cell("a = torch.randn(2, 3)\nb = torch.randn(2, 4)\nc = torch.cat([a, b])")
    result = explain(exc, ns)  # no filenames: the deepest frame outside site-packages/stdlib/explorer
    assert result["line"] == 3 and result["key"] == "cat_stack_size"


def test_exception_without_traceback() -> None:
    result = explain(RuntimeError("mat1 and mat2 shapes cannot be multiplied (4x3 and 4x5)"), {})
    assert result["key"] == "matmul_shape" and result["line"] is None and result["code_line"] == ""
    assert "3 != 4" in result["explanation"] and result["variables"] == []


@pytest.mark.parametrize("message", [
    # Real CUDA messages: no GPU here, so only the message matching can be tested for these.
    "can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.",
])
def test_cuda_to_numpy_message(message: str) -> None:
    exc, ns = raise_in_cell(f"a = torch.ones(3)\nraise TypeError({message!r})")
    result = explain(exc, ns, code_filenames={CELL})
    assert result["key"] == "numpy_device" and "cuda:0" in result["title"]


@pytest.mark.parametrize("message", [
    "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!",
    "Expected all tensors to be on the same device, but got mat2 is on cpu, different from other tensors on cuda:0",
    "Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same or input should be a MKLDNN tensor",
])
def test_cuda_device_messages(message: str) -> None:
    # No GPU here: a library function (another file) raises the real CUDA message for a CPU tensor on the line.
    register(f"def gpu_op(t, u):\n    raise RuntimeError({message!r})\n", "<lib-file>")
    ns = fresh_namespace()
    exec(compile(f"def gpu_op(t, u):\n    raise RuntimeError({message!r})\n", "<lib-file>", "exec"), ns)
    exc, ns = raise_in_cell("x = torch.ones(3)\ny = gpu_op(x, x)", ns)
    result = explain(exc, ns, code_filenames={CELL})
    assert result["key"] == "device_mismatch" and result["line"] == 2
    assert "`x` is on cpu" in result["explanation"]
    assert result["fix"].startswith("# ") and "device" in result["fix"]  # no tensor on the GPU to copy the device from


def test_syntax_error_line() -> None:
    code = "x = 1\ny = (2 +\n"
    register(code)
    with pytest.raises(SyntaxError) as info:
        compile(code, CELL, "exec")
    result = explain(info.value, {}, code_filenames={CELL})
    assert result["type"] == "SyntaxError" and result["key"] == "unknown" and result["line"] == 2


class _HostileError(Exception):
    def __str__(self) -> str:
        raise ValueError("no message for you")


class _Evil:
    @property
    def shape(self) -> list[int]:
        raise RuntimeError("shape refused")

    def __getattr__(self, name: str) -> None:
        raise RuntimeError(name)


def test_hostile_exception_and_values() -> None:
    ns = fresh_namespace()
    ns.update(_HostileError=_HostileError, evil=_Evil())
    exc, ns = raise_in_cell("t = torch.ones(2)\nq = evil.attr.deeper + t", ns)
    result = explain(exc, ns, code_filenames={CELL})
    assert result["line"] == 2 and result["title"]
    exc2, ns = raise_in_cell("raise _HostileError()", ns)
    result2 = explain(exc2, ns, code_filenames={CELL})
    assert "could not be read" in result2["message"] and result2["title"]


@pytest.mark.parametrize("code", [
    "s = torch.ones(3, 3).to_sparse()\nv = s.view(9)",
    "z = torch.ones(0, 3)\nv = z[0]",
    "e = torch.ones(3).expand(2, 3)\nv = e.view(3, 3)",
    "h = torch.ones(2, dtype=torch.bfloat16)\nc = torch.ones(2, dtype=torch.complex64)\nv = torch.maximum(h, c)",
    "m = torch.ones(2, device='meta')\nv = m.sum().item()",
    "s = torch.tensor(3.0)\nv = s[0]",
    "n = np.arange(6)[::-1]\nv = n.reshape(4, 2)",
])
def test_awkward_tensors_on_the_line(code: str) -> None:
    exc, ns = raise_in_cell(code)
    result = explain(exc, ns, code_filenames={CELL})
    json.dumps(result)
    assert result["title"] and result["explanation"] and result["line"] is not None
    assert result["variables"], "the tensor on the failing line is reported"


@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from([RuntimeError, ValueError, TypeError, IndexError, KeyError, Exception, NotImplementedError]),
       message=st.text(max_size=300))
def test_any_message_gives_a_json_card(kind: type, message: str) -> None:
    result = explain(kind(message), {"x": torch.ones(2)}, lang="zh_CN")
    assert set(result) == KEYS and result["title"] and result["explanation"]
    json.dumps(result)


def test_long_message_is_cut() -> None:
    result = explain(RuntimeError("x" * 10_000), {})
    assert len(result["message"]) == 2000


def test_agent_explain_error_request(monkeypatch: pytest.MonkeyPatch) -> None:
    exc, ns = raise_in_cell("a = torch.randn(4, 3)\nb = torch.randn(4, 5)\nc = a @ b")
    agent = Agent(lambda: ns, code_filenames=lambda: {CELL})
    caller = Caller(agent)
    monkeypatch.setattr(sys, "last_value", exc, raising=False)
    code = "a = torch.randn(4, 3)\nb = torch.randn(4, 5)\nc = a @ b"
    error = caller.call("after_run", code=code, failed=True)["result"]["error"]
    assert error["key"] == "matmul_shape" and error["line"] == 3
    caller.call("set_language", lang="zh_CN")
    try:
        error = caller.call("after_run", code=code, failed=True)["result"]["error"]
    finally:
        caller.call("set_language", lang="en")
    assert re.search(r"[\u4e00-\u9fff]", error["title"])


def test_word_loss_on_the_line_does_not_make_a_loss_error() -> None:
    # Long input to a conv without bias raises "expected scalar type Long but found Float" from the conv.
    exc, ns = raise_in_cell("conv = nn.Conv2d(3, 4, 3, bias=False)\nx = torch.ones(1, 3, 8, 8, dtype=torch.long)\nloss = conv(x)")
    assert "expected scalar type Long but found Float" in str(exc)
    result = explain(exc, ns, code_filenames={CELL})
    assert result["key"] == "dtype_mismatch" and result["fix"] == "loss = conv(x.float())"


def test_loss_module_is_recognised_by_its_frames() -> None:
    code = ("criterion = nn.CrossEntropyLoss()\nout = torch.randn(4, 3)\nlabels = torch.tensor([0., 1., 2., 1.])\n"
            "value = criterion(out, labels)")
    exc, ns = raise_in_cell(code)
    result = explain(exc, ns, code_filenames={CELL})
    assert result["key"] == "loss_target_dtype" and result["fix"].startswith("value = criterion(out, labels.long())")
    assert "`labels` is [4]" in result["explanation"] and "[4, 3]" in result["explanation"]


def test_constant_subscripts_are_looked_up() -> None:
    code = ("sd = {'fc.weight': torch.randn(5, 4)}\nxs = [torch.randn(2, 4)]\n"
            "y = xs[0] @ sd['fc.weight']")
    exc, ns = raise_in_cell(code)
    result = explain(exc, ns, code_filenames={CELL})
    names = [v["name"] for v in result["variables"]]
    assert names == ["xs[0]", "sd['fc.weight']"]
    assert "`xs[0]` is [2, 4]" in result["explanation"] and "`sd['fc.weight']` is [5, 4]" in result["explanation"]
    assert "xs[0] @ sd['fc.weight'].T" in result["fix"]
