"""Catalogue entries for indexing and value-conversion errors."""

from __future__ import annotations

from explorer.core.errors.context import ErrorContext, shape_of
from explorer.core.errors.entry import Card, Entry


def _index_oob(ctx: ErrorContext) -> Card:
    index, dim, size = ctx.g("idx"), int(ctx.g("dim", "0") or 0), int(ctx.g("size", "0") or 0)
    holder = next((n for n, v in ctx.tensors.items()
                   if (s := shape_of(v)) is not None and len(s) > dim and s[dim] == size), None)
    said = ctx.describe(holder) + ctx.t(". ", "。") if holder else ""
    if ctx.g("size"):
        rule = ctx.t(
            f"Dimension {dim} has size {size}, so valid indices are 0 … {size - 1} (or -{size} … -1); you used {index}.",
            f"第 {dim} 维的大小是 {size}，合法下标是 0 … {size - 1}（或 -{size} … -1），而你用了 {index}。",
        )
    else:
        rule = ctx.t("An index is larger than the size of the dimension it selects from (counting starts at 0).",
                     "有一个下标超出了所在维度的大小（下标从 0 开始计数）。")
    explanation = said + rule
    name = holder or "x"
    embedding = next((m for m in ctx.modules().values() if hasattr(m, "num_embeddings")), None)
    if embedding is not None:
        rule = ctx.t(f"An nn.Embedding with num_embeddings={embedding.num_embeddings} accepts indices 0 … {embedding.num_embeddings - 1} only.",
                     f"num_embeddings={embedding.num_embeddings} 的 nn.Embedding 只接受 0 … {embedding.num_embeddings - 1} 的下标。")
        explanation = said + rule
    fix = f"{name}[{':, ' * dim}{size - 1}]  # {ctx.t('the last valid index', '最后一个合法下标')}" if ctx.g("size") else \
        f"print({name}.shape)  # {ctx.t('indices must be < the size', '下标必须小于维度大小')}"
    if size:
        fix += f"\n{name}[{':, ' * dim}-1]  # {ctx.t('also the last one', '同样是最后一个')}"
    if embedding is not None:
        layer = next(n for n, m in ctx.modules().items() if m is embedding)
        fix = (f"# {ctx.t('indices must be <', '下标必须 <')} {embedding.num_embeddings}\n"
               f"{layer} = nn.Embedding({ctx.t('largest_index + 1', '最大下标 + 1')}, {embedding.embedding_dim})")
    return ctx.t("Index out of range", "下标越界"), explanation, fix


def _dim_oob(ctx: ErrorContext) -> Card:
    said = ctx.facts_sentence()
    if ctx.g("lo"):
        rule = ctx.t(f"Valid dimensions are {ctx.g('lo')} … {ctx.g('hi')}, but the code asked for dimension {ctx.g('got')}.",
                     f"合法的维度是 {ctx.g('lo')} … {ctx.g('hi')}，但代码用了第 {ctx.g('got')} 维。")
    elif ctx.g("nd"):
        rule = ctx.t(f"The tensor has only {ctx.g('nd')} dimension(s), and there are more indices (or a larger dim) than that.",
                     f"这个张量只有 {ctx.g('nd')} 维，但给出的下标个数（或维度编号）超过了它。")
    else:
        rule = ctx.t("A dimension number is larger than the tensor's number of dimensions.", "维度编号超过了张量的维数。")
    name = next(iter(ctx.tensors), "x")
    fix = f"print({name}.ndim, {name}.shape)  # dim {ctx.t('must be', '必须在')} -ndim … ndim-1"
    return ctx.t("Dimension out of range", "维度越界"), said + rule, fix


def _item_multi(ctx: ErrorContext) -> Card:
    name = ctx.receiver("item") or next(iter(ctx.tensors), None)
    said = ctx.describe(name) + ctx.t(". ", "。") if name in ctx.tensors else ""
    explanation = said + ctx.t(
        f"item(), float() and int() turn a tensor with exactly ONE element into a Python number; this one has {ctx.g('n') or 'more'} elements.",
        f"item()、float()、int() 只能把恰好只有一个元素的张量变成 Python 数字；这个张量有 {ctx.g('n') or '多个'} 个元素。",
    )
    target = name or "x"
    fix = f"{target}.sum().item()  # {ctx.t('reduce to one number first', '先归约成一个数')}\n{target}.tolist()  # {ctx.t('or all values as a list', '或者把所有值转成列表')}"
    return ctx.t("Only a one-element tensor converts to a number", "只有单元素张量才能转成数字"), explanation, fix


def _bool_ambiguous(ctx: ErrorContext) -> Card:
    said = ctx.facts_sentence()
    explanation = said + ctx.t(
        "`if`, `and`, `or`, `not` and `while` need one True/False, but a comparison of a tensor with many "
        "elements gives many. Say whether you mean all of them or any of them.",
        "`if`、`and`、`or`、`not`、`while` 需要一个 True/False，而多元素张量的比较会得到很多个布尔值。"
        "请说明你要的是全部满足还是任意一个满足。",
    )
    name = next(iter(ctx.tensors), "x")
    fix = f"if ({name} > 0).all():  # {ctx.t('or', '或')} .any()\n    ..."
    return ctx.t("True or False of many values is ambiguous", "多个值的真假无法确定"), explanation, fix


def _batchnorm_one(ctx: ErrorContext) -> Card:
    said = ctx.facts_sentence()
    explanation = said + ctx.t(
        "In training mode BatchNorm computes a mean and variance over the batch; with a single value per "
        "channel the variance is meaningless. Use a batch of 2 or more, or call model.eval() for inference.",
        "训练模式下 BatchNorm 要在一个批次上算均值和方差；每个通道只有一个值时方差没有意义。"
        "请使用至少 2 个样本的批次，或者推理时先调用 model.eval()。",
    )
    layer = next(iter(ctx.modules()), "model")
    return ctx.t("BatchNorm needs more than one sample", "BatchNorm 需要多于一个样本"), explanation, f"{layer}.eval()"


ENTRIES: list[Entry] = [
    Entry("index_out_of_range", ("IndexError", "RuntimeError"), (
        r"index (?P<idx>-?\d+) is out of bounds for (?:dimension|axis) (?P<dim>\d+) with size (?P<size>\d+)",
        r"index out of range in self",
        r"list index out of range", r"tuple index out of range",
    ), _index_oob),
    Entry("dim_out_of_range", ("IndexError", "ValueError"), (
        r"Dimension out of range \(expected to be in range of \[(?P<lo>-?\d+), (?P<hi>-?\d+)\], but got (?P<got>-?\d+)\)",
        r"too many indices for (?:tensor|array) of dimension (?P<nd>\d+)",
        r"axis (?P<got>-?\d+) is out of bounds for array of dimension (?P<nd>\d+)",
    ), _dim_oob),
    Entry("item_many_elements", ("RuntimeError", "ValueError", "TypeError"), (
        r"a Tensor with (?P<n>\d+) elements cannot be converted to Scalar",
        r"only one element tensors can be converted to Python scalars",
        r"only (?:length-1|size-1) arrays can be converted to Python scalars",
    ), _item_multi),
    Entry("bool_ambiguous", ("RuntimeError", "ValueError"), (
        r"Boolean value of Tensor with more than one value is ambiguous",
        r"The truth value of an array with more than one element is ambiguous",
    ), _bool_ambiguous),
    Entry("batchnorm_single_sample", ("ValueError",), (
        r"Expected more than 1 value per channel when training",
    ), _batchnorm_one),
]
