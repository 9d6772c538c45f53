"""Catalogue entries for shape errors: matrix products, reshape/view, broadcasting."""

from __future__ import annotations

import ast
import math
import re

from explorer.core.errors.context import ErrorContext, call_name, fmt_shape, join, lookup
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.fixes import node_for, receiver, swap, with_args
from explorer.core.errors.layers import ENTRIES as LAYER_ENTRIES
from explorer.core.errors.layout import ENTRIES as LAYOUT_ENTRIES
from explorer.core.errors.safe import flag, is_tensor, shape_of, tensor_attr
from explorer.core.errors.source import comment_lines
from explorer.core.i18n import _, ngettext

_MATMUL_CALLS = {"mm", "matmul", "bmm", "mv", "dot"}


def _ints(text: str) -> list[int]:
    """All integers in a text such as '3, 4' or '(2,3)'."""
    return [int(x) for x in re.findall(r"-?\d+", text)]


def _matmul_operands(ctx: ErrorContext) -> tuple[ast.AST, ast.AST] | None:
    """The two operand nodes of the statement's ``@`` / ``mm`` / ``matmul``."""
    for node in ctx.nodes():
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            return node.left, node.right
        if isinstance(node, ast.Call) and call_name(node) in _MATMUL_CALLS:
            if len(node.args) == 2:
                return node.args[0], node.args[1]
            if len(node.args) == 1 and isinstance(node.func, ast.Attribute):
                return node.func.value, node.args[0]
    return None


def _transpose_fix(ctx: ErrorContext, left: ast.AST, right: ast.AST, sa: list[int], sb: list[int]) -> str | None:
    """The statement with one operand transposed, when that makes the product valid."""
    if len(sa) < 2 or len(sb) < 2:
        return None
    flip = ".T" if len(sa) == 2 and len(sb) == 2 else ".mT"
    swapped = lambda s: s[:-2] + [s[-1], s[-2]]  # noqa: E731
    # Transposing the right operand keeps the left one's rows (x @ W.T, as nn.Linear computes): preferred.
    if sa[-1] == sb[-1]:
        node, new = right, (sa, swapped(sb))
    elif sa[-2] == sb[-2]:
        node, new = left, (swapped(sa), sb)
    else:
        return None
    code = swap(ctx, node, f"({ast.unparse(node)}){flip}" if not isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)) else ast.unparse(node) + flip)
    # The batch dims broadcast (a [4, 3] matrix times a [2, 3, 5] batch makes a batch of 2).
    result = broadcast_shape(new[0][:-2], new[1][:-2]) + [new[0][-2], new[1][-1]]
    return f"{code}  # {fmt_shape(new[0])} @ {fmt_shape(new[1])} -> {fmt_shape(result)}" if code else None


def _matmul(ctx: ErrorContext) -> Card:
    k1, k2 = int(ctx.g("k1", "0")), int(ctx.g("k2", "0"))
    operands = _matmul_operands(ctx)
    title = _("Matrix shapes don't fit for multiplication")
    if operands is None:
        return Card(title, join(ctx.facts_sentence(), _matmul_rule("A", "B", k1, k2)), None, mode=None)
    left, right = operands
    a, b = ast.unparse(left), ast.unparse(right)
    rule = _matmul_rule(a, b, k1, k2)
    sa, sb = shape_of(ctx.tensors.get(a)), shape_of(ctx.tensors.get(b))
    fix = _transpose_fix(ctx, left, right, sa, sb) if sa and sb else None
    advice = comment_lines(_("{a}.shape[-1] must equal {b}.shape[-2]").format(a=a, b=b))
    return Card(title, join(ctx.facts_sentence(), rule), fix or advice, advice=advice)


def _matmul_rule(a: str, b: str, k1: int, k2: int) -> str:
    return _("For {a} @ {b}, the last size of {a} must equal the second-to-last size of {b}, "
             "but here they are {k1} and {k2} ({k1} != {k2}).").format(a=a, b=b, k1=k1, k2=k2)


def suggest_shape(size: int, wanted: list[int]) -> list[int]:
    """A shape with ``size`` elements close to the requested one."""
    rest = [d for d in wanted[1:] if d > 0]
    if len(wanted) > 1 and rest and size % math.prod(rest) == 0 and -1 not in wanted[1:]:
        return [size // math.prod(rest), *wanted[1:]]
    if len(wanted) <= 1 or size == 0:
        return [size]
    root = math.isqrt(size)
    first = next(d for d in range(root, 0, -1) if size % d == 0)
    return [first, size // first]


def _reshape_call(ctx: ErrorContext) -> ast.Call | None:
    calls = ctx.calls("view") + ctx.calls("reshape")
    return calls[0] if calls else None


def _reshape(ctx: ErrorContext) -> Card:
    size, wanted = int(ctx.g("size", "0")), _ints(ctx.g("shape"))
    call = _reshape_call(ctx)
    target = receiver(call) if call is not None else None
    subject = ast.unparse(target) if target is not None else None
    if subject is None:
        subject = next((n for n, v in ctx.tensors.items() if math.prod(shape_of(v) or [-1]) == size), None)
    if subject in ctx.tensors:
        holds = ngettext("{facts}: {n} element.", "{facts}: {n} elements.", size).format(facts=ctx.describe(subject), n=size)
    elif subject:
        holds = ngettext("`{name}` holds {n} element.", "`{name}` holds {n} elements.", size).format(name=subject, n=size)
    else:
        holds = ngettext("The input holds {n} element.", "The input holds {n} elements.", size).format(n=size)
    known = [d for d in wanted if d != -1]
    product = math.prod(known)
    need = " × ".join(str(d) for d in known) + f" = {product}" if len(known) > 1 else str(product)
    if -1 in wanted:
        rule = _("With -1, PyTorch divides {n} by the other sizes ({need}), but {n} is not a multiple of {product}.").format(
            n=size, need=need, product=product)
    else:
        rule = _("reshape and view keep every element, so the new shape must hold exactly {n}, but {shape} holds "
                 "{need}.").format(n=size, shape=fmt_shape(wanted), need=need)
    batch = _batched_flatten(ctx, target, wanted)
    if batch is not None and call is not None:
        return _keep_batch(ctx, call, target, holds, batch, wanted[1])
    new = suggest_shape(size, wanted)
    fix = None
    if call is not None and ctx.statement is not None:
        fix = swap(ctx, call, with_args(call, args=[str(d) for d in new], keywords=None))
        product_text = " × ".join(str(d) for d in new) + (f" = {size}" if len(new) > 1 else "")
        fix = f"{fix}  # {product_text}" if fix else None
    advice = comment_lines(_("choose sizes whose product is {n}").format(n=size))
    title = _("Reshape: the number of elements does not match")
    return Card(title, join(holds, rule), fix or advice, advice=advice)


def _batched_flatten(ctx: ErrorContext, target: ast.expr | None, wanted: list[int]) -> list[int] | None:
    """The shape of a batch flattened with view(-1, k) inside a model, when k is not what one sample holds."""
    found, value = lookup(target, ctx.scopes) if target is not None else (False, None)
    shape = shape_of(value) if found else None
    inside = ctx.params[:1] == ("self",)
    if shape and inside and len(shape) >= 3 and len(wanted) == 2 and wanted[0] == -1 and math.prod(shape[1:]) != wanted[1]:
        return shape
    return None


def _keep_batch(ctx: ErrorContext, call: ast.Call, target: ast.expr | None, holds: str, shape: list[int], k: int) -> Card:
    """view(-1, k) of [N, ...] inside forward: keep one row per sample; the next layer must then take their size."""
    per = math.prod(shape[1:])
    name = ast.unparse(target) if target is not None else "x"
    rule = _("Each of the {n} samples holds {sizes} = {per} numbers, not {k}: view(-1, {k}) would cut the batch into "
             "rows that are not samples. Keep one row per sample with .flatten(1); the layer that reads it then needs "
             "in_features={per}.").format(
        n=shape[0], sizes=" × ".join(str(d) for d in shape[1:]), per=per, k=k)
    code = swap(ctx, call, f"{name}.flatten(1)")
    fix = code + "  # " + _("{shape} -> [{n}, {per}]; then in_features={per}").format(
        shape=fmt_shape(shape), n=shape[0], per=per) if code else None
    advice = comment_lines(_("flatten each sample: x.flatten(1) turns {shape} into [N, {want}]").format(
        shape=fmt_shape(shape), want=per))
    return Card(_("Reshape: the number of elements does not match"), join(holds, rule), fix or advice, advice=advice)


def _view_noncontiguous(ctx: ErrorContext) -> Card:
    call = next((c for c in ctx.calls("view") if receiver(c) is not None), None)
    target = receiver(call) if call is not None else None
    name = ast.unparse(target) if target is not None else None
    found, value = lookup(target, ctx.scopes) if target is not None else (False, None)
    said = ""
    if found and is_tensor(value) and name is not None:
        facts = ctx.describe(name) if name in ctx.tensors else f"`{name}` is {fmt_shape(shape_of(value))}"
        said = _("{facts}, with strides {strides}.").format(facts=facts, strides=tuple(tensor_attr(value, "stride")))
    elif target is not None:  # an expression such as correct[:k]: describe the tensor it starts from
        base = next((n.id for n in ast.walk(target) if isinstance(n, ast.Name) and n.id in ctx.tensors), None)
        if base is not None and is_tensor(ctx.tensors[base]):
            said = _("{facts}, with strides {strides}.").format(
                facts=ctx.describe(base), strides=tuple(tensor_attr(ctx.tensors[base], "stride")))
    subject = f"`{name}`" if name else _("The tensor")
    rule = _("{subject} is not contiguous: its elements are not stored row by row in memory (typical after .t(), .T, "
             ".transpose() or .permute()), so .view() cannot give it a new shape without copying. "
             ".reshape() copies when it has to.").format(subject=subject)
    fix = None
    contiguous = found and is_tensor(value) and flag(value, "is_contiguous")
    if call is not None and target is not None and not contiguous:
        code = swap(ctx, call, with_args(call, method="reshape"))
        other = ast.unparse(_contiguous_first(call, target))
        fix = code + "\n" + comment_lines(_("or: {code}").format(code=other)) if code else None
    advice = comment_lines(_("use .reshape(...) instead of .view(...)"))
    return Card(_("view() needs a contiguous tensor"), join(said, rule), fix or advice, advice=advice)


def _contiguous_first(call: ast.Call, target: ast.expr) -> ast.Call:
    """``x.view(12)`` -> ``x.contiguous().view(12)``, *target* being the ``x`` the call is made on."""
    first = ast.Call(func=ast.Attribute(value=target, attr="contiguous", ctx=ast.Load()), args=[], keywords=[])
    return ast.Call(func=ast.Attribute(value=first, attr=call_name(call), ctx=ast.Load()), args=call.args,
                    keywords=call.keywords)


def broadcastable(a: list[int], b: list[int]) -> bool:
    """True when two shapes broadcast together (compared from the right)."""
    return all(x == y or x == 1 or y == 1 for x, y in zip(reversed(a), reversed(b)))


def broadcast_shape(a: list[int], b: list[int]) -> list[int]:
    """The shape two broadcastable shapes make together: ``[2, 1, 4]`` and ``[5, 1]`` make ``[2, 5, 4]``."""
    size = max(len(a), len(b))
    a, b = [1] * (size - len(a)) + a, [1] * (size - len(b)) + b
    return [y if x == 1 else x for x, y in zip(a, b)]


def _out_of_place(ctx: ErrorContext) -> str | None:
    """``a += b`` -> ``a = a + b``; ``a.add_(b)`` -> ``a = a.add(b)``: a new tensor of the bigger shape."""
    stmt = ctx.statement
    if isinstance(stmt, ast.AugAssign):
        target = ast.unparse(stmt.target)
        return f"{target} = {target} {_OPS.get(type(stmt.op), '+')} {ast.unparse(stmt.value)}"
    for node in ctx.nodes():
        if isinstance(node, ast.Call) and call_name(node).endswith("_") and (base := receiver(node)) is not None:
            target = ast.unparse(base)
            return f"{target} = {ast.unparse(with_args(node, method=call_name(node)[:-1]))}"
    return None


_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**", ast.FloorDiv: "//", ast.Mod: "%"}


def _broadcast_fix(ctx: ErrorContext) -> str | None:
    names = list(ctx.tensors)
    if len(names) < 2:
        return None
    a, b = names[0], names[1]
    sa, sb = shape_of(ctx.tensors[a]) or [], shape_of(ctx.tensors[b]) or []
    for short, s, other in ((a, sa, sb), (b, sb, sa)):
        if len(s) < len(other) and broadcastable(s + [1], other):
            code = swap(ctx, node_for(ctx, short), f"{short}.unsqueeze(-1)")
            return f"{code}  # {fmt_shape(s)} -> {fmt_shape(s + [1])}" if code else None
    if len(sa) == len(sb) == 2 and sa == sb[::-1]:
        code = swap(ctx, node_for(ctx, b), f"{b}.T")
        return f"{code}  # {fmt_shape(sb)} -> {fmt_shape(sa)}" if code else None
    return None


def _broadcast(ctx: ErrorContext) -> Card:
    said = ctx.facts_sentence()
    inplace = "output with shape" in ctx.message
    if inplace:
        rule = _("An in-place operation writes its result into the tensor on its left, which is [{out}], "
                 "but the broadcast result is [{full}]: it cannot grow.").format(out=ctx.g("out"), full=ctx.g("bshape"))
    elif ctx.g("shapes"):
        rule = _("NumPy could not broadcast the shapes {shapes}: compared from the right, each pair of sizes "
                 "must be equal or one of them 1.").format(shapes=ctx.g("shapes").strip())
    else:
        rule = _("Broadcasting compares sizes from the right; at dimension {dim} they are {a} and {b}: "
                 "they differ and neither is 1 ({a} != {b}).").format(dim=ctx.g("dim"), a=ctx.g("a"), b=ctx.g("b"))
    advice = comment_lines(_("compared from the right, sizes must be equal or 1"))
    fix = _out_of_place(ctx) if inplace else _broadcast_fix(ctx)
    return Card(_("Shapes cannot be broadcast together"), join(said, rule), fix or advice, advice=advice)


ENTRIES: list[Entry] = [
    *LAYER_ENTRIES,
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
