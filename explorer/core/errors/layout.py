"""Catalogue entries for layout errors: cat/stack, conv input rank and channels, imshow."""

from __future__ import annotations

import ast
import re

from explorer.core.errors.context import ErrorContext, fmt_shape, parse_line, shape_of
from explorer.core.errors.entry import Card, Entry, assign_prefix

_CONV_LAYOUT = {"conv1d": "[C, L]", "conv2d": "[C, H, W]", "conv3d": "[C, D, H, W]"}


def _ints(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"-?\d+", text)]


def _listed(ctx: ErrorContext, func: str) -> list[str]:
    """Names of the tensors passed to ``torch.cat([a, b])``-style calls, else all tensors on the line."""
    tree = parse_line(ctx.code_line)
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], (ast.List, ast.Tuple)):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name == func:
                items = [ast.unparse(e) for e in node.args[0].elts]
                if all(i in ctx.tensors for i in items):
                    return items
    lists = [n for n in ctx.tensors if "[" in n]
    return lists or list(ctx.tensors)


def _differing_dim(shapes: list[list[int]]) -> int | None:
    """The single dimension in which same-rank shapes differ, or None."""
    if not shapes or len({len(s) for s in shapes}) != 1:
        return None
    differ = [d for d in range(len(shapes[0])) if len({s[d] for s in shapes}) > 1]
    return differ[0] if len(differ) == 1 else None


def _cat_fix(ctx: ErrorContext, items: list[str], is_numpy: bool) -> str:
    shapes = [shape_of(ctx.objects[i]) or [] for i in items]
    dim = _differing_dim(shapes)
    joined = ", ".join(items)
    if dim is not None:
        call = f"np.concatenate([{joined}], axis={dim})" if is_numpy else f"torch.cat([{joined}], dim={dim})"
        return f"{assign_prefix(ctx)}{call}  # {ctx.t('join along the dimension that differs', '沿尺寸不同的那一维拼接')}"
    return f"print([t.shape for t in [{joined}]])"


def _cat_stack(ctx: ErrorContext) -> Card:
    is_stack = "stack" in ctx.message or "same shape" in ctx.message
    func = "stack" if is_stack else ("concatenate" if "concatenat" in ctx.message else "cat")
    items = _listed(ctx, func)
    said = ctx.describe_all(items)
    said = said + ctx.t(". ", "。") if said else ""
    if is_stack:
        rule = ctx.t("stack puts the tensors on a new axis, so every shape must be identical.",
                     "stack 会新建一个维度把张量叠起来，所以所有形状必须完全相同。")
    elif ctx.g("n1"):
        rule = ctx.t(f"cat needs tensors with the same number of dimensions, got {ctx.g('n1')} and {ctx.g('n2')}.",
                     f"cat 要求张量的维数相同，这里是 {ctx.g('n1')} 和 {ctx.g('n2')}。")
    elif ctx.g("odim"):
        rule = ctx.t(f"concatenate joins along one axis; every other axis must match, but along axis {ctx.g('odim')} "
                     f"the sizes are {ctx.g('exp')} and {ctx.g('got')}.",
                     f"concatenate 沿一个轴拼接，其余各轴必须相同，但第 {ctx.g('odim')} 轴上尺寸是 {ctx.g('exp')} 和 {ctx.g('got')}。")
    else:
        dim = ctx.g("dim", "?")
        rule = ctx.t(
            f"cat joins along dimension {dim}; every other dimension must have the same size "
            f"(expected {ctx.g('exp', '?')}, got {ctx.g('got', '?')}).",
            f"cat 沿第 {dim} 维拼接，其余各维的尺寸必须相同（应为 {ctx.g('exp', '?')}，实际为 {ctx.g('got', '?')}）。",
        )
    is_numpy = bool(items) and all(type(ctx.objects[i]).__module__ == "numpy" for i in items)
    fix = _cat_fix(ctx, items, is_numpy) if len(items) >= 2 else "print([t.shape for t in tensors])"
    if is_stack and len(items) >= 2 and _differing_dim([shape_of(ctx.objects[i]) or [] for i in items]) is None:
        fix = f"print([t.shape for t in [{', '.join(items)}]])  # {ctx.t('stack needs equal shapes', 'stack 需要形状完全相同')}"
    title = ctx.t("Tensors to join have different sizes", "要拼接的张量尺寸不一致")
    return title, said + rule, fix


def _conv_input(ctx: ErrorContext) -> Card:
    shape, op = _ints(ctx.g("shape")), ctx.g("op", "conv2d")
    name = ctx.by_shape(shape) or "x"
    one = _CONV_LAYOUT.get(op, "[C, ...]")
    batch = "[N, " + one[1:]
    said = ctx.describe(name) if name in ctx.objects else f"`{name}` {fmt_shape(shape)}"
    explanation = ctx.t(
        f"{said}: {len(shape)} dimensions. {op} wants {one} for one sample or {batch} for a batch "
        f"({ctx.g('u')} or {ctx.g('b')} dimensions).",
        f"{said}：{len(shape)} 维。{op} 需要单个样本 {one} 或一批样本 {batch}（{ctx.g('u')} 维或 {ctx.g('b')} 维）。",
    )
    unbatched = int(ctx.g("u", "3"))
    if len(shape) == unbatched - 1:
        fix = f"{name} = {name}.unsqueeze(0).unsqueeze(0)  # {fmt_shape(shape)} -> {fmt_shape([1, 1, *shape])}"
    elif len(shape) > unbatched + 1 and 1 in shape:
        k = shape.index(1)
        fix = f"{name} = {name}.squeeze({k})  # {fmt_shape(shape)} -> {fmt_shape(shape[:k] + shape[k + 1:])}"
    else:
        fix = f"print({name}.shape)  # {ctx.t('expected', '应为')} {batch}"
    return ctx.t(f"{op} got an input with the wrong number of dimensions", f"{op} 的输入维数不对"), explanation, fix


def _conv_channels(ctx: ErrorContext) -> Card:
    shape, expected, got = _ints(ctx.g("inp")), int(ctx.g("exp")), int(ctx.g("got"))
    name = ctx.by_shape(shape) or "x"
    said = ctx.describe(name) if name in ctx.objects else f"`{name}` {fmt_shape(shape)}"
    explanation = ctx.t(
        f"{said}. The layer's weight is [{ctx.g('w')}], so it expects {expected} channels in dimension 1 "
        f"(layout [N, C, H, W]), but dimension 1 has {got}.",
        f"{said}。该层的权重是 [{ctx.g('w')}]，要求第 1 维（[N, C, H, W] 中的 C）有 {expected} 个通道，"
        f"但输入第 1 维是 {got}。",
    )
    if shape and shape[-1] == expected and len(shape) == 4:
        fix = f"{name} = {name}.permute(0, 3, 1, 2)  # NHWC {fmt_shape(shape)} -> NCHW"
    elif shape and shape[-1] == expected and len(shape) == 3:
        fix = f"{name} = {name}.permute(2, 0, 1)  # HWC {fmt_shape(shape)} -> CHW"
    else:
        layer = next(iter(ctx.modules()), "conv")
        out = _ints(ctx.g("w"))[:1] or ["out_channels"]
        fix = f"{layer} = nn.Conv2d({got}, {out[0]}, kernel_size=...)  # in_channels = {got}"
    return ctx.t("Wrong number of input channels", "输入通道数不对"), explanation, fix


def _imshow(ctx: ErrorContext) -> Card:
    shape = _ints(ctx.g("shape"))
    name = ctx.by_shape(shape)
    said = ctx.describe(name) if name else fmt_shape(shape)
    explanation = ctx.t(
        f"{said}. Matplotlib's imshow wants [H, W] or [H, W, 3/4] (channels last), "
        "but PyTorch images are usually [C, H, W] (channels first).",
        f"{said}。Matplotlib 的 imshow 需要 [H, W] 或 [H, W, 3/4]（通道在最后），"
        "而 PyTorch 的图像通常是 [C, H, W]（通道在最前）。",
    )
    target = name or "img"
    is_numpy = name is not None and type(ctx.objects[name]).__module__ == "numpy"
    moved = f"{target}.transpose(1, 2, 0)" if is_numpy else f"{target}.permute(1, 2, 0)"
    if len(shape) == 4:
        moved = f"{target}[0].transpose(1, 2, 0)" if is_numpy else f"{target}[0].permute(1, 2, 0)"
    elif len(shape) == 3 and shape[0] == 1:
        moved = f"{target}[0]"
    fix = re.sub(rf"\b{re.escape(target)}\b(?![.\[])", moved, ctx.code_line.strip(), count=1)
    if fix == ctx.code_line.strip():
        fix = f"plt.imshow({moved})"
    return ctx.t("Image has channels first; imshow wants them last", "图像通道在前，imshow 要求通道在后"), explanation, fix


def _permute(ctx: ErrorContext) -> Card:
    nd, given = int(ctx.g("nd", "0")), int(ctx.g("nl", "0"))
    name = ctx.receiver("permute")
    said = ctx.describe(name) + ctx.t(". ", "。") if name in ctx.tensors else ""
    explanation = said + ctx.t(
        f"permute needs exactly one entry per dimension, a reordering of 0 … {nd - 1}: the tensor has {nd} "
        f"dimensions but {given} were given.",
        f"permute 需要为每一维各给一个序号，即 0 … {nd - 1} 的一个排列：张量有 {nd} 维，却给了 {given} 个。",
    )
    # Common intents: swap the two axes of a matrix, CHW <-> HWC for images, NCHW -> NHWC for batches.
    orders = {2: "1, 0", 3: "1, 2, 0", 4: "0, 2, 3, 1"}
    order = orders.get(nd, ", ".join(str(d) for d in reversed(range(nd))))
    fix = f"{assign_prefix(ctx)}{name or 'x'}.permute({order})  # {nd} {ctx.t('entries', '个序号')}"
    return ctx.t("permute got the wrong number of dimensions", "permute 的维度个数不对"), explanation, fix


ENTRIES: list[Entry] = [
    Entry("permute_dims", ("RuntimeError",), (
        r"number of dimensions in the tensor input does not match the length of the desired ordering of "
        r"dimensions i\.e\. input\.dim\(\) = (?P<nd>\d+) is not equal to len\(dims\) = (?P<nl>\d+)",
    ), _permute),
    Entry("cat_stack_size", ("RuntimeError", "ValueError"), (
        r"Sizes of tensors must match except in dimension (?P<dim>\d+)\. Expected size (?P<exp>\d+) but got size (?P<got>\d+)",
        r"stack expects each tensor to be equal size",
        r"Tensors must have same number of dimensions: got (?P<n1>\d+) and (?P<n2>\d+)",
        r"all the input array dimensions except for the concatenation axis must match exactly, but along "
        r"dimension (?P<odim>\d+), the array at index \d+ has size (?P<exp>\d+) and the array at index \d+ has size (?P<got>\d+)",
        r"all input arrays must have the same shape",
    ), _cat_stack),
    Entry("conv_input_dims", ("RuntimeError",), (
        r"Expected (?P<u>\d)D \(unbatched\) or (?P<b>\d)D \(batched\) input to (?P<op>\w+), but got input of size: \[(?P<shape>[\d, ]*)\]",
    ), _conv_input),
    Entry("conv_channels", ("RuntimeError",), (
        r"weight of size \[(?P<w>[\d, ]*)\], expected input\[(?P<inp>[\d, ]*)\] to have (?P<exp>\d+) channels, but got (?P<got>\d+) channels",
    ), _conv_channels),
    Entry("imshow_channels_first", ("TypeError",), (
        r"Invalid shape \((?P<shape>[\d, ]*)\) for image data",
    ), _imshow),
]
