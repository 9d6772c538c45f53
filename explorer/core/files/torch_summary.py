"""The one-line summary and teaching hint of a checkpoint, from what its pickle says (nothing loaded)."""

from __future__ import annotations

from typing import Any

from explorer.core.files.common import human_bytes, human_count, shape_text
from explorer.core.files.torch_facts import TensorFacts, TorchValue
from explorer.core.i18n import _, ngettext

MAX_WALK = 100_000  # containers/tensors visited when summarising (a hostile file may hold millions)
MAX_KEY_TEXT = 60  # a first key longer than this is not quoted in the hint


def walk_tensors(obj: Any) -> list[TensorFacts]:
    """Every tensor reachable through dicts, lists, tuples and sets (bounded, cycle-safe)."""
    found: list[TensorFacts] = []
    stack, seen, steps = [obj], set(), 0
    while stack and steps < MAX_WALK:
        item = stack.pop()
        steps += 1
        if isinstance(item, TensorFacts):
            found.append(item)
        elif isinstance(item, (dict, list, tuple, set, frozenset)) and id(item) not in seen:
            seen.add(id(item))
            stack.extend(item.values() if isinstance(item, dict) else item)
    return found


def storage_bytes(tensors: list[TensorFacts]) -> int:
    """Bytes of the distinct storages (tied weights share one and are counted once; meta tensors have none)."""
    storages = {ref.key: ref.nbytes for t in tensors for ref in t.storages}
    return sum(storages.values())


def _type_name(obj: Any) -> str:
    """The name a learner would see from ``type(x).__name__`` (``Size``, ``dtype``, ``bytes``)."""
    if isinstance(obj, TorchValue):
        return {"Size": "Size", "device": "device", "dtype": "dtype", "layout": "layout"}.get(obj.kind, obj.kind)
    return type(obj).__name__


def _describe_tensor(t: TensorFacts) -> str:
    size = human_bytes(storage_bytes([t]))
    if t.layout == "nested":
        # TRANSLATORS: a nested tensor holds several tensors of different shapes; {dtype} e.g. "float32".
        return ngettext("nested {dtype} tensor of {n} tensor, {size}", "nested {dtype} tensor of {n} tensors, {size}",
                        t.shape[0]).format(dtype=t.dtype, n=t.shape[0], size=size)
    return _("{dtype} tensor of shape {shape}, {size}").format(dtype=t.dtype, shape=shape_text(t.shape), size=size)


def describe(obj: Any) -> str:
    """One-line summary: ``state_dict with 12 tensors, 1.2 M parameters, 4.6 MB``."""
    if isinstance(obj, TensorFacts):
        return _describe_tensor(obj)
    tensors = walk_tensors(obj)
    if is_state_dict(obj):
        kind = "state_dict"
    elif isinstance(obj, dict):
        # TRANSLATORS: {type} is a Python type name such as "dict" or "OrderedDict".
        kind = ngettext("{type} of {n} key", "{type} of {n} keys", len(obj)).format(type=type(obj).__name__, n=len(obj))
    elif isinstance(obj, (list, tuple)):
        kind = ngettext("{type} of {n} item", "{type} of {n} items", len(obj)).format(
            type=type(obj).__name__, n=len(obj))
    else:
        return _("{type} (no tensors)").format(type=_type_name(obj)) if not tensors else _type_name(obj)
    params = sum(t.numel for t in tensors)
    # TRANSLATORS: {what} is "state_dict" or e.g. "list of 3 items"; {tensors} "2 tensors"; {parameters} "1.2 M parameters".
    return _("{what} with {tensors}, {parameters}, {size}").format(
        what=kind, tensors=ngettext("{n} tensor", "{n} tensors", len(tensors)).format(n=len(tensors)),
        parameters=ngettext("{n} parameter", "{n} parameters", params).format(n=human_count(params)),
        size=human_bytes(storage_bytes(tensors)))


def is_state_dict(obj: Any) -> bool:
    """A non-empty mapping of str keys to tensors (what ``model.state_dict()`` gives)."""
    return isinstance(obj, dict) and bool(obj) and all(
        isinstance(k, str) and isinstance(v, TensorFacts) for k, v in obj.items()
    )


def hint(obj: Any, name: str, mapped: bool) -> str | None:
    """A teaching note about what was loaded."""
    first = None
    if is_state_dict(obj):
        first = _("{name} maps parameter names to tensors; {code} copies them into a model.").format(
            name=name, code=f"model.load_state_dict({name})")
    elif isinstance(obj, dict) and obj and len(key := repr(next(iter(obj)))) <= MAX_KEY_TEXT:
        first = _("{name} is a dict; {item} is its first entry.").format(name=name, item=f"{name}[{key}]")
    if not mapped:
        return first
    if first is None:
        return _("The tensors are memory-mapped from the file, so opening it is instant.")
    # TRANSLATORS: {hint} is one of the sentences above about what the file holds.
    return _("{hint} The tensors are memory-mapped from the file, so opening it is instant.").format(hint=first)
