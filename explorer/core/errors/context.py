"""What the explainer knows about the failing statement: its source, its names, their values, the scopes."""

from __future__ import annotations

import ast
import keyword
import re
import types
from dataclasses import dataclass, field
from typing import Any

from explorer.core.errors import safe
from explorer.core.errors.safe import device_of, dtype_of, is_array, is_module, shape_of
from explorer.core.errors.source import parse, segment, statement_at
from explorer.core.errors.spelling import spell
from explorer.core.errors.values_static import lookup, resolve_callee  # noqa: F401 - re-exported
from explorer.core.i18n import _
from explorer.protocol.units import shape_text

_IDENT_CHAIN = re.compile(r"[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*")
_MAX_LIST_ITEMS = 8
_BODY_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")
_FULL_STOPS = ("。", "！", "？", "；", "：", "）")


@dataclass
class ErrorContext:
    """Facts the catalogue entries use to write a card (in the language set with ``i18n.set_language``)."""

    message: str
    code_line: str = ""
    source: str = ""
    line: int | None = None
    scopes: list[dict[str, Any]] = field(default_factory=list)
    objects: dict[str, Any] = field(default_factory=dict)
    frame_names: set[str] = field(default_factory=set)
    match: re.Match | None = None
    statement: ast.stmt | None = None
    body: list[ast.stmt] = field(default_factory=list)
    # Filled by explorer.core.errors.frames.attach: the calls around the failing line.
    function: str = "<module>"
    params: tuple[str, ...] = ()
    code: Any = None
    callers: list[ErrorContext] = field(default_factory=list)  # the learner's outer calls, outermost first
    below: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # library frames under the line
    aliases: dict[str, tuple[str, ErrorContext, bool]] = field(default_factory=dict)  # param -> learner's name

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

    # -- the statement -----------------------------------------------------
    @property
    def statement_text(self) -> str:
        """The failing statement's code (a compound statement's header), else the physical line."""
        return segment(self.source, self.statement) if self.statement is not None else self.code_line

    def nodes(self) -> list[ast.AST]:
        """Every node of the failing statement (a compound statement's header only)."""
        if self.statement is not None:
            return header_nodes(self.statement)
        tree = parse_line(self.code_line)
        return list(ast.walk(tree)) if tree is not None else []

    def calls(self, method: str) -> list[ast.Call]:
        """Calls in the statement whose function is ``<expr>.method`` or a bare ``method``."""
        found = []
        for node in self.nodes():
            if isinstance(node, ast.Call) and call_name(node) == method:
                found.append(node)
        return found

    def receiver(self, method: str) -> str | None:
        """Source of the expression a method is called on, e.g. 'y' in 'y.backward()'."""
        for call in self.calls(method):
            if isinstance(call.func, ast.Attribute):
                return ast.unparse(call.func.value)
        return None

    # -- names ---------------------------------------------------------------
    def spell(self, path: str) -> str | None:
        """How the learner's script spells a library name (``torch.nn.Linear`` -> ``nn.Linear``)."""
        return spell(path, self.scopes)

    def value(self, name: str) -> tuple[bool, Any]:
        """A plain name's value in the failing frame's scopes."""
        return safe.scope_get(self.scopes, name)

    # -- the statement's variables -------------------------------------------
    @property
    def tensors(self) -> dict[str, Any]:
        """Tensors and arrays named in the statement, in order of appearance."""
        return {n: v for n, v in self.objects.items() if is_array(v)}

    def modules(self) -> dict[str, Any]:
        """torch.nn.Module objects named in the statement."""
        return {n: v for n, v in self.objects.items() if is_module(v)}

    def by_shape(self, shape: list[int], exclude: tuple[str, ...] = ()) -> str | None:
        """The first variable in the statement with exactly this shape."""
        for name, value in self.tensors.items():
            if name not in exclude and shape_of(value) == list(shape):
                return name
        return None

    def describe(self, name: str) -> str:
        """'`a` is [4, 3] (torch.float32, cpu)'; a parameter is named as the learner's call named it.

        "`image` is [1, 28, 28] (...), which `forward` calls `x`" when the value is still the one the
        caller passed; otherwise the parameter's own value, and what the call was given.
        """
        value = self.objects[name]
        own = _("`{name}` is {shape} ({dtype}, {device})").format(
            name=name, shape=fmt_shape(shape_of(value)), dtype=dtype_of(value), device=device_of(value))
        alias = self.aliases.get(name)
        if alias is None:
            return own
        outer, caller, same = alias
        if same:
            return _("`{outer}` is {shape} ({dtype}, {device}), which `{function}` calls `{name}`").format(
                outer=outer, shape=fmt_shape(shape_of(value)), dtype=dtype_of(value), device=device_of(value),
                function=self.function, name=name)
        passed = caller.objects.get(outer)
        if is_array(passed):
            return _("{own}; `{function}` was called with `{outer}`, which is {shape}, on line {line}").format(
                own=own, function=self.function, outer=outer, shape=fmt_shape(shape_of(passed)), line=caller.line)
        return _("{own}; `{function}` was called with `{outer}` on line {line}").format(
            own=own, function=self.function, outer=outer, line=caller.line)

    def describe_all(self, names: list[str] | None = None) -> str:
        """Describe several variables, joined as a list."""
        names = list(self.tensors) if names is None else names
        # TRANSLATORS: separates the descriptions of several variables in one sentence.
        return _("; ").join(self.describe(n) for n in names if n in self.objects)

    def facts_sentence(self, names: list[str] | None = None) -> str:
        """The statement's tensors described as one sentence (empty when none): the usual card opening."""
        described = self.describe_all(names)
        return _("{facts}.").format(facts=described) if described else ""


def join(*parts: str) -> str:
    """Sentences joined with a space after an English full stop and none after a Chinese one."""
    out = ""
    for part in (p.strip() for p in parts if p and p.strip()):
        out = part if not out else out + ("" if out.endswith(_FULL_STOPS) else " ") + part
    return out


def call_name(call: ast.Call) -> str:
    """'view' for ``x.view(...)`` and ``view(...)``; '' for other callees."""
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def header_nodes(stmt: ast.stmt) -> list[ast.AST]:
    """Every node of a statement, leaving out the bodies of compound statements."""
    found: list[ast.AST] = [stmt]
    for name, value in ast.iter_fields(stmt):
        if name in _BODY_FIELDS:
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, ast.AST):
                found += list(ast.walk(item))
    return found


def fmt_shape(shape: list[int] | None) -> str:
    """'[4, 3]' (or '?' when unknown)."""
    return shape_text(shape, missing="?")


def variable_record(name: str, value: Any) -> dict[str, Any]:
    """The JSON record of one tensor/array named in the failing statement."""
    return {
        "name": name,
        "shape": shape_of(value),
        "dtype": dtype_of(value),
        "device": device_of(value),
        "requires_grad": safe.flag(value, "requires_grad") if safe.is_tensor(value) else None,
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


def referenced(nodes: list[ast.AST]) -> list[str]:
    """Dotted names (``a``, ``model.fc.weight``, ``xs[0]``) among the nodes, in order of appearance."""
    found: list[tuple[int, int, str]] = []
    for node in nodes:
        if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)):
            dotted = dotted_name(node)
            if dotted is not None:
                found.append((node.lineno, node.col_offset, dotted))
    found.sort()
    return list(dict.fromkeys(name for _, _, name in found))


def dotted_name(node: ast.AST) -> str | None:
    """'model.fc.weight' for attribute chains; "sd['fc.weight']" / 'xs[0]' for a constant subscript of one."""
    if isinstance(node, ast.Subscript):
        base = dotted_name(node.value) if isinstance(node.value, (ast.Name, ast.Attribute, ast.Subscript)) else None
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


def collect_objects(names: list[str], scopes: list[dict[str, Any]]) -> dict[str, Any]:
    """Values of the dotted names; tensors inside a list/tuple are added as ``xs[0]``."""
    objects: dict[str, Any] = {}
    for dotted in names:
        try:
            tree = ast.parse(dotted, mode="eval").body
        except SyntaxError:
            continue
        ok, value = lookup(tree, scopes)
        if not ok or type(value) is types.ModuleType or callable_library_object(value):
            continue
        objects[dotted] = value
        for i, item in enumerate(safe.list_items(value, _MAX_LIST_ITEMS)):
            if is_array(item):
                objects[f"{dotted}[{i}]"] = item
    return objects


def callable_library_object(value: Any) -> bool:
    """Functions and classes (``torch.cat``, ``nn.Linear``): names on the line that are not data."""
    return isinstance(value, (type, types.FunctionType, types.BuiltinFunctionType, types.MethodType))


def context_for(message: str, source: str, line: int | None, scopes: list[dict[str, Any]],
                frame_names: set[str]) -> ErrorContext:
    """The context of a failing line: its statement, the names in it and their values."""
    lines = source.splitlines()
    code_line = lines[line - 1].strip() if line and 0 < line <= len(lines) else ""
    statement, body = statement_at(parse(source), line) if line and source else (None, [])
    ctx = ErrorContext(message=message, code_line=code_line, source=source, line=line, scopes=scopes,
                       frame_names=frame_names, statement=statement, body=body)
    if statement is not None:
        names = referenced(ctx.nodes())
    elif code_line:
        tree = parse_line(code_line)
        names = referenced(list(ast.walk(tree))) if tree is not None else [
            c for c in _IDENT_CHAIN.findall(code_line) if c.split(".")[0] not in keyword.kwlist]
    else:
        names = []
    ctx.objects = collect_objects(names, scopes)
    return ctx
