"""The environment every inspection runs in, whatever the user's code did to the interpreter.

:class:`inspecting` wraps each entry point of the core (a snapshot, a memory map,
the change tracker ...). For its duration:

* torch-function dispatch is off (``torch._C.DisableTorchFunction``): a tensor
  subclass's ``__torch_function__``, or a torch-function mode, never runs;
* builtins the user's code replaced or deleted (``builtins.repr = None``) are the
  originals again, so are the functions of the standard library modules the inspector
  calls by attribute (``warnings.catch_warnings = None``, ``io.StringIO = None``), and
  ``sys.modules['numpy'] = None`` is undone, so library code (the stdlib, numpy, torch)
  works as usual; the user's versions come back after;
* the recursion limit has room above the caller (a user's ``sys.setrecursionlimit(60)``);
* the cyclic GC waits: a generation-2 pass over a process holding torch walks
  millions of objects, and the thousands of small records a snapshot builds would
  trigger one midway (~100 ms); it runs later instead.

The originals are copied when this module is first imported (the agent imports
the core when the kernel starts, before any user code runs); so are the few ``gc``
and ``sys`` functions the guard itself calls, so ``gc.disable = None`` cannot stop it.
"""

from __future__ import annotations

import builtins
import contextlib
import functools
import inspect
import io
import itertools
import json
import math
import operator
import os
import re
import struct
import sys
import traceback
import types
import warnings
from gc import disable as _gc_disable
from gc import enable as _gc_enable
from gc import isenabled as _gc_isenabled
from sys import _getframe, getrecursionlimit, setrecursionlimit
from typing import Any

PRISTINE_BUILTINS: dict[str, Any] = dict(builtins.__dict__)
globals()["__builtins__"] = PRISTINE_BUILTINS

# Stack depth the inspector may need above the caller's frame (deep containers, torch, numpy).
RECURSION_HEADROOM = 600
# The builtins put back during an inspection (the module's own dunders, and "_", stay as they are).
_RESTORED = tuple((k, v) for k, v in PRISTINE_BUILTINS.items() if not k.startswith("_")
                  or k in ("__import__", "__build_class__"))
# The standard library functions and classes put back during an inspection: (module namespace, originals).
_STDLIB = tuple((vars(module), tuple((k, v) for k, v in vars(module).items() if not k.startswith("_") and callable(v)))
                for module in (contextlib, functools, inspect, io, itertools, json, math, operator, os, os.path,
                               re, struct, traceback, types, warnings))
_ABSENT = object()
_MODULES: dict[str, Any] = {}
_LIBRARIES = {"torch": "Tensor", "numpy": "ndarray"}


def library(name: str) -> Any:
    """The real ``torch`` / ``numpy`` module once the user has imported it, else None.

    Remembered once seen, so ``sys.modules['numpy'] = None`` later does not hide it;
    never imported from here (importing torch takes seconds).
    """
    found = _MODULES.get(name)
    if found is not None:
        return found
    module = sys.modules.get(name)
    if type(module) is types.ModuleType and _LIBRARIES.get(name, "__name__") in module.__dict__:
        _MODULES[name] = module
        return module
    return None


def remember(name: str, module: Any) -> None:
    """Record a library the core imported itself (so a later ``sys.modules[name] = None`` is undone)."""
    _MODULES.setdefault(name, module)


class inspecting:  # noqa: N801 - used like a function: ``with inspecting(): ...``
    """Context manager: the inspection environment described in the module docstring.

    A class rather than a ``contextlib`` generator: contextlib calls ``next`` and
    ``type``, which the user may have replaced, and costs frames under a tiny
    recursion limit. Nesting is cheap (the inner one finds nothing to undo).
    """

    __slots__ = ("_builtins", "_dispatch", "_gc", "_limit", "_modules", "_stdlib")

    def __enter__(self) -> inspecting:
        self._limit = _raise_limit()
        self._builtins = _restore_builtins()
        self._stdlib = _restore_stdlib()
        self._modules = _restore_modules()
        self._gc = _gc_isenabled()
        _gc_disable()
        self._dispatch = None
        torch = library("torch")
        disable = getattr(getattr(torch, "_C", None), "DisableTorchFunction", None)
        if disable is not None:
            self._dispatch = disable()
            self._dispatch.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        try:
            if self._dispatch is not None:
                self._dispatch.__exit__(None, None, None)
        finally:
            if self._gc:
                _gc_enable()
            _put_back(builtins.__dict__, self._builtins)
            for table, swapped in self._stdlib:
                _put_back(table, swapped)
            _put_back(sys.modules, self._modules)
            if self._limit is not None:
                setrecursionlimit(self._limit)


class gc_paused:  # noqa: N801 - used like a function
    """Defer the cyclic GC for the block (nests: only the outermost block re-enables it)."""

    __slots__ = ("_enabled",)

    def __enter__(self) -> gc_paused:
        self._enabled = _gc_isenabled()
        _gc_disable()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._enabled:
            _gc_enable()


def _raise_limit() -> int | None:
    """Make room for :data:`RECURSION_HEADROOM` frames; return the old limit if it changed."""
    old = getrecursionlimit()
    depth = 0
    frame: types.FrameType | None = _getframe()
    while frame is not None:
        depth += 1
        frame = frame.f_back
    wanted = depth + RECURSION_HEADROOM
    if wanted <= old:
        return None
    setrecursionlimit(wanted)
    return old


def _restore_builtins() -> list[tuple[str, Any]]:
    """Put the original builtins back; return what the user had there (to restore afterwards)."""
    current = builtins.__dict__
    swapped: list[tuple[str, Any]] = []
    for name, value in _RESTORED:
        now = current.get(name, _ABSENT)
        if now is not value:
            swapped.append((name, now))
            current[name] = value
    return swapped


def _restore_stdlib() -> list[tuple[dict, list[tuple[str, Any]]]]:
    """Put the standard library's functions back; return, per module, what the user had there."""
    swapped = []
    for table, originals in _STDLIB:
        changed = [(name, table.get(name, _ABSENT)) for name, value in originals if table.get(name, _ABSENT) is not value]
        if changed:
            for name, value in originals:
                table[name] = value
            swapped.append((table, changed))
    return swapped


def _restore_modules() -> list[tuple[str, Any]]:
    """Put back torch/numpy in ``sys.modules`` when the user removed or replaced them."""
    swapped: list[tuple[str, Any]] = []
    for name, module in _MODULES.items():
        now = sys.modules.get(name, _ABSENT)
        if now is not module:
            swapped.append((name, now))
            sys.modules[name] = module
    return swapped


def _put_back(table: dict, swapped: list[tuple[str, Any]]) -> None:
    """Undo :func:`_restore_builtins` / :func:`_restore_modules`."""
    for name, value in swapped:
        if value is _ABSENT:
            table.pop(name, None)
        else:
            table[name] = value


for _name in _LIBRARIES:  # libraries imported before the core: known from the start
    library(_name)
