"""Catalogue entries for ``load_state_dict``: tensors whose shapes differ, and keys that do not match.

The message lists every key; the card names them with both shapes and says what the
pattern means: only the last layer differs (the checkpoint was trained for other
classes: load the rest, keep the new head), every key carries a ``module.`` prefix
(saved from ``nn.DataParallel``), or the file holds a dictionary around the weights
(``{"model": ..., "epoch": ...}``).
"""

from __future__ import annotations

import ast
import re

from explorer.core.errors.context import ErrorContext, fmt_shape, join, lookup
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.fixes import receiver, swap, with_args
from explorer.core.errors.source import comment_lines
from explorer.core.i18n import _, ngettext

_SIZE = re.compile(r"size mismatch for ([\w.]+): copying a param with shape torch\.Size\(\[([\d, ]*)\]\) from checkpoint, "
                   r"the shape in current model is torch\.Size\(\[([\d, ]*)\]\)")
_MISSING = re.compile(r"Missing key\(s\) in state_dict: ((?:\"[^\"]+\"(?:, )?)+)")
_UNEXPECTED = re.compile(r"Unexpected key\(s\) in state_dict: ((?:\"[^\"]+\"(?:, )?)+)")
_WRAPPERS = ("state_dict", "model_state_dict", "model", "net", "state", "weights")
_SHOWN = 4


def _shape(text: str) -> list[int]:
    return [int(d) for d in re.findall(r"\d+", text)]


def _keys(pattern: re.Pattern, message: str) -> list[str]:
    found = pattern.search(message)
    return re.findall(r"\"([^\"]+)\"", found.group(1)) if found else []


def _load_call(ctx: ErrorContext) -> ast.Call | None:
    return next(iter(ctx.calls("load_state_dict")), None)


def _names(ctx: ErrorContext) -> tuple[ast.Call | None, str, str]:
    """(the call, the model's code, the state dict's code)."""
    call = _load_call(ctx)
    model = receiver(call) if call is not None else None
    given = call.args[0] if call is not None and call.args else None
    return call, (ast.unparse(model) if model is not None else "model"), (ast.unparse(given) if given is not None else "state_dict")


def _listed(pairs: list[tuple[str, list[int], list[int]]]) -> str:
    """'`fc.weight`: [1000, 512] in the checkpoint, [10, 512] in the model; ...' for the first few keys."""
    parts = [_("`{key}`: {saved} in the checkpoint, {now} in the model").format(key=k, saved=fmt_shape(a), now=fmt_shape(b))
             for k, a, b in pairs[:_SHOWN]]
    more = len(pairs) - _SHOWN
    text = _("; ").join(parts)
    if more > 0:
        text += ngettext(" (and {n} more)", " (and {n} more)", more).format(n=more)
    return text


def _size_mismatch(ctx: ErrorContext) -> Card:
    pairs = [(k, _shape(a), _shape(b)) for k, a, b in _SIZE.findall(ctx.message)]
    call, model, state = _names(ctx)
    said = ngettext("{n} tensor of the checkpoint does not fit `{model}`: {listed}.",
                    "{n} tensors of the checkpoint do not fit `{model}`: {listed}.", len(pairs)).format(
        n=len(pairs), model=model, listed=_listed(pairs))
    layers = {k.rsplit(".", 1)[0] for k, _a, _b in pairs}
    advice = comment_lines(_("build the model with the sizes the checkpoint was trained with"))
    if len(layers) != 1 or call is None or not call.args:
        rule = _("The model was built with other sizes than the network that was saved: load_state_dict copies "
                 "each tensor into a tensor of exactly the same shape.")
        return Card(_("The checkpoint's shapes do not fit the model"), join(said, rule), advice, advice=advice)
    layer = layers.pop()
    first = pairs[0]
    rule = _("Only `{layer}` differs: the checkpoint was trained with {saved} outputs there, the model has {now} "
             "(typical when fine-tuning for other classes). Load everything else and keep the model's own, "
             "untrained `{layer}`, which training then learns.").format(
        layer=layer, saved=first[1][0] if first[1] else "?", now=first[2][0] if first[2] else "?")
    skip = "{" + ", ".join(repr(k) for k, _a, _b in pairs) + "}"
    filtered = f"{{k: v for k, v in {state}.items() if k not in skip}}"
    new = swap(ctx, call, with_args(call, args=[filtered], keywords={"strict": "False"}))
    fix = None
    if new is not None:
        fix = "\n".join([f"skip = {skip}  # " + _("shapes differ: the model keeps its own"), new,
                         comment_lines(_("or build the model with {n} outputs to use the checkpoint's `{layer}` too").format(
                             n=first[1][0] if first[1] else "?", layer=layer))])
    return Card(_("The last layer of the checkpoint has other sizes"), join(said, rule), fix or advice, advice=advice)


def _wrapper_key(ctx: ErrorContext, unexpected: list[str], missing: list[str]) -> str | None:
    """The key of the dictionary around the weights (``checkpoint["model"]``)."""
    call = _load_call(ctx)
    if call is not None and call.args:
        ok, value = lookup(call.args[0], ctx.scopes)
        if ok and isinstance(value, dict):
            for key in unexpected:
                inner = dict.get(value, key)
                if isinstance(inner, dict) and set(missing) <= set(dict.keys(inner)):
                    return key
    return next((k for k in _WRAPPERS if k in unexpected), None)


def _keys_mismatch(ctx: ErrorContext) -> Card:
    missing, unexpected = _keys(_MISSING, ctx.message), _keys(_UNEXPECTED, ctx.message)
    call, model, state = _names(ctx)
    shown = lambda keys: ", ".join(f"`{k}`" for k in keys[:_SHOWN]) + (" …" if len(keys) > _SHOWN else "")  # noqa: E731
    said = join(_("`{model}` has keys the state dict lacks: {keys}.").format(model=model, keys=shown(missing)) if missing else "",
                _("The state dict has keys `{model}` does not know: {keys}.").format(model=model, keys=shown(unexpected))
                if unexpected else "")
    advice = comment_lines(_("print(list({state}.keys())[:5]) and compare with the model's state_dict()").format(state=state))
    stripped = [k.removeprefix("module.") for k in unexpected]
    if unexpected and all(k.startswith("module.") for k in unexpected) and set(missing) <= set(stripped) and call is not None:
        rule = _("Every saved key starts with `module.`: the weights were saved from a model wrapped in "
                 "nn.DataParallel, which puts the real model under `.module`. Remove the prefix when loading.")
        new = swap(ctx, call.args[0], f'{{k.removeprefix("module."): v for k, v in {state}.items()}}') if call.args else None
        return Card(_("The saved keys carry a module. prefix"), join(said, rule), new or advice, advice=advice)
    key = _wrapper_key(ctx, unexpected, missing) if missing else None
    if key is not None and call is not None and call.args:
        rule = _("The file holds a dictionary around the weights (it has `{key}`), as training scripts save a "
                 "checkpoint with its epoch or optimizer: the model's weights are the entry `{key}`.").format(key=key)
        new = swap(ctx, call.args[0], f"{_subscript(call.args[0])}[{key!r}]")
        return Card(_("The weights are inside the checkpoint"), join(said, rule), new or advice, advice=advice)
    rule = _("load_state_dict needs the same names as the model's own state_dict(): the network that was saved "
             "is not built like this one.")
    return Card(_("The checkpoint's keys do not match the model"), join(said, rule), advice, advice=advice)


def _subscript(node: ast.expr) -> str:
    text = ast.unparse(node)
    return text if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)) else f"({text})"


ENTRIES: list[Entry] = [
    Entry("state_dict_size", ("RuntimeError",), (r"size mismatch for [\w.]+: copying a param with shape",), _size_mismatch),
    Entry("state_dict_keys", ("RuntimeError",), (r"Error\(s\) in loading state_dict for \w+:\s+(?:Missing|Unexpected) key",),
          _keys_mismatch),
]
