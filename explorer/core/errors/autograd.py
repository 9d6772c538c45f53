"""Catalogue entries for autograd errors: backward, leaves, in-place changes."""

from __future__ import annotations

import re
from typing import Any

from explorer.core.errors.context import ErrorContext, fmt_shape, is_array, shape_of
from explorer.core.errors.entry import Card, Entry


def _backward_target(ctx: ErrorContext) -> str | None:
    """The expression ``.backward()`` is called on, e.g. 'loss' or '(a * 2).sum()'."""
    return ctx.receiver("backward")


def _backward_nonscalar(ctx: ErrorContext) -> Card:
    name = _backward_target(ctx) or "y"
    value = ctx.objects.get(name)
    shape = shape_of(value) if value is not None else None
    count = 1
    for s in shape or []:
        count *= s
    said = ctx.t(f"{ctx.describe(name)}: {count} numbers. ", f"{ctx.describe(name)}：共 {count} 个数。") if shape else ""
    explanation = said + ctx.t(
        "backward() with no argument starts from a single number (a scalar loss). For a tensor with "
        "several elements PyTorch does not know how to weigh them: reduce it to a scalar (sum/mean) or "
        "pass a gradient of the same shape.",
        "不带参数的 backward() 只能从一个标量（单个数的损失）开始。输出有多个元素时，PyTorch 不知道每个元素的权重："
        "先用 sum()/mean() 变成标量，或者传入同形状的 gradient 参数。",
    )
    fix = f"{name}.sum().backward()\n# {ctx.t('or', '或')}: {name}.backward(torch.ones_like({name}))"
    return ctx.t("backward() needs a scalar", "backward() 需要标量输出"), explanation, fix


def _backward_twice(ctx: ErrorContext) -> Card:
    name = _backward_target(ctx) or "loss"
    explanation = ctx.t(
        f"`{name}`'s graph was already used by an earlier backward(). To save memory, PyTorch frees the "
        "values it saved for the backward pass once backward() has run, so the same graph cannot be "
        "walked again. Usually you should run the forward pass again (a fresh graph each iteration).",
        f"`{name}` 的计算图已经被之前的一次 backward() 用过了。为节省内存，backward() 结束后 PyTorch 会释放为反向传播保存的中间值，"
        "同一张图不能再走一遍。通常应该重新做一次前向计算（每轮迭代一张新图）。",
    )
    fix = (f"{name}.backward(retain_graph=True)  # {ctx.t('on the FIRST call, if you really need two', '若确实要两次，第一次调用时加上')}\n"
           f"# {ctx.t('better: recompute', '更好：重新计算')} {name} = ... {ctx.t('before each backward()', '后再调用 backward()')}")
    return ctx.t("backward() through the same graph twice", "对同一张计算图调用了两次 backward()"), explanation, fix


def _leaf_candidates(ctx: ErrorContext, namespace: dict[str, Any], skip: str | None) -> list[str]:
    """Float leaf tensors without requires_grad: on the line first, else from the namespace."""
    def ok(value: Any) -> bool:
        return (type(value).__module__.startswith("torch") and is_array(value) and value.is_leaf
                and not value.requires_grad and value.is_floating_point())

    on_line = [n for n, v in ctx.tensors.items() if n != skip and ok(v)]
    return on_line or [n for n, v in namespace.items() if n != skip and not n.startswith("_") and ok(v)][:3]


def _is_tracked_leaf(value: Any) -> bool:
    """A torch leaf tensor with requires_grad=True."""
    return (type(value).__module__.startswith("torch") and is_array(value)
            and bool(getattr(value, "requires_grad", False)) and bool(getattr(value, "is_leaf", False)))


def _no_grad_fn(ctx: ErrorContext) -> Card:
    name = _backward_target(ctx)
    value = ctx.objects.get(name or "")
    said = ""
    if value is not None and is_array(value):
        said = ctx.t(f"{ctx.describe(name)}, requires_grad=False, grad_fn=None. ",
                     f"{ctx.describe(name)}，requires_grad=False，grad_fn=None。")
    explanation = said + ctx.t(
        "Nothing in this computation is tracked, so there is no graph to walk back. Usual causes: no input "
        "was created with requires_grad=True, the value was computed inside torch.no_grad(), or .detach() "
        "/ .data / .item() / NumPy broke the chain.",
        "这次计算中没有任何张量在追踪梯度，所以没有计算图可以回溯。常见原因：没有输入设置 requires_grad=True；"
        "结果是在 torch.no_grad() 里算出来的；或者 .detach() / .data / .item() / NumPy 转换把链条弄断了。",
    )
    tracked = [n for n, v in ctx.namespace.items() if not n.startswith("_") and n != name and _is_tracked_leaf(v)][:3]
    if tracked:
        # The user did ask for gradients somewhere: the chain was cut (no_grad / detach), not forgotten.
        who = ", ".join(tracked)
        lines = [ctx.t(f"# {who} requires grad: compute {name or 'loss'} from it without .detach()",
                       f"# {who} 需要梯度：用它计算 {name or 'loss'}，不要 .detach()")]
    else:
        leaves = _leaf_candidates(ctx, ctx.namespace, name)
        lines = [f"{n}.requires_grad_(True)" for n in leaves] or ["w = torch.randn(3, requires_grad=True)"]
    lines.append(f"# {ctx.t('then recompute', '然后重新计算')} {name or 'loss'} {ctx.t('outside torch.no_grad()', '（不要在 torch.no_grad() 里）')}")
    return ctx.t("Nothing here requires grad", "没有张量需要梯度"), explanation, "\n".join(lines)


def _leaf_inplace(ctx: ErrorContext) -> Card:
    leaves = [n for n, v in ctx.tensors.items() if getattr(v, "requires_grad", False) and getattr(v, "is_leaf", False)]
    said = ctx.t(f"{ctx.describe(leaves[0])}: a leaf tensor with requires_grad=True. ",
                 f"{ctx.describe(leaves[0])}，是 requires_grad=True 的叶子张量。") if leaves else ""
    explanation = said + ctx.t(
        "Changing it in place (+=, add_, [...] =) would destroy the value autograd needs to compute its "
        "gradient. Parameter updates must be done outside the graph, inside torch.no_grad().",
        "原地修改它（+=、add_、[...] =）会破坏自动求导计算梯度所需的值。更新参数要在计算图之外，即 torch.no_grad() 里进行。",
    )
    fix = "with torch.no_grad():\n    " + ctx.code_line.strip()
    return ctx.t("In-place change of a leaf that requires grad", "对需要梯度的叶子张量做了原地修改"), explanation, fix


def _suspects(ctx: ErrorContext, shape: list[int], version: int) -> list[str]:
    """Namespace tensors with the reported shape whose version counter matches (probable culprits)."""
    found = []
    for name, value in ctx.namespace.items():
        if name.startswith("_") or not (is_array(value) and type(value).__module__.startswith("torch")):
            continue
        if shape_of(value) == shape and getattr(value, "_version", None) == version:
            found.append(name)
    return found[:3]


def _inplace_modified(ctx: ErrorContext) -> Card:
    shape = [int(x) for x in re.findall(r"\d+", ctx.g("shape"))]
    op, version = ctx.g("op", "?"), int(ctx.g("ver", "0") or 0)
    suspects = _suspects(ctx, shape, version)
    who = ", ".join(f"`{n}`" for n in suspects)
    hint = ctx.t(f" Probably {who}.", f" 很可能是 {who}。") if who else ""
    explanation = ctx.t(
        f"A tensor of shape {fmt_shape(shape)} produced by {op} was saved for the backward pass, then changed "
        f"in place (its version went from {ctx.g('want', '0')} to {version}).{hint} backward() needs the "
        "original value, so it refuses to continue.",
        f"一个由 {op} 产生、形状为 {fmt_shape(shape)} 的张量被保存用于反向传播，之后又被原地修改了"
        f"（版本号从 {ctx.g('want', '0')} 变成 {version}）。{hint}backward() 需要原来的值，因此报错。",
    )
    target = suspects[0] if suspects else "y"
    fix = (f"{target} = {target} * 2  # {ctx.t('out of place instead of', '用非原地运算代替')} {target}.mul_(2) / {target} *= 2\n"
           "torch.autograd.set_detect_anomaly(True)  # " + ctx.t("shows the line that changed it", "显示是哪一行修改了它"))
    return ctx.t("A value needed for the gradient was changed in place", "求梯度需要的值被原地修改了"), explanation, fix


ENTRIES: list[Entry] = [
    Entry("backward_non_scalar", ("RuntimeError",), (
        r"grad can be implicitly created only for (?:real )?scalar outputs",
    ), _backward_nonscalar),
    Entry("backward_twice", ("RuntimeError",), (
        r"Trying to backward through the graph a second time",
    ), _backward_twice),
    Entry("no_grad_fn", ("RuntimeError",), (
        r"element 0 of tensors does not require grad and does not have a grad_fn",
    ), _no_grad_fn),
    Entry("leaf_inplace", ("RuntimeError",), (
        r"a leaf Variable that requires grad is being used in an in-place operation",
    ), _leaf_inplace),
    Entry("inplace_modified", ("RuntimeError",), (
        r"modified by an inplace operation: \[[\w.]+ (?P<shape>\[[\d, ]*\])\], which is output \d+ of (?P<op>\w+), "
        r"is at version (?P<ver>\d+); expected version (?P<want>\d+)",
        r"one of the variables needed for gradient computation has been modified by an inplace operation",
    ), _inplace_modified),
]
