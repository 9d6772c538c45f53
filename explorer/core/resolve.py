"""Resolve inspector names such as ``sd['fc.weight']`` or ``model.fc.weight`` to objects.

Only names, attributes and constant subscripts are understood, and they are read
the way the snapshot read them, without running user code: list/tuple/dict items
through the base classes, a module's children from its ``_parameters``,
``_buffers`` and ``_modules`` tables, other attributes from the instance ``__dict__``
(a property, ``__getattr__`` or ``__getitem__`` of the user's class is never called).
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Mapping
from typing import Any

from explorer.core.i18n import _
from explorer.core.summary.static import PRISTINE_BUILTINS, instance_dict, is_sub, library, module_table
from explorer.protocol.names import name_steps

globals()["__builtins__"] = PRISTINE_BUILTINS

_PATHS: dict[str, tuple] = {}
_PATHS_LIMIT = 100_000
_MISSING = object()
_MODULE_TABLES = ("_parameters", "_buffers", "_modules")
# Descriptors implemented in C that only read a slot (no user code behind them).
_SLOT_DESCRIPTORS = (types.GetSetDescriptorType, types.MemberDescriptorType)


class ResolveError(LookupError, ValueError):
    """A name that does not denote a value in the namespace.

    Also a ``ValueError``: the agent sends a ``ValueError``'s text to the client as the one sentence for the user.
    """


def resolve(namespace: Mapping[str, Any], name: str) -> Any:
    """Return the object an inspector name denotes (see the module docstring; never runs user code)."""
    steps = _steps(name)
    root = steps[0][1]
    if root not in namespace:
        raise ResolveError(_("no variable named {name}").format(name=repr(root)))
    value = namespace[root]
    for kind, key in steps[1:]:
        value = _attribute(value, key, name) if kind == "attr" else _item(value, key, name)
    return value


def _steps(name: str) -> tuple:
    """``(("name", "sd"), ("item", "w"))`` for ``sd['w']``, memoised (the tracker asks every run)."""
    found = _PATHS.get(name) if type(name) is str else None
    if found is not None:
        return found
    try:
        found = name_steps(name)
    except ValueError as exc:  # the protocol's parser: the window reads names the same way
        raise ResolveError(_("not a variable name: {name}").format(name=repr(name))) from exc
    if len(_PATHS) >= _PATHS_LIMIT:
        _PATHS.clear()
    _PATHS[name] = found
    return found


def _no_attribute(name: str, attr: str) -> ResolveError:
    return ResolveError(_("{name}: no attribute {attr}").format(name=name, attr=repr(attr)))


def _failed(name: str, error: str) -> ResolveError:
    """Reading *name* raised *error* (Python's own words, kept as they are)."""
    # TRANSLATORS: {error} is Python's own message, such as "IndexError: list index out of range".
    return ResolveError(_("{name} cannot be read: {error}").format(name=name, error=error))


def _refused(name: str) -> ResolveError:
    return ResolveError(_("{name} cannot be read without running the code of its class").format(name=name))


def _attribute(parent: Any, attr: str, name: str) -> Any:
    """``parent.attr`` from a module's tables or the instance dict; C slots of library types allowed."""
    torch = library("torch")
    own = instance_dict(parent)
    if torch is not None and is_sub(parent, torch.nn.Module):
        if attr in own:
            return own[attr]
        for table in _MODULE_TABLES:
            found = module_table(parent, table).get(attr, _MISSING)
            if found is not _MISSING:
                return found
        raise _no_attribute(name, attr)
    try:
        found = inspect.getattr_static(parent, attr)
    except AttributeError:
        raise _no_attribute(name, attr) from None
    if attr in own and found is own[attr]:
        return found
    if type(found) in _SLOT_DESCRIPTORS:  # a C-level slot such as Tensor.grad: no Python behind it
        try:
            return found.__get__(parent, type(parent))
        except Exception as exc:
            raise _failed(name, str(exc)) from exc
    raise _refused(name)


def _item(parent: Any, key: Any, name: str) -> Any:
    """``parent[key]`` through the base class of lists, tuples, dicts and torch's container modules."""
    cls = type(parent)
    try:
        if issubclass(cls, (list, tuple)) and type(key) is int:
            return (list if issubclass(cls, list) else tuple).__getitem__(parent, key)
        if issubclass(cls, dict):
            found = dict.get(parent, key, _MISSING)  # never __missing__ or an overridden __getitem__
            if found is _MISSING:
                raise KeyError(key)
            return found
        found = _module_item(parent, key)
        if found is not _MISSING:
            return found
        if _is_library_array(parent):
            return parent[key]
    except (IndexError, KeyError, TypeError) as exc:
        raise _failed(name, f"{type(exc).__name__}: {exc}") from exc
    raise _refused(name)


def _module_item(parent: Any, key: Any) -> Any:
    """``seq[0]`` / ``mdict['k']`` / ``plist[0]`` of torch's container modules, from their tables."""
    torch = library("torch")
    if torch is None or not is_sub(parent, torch.nn.Module):
        return _MISSING
    nn = torch.nn
    table = "_parameters" if is_sub(parent, (nn.ParameterList, nn.ParameterDict)) else "_modules"
    if not is_sub(parent, (nn.Sequential, nn.ModuleList, nn.ModuleDict, nn.ParameterList, nn.ParameterDict)):
        return _MISSING
    entries = module_table(parent, table)
    if type(key) is int and not is_sub(parent, (nn.ModuleDict, nn.ParameterDict)):
        key = str(key)  # torch keys list-like children "0", "1", ...
    if type(key) is str:
        found = entries.get(key, _MISSING)
        if found is _MISSING and table == "_parameters":
            found = instance_dict(parent).get(key, _MISSING)  # a ParameterList keeps non-Parameters there
        if found is not _MISSING:
            return found
    raise KeyError(key)


def _is_library_array(value: Any) -> bool:
    """Plain torch tensors and numpy arrays, whose indexing is library code."""
    torch, numpy = library("torch"), library("numpy")
    cls = type(value)
    return (torch is not None and (cls is torch.Tensor or cls is torch.nn.Parameter)) or (
        numpy is not None and cls is numpy.ndarray)
