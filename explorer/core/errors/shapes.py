"""Catalogue entries for shape errors: matmul, reshape/view, broadcasting."""

from __future__ import annotations

import ast
import math
import re

from explorer.core.errors.context import ErrorContext, fmt_shape, parse_line, shape_of
from explorer.core.errors.entry import Card, Entry, assign_prefix
from explorer.core.errors.layout import ENTRIES as LAYOUT_ENTRIES

_MATMUL_CALLS = {"mm", "matmul", "bmm", "mv", "dot"}


def _ints(text: str) -> list[int]:
    """All integers in a text such as '3, 4' or '(2,3)'."""
    return [int(x) for x in re.findall(r"-?\d+", text)]


def _matmul_operands(ctx: ErrorContext) -> tuple[str, str] | None:
    """Source of the two operands of the line's ``@`` / ``mm`` / ``matmul``."""
    tree = parse_line(ctx.code_line)
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            return ast.unparse(node.left), ast.unparse(node.right)
        if isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name)):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
            if name not in _MATMUL_CALLS:
                continue
            if len(node.args) == 2:
                return ast.unparse(node.args[0]), ast.unparse(node.args[1])
            if len(node.args) == 1 and isinstance(node.func, ast.Attribute):
                return ast.unparse(node.func.value), ast.unparse(node.args[0])
    return None


def _linear_card(ctx: ErrorContext, layer: str, k1: int, k2: int) -> Card:
    module = ctx.objects[layer]
    inp = next((n for n in ctx.tensors if shape_of(ctx.objects[n]) and shape_of(ctx.objects[n])[-1] == k1), None)
    inp_text = ctx.describe(inp) if inp else ctx.t(f"the input's last size is {k1}", f"输入的最后一维是 {k1}")
    explanation = ctx.t(
        f"`{layer}` is a {type(module).__name__} layer that expects inputs whose last size is {k2}, "
        f"but {inp_text}. The last size of the input must equal in_features: {k1} != {k2}.",
        f"`{layer}` 是一个 {type(module).__name__} 层，要求输入的最后一维等于 {k2}（in_features），"
        f"但 {inp_text}。二者不相等：{k1} != {k2}。",
    )
    out = getattr(module, "out_features", "out_features")
    fix = f"{layer} = nn.{type(module).__name__}({k1}, {out})  # in_features = {inp or 'x'}.shape[-1] = {k1}"
    return ctx.t("Layer input size does not fit", "输入尺寸与层不匹配"), explanation, fix


def _matmul_fix(ctx: ErrorContext, a: str, b: str, sa: list[int], sb: list[int]) -> str:
    """Suggest a transpose that makes the product valid, else print the shapes."""
    prefix = assign_prefix(ctx)
    ta, tb = (".T" if len(sa) == 2 else ".mT"), (".T" if len(sb) == 2 else ".mT")
    if len(sa) >= 2 and len(sb) >= 2 and sa[-2] == sb[-2]:
        return f"{prefix}{a}{ta} @ {b}  # {fmt_shape(sa[:-2] + [sa[-1], sa[-2]])} @ {fmt_shape(sb)}"
    if len(sa) >= 2 and len(sb) >= 2 and sa[-1] == sb[-1]:
        return f"{prefix}{a} @ {b}{tb}  # {fmt_shape(sa)} @ {fmt_shape(sb[:-2] + [sb[-1], sb[-2]])}"
    return f"print({a}.shape, {b}.shape)  # need {a}.shape[-1] == {b}.shape[-2]"


def _matmul(ctx: ErrorContext) -> Card:
    k1, k2 = int(ctx.g("k1", "0")), int(ctx.g("k2", "0"))
    title = ctx.t("Matrix shapes don't fit for multiplication", "矩阵乘法的形状对不上")
    layer = next(iter(ctx.modules()), None)
    operands = _matmul_operands(ctx)
    if layer is not None and operands is None:
        return _linear_card(ctx, layer, k1, k2)
    a, b = operands if operands else (None, None)
    if a not in ctx.tensors or b not in ctx.tensors:
        m, n = ctx.g("m"), ctx.g("n")
        a = ctx.by_shape([int(m), k1]) if m else None
        b = ctx.by_shape([k2, int(n)], exclude=(a or "",)) if n else None
    rule = ctx.t(
        f"For A @ B the last size of A must equal the second-to-last size of B, but {k1} != {k2}.",
        f"A @ B 要求 A 的最后一维等于 B 的倒数第二维，但这里 {k1} != {k2}。",
    )
    if a in ctx.tensors and b in ctx.tensors:
        sa, sb = shape_of(ctx.objects[a]), shape_of(ctx.objects[b])
        said = ctx.t(f"{ctx.describe(a)} and {ctx.describe(b)}. ", f"{ctx.describe(a)}，{ctx.describe(b)}。")
        return title, said + rule, _matmul_fix(ctx, a, b, sa or [], sb or [])
    known = ctx.describe_all()
    said = (known + ctx.t(". ", "。")) if known else ""
    return title, said + rule, "print(A.shape, B.shape)  # A.shape[-1] must equal B.shape[-2]"


def _suggest_shape(size: int, wanted: list[int]) -> list[int]:
    """A shape with ``size`` elements close to the requested one."""
    rest = [d for d in wanted[1:] if d > 0]
    if len(wanted) > 1 and rest and size % math.prod(rest) == 0 and -1 not in wanted[1:]:
        return [-1, *wanted[1:]]
    if len(wanted) <= 1 or size == 0:
        return [size]
    root = int(math.isqrt(size))
    first = next(d for d in range(root, 0, -1) if size % d == 0)
    return [first, size // first]


def _reshape(ctx: ErrorContext) -> Card:
    size, wanted = int(ctx.g("size", "0")), _ints(ctx.g("shape"))
    method = "view" if ctx.calls("view") else "reshape"
    name = ctx.receiver(method)
    if name not in ctx.tensors:
        name = next((n for n, v in ctx.tensors.items() if math.prod(shape_of(v) or [-1]) == size), None)
    known = [d for d in wanted if d != -1]
    need = " × ".join(str(d) for d in known) + (f" = {math.prod(known)}" if len(known) > 1 else "") if known else "?"
    if -1 in wanted:
        rule = ctx.t(
            f"With -1, PyTorch divides {size} by the other sizes ({need}), but {size} is not divisible by it.",
            f"写了 -1 时，会用 {size} 除以其余各维之积（{need}），但除不尽。",
        )
    else:
        rule = ctx.t(f"The shape {fmt_shape(wanted)} needs {need} elements, not {size}.",
                     f"形状 {fmt_shape(wanted)} 需要 {need} 个元素，而不是 {size} 个。")
    subject = ctx.describe(name) if name else ctx.t("The input", "输入")
    explanation = ctx.t(
        f"{subject} and holds {size} elements. A reshape or view keeps every element. {rule}",
        f"{subject}，共 {size} 个元素。reshape/view 必须保持元素总数不变。{rule}",
    )
    new = ", ".join(str(d) for d in _suggest_shape(size, wanted))
    fix = f"{assign_prefix(ctx)}{name or 'x'}.reshape({new})  # {size} elements"
    return ctx.t("Reshape: the element count does not match", "reshape：元素个数对不上"), explanation, fix


def _view_noncontiguous(ctx: ErrorContext) -> Card:
    name = ctx.receiver("view")
    value = ctx.tensors.get(name or "")
    if value is not None:
        strides = tuple(value.stride())
        what = ctx.t(f"{ctx.describe(name)} with strides {strides}", f"{ctx.describe(name)}，步长 {strides}")
    else:
        what = ctx.t("The tensor", "这个张量")
    explanation = ctx.t(
        f"{what}. It is not contiguous: its elements are not laid out row by row in memory "
        "(typical after .t(), .T, .transpose() or .permute()), so .view() cannot reinterpret "
        "them without copying. .reshape() copies when it has to.",
        f"{what}。它在内存中不是连续的（常见于 .t()、.T、.transpose()、.permute() 之后），"
        "元素并不按行依次存放，所以 .view() 无法在不复制的情况下改变形状。.reshape() 会在需要时自动复制。",
    )
    line = ctx.code_line.strip()
    fix = line.replace(".view(", ".reshape(") if ".view(" in line else "y = x.reshape(...)"
    if name:
        fix += f"\n# {ctx.t('or', '或')}: {name}.contiguous().view(...)"
    return ctx.t("view() needs a contiguous tensor", "view() 需要连续的张量"), explanation, fix


def broadcastable(a: list[int], b: list[int]) -> bool:
    """True when two shapes broadcast together (compared from the right)."""
    return all(x == y or x == 1 or y == 1 for x, y in zip(reversed(a), reversed(b)))


def _broadcast_fix(ctx: ErrorContext, names: list[str]) -> str:
    a, b = names[0], names[1]
    sa, sb = shape_of(ctx.objects[a]) or [], shape_of(ctx.objects[b]) or []
    if "output with shape" in ctx.message:
        aug = re.match(r"\s*([\w.\[\]]+)\s*([-+*/])=\s*(.+)", ctx.code_line)
        if aug:
            return f"{aug.group(1)} = {aug.group(1)} {aug.group(2)} {aug.group(3).strip()}  # {ctx.t('a new, bigger tensor', '生成新的更大的张量')}"
        return f"{a} = {a} + {b}  # {ctx.t('not in place', '不要原地修改')}"
    for short, other, other_shape in ((a, b, sb), (b, a, sa)):
        s = shape_of(ctx.objects[short]) or []
        if len(s) < len(other_shape) and broadcastable(s + [1], other_shape):
            return f"{short}[..., None]  # {fmt_shape(s)} -> {fmt_shape(s + [1])}, {ctx.t('broadcasts with', '可与')} {other} {fmt_shape(other_shape)}"
    if len(sa) == len(sb) and sa == sb[::-1]:
        return f"{a}.T  # {fmt_shape(sa)} -> {fmt_shape(sb)}"
    return f"print({a}.shape, {b}.shape)  # {ctx.t('sizes must be equal or 1, compared from the right', '从右往左比较，每一维要么相等要么为 1')}"


def _broadcast(ctx: ErrorContext) -> Card:
    names = list(ctx.tensors)
    known = ctx.describe_all()
    said = (known + ctx.t(". ", "。")) if known else ""
    if "output with shape" in ctx.message:
        out, full = ctx.g("out"), ctx.g("bshape")
        rule = ctx.t(
            f"An in-place operation writes into its left side, which is [{out}], but the broadcast result is [{full}]; it cannot grow.",
            f"原地操作要把结果写回左边的张量 [{out}]，但广播后的结果是 [{full}]，放不下。",
        )
    elif ctx.g("shapes"):
        rule = ctx.t(f"NumPy could not broadcast the shapes {ctx.g('shapes').strip()}: compared from the right, each pair of sizes must be equal or one of them 1.",
                     f"NumPy 无法广播形状 {ctx.g('shapes').strip()}：从右往左比较，每对尺寸要么相等、要么其中一个为 1。")
    else:
        sa, sb, dim = ctx.g("a"), ctx.g("b"), ctx.g("dim")
        rule = ctx.t(
            f"Broadcasting compares sizes from the right; at dimension {dim} they are {sa} and {sb}: they differ and neither is 1 ({sa} != {sb}).",
            f"广播从右往左逐维比较；在第 {dim} 维上尺寸是 {sa} 和 {sb}，既不相等也不是 1（{sa} != {sb}）。",
        )
    fix = _broadcast_fix(ctx, names) if len(names) >= 2 else \
        f"print({names[0] if names else 'x'}.shape)  # {ctx.t('only sizes of 1 can be stretched', '只有大小为 1 的维度能被扩展')}"
    return ctx.t("Shapes cannot be broadcast together", "形状无法广播"), said + rule, fix


ENTRIES: list[Entry] = [
    Entry("matmul_shape", ("RuntimeError", "ValueError"), (
        r"mat1 and mat2 shapes cannot be multiplied \((?P<m>\d+)x(?P<k1>\d+) and (?P<k2>\d+)x(?P<n>\d+)\)",
        r"size mismatch, got input \((?P<k2>\d+)\), mat \((?P<m>\d+)x(?P<k1>\d+)\), vec \((?P<n>\d+)\)",
        r"first two dimensions of batch2 tensor to be: \[\d+, (?P<k1>\d+)\] but got: \[\d+, (?P<k2>\d+)\]",
        r"inconsistent tensor size, expected tensor \[(?P<k1>\d+)\] and src \[(?P<k2>\d+)\]",
        r"matmul: Input operand 1 has a mismatch in its core dimension 0.*\(size (?P<k2>\d+) is different from (?P<k1>\d+)\)",
    ), _matmul),
    Entry("reshape_size", ("RuntimeError", "ValueError"), (
        r"shape '\[(?P<shape>[-\d, ]*)\]' is invalid for input of size (?P<size>\d+)",
        r"cannot reshape array of size (?P<size>\d+) into shape \((?P<shape>[-\d, ]*)\)",
    ), _reshape),
    Entry("view_noncontiguous", ("RuntimeError",), (
        r"view size is not compatible with input tensor's size and stride",
    ), _view_noncontiguous),
    Entry("broadcast", ("RuntimeError", "ValueError"), (
        r"The size of tensor a \((?P<a>\d+)\) must match the size of tensor b \((?P<b>\d+)\) at non-singleton dimension (?P<dim>\d+)",
        r"operands could not be broadcast together with (?:remapped )?shapes (?P<shapes>[^\n]*)",
        r"output with shape \[(?P<out>[\d, ]*)\] doesn't match the broadcast shape \[(?P<bshape>[\d, ]*)\]",
        r"The expanded size of the tensor \((?P<a>\d+)\) must match the existing size \((?P<b>\d+)\) at non-singleton dimension (?P<dim>\d+)",
    ), _broadcast),
    *LAYOUT_ENTRIES,
]
