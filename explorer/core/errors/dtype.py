"""Catalogue entries for dtype errors: mixed dtypes, integer tensors where floats are needed."""

from __future__ import annotations

import re
from typing import Any

from explorer.core.errors.context import ErrorContext, dtype_of
from explorer.core.errors.entry import Card, Entry

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


def convert_call(dtype: str) -> str:
    """'.float()' for float32, else '.to(torch.<dtype>)'."""
    return _CONVERT.get(dtype, f".to(torch.{dtype})")


def short_dtype(value: Any) -> str:
    """'float32' for torch.float32 and numpy float32 alike."""
    return dtype_of(value).replace("torch.", "")


def module_dtype(module: Any) -> str | None:
    """The dtype of a module's first parameter (None for a module without parameters)."""
    try:
        return short_dtype(next(module.parameters()))
    except (StopIteration, AttributeError, TypeError):
        return None


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
    tensors = [n for n, v in ctx.tensors.items() if type(v).__module__.startswith("torch")]
    offenders = [n for n in tensors if target and short_dtype(ctx.objects[n]) != target]
    parts = [f"`{n}` {dtype_of(ctx.objects[n])}" for n in tensors]
    parts += [f"`{m}` ({ctx.t('weights', '权重')}) torch.{module_dtype(v)}" for m, v in ctx.modules().items() if module_dtype(v)]
    listed = ", ".join(parts) if parts else ctx.t("the inputs", "输入")
    explanation = ctx.t(
        f"The values on this line have different dtypes: {listed}. Layers, matrix products and most "
        "operations need every input in the same dtype and do not convert silently. Integer data "
        "(labels, torch.tensor([1, 2]), images read as uint8) usually needs .float().",
        f"这一行里的值 dtype 不一致：{listed}。网络层、矩阵乘法和大多数运算要求所有输入的 dtype 相同，"
        "不会自动转换。整数数据（标签、torch.tensor([1, 2])、读成 uint8 的图像）通常需要 .float()。",
    )
    layer = next(iter(ctx.modules()), None)
    if layer and target != "float32" and offenders and all(short_dtype(ctx.objects[n]) == "float32" for n in offenders):
        fix = f"{layer} = {layer}.float()  # {ctx.t('back to the default float32', '改回默认的 float32')}"
    elif offenders and target:
        fix = "\n".join(f"{n} = {n}{convert_call(target)}" for n in offenders[:3])
    else:
        fix = f"x = x{convert_call(target or 'float32')}  # {ctx.t('make all inputs one dtype', '让所有输入 dtype 一致')}"
    return ctx.t("Data types don't match", "数据类型（dtype）不一致"), explanation, fix


def _grad_int(ctx: ErrorContext) -> Card:
    explanation = ctx.t(
        "Only floating-point (or complex) tensors can require gradients: a gradient is a small real-valued "
        "change, which an integer cannot hold. Writing whole numbers like [1, 2] gives an int64 tensor.",
        "只有浮点（或复数）张量才能 requires_grad：梯度是连续的微小变化，整数无法表示。"
        "像 [1, 2] 这样写整数会得到 int64 张量。",
    )
    line = ctx.code_line.strip()
    if "requires_grad=True" in line and "dtype=" not in line:
        fix = line.replace("requires_grad=True", "dtype=torch.float32, requires_grad=True", 1)
    else:
        fix = "x = torch.tensor([1.0, 2.0], requires_grad=True)  # 1.0, not 1"
    return ctx.t("Integer tensors cannot require grad", "整数张量不能求梯度"), explanation, fix


def _op_dtype(ctx: ErrorContext) -> Card:
    got = dtype_name(ctx.g("got")) or ctx.g("got")
    ints = [n for n, v in ctx.tensors.items() if short_dtype(v) == got]
    said = ctx.describe_all(ints) + ctx.t(". ", "。") if ints else ""
    op = ctx.g("op") or ctx.t("This operation", "这个运算")
    explanation = said + ctx.t(
        f"{op} is not defined for {got} tensors; it needs floating point values (mean, randn, normal, "
        "softmax and most maths return fractions).",
        f"{op} 不支持 {got} 类型的张量，需要浮点数（mean、randn、normal、softmax 等运算的结果都是小数）。",
    )
    if ints:
        fix = "\n".join(f"{n} = {n}.float()" for n in ints[:3])
    elif "dtype=" in ctx.code_line:
        fix = re.sub(r"dtype=[\w.]+", "dtype=torch.float32", ctx.code_line.strip())
    else:
        fix = "x = x.float()"
    return ctx.t(f"Operation needs floats, got {got}", f"运算需要浮点数，却得到 {got}"), explanation, fix


def _index_dtype(ctx: ErrorContext) -> Card:
    bad = [n for n, v in ctx.tensors.items() if short_dtype(v).startswith(("float", "bfloat", "complex"))]
    said = ctx.describe_all(bad) + ctx.t(". ", "。") if bad else ""
    explanation = said + ctx.t(
        "Indices (and nn.Embedding inputs) must be integer (int64/int32) or bool tensors: "
        "position 1.0 is not a valid place in a tensor.",
        "索引（以及 nn.Embedding 的输入）必须是整数（int64/int32）或 bool 张量：1.0 不是合法的位置。",
    )
    fix = "\n".join(f"{n} = {n}.long()" for n in bad[:3]) or "idx = idx.long()"
    return ctx.t("Indices must be integers", "索引必须是整数"), explanation, fix


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
        r"Only Tensors of floating point and complex dtype can require gradients",
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
