"""One VAR record per user variable (the CLI contract's VAR), from metadata only.

Summaries never read tensor data (apart from the values of tensors with at most
16 elements, for the preview), so a 1 GiB tensor costs the same as an 8-byte one,
and they never raise: a field that cannot be read is null and the ``note`` says why.
torch and numpy are looked up in ``sys.modules`` instead of imported, because a
value can only be a tensor if torch is already loaded (importing it takes seconds).
"""

from __future__ import annotations

from typing import Any

from explorer.core.i18n import _
from explorer.core.summary.containers import container_var
from explorer.core.summary.fields import VAR_KEYS, add_note, blank_var, error_text
from explorer.core.summary.ndarray import array_var
from explorer.core.summary.repr_text import repr_and_error
from explorer.core.summary.static import PRISTINE_BUILTINS, inspecting, library
from explorer.core.summary.tensor import tensor_var
from explorer.protocol.kinds import ARRAY_KINDS, CONTAINER_KINDS

globals()["__builtins__"] = PRISTINE_BUILTINS
__all__ = ["VAR_KEYS", "classify", "summarize", "summarize_into"]

# id(class) -> (class, kind): keyed by identity, so a metaclass's __hash__/__eq__ is never called.
_KIND_CACHE: dict[int, tuple[type, str]] = {}
_KIND_CACHE_LIMIT = 4096


def classify(value: Any) -> str:
    """The summary kind of *value*: "tensor", "ndarray", "list", "tuple", "dict", "module" or "other".

    Decided from ``type(value)`` only, never ``isinstance``: a proxy object may lie
    about its ``__class__`` (``Mock(spec=torch.Tensor)``) and must not be read as a tensor.
    """
    cls = type(value)
    cached = _KIND_CACHE.get(id(cls))
    if cached is not None and cached[0] is cls:
        return cached[1]
    try:
        kind = _classify_type(cls)
    except Exception:  # noqa: BLE001 - torch half-imported, hostile __subclasscheck__
        return _classify_uncached(cls)
    if len(_KIND_CACHE) >= _KIND_CACHE_LIMIT:
        _KIND_CACHE.clear()  # classes redefined in a long session; forget old ones
    _KIND_CACHE[id(cls)] = (cls, kind)
    return kind


def _classify_uncached(cls: type) -> str:
    """:func:`_classify_type` for types that cannot be cached; "other" if it raises."""
    try:
        return _classify_type(cls)
    except Exception:  # noqa: BLE001
        return "other"


def _classify_type(cls: type) -> str:
    """Uncached :func:`classify` for a type."""
    torch = library("torch")
    if torch is not None:
        if issubclass(cls, torch.Tensor):
            return "tensor"
        if issubclass(cls, torch.nn.Module):
            return "module"
        if issubclass(cls, torch.Size):
            return "other"  # a tuple subclass, but a value, not a container
    numpy = library("numpy")
    if numpy is not None and issubclass(cls, numpy.ndarray):
        return "ndarray"
    if issubclass(cls, list):
        return "list"
    if issubclass(cls, tuple):
        return "tuple"
    if issubclass(cls, dict):
        return "dict"
    return "other"


def summarize(name: str, value: Any) -> dict[str, Any]:
    """Summarise one variable as a VAR dict (see docs/architecture.md, "The command-line contract").

    Parameters
    ----------
    name : str
        The name shown for the variable (also the prefix of its children's names).
    value : object
        Any Python object.

    Returns
    -------
    dict
        Every key of :data:`VAR_KEYS`; fields that do not apply are None.
        ``memory_group`` is None and ``overlaps`` is empty: the memory module fills them.
    """
    with inspecting():
        return summarize_into(name, value, [])


def summarize_into(name: str, value: Any, entries: list[tuple[dict, Any]]) -> dict[str, Any]:
    """Like :func:`summarize`, also appending ``(var, value)`` for every tensor/array VAR made.

    Parameters
    ----------
    name : str
        Variable name.
    value : object
        Any Python object.
    entries : list
        Receives one ``(var_dict, value)`` pair per tensor/array, container children
        included, for :func:`explorer.core.memory.groups.assign_memory`.

    Returns
    -------
    dict
        The VAR of *value*.
    """
    try:
        cls = type(value)
        if cls is _PLAIN[0] or cls is _PLAIN[1]:  # most variables: skip the generic dispatch
            var = tensor_var(name, value, _PLAIN[2]) if cls is _PLAIN[0] else array_var(name, value, cls)
            entries.append((var, value))
            return var
        _refresh_plain()
        kind = classify(value)
        if kind in ARRAY_KINDS:
            var = leaf_var(name, value, kind)
            entries.append((var, value))
            return var
        if kind in CONTAINER_KINDS:
            return container_var(name, value, kind, classify, leaf_var, entries)
        return other_var(name, value)
    except Exception as exc:  # noqa: BLE001 - last line of defence: never a failing snapshot
        var = other_var(name, value)
        add_note(var, error_text("summary", exc))
        return var


# (torch.Tensor, numpy.ndarray, torch) once those modules are loaded; until then sentinels.
_PLAIN: list[Any] = [object(), object(), None]


def plain_types() -> tuple[Any, Any, Any]:
    """``(torch.Tensor, numpy.ndarray, torch)`` as far as the user has imported them (sentinels otherwise)."""
    _refresh_plain()
    return _PLAIN[0], _PLAIN[1], _PLAIN[2]


def _refresh_plain() -> None:
    """Learn torch.Tensor / numpy.ndarray for the fast path as soon as the user has imported them."""
    torch, numpy = library("torch"), library("numpy")
    if torch is not None and _PLAIN[2] is None:
        _PLAIN[0], _PLAIN[2] = torch.Tensor, torch
    if numpy is not None:
        _PLAIN[1] = numpy.ndarray


def leaf_var(name: str, value: Any, kind: str) -> dict[str, Any]:
    """VAR of a tensor (kind "tensor") or numpy array (kind "ndarray")."""
    if kind == "tensor":
        return tensor_var(name, value, library("torch"))
    return array_var(name, value, library("numpy").ndarray)


def other_var(name: str, value: Any) -> dict[str, Any]:
    """VAR of a value that is neither a tensor/array nor a container: type and bounded repr."""
    try:
        type_name = type(value).__name__
    except Exception:  # pragma: no cover - type() always has a name  # noqa: BLE001
        type_name = "object"
    var = blank_var(name, "other", type_name)
    var["repr"], error = repr_and_error(value)
    if error is not None:
        add_note(var, _("repr() raised {error}").format(error=error))
    return var
