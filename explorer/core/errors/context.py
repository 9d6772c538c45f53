"""What the error explainer knows about the failing line: its source, names and values."""

from __future__ import annotations

import ast
import keyword
import re
import warnings
from dataclasses import dataclass, field
from typing import Any

_IDENT_CHAIN = re.compile(r"[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*")
_MAX_LIST_ITEMS = 8


@dataclass
class ErrorContext:
    """Facts the catalogue entries use to write a card in one language."""

    lang: str
    message: str
    code_line: str
    objects: dict[str, Any] = field(default_factory=dict)
    frame_names: set[str] = field(default_factory=set)
    namespace: dict[str, Any] = field(default_factory=dict)
    match: re.Match | None = None

    # -- language --------------------------------------------------------
    def t(self, en: str, zh: str) -> str:
        """Pick the English or Simplified Chinese text."""
        return zh if self.lang.lower().startswith("zh") else en

    # -- the match ---------------------------------------------------------
    def g(self, name: str, default: str = "") -> str:
        """A named group of the catalogue match ('' when absent)."""
        if self.match is None:
            return default
        try:
            value = self.match.group(name)
        except IndexError:  # the entry's pattern has no such group
            return default
        return default if value is None else value

    # -- the line's variables -----------------------------------------------
    @property
    def tensors(self) -> dict[str, Any]:
        """Tensors and arrays named on the line, in order of appearance."""
        return {n: v for n, v in self.objects.items() if is_array(v)}

    def modules(self) -> dict[str, Any]:
        """torch.nn.Module objects named on the line."""
        return {n: v for n, v in self.objects.items() if _is_module(v)}

    def by_shape(self, shape: list[int], exclude: tuple[str, ...] = ()) -> str | None:
        """The first variable on the line with exactly this shape."""
        for name, value in self.tensors.items():
            if name not in exclude and shape_of(value) == list(shape):
                return name
        return None

    def describe(self, name: str) -> str:
        """'`a` is [4, 3] (torch.float32, cpu)' in the card's language."""
        value = self.objects[name]
        shape = fmt_shape(shape_of(value))
        extra = f"{dtype_of(value)}, {device_of(value)}"
        return self.t(f"`{name}` is {shape} ({extra})", f"`{name}` 的形状是 {shape}（{extra}）")

    def describe_all(self, names: list[str] | None = None) -> str:
        """Describe several variables, joined with commas."""
        names = list(self.tensors) if names is None else names
        sep = self.t("; ", "；")
        return sep.join(self.describe(n) for n in names if n in self.objects)

    def facts_sentence(self) -> str:
        """The tensors on the line described as one sentence (empty when none): the usual card opening."""
        return self.describe_all() + self.t(". ", "。") if self.tensors else ""

    def calls(self, method: str) -> list[ast.Call]:
        """Calls on the line whose function is ``<expr>.method`` or a bare ``method``."""
        tree = parse_line(self.code_line)
        found: list[ast.Call] = []
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, ast.Call):
                func = node.func
                if (isinstance(func, ast.Attribute) and func.attr == method) or (
                    isinstance(func, ast.Name) and func.id == method
                ):
                    found.append(node)
        return found

    def receiver(self, method: str) -> str | None:
        """Source of the expression a method is called on, e.g. 'y' in 'y.backward()'."""
        for call in self.calls(method):
            if isinstance(call.func, ast.Attribute):
                return ast.unparse(call.func.value)
        return None


def is_array(value: Any) -> bool:
    """True for torch tensors and numpy arrays (without importing either)."""
    cls = type(value)
    for base in cls.__mro__:
        if (base.__module__, base.__name__) in (("torch", "Tensor"), ("torch._tensor", "Tensor"), ("numpy", "ndarray")):
            return True
    return False


def _is_module(value: Any) -> bool:
    return any(b.__name__ == "Module" and b.__module__.startswith("torch.nn") for b in type(value).__mro__)


def _is_torch(value: Any) -> bool:
    return type(value).__module__.split(".")[0] == "torch"


def shape_of(value: Any) -> list[int] | None:
    """The shape as a list of ints, or None when it cannot be read (nested tensors)."""
    try:
        return [int(s) for s in value.shape]
    except Exception:  # noqa: BLE001 - exotic tensors may refuse
        return None


def dtype_of(value: Any) -> str:
    """The dtype as the library prints it ('torch.float32', 'float64')."""
    try:
        return str(value.dtype)
    except Exception:  # noqa: BLE001
        return "?"


def device_of(value: Any) -> str:
    """The device ('cpu' for numpy arrays)."""
    if not _is_torch(value):
        return "cpu"
    try:
        return str(value.device)
    except Exception:  # noqa: BLE001
        return "?"


def requires_grad_of(value: Any) -> bool | None:
    """requires_grad for tensors, None for arrays."""
    return bool(getattr(value, "requires_grad", False)) if _is_torch(value) else None


def fmt_shape(shape: list[int] | None) -> str:
    """'[4, 3]' (or '?' when unknown)."""
    return "?" if shape is None else "[" + ", ".join(str(s) for s in shape) + "]"


def variable_record(name: str, value: Any) -> dict[str, Any]:
    """The JSON record of one tensor/array named on the failing line."""
    return {
        "name": name,
        "shape": shape_of(value),
        "dtype": dtype_of(value),
        "device": device_of(value),
        "requires_grad": requires_grad_of(value),
    }


def parse_line(line: str) -> ast.AST | None:
    """Parse one source line; a block opener gets a dummy body. None when it does not parse."""
    text = line.strip()
    for candidate in (text, text + " pass", text.rstrip(":") if text.endswith(":") else None):
        if not candidate:
            continue
        try:
            return ast.parse(candidate)
        except (SyntaxError, ValueError):
            continue
    return None


def referenced_names(line: str) -> list[str]:
    """Dotted names on the line (``a``, ``model.fc.weight``) in order of appearance."""
    tree = parse_line(line)
    if tree is None:  # a continuation line: fall back to identifier chains
        chains = _IDENT_CHAIN.findall(line)
        return list(dict.fromkeys(c for c in chains if c.split(".")[0] not in keyword.kwlist))
    found: list[tuple[int, int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)):
            dotted = _dotted(node)
            if dotted is not None:
                found.append((node.lineno, node.col_offset, dotted))
    found.sort()
    return list(dict.fromkeys(name for _, _, name in found))


def _dotted(node: ast.AST) -> str | None:
    """'model.fc.weight' for attribute chains; "sd['fc.weight']" / 'xs[0]' for a constant subscript of one."""
    if isinstance(node, ast.Subscript):
        base = _dotted(node.value) if isinstance(node.value, (ast.Name, ast.Attribute)) else None
        if base is None or not isinstance(node.slice, ast.Constant) or not isinstance(node.slice.value, (int, str)):
            return None
        return f"{base}[{node.slice.value!r}]"
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def lookup(dotted: str, scopes: list[dict[str, Any]]) -> tuple[bool, Any]:
    """Find a dotted name in the first scope that has its root; attributes of Python modules are skipped."""
    if dotted.endswith("]"):  # a constant subscript: the resolver evaluates only that, nothing else
        from collections import ChainMap

        from explorer.core.resolve import ResolveError, resolve

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return True, resolve(ChainMap(*scopes), dotted)  # type: ignore[arg-type]
        except (ResolveError, Exception):  # noqa: BLE001 - an out-of-range index is the error itself
            return False, None
    root, *rest = dotted.split(".")
    for scope in scopes:
        if root in scope:
            value = scope[root]
            break
    else:
        return False, None
    for attr in rest:
        if type(value).__name__ == "module":  # torch.float32, np.pi: not the user's variables
            return False, None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                value = getattr(value, attr)
        except Exception:  # noqa: BLE001 - a property may raise anything
            return False, None
    return True, value


def collect_objects(line: str, scopes: list[dict[str, Any]]) -> dict[str, Any]:
    """Values of the names on the line; list/tuple items that are tensors are added as ``xs[0]``."""
    objects: dict[str, Any] = {}
    for dotted in referenced_names(line):
        ok, value = lookup(dotted, scopes)
        if not ok or type(value).__name__ == "module":
            continue
        objects[dotted] = value
        if isinstance(value, (list, tuple)):
            for i, item in enumerate(value[:_MAX_LIST_ITEMS]):
                if is_array(item):
                    objects[f"{dotted}[{i}]"] = item
    return objects
