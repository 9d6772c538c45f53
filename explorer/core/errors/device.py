"""Catalogue entries for device errors and NumPy interop."""

from __future__ import annotations

import re
from typing import Any

from explorer.core.errors.context import ErrorContext, device_of
from explorer.core.errors.entry import Card, Entry

_DEVICE = re.compile(r"\b(cuda(?::\d+)?|cpu|mps|meta|xpu(?::\d+)?)\b")


def _module_device(module: Any) -> str | None:
    try:
        return str(next(module.parameters()).device)
    except (StopIteration, AttributeError, TypeError):
        return None


def _device_mismatch(ctx: ErrorContext) -> Card:
    tensors = {n: device_of(v) for n, v in ctx.tensors.items() if type(v).__module__.startswith("torch")}
    modules = {n: d for n, d in ((n, _module_device(m)) for n, m in ctx.modules().items()) if d}
    seen = list(dict.fromkeys([*tensors.values(), *modules.values(), *_DEVICE.findall(ctx.message)]))
    # Teaching default: move everything to the accelerator when one is involved.
    target = next((d for d in seen if d != "cpu"), seen[0] if seen else "cpu")
    parts = [f"`{n}` {ctx.t('is on', '在')} {d}" for n, d in tensors.items()]
    parts += [f"`{n}` ({ctx.t('weights', '权重')}) {ctx.t('is on', '在')} {d}" for n, d in modules.items()]
    listed = ", ".join(parts) if parts else ctx.t("devices found: ", "涉及的设备：") + ", ".join(seen)
    explanation = ctx.t(
        f"{listed}. An operation can only combine tensors that live on the same device; PyTorch "
        "never moves data between CPU and GPU by itself. Move the model and every input to one device.",
        f"{listed}。一个运算只能组合同一设备上的张量；PyTorch 不会自动在 CPU 和 GPU 之间搬运数据。"
        "请把模型和所有输入放到同一个设备上。",
    )
    moves = [f"{n} = {n}.to(device)" for n, d in {**modules, **tensors}.items() if d != target]
    fix = "\n".join([f'device = "{target}"', *(moves or ["model = model.to(device)", "x = x.to(device)"])])
    return ctx.t("Tensors are on different devices", "张量不在同一个设备上"), explanation, fix


def _numpy_grad(ctx: ErrorContext) -> Card:
    name = ctx.receiver("numpy")
    said = ctx.describe(name) + ctx.t(" and requires grad. ", "，并且 requires_grad=True。") if name in ctx.tensors else ""
    explanation = said + ctx.t(
        "A NumPy array cannot record the autograd graph, so PyTorch refuses to hand out a tensor "
        "that is still being tracked. Detach it first (the array will share its memory).",
        "NumPy 数组无法记录计算图，所以仍在追踪梯度的张量不能直接转换。先 detach()（得到的数组与张量共享内存）。",
    )
    line = ctx.code_line.strip()
    fix = line.replace(".numpy()", ".detach().numpy()") if ".numpy()" in line else "a = t.detach().numpy()"
    return ctx.t("Can't convert a tensor that requires grad to NumPy", "需要梯度的张量不能直接转成 NumPy"), explanation, fix


def _numpy_device(ctx: ErrorContext) -> Card:
    device = ctx.g("dev", "cuda")
    name = ctx.receiver("numpy")
    said = ctx.describe(name) + ctx.t(". ", "。") if name in ctx.tensors else ""
    if device == "meta":
        detail = ctx.t("A meta tensor has a shape and dtype but no data at all; create it on the CPU to get values.",
                       "meta 张量只有形状和 dtype，根本没有数据；要得到数值，请在 CPU 上创建它。")
    else:
        detail = ctx.t(f"NumPy only reads CPU memory, and this tensor lives on {device}. Copy it to the CPU first.",
                       f"NumPy 只能读取 CPU 内存，而这个张量在 {device} 上。请先复制到 CPU。")
    line = ctx.code_line.strip()
    fix = line.replace(".numpy()", ".detach().cpu().numpy()") if ".numpy()" in line else "a = t.detach().cpu().numpy()"
    return ctx.t(f"Can't convert a {device} tensor to NumPy", f"{device} 上的张量不能直接转成 NumPy"), said + detail, fix


def _numpy_not_tensor(ctx: ErrorContext) -> Card:
    arrays = [n for n, v in ctx.tensors.items() if type(v).__module__ == "numpy"]
    said = ctx.describe_all(arrays) + ctx.t(". ", "。") if arrays else ""
    explanation = said + ctx.t(
        f"The torch function's argument '{ctx.g('arg')}' must be a Tensor; it does not accept NumPy arrays. "
        "Convert the array: torch.from_numpy shares its memory, torch.tensor copies it.",
        f"torch 函数的参数 '{ctx.g('arg')}' 必须是 Tensor，不接受 NumPy 数组。先转换："
        "torch.from_numpy 与数组共享内存，torch.tensor 会复制。",
    )
    fix = "\n".join(f"{n} = torch.from_numpy({n})" for n in arrays[:3]) or "t = torch.from_numpy(a)"
    return ctx.t("A NumPy array was passed where a Tensor is needed", "需要 Tensor 的地方传入了 NumPy 数组"), explanation, fix


ENTRIES: list[Entry] = [
    Entry("device_mismatch", ("RuntimeError",), (
        r"Expected all tensors to be on the same device",
        r"Tensor on device (?P<d1>\S+) is not on the expected device (?P<d2>[^\s!]+)",
        r"Input type \(torch\.cuda\.\w+\) and (?:weight|bias) type \(torch\.\w+\) should be the same",
        r"Input type \(torch\.\w+\) and (?:weight|bias) type \(torch\.cuda\.\w+\) should be the same",
    ), _device_mismatch),
    Entry("numpy_requires_grad", ("RuntimeError",), (
        r"Can't call numpy\(\) on Tensor that requires grad",
    ), _numpy_grad),
    Entry("numpy_device", ("TypeError", "RuntimeError"), (
        r"can't convert (?P<dev>[\w:]+) device type tensor to numpy",
    ), _numpy_device),
    Entry("numpy_not_tensor", ("TypeError",), (
        r"argument '(?P<arg>\w+)' \(position \d+\) must be Tensor, not numpy\.ndarray",
    ), _numpy_not_tensor),
]
