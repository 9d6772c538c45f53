"""Catalogue entries for using PyTorch's API the wrong way round: shape(), size[0], optimizers, Module.__init__."""

from __future__ import annotations

import ast

from explorer.core.errors.context import ErrorContext, join, lookup, resolve_callee
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.fixes import receiver, swap
from explorer.core.errors.safe import is_module, is_tensor
from explorer.core.errors.source import comment_lines, parse
from explorer.core.i18n import _


def _shape_call(ctx: ErrorContext) -> ast.Call | None:
    for node in ctx.nodes():
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "shape":
            return node
    return None


def _shape_called(ctx: ErrorContext) -> Card:
    call = _shape_call(ctx)
    target = receiver(call) if call is not None else None
    name = ast.unparse(target) if target is not None else "x"
    rule = _("`{name}.shape` is a value (a torch.Size, like a tuple), not a function, so it takes no brackets (). "
             "It is x.size() that is a method.").format(name=name)
    fix = swap(ctx, call, call.func) if call is not None and not call.args else None
    advice = comment_lines(_("write {name}.shape without ()").format(name=name))
    return Card(_("shape is not a function"), join(ctx.facts_sentence([name] if name in ctx.tensors else []), rule),
                fix or advice, advice=advice)


def _size_subscript(ctx: ErrorContext) -> ast.Subscript | None:
    for node in ctx.nodes():
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "size":
            return node
    return None


def _size_indexed(ctx: ErrorContext) -> Card:
    node = _size_subscript(ctx)
    size = node.value if node is not None else None
    name = ast.unparse(size.value) if isinstance(size, ast.Attribute) else "x"
    rule = _("`{name}.size` is a method: call it with round brackets, {name}.size(0), or index the shape "
             "instead, {name}.shape[0].").format(name=name)
    fix = None
    if node is not None:
        fix = swap(ctx, node, ast.Call(func=node.value, args=[node.slice], keywords=[]))
    advice = comment_lines(_("{name}.size(0) or {name}.shape[0]").format(name=name))
    return Card(_("size() is a method"), join(ctx.facts_sentence([name] if name in ctx.tensors else []), rule),
                fix or advice, advice=advice)


def _init_method(ctx: ErrorContext) -> ast.FunctionDef | None:
    """The ``__init__`` of a class, in the learner's file, that contains the failing line."""
    tree = parse(ctx.source)
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__" \
                        and item.lineno <= (ctx.line or 0) <= (item.end_lineno or item.lineno):
                    return item
    return None


def _module_init(ctx: ErrorContext) -> Card:
    init = _init_method(ctx)
    rule = _("A class built on nn.Module must call super().__init__() first thing in its __init__: that call makes "
             "the tables where the Module keeps its layers and parameters. Without it, assigning a layer to self "
             "has nowhere to go.")
    fix, line = None, None
    if init is not None and init.body:
        first = init.body[0]
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and len(init.body) > 1:
            first = init.body[1]  # after the docstring
        fix, line = "super().__init__()", first.lineno
    advice = comment_lines(_("call super().__init__() at the start of __init__"))
    return Card(_("super().__init__() was not called"), rule, fix or advice, mode="before", fix_line=line,
                advice=advice)


_OPTIMIZER_BASE = ("torch.optim.optimizer", "Optimizer")


def optimizer_call(ctx: ErrorContext) -> ast.Call | None:
    """The call that makes an optimizer (its class is a torch.optim.Optimizer subclass)."""
    for node in ctx.nodes():
        if isinstance(node, ast.Call) and node.args:
            found, cls = resolve_callee(node.func, ctx.scopes)
            if found and isinstance(cls, type) and any((k.__module__, k.__name__) == _OPTIMIZER_BASE for k in cls.__mro__):
                return node
    return None


def _params_code(ctx: ErrorContext, node: ast.AST) -> str | None:
    """Code for the parameters of what was given: ``[w]`` for a tensor, ``m.parameters()`` for a module."""
    found, value = lookup(node, ctx.scopes)
    code = ast.unparse(node)
    if found and is_tensor(value):
        return f"[{code}]"
    if found and is_module(value):
        return f"{code}.parameters()"
    if isinstance(node, (ast.List, ast.Tuple)):
        items = []
        for item in node.elts:
            ok, inner = lookup(item, ctx.scopes)
            items.append(f"*{ast.unparse(item)}.parameters()" if ok and is_module(inner) else ast.unparse(item))
        return f"{ast.unparse(node.elts[0])}.parameters()" if len(items) == 1 and items[0].startswith("*") \
            else "[" + ", ".join(items) + "]"
    return None


def _optimizer(ctx: ErrorContext, given: str) -> Card:
    call = optimizer_call(ctx)
    params = _params_code(ctx, call.args[0]) if call is not None else None
    if given == "tensor":
        rule = _("An optimizer takes a collection of tensors to update (a list such as [w, b], or model.parameters()), "
                 "not a single tensor.")
    else:
        rule = _("An optimizer updates tensors, not layers: give it the layer's parameters with .parameters(), "
                 "which lists its weight and bias.")
    fix = swap(ctx, call.args[0], params) if call is not None and params else None
    advice = comment_lines(_("give the optimizer model.parameters() or a list of tensors"))
    title = _("The optimizer was given a tensor instead of a list") if given == "tensor" else \
        _("The optimizer was given a layer instead of its parameters")
    return Card(title, join(ctx.facts_sentence(), rule), fix or advice, advice=advice)


def _module_not_iterable(ctx: ErrorContext) -> bool:
    call = optimizer_call(ctx)
    return call is not None and is_module(lookup(call.args[0], ctx.scopes)[1])


ENTRIES: list[Entry] = [
    Entry("shape_called", ("TypeError",), (
        r"'torch\.Size' object is not callable", r"'tuple' object is not callable",
    ), _shape_called, when=lambda ctx: _shape_call(ctx) is not None),
    Entry("size_indexed", ("TypeError",), (
        r"'(?:builtin_function_or_method|method)' object is not subscriptable",
    ), _size_indexed, when=lambda ctx: _size_subscript(ctx) is not None),
    Entry("module_init_missing", ("AttributeError",), (
        r"cannot assign (?:module|parameters?) before Module\.__init__\(\) call",
    ), _module_init),
    Entry("optimizer_got_tensor", ("TypeError",), (
        r"params argument given to the optimizer should be an iterable of Tensors or dicts, but got torch\.\w+",
    ), lambda ctx: _optimizer(ctx, "tensor")),
    Entry("optimizer_got_module", ("TypeError",), (
        r"optimizer can only optimize Tensors, but one of the params is torch\.nn\.",
        r"'\w+' object is not iterable",
    ), lambda ctx: _optimizer(ctx, "module"), when=lambda ctx: "optimize Tensors" in ctx.message or _module_not_iterable(ctx)),
]
