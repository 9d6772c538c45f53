"""Whether a value received from the kernel is of a protocol annotation (the few forms ``explorer.protocol`` uses)."""

from __future__ import annotations

import types
import typing
from typing import Any, Literal, get_args, get_origin, get_type_hints


def conforms(value: Any, hint: Any) -> bool:
    """True when *value* is of the annotation *hint*; a TypedDict needs its required keys and no others."""
    return not mismatches(value, hint)


def mismatches(value: Any, hint: Any, where: str = "") -> list[str]:
    """Where *value* differs from *hint* (``"frames[0].line: 'x' is not int | None"``); empty when it conforms."""
    origin = get_origin(hint)
    if hint is Any or hint is object:
        return []
    if origin in (typing.Union, types.UnionType):
        arms = [mismatches(value, arm, where) for arm in get_args(hint)]
        return [] if any(not found for found in arms) else [f"{where}: {value!r:.60} is not {hint}"]
    if typing.is_typeddict(hint):
        return _typeddict(value, hint, where)
    if origin in (list, dict):
        return _container(value, hint, origin, where)
    if origin is Literal:
        ok = value in get_args(hint)
    elif hint is type(None):
        ok = value is None
    elif hint is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, origin or hint)
    return [] if ok else [f"{where}: {value!r:.60} is not {hint}"]


def _typeddict(value: Any, hint: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where}: {value!r:.60} is not a {hint.__name__}"]
    fields = get_type_hints(hint)
    found = [f"{where}: {hint.__name__} lacks {key}" for key in sorted(hint.__required_keys__ - set(value))]
    found += [f"{where}: {hint.__name__} has no key {key}" for key in sorted(set(value) - set(fields))]
    for key in fields.keys() & value.keys():
        found += mismatches(value[key], fields[key], f"{where}.{key}")
    return found


def _container(value: Any, hint: Any, origin: type, where: str) -> list[str]:
    if not isinstance(value, origin):
        return [f"{where}: {value!r:.60} is not {hint}"]
    args = get_args(hint)
    if origin is list:
        return [m for i, item in enumerate(value) for m in mismatches(item, args[0], f"{where}[{i}]")] if args else []
    found: list[str] = []
    for key, item in value.items():
        found += mismatches(key, args[0], f"{where} key") + mismatches(item, args[1], f"{where}[{key!r}]")
    return found
