"""Catalogue entries for dtype errors: mixed dtypes, integer tensors where floats are needed."""

from __future__ import annotations

import ast
import re
from typing import Any

from explorer.core.errors.context import ErrorContext, call_name, join
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.fixes import node_for, receiver, swap, swap_name, with_args
from explorer.core.errors.safe import is_tensor, module_parameters, short_dtype
from explorer.core.errors.source import comment_lines, replaced
from explorer.core.errors.spelling import spell_torch
from explorer.core.i18n import _

# The many ways torch messages spell a dtype -> torch's short name.
_WORDS = {
    "float": "float32", "long int": "int64", "long": "int64", "double": "float64", "half": "float16",
    "c10::half": "float16", "bfloat16": "bfloat16", "c10::bfloat16": "bfloat16", "int": "int32",
    "byte": "uint8", "unsigned char": "uint8", "bool": "bool", "short": "int16", "short int": "int16",
    "char": "int8", "signed char": "int8", "complexfloat": "complex64", "c10::complex<float>": "complex64",
    "complexdouble": "complex128",
}
_LEGACY = {"Float": "float32", "Double": "float64", "Long": "int64", "Int": "int32", "Half": "float16",
           "BFloat16": "bfloat16", "Byte": "uint8", "Bool": "bool", "Short": "int16", "Char": "int8"}
_CONVERT = {"float32": ".float()", "float64": ".double()", "int64": ".long()", "int32": ".int()",
            "float16": ".half()", "bfloat16": ".bfloat16()", "bool": ".bool()"}


def dtype_name(word: str) -> str | None:
    """Normalise 'Long', 'long int', 'torch.FloatTensor', 'torch.float32' to 'int64'/'float32'."""
    word = word.strip().strip("'\"")
    legacy = re.fullmatch(r"torch\.(?:cuda\.)?(\w+)Tensor", word)
    if legacy:
        return _LEGACY.get(legacy.group(1))
    if word.startswith("torch."):
        return word[len("torch."):]
    return _WORDS.get(word.lower())


def convert_call(dtype: str, ctx: ErrorContext) -> str | None:
    """'.float()' for float32, else '.to(torch.<dtype>)' spelled as the script names torch (None without torch)."""
    if dtype in _CONVERT:
        return _CONVERT[dtype]
    torch = spell_torch(ctx.scopes)
    return f".to({torch}.{dtype})" if torch else None


def module_dtype(module: Any) -> str | None:
    """The dtype of a module's first parameter (None for a module without parameters)."""
    params = module_parameters(module, limit=1)
    return short_dtype(params[0][1]) if params else None


def _target_dtype(ctx: ErrorContext) -> str | None:
    """The dtype everything should have: the layer's, else the message's 'expected', else the first float."""
    for module in ctx.modules().values():
        found = module_dtype(module)
        if found:
            return found
    wanted = dtype_name(ctx.g("want")) if ctx.g("want") else None
    if wanted:
        return wanted
    floats = [short_dtype(v) for v in ctx.tensors.values() if short_dtype(v).startswith(("float", "bfloat"))]
    return floats[0] if floats else None


def _dtype_mismatch(ctx: ErrorContext) -> Card:
    target = _target_dtype(ctx)
    tensors = [n for n, v in ctx.tensors.items() if is_tensor(v)]
    offenders = [n for n in tensors if target and short_dtype(ctx.tensors[n]) != target]
    layers = {m: v for m, v in ctx.modules().items() if m != "self" and module_dtype(v)}
    parts = [_dtype_text(ctx, n) for n in tensors]
    parts += [_("the weights of `{name}` are {dtype}").format(name=m, dtype=f"torch.{module_dtype(v)}")
              for m, v in layers.items()]
    listed = _("The values on this line have different dtypes: {listed}.").format(listed=_("; ").join(parts)) if parts else ""
    rule = _("Layers, matrix products and most operations need all their inputs in one dtype and do not convert "
             "by themselves. Whole numbers (labels, torch.tensor([1, 2]), images read as uint8) usually need .float().")
    fix = None
    layer = next(iter(ctx.modules()), None)
    if layer and target != "float32" and offenders and all(short_dtype(ctx.tensors[n]) == "float32" for n in offenders):
        fix = swap(ctx, node_for(ctx, layer), f"{layer}.float()")
        fix = f"{fix}  # " + _("the layer back to the default float32") if fix else None
    elif offenders and target and (moved := _at_caller(ctx, offenders[0], target)) is not None:
        return Card(_("The data types don't match"), join(listed, rule), moved[0], fix_line=moved[1], scopes=moved[2],
                    advice=comment_lines(_("convert the inputs to one dtype, e.g. with .float()")))
    elif offenders and target and convert_call(target, ctx) and ctx.statement is not None:
        nodes = [node_for(ctx, n) for n in offenders[:3]]
        swaps: dict[ast.AST, ast.AST | str] = {
            node: f"{n}{convert_call(target, ctx)}" for n, node in zip(offenders, nodes) if node is not None}
        if None not in nodes:
            fix = replaced(ctx.statement, swaps)
    advice = comment_lines(_("convert the inputs to one dtype, e.g. with .float()"))
    return Card(_("The data types don't match"), join(listed, rule), fix or advice, advice=advice)


def _dtype_text(ctx: ErrorContext, name: str) -> str:
    """'`x` is torch.float64', or '`X_train` is torch.float64, which `forward` calls `x`'."""
    dtype = f"torch.{short_dtype(ctx.tensors[name])}"
    alias = ctx.aliases.get(name)
    if alias is not None and alias[2]:
        return _("`{outer}` is {dtype}, which `{function}` calls `{name}`").format(
            outer=alias[0], dtype=dtype, function=ctx.function, name=name)
    return _("`{name}` is {dtype}").format(name=name, dtype=dtype)


def _at_caller(ctx: ErrorContext, name: str, dtype: str) -> tuple[str, int, list] | None:
    """(code, line, scopes) converting the data where the learner passed it, when *name* is a parameter of forward."""
    alias = ctx.aliases.get(name)
    convert = convert_call(dtype, ctx)
    if alias is None or not alias[2] or convert is None:
        return None
    outer, caller, _same = alias
    stmt = caller.statement
    code = swap_name(caller, outer, outer + convert)
    return (code, stmt.lineno, caller.scopes) if code and stmt is not None else None


def _float_literals(node: ast.expr) -> ast.expr | None:
    """A copy of a list/tuple of whole-number literals written as floats (``[1, 2]`` -> ``[1.0, 2.0]``)."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return ast.Constant(value=float(node.value))
    if isinstance(node, (ast.List, ast.Tuple)) and node.elts:
        items = [_float_literals(e) for e in node.elts]
        floats = [e for e in items if e is not None]
        return None if len(floats) < len(items) else type(node)(elts=floats, ctx=ast.Load())
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _float_literals(node.operand)
        return ast.UnaryOp(op=ast.USub(), operand=inner) if inner is not None else None
    return None


def _grad_int(ctx: ErrorContext) -> Card:
    said = ctx.facts_sentence()
    rule = _("Only floating-point (or complex) tensors can require gradients: a gradient is a small change such as "
             "0.001, which a whole number cannot hold. Writing whole numbers like [1, 2] gives an int64 tensor.")
    fix = None
    call = next((c for c in ctx.nodes() if isinstance(c, ast.Call)
                 and any(k.arg == "requires_grad" for k in c.keywords)), None)
    takes_data = call is not None and call_name(call) in ("tensor", "as_tensor", "arange") and \
        not any(k.arg == "dtype" for k in call.keywords)
    data = call.args[0] if takes_data and call is not None and call.args else None
    literal = _float_literals(data) if data is not None else None
    if data is not None and literal is not None:
        fix = swap(ctx, data, literal)
        fix = f"{fix}  # " + _("1.0 instead of 1: a float tensor") if fix else None
    elif call is not None and spell_torch(ctx.scopes):
        fix = swap(ctx, call, with_args(call, keywords={"dtype": f"{spell_torch(ctx.scopes)}.float32"}))
    else:
        flip = next((c for c in ctx.calls("requires_grad_") if receiver(c) is not None), None)
        flipped = receiver(flip) if flip is not None else None
        if flip is not None and flipped is not None and isinstance(ctx.statement, ast.Expr):
            name = ast.unparse(flipped)
            fix = f"{name} = {name}.float().{ast.unparse(with_args(flip)).split('.')[-1]}"
    advice = comment_lines(_("make the tensor a float one first, e.g. with .float()"))
    return Card(_("Integer tensors cannot require gradients"), join(said, rule), fix or advice, advice=advice)


def _op_dtype(ctx: ErrorContext) -> Card:
    got = dtype_name(ctx.g("got")) or ctx.g("got")
    ints = [n for n, v in ctx.tensors.items() if short_dtype(v) == got]
    op = ctx.g("op")
    rule = _("{op} is not defined for {dtype} tensors: it needs floating-point values (mean, randn, normal, "
             "softmax and most maths give fractions).").format(op=op or "?", dtype=got)
    fix = None
    call = next(iter(ctx.calls(op)), None) if op else None
    if call is not None:
        if (base := receiver(call)) is not None and ast.unparse(base) in ints:
            fix = swap(ctx, base, f"{ast.unparse(base)}.float()")
        elif call.args and ast.unparse(call.args[0]) in ints:
            fix = swap(ctx, call.args[0], f"{ast.unparse(call.args[0])}.float()")
        elif any(k.arg == "dtype" for k in call.keywords) and spell_torch(ctx.scopes):
            fix = swap(ctx, call, with_args(call, keywords={"dtype": f"{spell_torch(ctx.scopes)}.float32"}))
    advice = comment_lines(_("convert to floats first with .float()"))
    return Card(_("This operation needs floats, not {dtype}").format(dtype=got), join(ctx.facts_sentence(ints), rule),
                fix or advice, advice=advice)


def _index_dtype(ctx: ErrorContext) -> Card:
    inside = {ast.unparse(n) for s in ctx.nodes() if isinstance(s, ast.Subscript) for n in ast.walk(s.slice)}
    bad = [n for n, v in ctx.tensors.items() if short_dtype(v).startswith(("float", "bfloat", "complex"))
           and (n in inside or not inside)]
    rule = _("Indices (and the inputs of nn.Embedding) must be integer (int64/int32) or bool tensors: "
             "position 1.0 is not a place in a tensor.")
    fix = None
    if bad and ctx.statement is not None:
        nodes = [node_for(ctx, n) for n in bad[:3]]
        swaps: dict[ast.AST, ast.AST | str] = {node: f"{n}.long()" for n, node in zip(bad, nodes) if node is not None}
        fix = replaced(ctx.statement, swaps) if None not in nodes else None
    advice = comment_lines(_("turn the indices into integers with .long()"))
    return Card(_("Indices must be integers"), join(ctx.facts_sentence(bad), rule), fix or advice, advice=advice)


ENTRIES: list[Entry] = [
    Entry("dtype_mismatch", ("RuntimeError", "ValueError"), (
        r"expected scalar type (?P<want>\w+) but found (?P<got>\w+)",
        r"expected m1 and m2 to have the same dtype, but got: (?P<want>[\w: <>]+?) != (?P<got>[\w: <>]+)",
        r"mat1 and mat2 must have the same dtype, but got (?P<got>\w+) and (?P<want>\w+)",
        r"Input type \((?P<got>[\w. ]+)\) and (?:weight|bias) type \((?P<want>[\w. ]+)\) should be the same",
        r"self and mat2 must have the same dtype", r"expected both vectors to have same dtype",
        r"addmv input tensors must have the same dtype",
        r"Found dtype (?P<got>\w+) but expected (?P<want>\w+)",
        r"result type (?P<want>\w+) can't be cast to the desired output type (?P<got>\w+)",
        r"Expected self\.dtype to be equal to src\.dtype", r"Index put requires the source and destination dtypes match",
        r"RNN input dtype \((?P<got>[\w.]+)\) does not match weight dtype \((?P<want>[\w.]+)\)",
        r"mixed dtype \(CPU\): all inputs must share same datatype",
    ), _dtype_mismatch),
    Entry("grad_integer_dtype", ("RuntimeError",), (
        r"[Oo]nly Tensors of floating point (?:and complex )?dtype can require gradients",
    ), _grad_int),
    Entry("op_needs_float", ("RuntimeError", "NotImplementedError"), (
        r"(?P<op>\w+)\(\): could not infer output dtype\. Input dtype must be either a floating point or complex dtype\. Got: (?P<got>\w+)",
        r"\"(?P<op>\w+)\" not implemented for '(?P<got>\w+)'",
    ), _op_dtype),
    Entry("index_dtype", ("IndexError", "RuntimeError"), (
        r"tensors used as indices must be long, int, byte or bool tensors",
        r"Expected tensor for argument #1 'indices' to have one of the following scalar types",
    ), _index_dtype),
]
