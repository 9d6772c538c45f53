"""Which names of a namespace are the user's variables, and the tensors/arrays among them."""

from __future__ import annotations

import functools
import sys
import types
import warnings
from typing import Any

from explorer.core.summary.dispatch import summarize_into

# IPython puts these in the user namespace; they are not the user's variables.
HIDDEN_NAMES = frozenset({"In", "Out", "exit", "quit", "get_ipython"})

_CODE_TYPES: tuple[type, ...] = (
    types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
    types.BuiltinMethodType, types.MethodWrapperType, types.WrapperDescriptorType,
    types.MethodDescriptorType, types.ClassMethodDescriptorType, types.GetSetDescriptorType,
    types.MemberDescriptorType, functools.partial, staticmethod, classmethod, property, type,
)
_SKIP_CACHE: dict[type, bool] = {}


def is_hidden(name: Any, value: Any) -> bool:
    """True for names the inspector does not show: private names, IPython's, and code objects."""
    if not isinstance(name, str) or name.startswith("_") or name in HIDDEN_NAMES:
        return True
    cls = type(value)
    try:
        skip = _SKIP_CACHE.get(cls)
    except TypeError:  # unhashable class object
        return _is_code_type(cls)
    if skip is None:
        skip = _is_code_type(cls)
        if len(_SKIP_CACHE) > 4096:
            _SKIP_CACHE.clear()
        _SKIP_CACHE[cls] = skip
    return skip


def _is_code_type(cls: type) -> bool:
    """Modules, functions, classes and builtins (numpy ufuncs and dispatchers included)."""
    try:
        if issubclass(cls, _CODE_TYPES):
            return True
        numpy = sys.modules.get("numpy")
        if numpy is not None:
            # np.sum & co. are not plain functions in numpy 2 but dispatcher objects.
            np_code = (numpy.ufunc, type(numpy.sum))
            return issubclass(cls, np_code) and not issubclass(cls, numpy.ndarray)
    except Exception:  # a hostile __subclasscheck__: show the value rather than fail
        return False
    return False


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
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, value in list(namespace.items()):
            if not is_hidden(name, value):
                summarize_into(name, value, entries)
    return [(var["name"], value) for var, value in entries]
