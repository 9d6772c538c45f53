"""Which names of a namespace are the user's variables, and the tensors/arrays among them."""

from __future__ import annotations

import functools
import types
import warnings
from typing import Any

from explorer.core.summary.dispatch import plain_types, summarize_into
from explorer.core.summary.ndarray import array_var
from explorer.core.summary.static import PRISTINE_BUILTINS, inspecting, library
from explorer.core.summary.tensor import tensor_var

globals()["__builtins__"] = PRISTINE_BUILTINS

# IPython puts these in the user namespace; they are not the user's variables.
HIDDEN_NAMES = frozenset({"In", "Out", "exit", "quit", "get_ipython"})

_CODE_TYPES: tuple[type, ...] = (
    types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
    types.BuiltinMethodType, types.MethodWrapperType, types.WrapperDescriptorType,
    types.MethodDescriptorType, types.ClassMethodDescriptorType, types.GetSetDescriptorType,
    types.MemberDescriptorType, functools.partial, staticmethod, classmethod, property, type,
)
# id(class) -> (class, hidden?): identity keys, so a metaclass's __hash__/__eq__ is never called.
_SKIP_CACHE: dict[int, tuple[type, bool]] = {}


def is_hidden(name: Any, value: Any) -> bool:
    """True for names the inspector does not show: private names, IPython's, and code objects."""
    if type(name) is not str or name.startswith("_") or name in HIDDEN_NAMES:
        return True
    cls = type(value)
    cached = _SKIP_CACHE.get(id(cls))
    if cached is not None and cached[0] is cls:
        return cached[1]
    skip = _is_code_type(cls)
    if len(_SKIP_CACHE) > 4096:
        _SKIP_CACHE.clear()
    _SKIP_CACHE[id(cls)] = (cls, skip)
    return skip


def _is_code_type(cls: type) -> bool:
    """Modules, functions, classes and builtins (numpy ufuncs and dispatchers included)."""
    try:
        if issubclass(cls, _CODE_TYPES):
            return True
        numpy = library("numpy")
        if numpy is not None:
            # np.sum & co. are not plain functions in numpy 2 but dispatcher objects.
            np_code = (numpy.ufunc, type(numpy.sum))
            return issubclass(cls, np_code) and not issubclass(cls, numpy.ndarray)
    except Exception:  # a hostile __subclasscheck__: show the value rather than fail  # noqa: BLE001
        return False
    return False


def summarize_namespace(namespace: dict[str, Any], entries: list[tuple[dict, Any]]) -> list[dict[str, Any]]:
    """The VARs of every variable :func:`is_hidden` lets through, in the namespace's order.

    Equal to calling :func:`~explorer.core.summary.dispatch.summarize_into` for each
    shown name; plain tensors and arrays (most variables) skip the generic steps.
    Call inside :func:`inspecting`.

    Parameters
    ----------
    namespace : dict
        The user namespace (read through ``dict.items``: a dict subclass's overrides never run).
    entries : list
        Receives ``(var, value)`` per tensor/array, as in ``summarize_into``.

    Returns
    -------
    list of dict
        One VAR per shown variable.
    """
    tensor, ndarray, torch = plain_types()
    variables: list[dict[str, Any]] = []
    append, remember = variables.append, entries.append
    for name, value in list(dict.items(namespace)):
        cls = type(value)
        if (cls is tensor or cls is ndarray) and type(name) is str and name[:1] != "_" and name not in HIDDEN_NAMES:
            try:
                var = tensor_var(name, value, torch) if cls is tensor else array_var(name, value, cls)
            except Exception:  # noqa: BLE001 - as summarize_into: never a failing snapshot
                append(summarize_into(name, value, entries))
                continue
            remember((var, value))
            append(var)
        elif not is_hidden(name, value):
            append(summarize_into(name, value, entries))
    return variables


def array_entries(namespace: dict[str, Any]) -> list[tuple[str, Any]]:
    """``(name, value)`` of every tensor/array the snapshot lists, children included, in snapshot order.

    For on-demand requests (e.g. one variable's overlaps) that must agree with the
    snapshot on names (``model[0].weight``) and on group numbering.

    Parameters
    ----------
    namespace : dict
        The user namespace.

    Returns
    -------
    list of (str, object)
        The names are the VARs' ``name`` fields; they resolve with :func:`explorer.core.resolve.resolve`.
    """
    entries: list[tuple[dict, Any]] = []
    with warnings.catch_warnings(), inspecting():
        warnings.simplefilter("ignore")
        summarize_namespace(namespace, entries)
    return [(var["name"], value) for var, value in entries]
