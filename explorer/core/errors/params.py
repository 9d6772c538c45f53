"""Catalogue entry for an optimizer given an empty parameter list, and why the model has no parameters.

``model.parameters()`` lists only what the Module registered: layers assigned to ``self``
inside ``__init__`` and ``nn.Parameter`` tensors. The card looks at the learner's class
and its instance to say which mistake emptied it: a misspelt ``__init__`` (never run),
layers kept in a plain list or dict, plain tensors instead of ``nn.Parameter``, every
parameter frozen, or a generator already used up.
"""

from __future__ import annotations

import ast
import types
from typing import Any

from explorer.core.errors.api import optimizer_call
from explorer.core.errors.built import scopes_at
from explorer.core.errors.context import ErrorContext, dotted_name, join, lookup
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.safe import (
    flag,
    instance_dict,
    is_module,
    is_tensor,
    list_items,
    module_children,
    module_parameters,
)
from explorer.core.errors.source import comment_lines, parse
from explorer.core.i18n import _

_TYPOS = ("_init_", "__init", "_init__", "__init_", "__int__", "__innit__", "__intit__", "init", "__inti__")


def _model(ctx: ErrorContext, given: ast.expr) -> tuple[str, Any] | None:
    """(code, module) of the model whose ``.parameters()`` the optimizer was given."""
    for node in ast.walk(given):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "parameters":
            ok, value = lookup(node.func.value, ctx.scopes)
            if ok and is_module(value):
                return ast.unparse(node.func.value), value
    return None


def _class_def(ctx: ErrorContext, module: Any) -> ast.ClassDef | None:
    tree = parse(ctx.source)
    name = type(module).__name__
    return next((n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == name), None) if tree else None


def _typo(cls: ast.ClassDef) -> ast.FunctionDef | None:
    """A method meant as ``__init__``, when the class has no ``__init__`` of its own."""
    methods = [n for n in cls.body if isinstance(n, ast.FunctionDef)]
    if any(m.name == "__init__" for m in methods):
        return None
    return next((m for m in methods if m.name in _TYPOS), None)


def _assignment(cls: ast.ClassDef, attr: str) -> ast.Assign | None:
    """The first ``self.<attr> = ...`` in the class."""
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign) and any(dotted_name(t) == f"self.{attr}" for t in node.targets):
            return node
    return None


def _unregistered(module: Any) -> tuple[str, str] | None:
    """(attribute, kind) of the first attribute holding layers or tensors the Module does not see."""
    for attr, value in instance_dict(module).items():
        if attr.startswith("_") or attr == "training":
            continue
        items = list_items(value, 50) if isinstance(value, (list, tuple)) else \
            list(dict.values(value)) if isinstance(value, dict) else []
        if items and any(is_module(i) for i in items):
            return attr, "ModuleDict" if isinstance(value, dict) else "ModuleList"
        if is_tensor(value):
            return attr, "Parameter"
    return None


def _registered_fix(ctx: ErrorContext, cls: ast.ClassDef, attr: str, kind: str) -> tuple[str, int] | None:
    """(code, line) registering ``self.<attr>``: wrapped in nn.ModuleList / nn.ModuleDict / nn.Parameter."""
    stmt = _assignment(cls, attr)
    wrapper = ctx.spell(f"torch.nn.{kind}")
    if stmt is None or wrapper is None:
        return None
    value = stmt.value
    empty = isinstance(value, (ast.List, ast.Dict)) and not getattr(value, "elts", getattr(value, "keys", [1]))
    inner = "" if empty else ast.unparse(value)
    if kind == "Parameter" and isinstance(value, ast.Call):
        value = _without_requires_grad(value)
        inner = ast.unparse(value)
    return f"self.{attr} = {wrapper}({inner})", stmt.lineno


def _without_requires_grad(call: ast.Call) -> ast.Call:
    """The call without ``requires_grad=True`` (a Parameter requires grad by itself)."""
    twin = ast.Call(func=call.func, args=call.args, keywords=[k for k in call.keywords if k.arg != "requires_grad"])
    return twin


def _frozen(module: Any) -> tuple[int, str | None]:
    """(how many parameters there are, the last child that has some), when every one is frozen."""
    params = module_parameters(module)
    if not params or any(flag(p, "requires_grad") for _, p in params):
        return 0, None
    children = [n for n, c in module_children(module).items() if module_parameters(c, limit=1)]
    return len(params), (children[-1] if children else None)


def _spent_generator(ctx: ErrorContext, given: ast.expr) -> ast.Assign | None:
    """The ``params = model.parameters()`` statement when *given* is that generator, already used up."""
    ok, value = lookup(given, ctx.scopes)
    if not (ok and isinstance(value, types.GeneratorType) and isinstance(given, ast.Name)):
        return None
    tree = parse(ctx.source)
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
             and dotted_name(n.targets[0]) == given.id and (n.lineno < (ctx.line or 0))] if tree else []
    return max(found, key=lambda n: n.lineno) if found else None


def _empty_params(ctx: ErrorContext) -> Card:
    call = optimizer_call(ctx)
    given = call.args[0] if call is not None and call.args else None
    rule = _("An optimizer updates the tensors it is given; here it was given none. model.parameters() lists only "
             "what the Module registered: layers assigned to self inside __init__, and nn.Parameter tensors.")
    advice = comment_lines(_("check that print(list(model.parameters())) shows the weights"))
    if given is None:
        return Card(_("The optimizer got no parameters"), rule, advice, advice=advice)
    spent = _spent_generator(ctx, given)
    if spent is not None:
        said = _("`{name}` is a generator that was already read to the end (list(), a loop or len()), so nothing is "
                 "left for the optimizer: a generator can be read only once.").format(name=ast.unparse(given))
        fix = f"{dotted_name(spent.targets[0])} = list({ast.unparse(spent.value)})  # " + _("a list can be read again")
        return Card(_("The optimizer got an empty parameter list"), join(said, rule), fix, fix_line=spent.lineno,
                    advice=advice)
    found = _model(ctx, given)
    if found is None:
        return Card(_("The optimizer got an empty parameter list"), rule, advice, advice=advice)
    name, module = found
    count, last = _frozen(module)
    if count:
        said = _("All {n} parameters of `{model}` have requires_grad=False (they are frozen), so the filter on "
                 "requires_grad keeps none of them.").format(n=count, model=name)
        unfreeze = (f"for p in {name}.{last}.parameters():\n    p.requires_grad = True  # " + _("train the last layer")) \
            if last else None
        return Card(_("Every parameter is frozen"), join(said, rule), unfreeze or advice, mode="before", advice=advice)
    return _class_card(ctx, name, module, rule, advice)


def _class_card(ctx: ErrorContext, name: str, module: Any, rule: str, advice: str) -> Card:
    """The card when the model has no parameters at all: what its class did wrong."""
    cls = _class_def(ctx, module)
    title = _("`{model}` has no parameters").format(model=name)
    said = _("`{model}` is a {cls} with no registered layers or parameters.").format(model=name, cls=type(module).__name__)
    if cls is None:
        return Card(title, join(said, rule), advice, advice=advice)
    typo = _typo(cls)
    if typo is not None:
        why = _("The class defines `{wrong}` instead of `__init__` (two underscores on each side), so Python never "
                "runs it when the model is made, and no layer is created.").format(wrong=typo.name)
        header = f"def __init__({ast.unparse(typo.args)}):"
        return Card(title, join(said, why, rule), header, fix_line=typo.lineno, advice=advice)
    hidden = _unregistered(module)
    if hidden is not None:
        attr, kind = hidden
        if kind == "Parameter":
            why = _("`self.{attr}` is a plain tensor: the Module registers a tensor as a parameter only when it is an "
                    "nn.Parameter.").format(attr=attr)
        else:
            why = _("`self.{attr}` is a plain Python {type} of layers: the Module does not look inside lists and "
                    "dicts, so their weights are not its parameters. {kind} registers them.").format(
                attr=attr, type="dict" if kind == "ModuleDict" else "list", kind=f"nn.{kind}")
        fixed = _registered_fix(ctx, cls, attr, kind)
        if fixed is not None:
            return Card(title, join(said, why, rule), fixed[0], fix_line=fixed[1], advice=advice,
                        scopes=scopes_at(ctx, fixed[1]))
        return Card(title, join(said, why, rule), advice, advice=advice)
    return Card(title, join(said, rule), advice, advice=advice)


ENTRIES: list[Entry] = [
    Entry("optimizer_empty_params", ("ValueError",), (r"optimizer got an empty parameter list",), _empty_params),
]
