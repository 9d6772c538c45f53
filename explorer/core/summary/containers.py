"""VAR records for containers (list, tuple, dict, state_dict, nn.Module) and their tensor children.

Children are named so that :func:`explorer.core.resolve.resolve` finds them again:
``items[0]``, ``sd['fc.weight']``, ``model.fc.weight``, ``model.layers[0].bias``.
Only tensors/arrays and nested containers holding some are listed. The walk is
bounded (children, items looked at, depth) and guarded against cycles, so a
list of ten million floats or a self-referencing dict costs little.
"""

from __future__ import annotations

import inspect
import keyword
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

from explorer.core.i18n import _
from explorer.core.summary.fields import add_note, blank_var, error_text
from explorer.core.summary.repr_text import REPR_CHARS, clip, nested_repr
from explorer.core.summary.static import (
    PRISTINE_BUILTINS,
    container_len,
    is_sub,
    library,
    module_members,
    module_table,
)
from explorer.protocol.kinds import ARRAY_KINDS, CONTAINER_KINDS

globals()["__builtins__"] = PRISTINE_BUILTINS

MAX_CHILDREN = 2000
MAX_VISITS = 5000
MAX_DEPTH = 6


Classify = Callable[[Any], str]
Leaf = Callable[[str, Any, str], dict]
Entries = list[tuple[dict, Any]]


def container_var(name: str, value: Any, kind: str, classify: Classify, leaf: Leaf, entries: Entries) -> dict[str, Any]:
    """Summarise a container and the tensors/arrays it holds (appending them to *entries*)."""
    walk = _Walk(classify, leaf, entries)
    var = walk.container(name, value, kind, 0)
    var["repr"] = _container_repr(value, kind)
    if walk.truncated:
        add_note(var, _("only the first {children} tensors/arrays (or {visits} items looked at) are listed")
                 .format(children=MAX_CHILDREN, visits=MAX_VISITS))
    if walk.too_deep:
        add_note(var, _("containers nested more than {depth} levels deep are not listed").format(depth=MAX_DEPTH))
    return var


def _container_repr(value: Any, kind: str) -> str:
    """The bounded one-line text of a container VAR."""
    return module_repr(value) if kind == "module" else nested_repr(value)


class _Walk:
    """One bounded depth-first walk below a top-level variable."""

    def __init__(self, classify: Classify, leaf: Leaf, entries: Entries) -> None:
        self.classify = classify
        self.leaf = leaf
        self.entries = entries
        self.children_left = MAX_CHILDREN
        self.visits_left = MAX_VISITS
        self.truncated = False
        self.too_deep = False
        self.path: set[int] = set()  # ids of the containers we are inside (cycle guard)

    def container(self, name: str, value: Any, kind: str, depth: int) -> dict[str, Any]:
        # repr is filled in only for containers that end up listed (see _child).
        var = blank_var(name, kind, type(value).__name__)
        var["length"] = _length(value, kind)
        children: list[dict[str, Any]] = []
        var["children"] = children
        if depth >= MAX_DEPTH:
            self.too_deep = True
            return var
        self.path.add(id(value))
        try:
            for label, child in _items(name, value, kind):
                if self.visits_left <= 0 or self.children_left <= 0:
                    self.truncated = True
                    if depth:
                        add_note(var, _("list of children truncated"))
                    break
                self.visits_left -= 1
                if _is_scalar(child):
                    continue  # the common case in long lists: no name to build, nothing to classify
                child_var = self._child(_child_name(name, kind, label), child, depth)
                if child_var is not None:
                    children.append(child_var)
        except Exception as exc:  # noqa: BLE001 - user containers may fail to iterate
            add_note(var, error_text("children", exc))
        finally:
            self.path.discard(id(value))
        return var

    def _child(self, name: str, value: Any, depth: int) -> dict[str, Any] | None:
        kind = self.classify(value)
        if kind in ARRAY_KINDS:
            self.children_left -= 1
            var = self.leaf(name, value, kind)
            self.entries.append((var, value))
            return var
        if kind in CONTAINER_KINDS and id(value) not in self.path:
            sub = self.container(name, value, kind, depth + 1)
            if sub["children"]:
                self.children_left -= 1
                sub["repr"] = _container_repr(value, kind)
                return sub
        return None


def _is_scalar(value: Any) -> bool:
    """True for ints, floats, strings and the like (identity tests: no hashing of user metaclasses)."""
    cls = type(value)
    return cls is int or cls is float or cls is str or cls is bool or value is None or cls is bytes or cls is complex


def _length(value: Any, kind: str) -> int | None:
    """The container's length read through its base class (a ``__len__`` override is never called)."""
    try:
        return container_len(value, kind)
    except Exception:  # noqa: BLE001 - a module missing its tables
        return None


def _items(name: str, value: Any, kind: str) -> Iterator[tuple[Any, Any]]:
    """(label, child) pairs, read without calling overridable methods where possible.

    The label is the list index, the dict key or (for modules) the full child name;
    names are built only for children that are listed.
    """
    if kind == "module":
        yield from module_items(name, value)
    elif kind == "dict":
        # The base-class items() reads the real contents: a dict subclass may override
        # items() to do work (lazy loading) we must not trigger from the inspector.
        yield from (OrderedDict.items(value) if is_sub(value, OrderedDict) else dict.items(value))
    else:
        yield from enumerate((list.__iter__ if kind == "list" else tuple.__iter__)(value))


def _child_name(name: str, kind: str, label: Any) -> str:
    """``items[0]``, ``sd['fc.weight']``; module labels are already full names."""
    if kind == "module":
        return label
    if kind == "dict":
        return f"{name}[{key_text(label)}]"
    return f"{name}[{label}]"


def key_text(key: Any) -> str:
    """The subscript text for a dict key: ``'fc.weight'``, ``0``, ``('a', 1)``."""
    cls = type(key)
    if cls is str or cls is int or cls is float or cls is bool or cls is bytes or key is None:
        return clip(repr(key), REPR_CHARS)
    return nested_repr(key)


# -- nn.Module -----------------------------------------------------------------

def module_items(name: str, module: Any) -> Iterator[tuple[str, Any]]:
    """Parameters then buffers of *module* (recursively), with resolvable access paths."""
    paths: dict[str, tuple[str, Any]] = {"": (name, module)}
    for dotted, member in module_members(module):
        yield _access_path(paths, dotted), member


def _access_path(paths: dict[str, tuple[str, Any]], dotted: str) -> str:
    """Turn ``layers.0.weight`` into ``model.layers[0].weight`` (memoising module prefixes)."""
    prefix, _, leaf = dotted.rpartition(".")
    try:
        owner_path, owner = _module_path(paths, prefix)
    except Exception:  # a module whose named_parameters() disagrees with its _modules  # noqa: BLE001
        return f"{paths[''][0]}.{dotted}"
    return owner_path + _step(owner, leaf, _table_of(owner, leaf))


def _module_path(paths: dict[str, tuple[str, Any]], dotted: str) -> tuple[str, Any]:
    """Access path and object of the submodule at *dotted* (relative to the root)."""
    found = paths.get(dotted)
    if found is not None:
        return found
    parent_dotted, _, part = dotted.rpartition(".")
    parent_path, parent = _module_path(paths, parent_dotted)
    child = module_table(parent, "_modules")[part]
    found = (parent_path + _step(parent, part, "_modules"), child)
    paths[dotted] = found
    return found


def _step(owner: Any, part: str, table: str) -> str:
    """One step of an access path: ``.fc``, ``[0]``, ``['my key']`` or ``._modules['0']``."""
    nn = library("torch").nn  # we only get here while walking an nn.Module
    if part.isdigit() and is_sub(owner, (nn.Sequential, nn.ModuleList, nn.ParameterList)):
        return f"[{part}]"
    if part.isidentifier() and not keyword.iskeyword(part):
        return f".{part}"
    if is_sub(owner, (nn.ModuleDict, nn.ParameterDict)):
        return f"[{part!r}]"
    # No Python syntax reaches a submodule called e.g. "0" or "a-b" on a plain Module.
    return f".{table}[{part!r}]"


def _table_of(owner: Any, leaf: str) -> str:
    """Which table of *owner* holds the member *leaf* (for the rare path that must name it)."""
    return "_parameters" if leaf in module_table(owner, "_parameters") else "_buffers"


def module_repr(module: Any) -> str:
    """A one-line description: ``Linear(in_features=4, ...)`` or ``Net(fc: Linear, act: ReLU)``."""
    try:
        cls_name = type(module).__name__
        subs = list(dict.items(module_table(module, "_modules")))
        if subs:
            inner = ", ".join(f"{k}: {type(m).__name__}" for k, m in subs[:12])
            inner += ", …" if len(subs) > 12 else ""
        elif _torch_extra_repr(type(module)):
            inner = str(module.extra_repr())
        else:
            inner = "…"
        return clip(f"{cls_name}({inner})", REPR_CHARS)
    except Exception:  # noqa: BLE001 - a module missing its __init__ state, or a raising extra_repr
        return nested_repr(module)


def _torch_extra_repr(cls: type) -> bool:
    """True when ``extra_repr`` and attribute lookup are torch's own (so calling it runs no user code)."""
    nn = library("torch").nn
    try:
        extra = inspect.getattr_static(cls, "extra_repr")
        return (inspect.getattr_static(cls, "__getattr__") is nn.Module.__dict__["__getattr__"]
                and inspect.getattr_static(cls, "__getattribute__") is object.__getattribute__
                and str(getattr(extra, "__module__", "")).startswith("torch."))
    except Exception:  # noqa: BLE001 - a hostile metaclass: assume the worst
        return False
