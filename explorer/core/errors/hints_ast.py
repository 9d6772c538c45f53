"""What the training-loop hints read in the learner's code, computed once per script (:class:`Facts`).

Values decide what a name is (an optimizer, a module). A name local to a function is that function's: it
is read through the call that passes a namespace name for it (``train(model, loader, optimizer)``), and a
name the code binds again after the place that used it is not known at all (its value now is another).
Events of a loop (``backward``, ``step``, ``zero``, ``eval``, ``train``) are read in
:mod:`explorer.core.errors.hints_events`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

from explorer.core.errors.context import dotted_name
from explorer.core.errors.safe import is_module, scope_get

_NO_GRAD = ("no_grad", "inference_mode")
_EVAL_WORDS = ("test", "val", "eval")


def method(node: ast.AST) -> str | None:
    """``step`` for ``opt.step(...)``; None for anything but a method call."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def receiver(call: ast.Call) -> str | None:
    """The dotted name a method is called on (``optimizer``, ``self.opt``), or None."""
    return dotted_name(call.func.value) if isinstance(call.func, ast.Attribute) else None


def value_of(name: str | None, namespace: dict[str, Any]) -> tuple[bool, Any]:
    """The namespace's value of a plain name (a dotted one is not looked up: no attribute is read)."""
    if not name or "." in name or "[" in name:
        return False, None
    return scope_get([namespace], name)


def global_name(scope: Scope, name: str | None) -> str | None:
    """The namespace name *name* stands for in *scope* (None for a local whose value is unknown)."""
    if not name:
        return None
    root = name.split(".")[0].split("[")[0]
    if root not in scope:
        return name
    mapped = scope[root]
    return None if mapped is None else mapped + name[len(root):]


def resolve(tree: ast.AST, node: ast.AST, name: str | None, namespace: dict[str, Any]) -> tuple[bool, Any]:
    """The value of *name* as the code at *node* saw it: a function's local is not the namespace's name, and a
    name bound again after *node* ran holds another value now (nothing is known then)."""
    known = facts(tree)
    return trusted_value(tree, node, global_name(known.scope_at(node), name), namespace)


def trusted_value(tree: ast.AST, node: ast.AST, glob: str | None, namespace: dict[str, Any]) -> tuple[bool, Any]:
    """The namespace's value of the global name *glob*, unless the code binds it again after *node* ran."""
    known = facts(tree)
    root = (glob or "").split(".")[0].split("[")[0]
    if root and known.last_bound.get(root, 0) > known.used_until(node):
        return False, None
    return value_of(glob, namespace)


def is_no_grad(stmt: ast.stmt) -> bool:
    """``with torch.no_grad():`` / ``with torch.inference_mode():`` (any spelling of torch)."""
    return isinstance(stmt, (ast.With, ast.AsyncWith)) and any(
        any(word in ast.unparse(item.context_expr) for word in _NO_GRAD) for item in stmt.items)


def decorated_no_grad(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(any(word in ast.unparse(d) for word in _NO_GRAD) for d in func.decorator_list)


Loop = ast.For | ast.While | ast.AsyncFor
#: A function's local names: the namespace name each stands for, None when unknown.
Scope = dict[str, str | None]
_FACTS = "_explorer_hint_facts"


class Facts:
    """What the checks ask of one parsed script, computed once: every check reads it (a 2,000-line script
    would otherwise be walked once per loop per check)."""

    def __init__(self, tree: ast.AST) -> None:
        self.nodes = list(ast.walk(tree))
        self.parents = {id(child): parent for parent in self.nodes for child in ast.iter_child_nodes(parent)}
        self.calls = [n for n in self.nodes if isinstance(n, ast.Call)]
        self.loops: list[Loop] = sorted((n for n in self.nodes if isinstance(n, (ast.For, ast.While, ast.AsyncFor))),
                                        key=lambda n: n.lineno)
        self.functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        for node in self.nodes:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions[node.name] = node  # the last definition wins, as when the script runs
        self.called = {n.func.id for n in self.calls if isinstance(n.func, ast.Name)}
        self.cache: dict[Any, Any] = {}
        self.tree = tree
        # The last line each name is bound on at the top level: a value read after the run is that binding's.
        self.last_bound: dict[str, int] = {}
        for node in self.nodes:
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and not self._in_function(node):
                self.last_bound[node.id] = max(self.last_bound.get(node.id, 0), node.lineno)

    def _in_function(self, node: ast.AST) -> bool:
        return any(isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp,
                                  ast.SetComp, ast.DictComp, ast.GeneratorExp)) for a in self.ancestors(node))

    def top_statement(self, node: ast.AST) -> ast.AST:
        """The statement of the module's body that holds *node*."""
        chain = [node, *self.ancestors(node)]
        return chain[-2] if len(chain) > 1 else node

    def used_until(self, node: ast.AST) -> int:
        """The last line at which the top level runs *node*: its own top-level statement, or the last one
        that calls its function."""
        func = next((a for a in self.ancestors(node) if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
        key = ("used_until", id(func) if func is not None else id(self.top_statement(node)))
        if key not in self.cache:
            calls = [c for c in self.calls if func is not None and getattr(c.func, "id", None) == func.name]
            holders = [self.top_statement(c) for c in calls] or [self.top_statement(node)]
            self.cache[key] = max(getattr(h, "end_lineno", 0) or getattr(h, "lineno", 0) for h in holders)
        return self.cache[key]

    def local_names(self, func: ast.AST) -> set[str]:
        """A function's parameters and the names it assigns."""
        key = ("locals", id(func))
        if key not in self.cache:
            args = getattr(func, "args", None)
            names = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
                     if a is not None} if args is not None else set()
            names |= {n.id for n in ast.walk(func) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            self.cache[key] = names
        return self.cache[key]

    def bindings(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> Scope:
        """What a function's names are in the namespace: a parameter every call passes the same plain
        name for (``train(model, loader, optimizer)``) is that name; any other local is unknown (None)."""
        key = ("bindings", id(func))
        if key not in self.cache:
            scope: Scope = dict.fromkeys(self.local_names(func))
            params = [a.arg for a in [*func.args.posonlyargs, *func.args.args]]
            passed: dict[str, set[str | None]] = {p: set() for p in params}
            for call in (c for c in self.calls if isinstance(c.func, ast.Name) and c.func.id == func.name):
                for param, arg in zip(params, call.args):
                    passed[param].add(arg.id if isinstance(arg, ast.Name) else None)
                for keyword in call.keywords:
                    if keyword.arg in passed:
                        passed[keyword.arg].add(keyword.value.id if isinstance(keyword.value, ast.Name) else None)
            for param, names in passed.items():
                if len(names) == 1 and None not in names:
                    scope[param] = next(iter(names))
            self.cache[key] = scope
        return self.cache[key]

    def scope_at(self, node: ast.AST) -> Scope:
        """The names local to the function around *node* (empty at the top level)."""
        func = next((a for a in self.ancestors(node) if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
        return self.bindings(func) if func is not None else {}

    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        parent = self.parents.get(id(node))
        while parent is not None:
            yield parent
            parent = self.parents.get(id(parent))


def facts(tree: ast.AST) -> Facts:
    """The tree's :class:`Facts` (made on first use and kept on the tree)."""
    found = getattr(tree, _FACTS, None)
    if found is None:
        found = Facts(tree)
        setattr(tree, _FACTS, found)
    return found


def loops(tree: ast.AST) -> list[Loop]:
    """Every ``for`` and ``while`` loop, in source order."""
    return facts(tree).loops


def functions(tree: ast.AST) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    """The script's functions by name (the last definition wins, as when the script runs)."""
    return facts(tree).functions


def holds(tree: ast.AST, outer: ast.AST, inner: ast.AST) -> bool:
    """True when *inner* sits inside *outer*."""
    return any(a is outer for a in facts(tree).ancestors(inner))


def enclosing_function(tree: ast.AST, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The innermost function whose body holds *node*."""
    return next((a for a in facts(tree).ancestors(node) if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))),
                None)


def under_no_grad(tree: ast.AST, node: ast.AST) -> bool:
    """Inside a ``with torch.no_grad():`` block, or a function decorated with it."""
    return any((isinstance(a, ast.stmt) and is_no_grad(a))
               or (isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef)) and decorated_no_grad(a))
               for a in facts(tree).ancestors(node))


def is_called(tree: ast.AST, name: str) -> bool:
    """True when the code calls ``name(...)`` somewhere (a function that is defined and used)."""
    return name in facts(tree).called


def eval_iterable(loop: ast.AST) -> bool:
    """A loop over test or validation data (``for x, y in test_loader``)."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return False
    names = [n.id for n in ast.walk(loop.iter) if isinstance(n, ast.Name)]
    names += [n.attr for n in ast.walk(loop.iter) if isinstance(n, ast.Attribute)]
    return any(word in name.lower() for name in names for word in _EVAL_WORDS)


def modules_called(tree: ast.AST, stmts: list[ast.AST], namespace: dict[str, Any]) -> dict[str, Any]:
    """Modules of the namespace the nodes run: called (``model(x)``) or handed to a call (``train(model, ...)``)."""
    found: dict[str, Any] = {}
    for node in stmts:
        for call in ast.walk(node):
            if not isinstance(call, ast.Call):
                continue
            names = [call.func] + list(call.args) + [k.value for k in call.keywords]
            for name in names:
                if isinstance(name, ast.Name):
                    ok, value = resolve(tree, call, name.id, namespace)
                    if ok and is_module(value):
                        found[name.id] = value
    return found
