"""The namespace snapshot: one VAR per user variable, plus memory groups and overlaps."""

from __future__ import annotations

import functools
import gc
import sys
import types
import warnings
from contextlib import contextmanager
from typing import Any, Iterator

from explorer.core.summary import summarize_into
from explorer.core.summary_format import preview_budget

# Value previews per snapshot (the first variables get them; see summary_format).
PREVIEW_BUDGET = 200

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


def build_snapshot(namespace: dict[str, Any], *, exact_overlaps: bool = False, overlaps: bool = True) -> dict[str, Any]:
    """Summarise every user variable and assign memory groups and overlaps.

    Parameters
    ----------
    namespace : dict
        The user namespace; its insertion order is the definition order.
    exact_overlaps : bool, optional
        Passed to :func:`explorer.core.memory.assign_memory` (exact byte overlap of
        every pair in a group instead of the bounded check).
    overlaps : bool, optional
        False: memory groups only, ``overlaps`` left null (see ``assign_memory``).

    Returns
    -------
    dict
        ``{"variables": [VAR, ...], "memory_error": None | str}``; ``memory_error``
        says why memory groups could not be computed (the VARs are still there).
    """
    entries: list[tuple[dict, Any]] = []
    variables: list[dict[str, Any]] = []
    with warnings.catch_warnings(), preview_budget(PREVIEW_BUDGET), _gc_paused():
        # Reading metadata of exotic tensors may warn; the user's console must stay clean.
        warnings.simplefilter("ignore")
        for name, value in list(namespace.items()):
            if not is_hidden(name, value):
                variables.append(summarize_into(name, value, entries))
        memory_error = _assign_memory(entries, exact_overlaps, overlaps)
    return {"variables": variables, "memory_error": memory_error}


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Defer the cyclic GC while thousands of small VAR dicts are built.

    A generation-2 pass over a process holding torch walks millions of objects;
    triggered mid-snapshot it costs the user ~20% of the wait. It runs later,
    when the kernel is idle, instead.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


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


def _assign_memory(entries: list[tuple[dict, Any]], exact_overlaps: bool, overlaps: bool) -> str | None:
    """Run the memory module; on failure keep the VARs (null groups) and return the reason."""
    if not entries:
        return None
    from explorer.core.memory import assign_memory

    try:
        assign_memory(entries, exact_overlaps=exact_overlaps, overlaps=overlaps)
    except Exception as exc:  # noqa: BLE001 - variables are worth showing without groups
        return f"{type(exc).__name__}: {exc}"
    return None
