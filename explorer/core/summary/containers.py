"""VAR records for containers (list, tuple, dict, state_dict, nn.Module) and their tensor children.

Children are named so that :func:`explorer.core.resolve.resolve` finds them again:
``items[0]``, ``sd['fc.weight']``, ``model.fc.weight``, ``model.layers[0].bias``.
Only tensors/arrays and nested containers holding some are listed. The walk is
bounded (children, items looked at, depth) and guarded against cycles, so a
list of ten million floats or a self-referencing dict costs little.
"""

from __future__ import annotations

import keyword
import sys
from collections import OrderedDict
from typing import Any, Callable, Iterator

from explorer.core.summary.fields import ARRAY_KINDS, CONTAINER_KINDS, add_note, blank_var, error_text
from explorer.core.summary.format import REPR_CHARS, clip, safe_repr

MAX_CHILDREN = 2000
MAX_VISITS = 5000
MAX_DEPTH = 6

# Children that can never hold a tensor; skipped without a classify() call.
_SCALARS = frozenset({int, float, bool, str, bytes, complex, type(None)})

Classify = Callable[[Any], str]
Leaf = Callable[[str, Any, str], dict]
Entries = list[tuple[dict, Any]]


def container_var(name: str, value: Any, kind: str, classify: Classify, leaf: Leaf, entries: Entries) -> dict[str, Any]:
    """Summarise a container and the tensors/arrays it holds (appending them to *entries*)."""
    walk = _Walk(classify, leaf, entries)
    var = walk.container(name, value, kind, 0)
    var["repr"] = _container_repr(value, kind)
    if walk.truncated:
        add_note(var, f"only the first {MAX_CHILDREN} tensors/arrays (or {MAX_VISITS} items looked at) are listed")
    if walk.too_deep:
        add_note(var, f"containers nested more than {MAX_DEPTH} levels deep are not listed")
    return var


def _container_repr(value: Any, kind: str) -> str:
    """The bounded one-line text of a container VAR."""
    return module_repr(value) if kind == "module" else safe_repr(value)


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
        var["length"] = _length(value)
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
                        add_note(var, "list of children truncated")
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
    """True for ints, floats, strings and the like (never raises, even for unhashable classes)."""
    try:
        return type(value) in _SCALARS
    except TypeError:  # a metaclass with __hash__ = None
        return False


def _length(value: Any) -> int | None:
    """``len(value)`` when defined and sane, else None."""
    try:
        n = len(value)
    except Exception:  # modules without __len__, broken containers
        return None
    return n if isinstance(n, int) else None


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
        yield from (OrderedDict.items(value) if isinstance(value, OrderedDict) else dict.items(value))
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
    if type(key) in (str, int, float, bool, bytes) or key is None:
        return clip(repr(key), REPR_CHARS)
    return safe_repr(key)


# -- nn.Module -----------------------------------------------------------------

def module_items(name: str, module: Any) -> Iterator[tuple[str, Any]]:
    """Parameters then buffers of *module* (recursively), with resolvable access paths."""
    paths: dict[str, tuple[str, Any]] = {"": (name, module)}
    for dotted, param in module.named_parameters():
        yield _access_path(paths, dotted, "_parameters"), param
    for dotted, buf in module.named_buffers():
        yield _access_path(paths, dotted, "_buffers"), buf


def _access_path(paths: dict[str, tuple[str, Any]], dotted: str, table: str) -> str:
    """Turn ``layers.0.weight`` into ``model.layers[0].weight`` (memoising module prefixes)."""
    prefix, _, leaf = dotted.rpartition(".")
    try:
        owner_path, owner = _module_path(paths, prefix)
    except Exception:  # a module whose named_parameters() disagrees with its _modules
        return f"{paths[''][0]}.{dotted}"
    return owner_path + _step(owner, leaf, table)


def _module_path(paths: dict[str, tuple[str, Any]], dotted: str) -> tuple[str, Any]:
    """Access path and object of the submodule at *dotted* (relative to the root)."""
    found = paths.get(dotted)
    if found is not None:
        return found
    parent_dotted, _, part = dotted.rpartition(".")
    parent_path, parent = _module_path(paths, parent_dotted)
    child = parent._modules[part]
    found = (parent_path + _step(parent, part, "_modules"), child)
    paths[dotted] = found
    return found


def _step(owner: Any, part: str, table: str) -> str:
    """One step of an access path: ``.fc``, ``[0]``, ``['my key']`` or ``._modules['0']``."""
    nn = sys.modules["torch"].nn  # we only get here while walking an nn.Module
    if part.isdigit() and isinstance(owner, (nn.Sequential, nn.ModuleList, nn.ParameterList)):
        return f"[{part}]"
    if part.isidentifier() and not keyword.iskeyword(part):
        return f".{part}"
    if isinstance(owner, (nn.ModuleDict, nn.ParameterDict)):
        return f"[{part!r}]"
    # No Python syntax reaches a submodule called e.g. "0" or "a-b" on a plain Module.
    return f".{table}[{part!r}]"


def module_repr(module: Any) -> str:
    """A one-line description: ``Linear(in_features=4, ...)`` or ``Net(fc: Linear, act: ReLU)``."""
    try:
        cls_name = type(module).__name__
        subs = list(module._modules.items())
        if subs:
            inner = ", ".join(f"{k}: {type(m).__name__}" for k, m in subs[:12])
            inner += ", …" if len(subs) > 12 else ""
        else:
            inner = str(module.extra_repr())
        return clip(f"{cls_name}({inner})", REPR_CHARS)
    except Exception:  # a module missing its __init__ state, or a raising extra_repr
        return safe_repr(module)
