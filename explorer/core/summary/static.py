"""Reads of user values that never run user code (docs/architecture.md, "Inspection never runs user code").

A learner's class may override ``__len__``, ``__getitem__``, ``keys``, properties,
``__getattr__``, ``__class__`` or ``__torch_function__``. Everything the inspector
reads goes through the *base* classes instead: ``list.__len__(x)``,
``dict.items(x)``, the instance ``__dict__`` of an ``nn.Module``, the getset
descriptors of ``torch._C.TensorBase`` and ``numpy.ndarray``, with torch-function
dispatch switched off (:func:`inspecting`). Type tests use ``issubclass(type(x), T)``:
``isinstance`` would consult a user-defined ``__class__``.

The builtins this module family calls are copied when it is first imported
(:data:`PRISTINE_BUILTINS`, see :mod:`explorer.core.summary.guard`), so
``builtins.repr = None`` in the user's code changes nothing here; modules opt in
with ``globals()["__builtins__"] = PRISTINE_BUILTINS`` (the same module global as a
plain ``__builtins__ =``, which type checkers take for the builtins module).
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from typing import Any

from explorer.core.summary.guard import PRISTINE_BUILTINS, gc_paused, inspecting, library, remember

globals()["__builtins__"] = PRISTINE_BUILTINS
__all__ = ["PRISTINE_BUILTINS", "gc_paused", "inspecting", "library", "remember"]  # re-exported for callers


def is_sub(value: Any, base: Any) -> bool:
    """``isinstance`` that never asks the value (a property named ``__class__`` is user code)."""
    try:
        return base is not None and issubclass(type(value), base)
    except Exception:  # noqa: BLE001 - a hostile metaclass
        return False


# -- tensors --------------------------------------------------------------------
_TENSOR_SLOTS: dict[str, Any] = {}


def _tensor_slot(name: str) -> Any:
    """The ``torch._C.TensorBase`` descriptor or method *name* (memoised)."""
    slot = _TENSOR_SLOTS.get(name)
    if slot is None:
        torch = library("torch")
        base = getattr(torch._C, "TensorBase", None) or torch._C._TensorBase
        slot = base.__dict__[name]
        _TENSOR_SLOTS[name] = slot
    return slot


def tget(t: Any, name: str) -> Any:
    """Attribute *name* of a tensor as the base class defines it (``t.layout`` without overrides)."""
    return _tensor_slot(name).__get__(t)


def tcall(t: Any, name: str, *args: Any) -> Any:
    """Method *name* of a tensor as the base class defines it (``t.stride()`` without overrides)."""
    return _tensor_slot(name)(t, *args)


def has_python_dispatch(t: Any) -> bool:
    """True for tensor subclasses with ``__torch_dispatch__``: any op on them runs their Python code."""
    torch = library("torch")
    try:
        return bool(torch._C._dispatch_keys(t).has(torch._C.DispatchKey.Python))
    except Exception:  # noqa: BLE001 - an old torch without the API: assume the worst for subclasses
        return type(t) is not torch.Tensor


def plain_tensor(t: Any) -> Any:
    """*t* itself for ``Tensor``/``Parameter``; a plain alias of a subclass; None if that needs its code.

    The alias (``TensorBase.detach``) shares storage, offset and strides, so memory
    facts read from it are the subclass's own. Call inside :func:`inspecting`.
    """
    torch = library("torch")
    cls = type(t)
    if cls is torch.Tensor or cls is torch.nn.Parameter:
        return t
    if has_python_dispatch(t):
        return None
    return tcall(t, "detach")


# -- numpy ----------------------------------------------------------------------
_BASE_CHAIN_LIMIT = 64


def array_base(a: Any) -> Any:
    """``a.base`` as ``numpy.ndarray`` defines it."""
    return library("numpy").ndarray.__dict__["base"].__get__(a)


def plain_array(a: Any) -> Any:
    """*a* as a plain ``ndarray`` view (no copy, no ``__array_finalize__``, no overrides)."""
    ndarray = library("numpy").ndarray
    return a if type(a) is ndarray else ndarray.view(a, ndarray)


_READ_POINTER = ctypes.c_void_p.from_address
# numpy's PyArrayObject starts with the object header and then ``char *data`` (its public
# ABI since numpy 1.7). Checked against ``a.ctypes.data`` on probe arrays the first time;
# None: the layout is not the expected one here, use the slow public route.
_DATA_OFFSET: list[int | None] = []


def array_data_ptr(a: Any) -> int:
    """The address of element 0 of an exact ``numpy.ndarray`` (``a.ctypes.data`` at a tenth of its cost).

    ``a.ctypes.data`` builds a ctypes helper object per call (~1.5 us); this reads the
    field numpy stores the address in. Only for ``type(a) is numpy.ndarray``.
    """
    if not _DATA_OFFSET:
        _DATA_OFFSET.append(_probe_data_offset())
    offset = _DATA_OFFSET[0]
    if offset is None:
        return int(a.ctypes.data)
    return _READ_POINTER(id(a) + offset).value or 0


def _probe_data_offset() -> int | None:
    """Where ndarray objects keep their data pointer, verified on a few arrays; None if not verified."""
    np = library("numpy")
    offset = object.__basicsize__
    try:
        base = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
        probes = (base, base[1:, ::2, 1:], np.zeros(3, dtype=np.int8)[2:], np.array(1.5), base.T)
        if all(_READ_POINTER(id(p) + offset).value == p.ctypes.data for p in probes):
            return offset
    except Exception:  # noqa: BLE001 - any surprise: the slow route
        pass
    return None


def outermost_array(a: Any) -> Any:
    """The last ndarray of ``a.base, a.base.base, ...`` as a plain view (the allocation's owner)."""
    ndarray = library("numpy").ndarray
    outer = a
    for _ in range(_BASE_CHAIN_LIMIT):
        base = array_base(outer)
        if not is_sub(base, ndarray):
            break
        outer = base
    return plain_array(outer)


# -- containers -----------------------------------------------------------------
def container_len(value: Any, kind: str) -> int | None:
    """``len`` of a list/tuple/dict through the base class; modules count their children."""
    if kind == "list":
        return list.__len__(value)
    if kind == "tuple":
        return tuple.__len__(value)
    if kind == "dict":
        return dict.__len__(value)
    return module_len(value)


def instance_dict(obj: Any) -> dict:
    """The object's own ``__dict__`` (empty when it has none)."""
    try:
        found = object.__getattribute__(obj, "__dict__")
    except Exception:  # noqa: BLE001 - __slots__ classes
        return {}
    return found if type(found) is dict else {}


def module_table(module: Any, table: str) -> dict:
    """``module._parameters`` / ``_buffers`` / ``_modules`` read from the instance dict."""
    found: Any = instance_dict(module).get(table)
    return found if is_sub(found, dict) else {}


def module_len(module: Any) -> int | None:
    """What ``len()`` of torch's container modules counts, without calling a ``__len__``."""
    nn = library("torch").nn
    cls = type(module)
    if issubclass(cls, (nn.Sequential, nn.ModuleList, nn.ModuleDict)):
        return dict.__len__(module_table(module, "_modules"))
    if issubclass(cls, nn.ParameterList):
        size = instance_dict(module).get("_size")
        return size if type(size) is int else None
    if issubclass(cls, nn.ParameterDict):
        keys: Any = instance_dict(module).get("_keys")
        return dict.__len__(keys) if is_sub(keys, dict) else None
    return None


def module_members(module: Any) -> Iterator[tuple[str, Any]]:
    """``named_parameters()`` then ``named_buffers()`` of a module, read from its tables.

    Same order and the same de-duplication (by identity) as torch's own walk, which
    a subclass may override; this one reads the tables in the instance dicts only.
    """
    modules = list(_named_modules(module))
    for table in ("_parameters", "_buffers"):
        seen: set[int] = set()
        for prefix, owner in modules:
            for name, member in dict.items(module_table(owner, table)):
                if member is None or id(member) in seen:
                    continue
                seen.add(id(member))
                yield (prefix + "." + name if prefix else name), member


def _named_modules(root: Any) -> Iterator[tuple[str, Any]]:
    """Pre-order ``(dotted prefix, module)`` pairs, each module once (like ``named_modules``)."""
    seen: set[int] = set()
    stack: list[tuple[str, Any]] = [("", root)]
    while stack:
        prefix, module = stack.pop()
        if id(module) in seen:
            continue
        seen.add(id(module))
        yield prefix, module
        children = [(prefix + "." + k if prefix else k, m) for k, m in dict.items(module_table(module, "_modules"))
                    if m is not None]
        stack.extend(reversed(children))
