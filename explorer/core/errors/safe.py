"""Reading the learner's values without running the learner's code.

The explainer looks at the values on the failing line, but a property, a
``__getattr__``, a ``__len__`` or a tensor subclass's ``__torch_function__``
is the learner's code and must not run again. Everything here reads through
type-level slots: instance ``__dict__``\\ s found through the C-level descriptor,
``inspect.getattr_static``, the base class's own methods (``torch.Tensor.stride``
applied to a subclass), with torch-function dispatch disabled.
"""

from __future__ import annotations

import contextlib
import inspect
import sys
import types
from collections.abc import Iterator
from typing import Any

_C_DESCRIPTORS = (types.GetSetDescriptorType, types.MemberDescriptorType)
_LIBRARIES = ("torch", "numpy")
_WARNS_UNLESS_MATRIX = ("T", "H")


_MRO_CACHE: dict[tuple[type, tuple[tuple[str, str], ...]], bool] = {}
_MRO_CACHE_LIMIT = 4096


def _mro_has(value: Any, pairs: tuple[tuple[str, str], ...]) -> bool:
    """True when a class in the value's MRO is one of (module, name); never calls ``__class__``.

    Remembered per type: the hints ask this of every variable after every run.
    """
    cls = type(value)
    key = (cls, pairs)
    try:
        return _MRO_CACHE[key]
    except KeyError:
        pass
    except TypeError:  # a metaclass that makes its classes unhashable
        return any((klass.__module__, klass.__name__) in pairs for klass in cls.__mro__)
    found = any((klass.__module__, klass.__name__) in pairs for klass in cls.__mro__)
    if len(_MRO_CACHE) >= _MRO_CACHE_LIMIT:
        _MRO_CACHE.clear()  # classes redefined in a long session: forget old ones
    _MRO_CACHE[key] = found
    return found


def is_tensor(value: Any) -> bool:
    """A torch tensor (or subclass, Parameter included)."""
    return _mro_has(value, (("torch", "Tensor"), ("torch._tensor", "Tensor")))


def is_ndarray(value: Any) -> bool:
    """A NumPy array (or subclass)."""
    return _mro_has(value, (("numpy", "ndarray"),))


def is_array(value: Any) -> bool:
    """A torch tensor or a NumPy array."""
    return is_tensor(value) or is_ndarray(value)


def is_module(value: Any) -> bool:
    """A ``torch.nn.Module`` instance."""
    return _mro_has(value, (("torch.nn.modules.module", "Module"),))


def is_optimizer(value: Any) -> bool:
    """A ``torch.optim`` optimizer instance."""
    return _mro_has(value, (("torch.optim.optimizer", "Optimizer"),))


def class_name(value: Any) -> str:
    """The name of the value's class, read from the type."""
    return type(value).__name__


@contextlib.contextmanager
def no_torch_function() -> Iterator[None]:
    """Disable ``__torch_function__`` dispatch (tensor subclasses) while reading."""
    torch = sys.modules.get("torch")
    guard = getattr(getattr(torch, "_C", None), "DisableTorchFunction", None) if torch is not None else None
    if guard is None:
        yield
        return
    with guard():
        yield


def instance_dict(obj: Any) -> dict[str, Any]:
    """The object's ``__dict__`` through the C-level descriptor; {} when a class overrides ``__dict__``."""
    for klass in type(obj).__mro__:
        found = vars(klass).get("__dict__")
        if found is None:
            continue
        if isinstance(found, _C_DESCRIPTORS):  # a getset for classes, a member slot for modules
            try:
                value = found.__get__(obj, type(obj))
            except Exception:  # noqa: BLE001
                return {}
            return value if type(value) is dict else {}
        return {}
    return {}


def _owner(obj: Any, name: str) -> type | None:
    """The class in the MRO that defines *name*."""
    for klass in type(obj).__mro__:
        if name in vars(klass):
            return klass
    return None


def _library_class(klass: type | None) -> bool:
    return klass is not None and klass.__module__.split(".")[0] in _LIBRARIES


def static_attr(obj: Any, name: str) -> tuple[bool, Any]:
    """``(found, value)`` of ``obj.name`` without running the learner's code.

    Module children and parameters come from ``_modules`` / ``_parameters`` / ``_buffers``;
    C-level slots and torch/NumPy properties are read with dispatch disabled; a learner's
    property, ``__getattr__`` or method is never called (``found`` is False for those).
    """
    if is_tensor(obj) and name == "grad":
        return True, grad_of(obj)  # without the warning a non-leaf's .grad gives
    if is_tensor(obj) and name in _WARNS_UNLESS_MATRIX and len(shape_of(obj) or []) != 2:
        return False, None  # torch warns once per process: the learner must see that warning, not us
    if is_module(obj):
        inner = instance_dict(obj)
        for key in ("_parameters", "_buffers", "_modules"):
            table = inner.get(key)
            if type(table) is dict and dict.__contains__(table, name):
                return True, dict.__getitem__(table, name)
    try:
        attr = inspect.getattr_static(obj, name)
    except (AttributeError, Exception):  # noqa: BLE001
        return False, None
    inner = instance_dict(obj)
    owner = _owner(obj, name)
    if dict.__contains__(inner, name) and not isinstance(attr, (property, *_C_DESCRIPTORS)):
        return True, attr
    if isinstance(attr, _C_DESCRIPTORS) or (isinstance(attr, property) and _library_class(owner)):
        try:
            with no_torch_function():
                return True, attr.__get__(obj, type(obj))
        except Exception:  # noqa: BLE001 - a slot may be empty or raise
            return False, None
    if isinstance(attr, (property, types.FunctionType, classmethod, staticmethod)) or hasattr(type(attr), "__get__"):
        return False, None  # code (the learner's or a method): not evaluated
    return True, attr


def tensor_attr(value: Any, name: str, *args: Any) -> Any:
    """``torch.Tensor.<name>`` of *value* (called with *args* when it is a method), dispatch disabled."""
    torch = sys.modules["torch"]
    attr = inspect.getattr_static(torch.Tensor, name)
    with no_torch_function():
        bound = attr.__get__(value, type(value)) if hasattr(attr, "__get__") else attr
        return bound(*args) if callable(bound) and not isinstance(attr, _C_DESCRIPTORS) and not isinstance(attr, property) else bound


def array_attr(value: Any, name: str) -> Any:
    """``numpy.ndarray.<name>`` of *value* (a slot such as shape, dtype, strides)."""
    numpy = sys.modules["numpy"]
    return inspect.getattr_static(numpy.ndarray, name).__get__(value, type(value))


def shape_of(value: Any) -> list[int] | None:
    """The shape as a list of ints, or None (nested tensors, not an array)."""
    try:
        if is_tensor(value):
            return [int(s) for s in tensor_attr(value, "shape")]
        if is_ndarray(value):
            return [int(s) for s in array_attr(value, "shape")]
    except Exception:  # noqa: BLE001 - exotic tensors may refuse
        return None
    return None


def dtype_of(value: Any) -> str:
    """The dtype as the library prints it ('torch.float32', 'float64')."""
    try:
        if is_tensor(value):
            return str(tensor_attr(value, "dtype"))
        if is_ndarray(value):
            return str(array_attr(value, "dtype"))
    except Exception:  # noqa: BLE001
        pass
    return "?"


def short_dtype(value: Any) -> str:
    """'float32' for torch.float32 and numpy float32 alike."""
    return dtype_of(value).replace("torch.", "")


def device_of(value: Any) -> str:
    """The device ('cpu' for NumPy arrays)."""
    if not is_tensor(value):
        return "cpu"
    try:
        return str(tensor_attr(value, "device"))
    except Exception:  # noqa: BLE001
        return "?"


def flag(value: Any, name: str) -> bool:
    """A boolean tensor slot such as requires_grad or is_leaf (False for non-tensors)."""
    if not is_tensor(value):
        return False
    try:
        return bool(tensor_attr(value, name))
    except Exception:  # noqa: BLE001
        return False


def grad_of(value: Any) -> Any:
    """The tensor's ``.grad`` (None when absent), without the non-leaf warning."""
    if not is_tensor(value):
        return None
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return tensor_attr(value, "grad")
    except Exception:  # noqa: BLE001
        return None


def is_float(value: Any) -> bool:
    """A floating-point tensor or array."""
    return short_dtype(value).startswith(("float", "bfloat", "complex"))


def module_children(module: Any) -> dict[str, Any]:
    """The direct submodules, by name."""
    found = instance_dict(module).get("_modules")
    return {k: v for k, v in dict.items(found) if v is not None} if type(found) is dict else {}


def module_parameters(module: Any, prefix: str = "", limit: int = 200) -> list[tuple[str, Any]]:
    """``(dotted name, parameter)`` for the module's parameters, read from ``_parameters`` recursively."""
    found: list[tuple[str, Any]] = []
    stack = [(prefix, module)]
    while stack and len(found) < limit:
        path, current = stack.pop(0)
        params = instance_dict(current).get("_parameters")
        if type(params) is dict:
            found += [(f"{path}{name}", p) for name, p in dict.items(params) if p is not None]
        stack += [(f"{path}{name}.", child) for name, child in module_children(current).items()]
    return found[:limit]


def walk_modules(module: Any, prefix: str, limit: int = 200) -> list[tuple[str, Any]]:
    """``(path, module)`` for the module and every submodule, paths written as code (``model[2]``, ``model.fc``)."""
    found: list[tuple[str, Any]] = []
    stack = [(prefix, module)]
    while stack and len(found) < limit:
        path, current = stack.pop(0)
        found.append((path, current))
        for name, child in module_children(current).items():
            stack.append((f"{path}[{name}]" if name.isdigit() else f"{path}.{name}", child))
    return found


def list_items(value: Any, limit: int) -> list[Any]:
    """The first items of a real list or tuple (a subclass's ``__getitem__`` is not called)."""
    if isinstance(value, list):
        return list.__getitem__(value, slice(0, limit))
    if isinstance(value, tuple):
        return list(tuple.__getitem__(value, slice(0, limit)))
    return []


def scope_get(scopes: list[dict[str, Any]], name: str) -> tuple[bool, Any]:
    """The value bound to *name* in the first scope that has it."""
    for scope in scopes:
        if type(scope) is dict and dict.__contains__(scope, name):
            return True, dict.__getitem__(scope, name)
        if type(scope) is not dict:
            try:
                if name in scope:
                    return True, scope[name]
            except Exception:  # noqa: BLE001
                continue
    return False, None
