"""The editor's text as top-level statements, for stepping through it one statement at a time.

Cells (``# %%`` lines) are parsed one by one, as Run Cell runs them, so a cell
that does not parse (a typo, an IPython ``%magic``) is one step of its own that
raises when run, and the cells around it still split into statements. Lines are
1-based lines of the file; a statement's code is exactly its lines of the file,
so an error in it is reported at the file's line (``Run.first_line``).
Statements sharing a line (``a = 1; b = 2``) are one step. Pure Python, no Qt.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from explorer.protocol.cells import is_cell_marker, is_code_line


@dataclass(frozen=True)
class Statement:
    """One step: the file lines ``first_line``..``last_line`` (inclusive) and their text."""

    first_line: int
    last_line: int
    code: str


def _cells(lines: list[str]) -> list[tuple[int, int]]:
    """(first, last) 0-based line indexes of each cell, the text before the first marker included."""
    starts = [0] + [i for i, line in enumerate(lines) if is_cell_marker(line) and i > 0]
    ends = starts[1:] + [len(lines)]
    return [(a, b - 1) for a, b in zip(starts, ends)]


def _spans(source: str) -> list[tuple[int, int]] | None:
    """(first, last) 1-based lines of each top-level statement of *source*; None when it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    spans: list[tuple[int, int]] = []
    for node in tree.body:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        last = node.end_lineno or node.lineno
        if spans and first <= spans[-1][1]:  # shares a line with the previous one
            spans[-1] = (spans[-1][0], max(spans[-1][1], last))
        else:
            spans.append((first, last))
    return spans


def split_statements(text: str) -> list[Statement]:
    """Every top-level statement of *text*, cell by cell, in file order.

    Parameters
    ----------
    text : str
        The editor's text.

    Returns
    -------
    list of Statement
        A cell that does not parse gives one statement from its first to its
        last line of code.
    """
    lines = text.split("\n")
    out: list[Statement] = []
    for first, last in _cells(lines):
        chunk = lines[first:last + 1]
        spans = _spans("\n".join(chunk))
        if spans is None:
            code_rows = [i for i, line in enumerate(chunk) if is_code_line(line)]
            spans = [(code_rows[0] + 1, code_rows[-1] + 1)] if code_rows else []
        for a, b in spans:
            out.append(Statement(first + a, first + b, "\n".join(lines[first + a - 1:first + b])))
    return out


def index_at_or_after(statements: list[Statement], line: int) -> int:
    """Index of the statement holding *line*, else of the first one after it (``len`` when none)."""
    for i, statement in enumerate(statements):
        if statement.last_line >= line:
            return i
    return len(statements)


def assigned_names(code: str) -> list[str]:
    """Top-level names *code* binds or writes into, in order (``t`` for ``t[0] = 1``, ``x`` for ``x.grad = None``).

    Names bound inside functions, classes, lambdas and comprehensions are theirs, not the module's.
    """
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return []
    found: list[tuple[int, int, str]] = []
    for node in _module_level(tree):
        where = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.NamedExpr, ast.For, ast.AsyncFor)):
            targets = [node.target]
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            targets = [item.optional_vars for item in node.items if item.optional_vars is not None]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found.extend((*where, (a.asname or a.name).split(".")[0]) for a in node.names if a.name != "*")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.append((*where, node.name))
        found.extend((*where, name) for target in targets for name in _root_names(target))
    return list(dict.fromkeys(name for _, _, name in sorted(found, key=lambda f: (f[0], f[1]))))


_OWN_SCOPE = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp, ast.SetComp,
              ast.DictComp, ast.GeneratorExp)


def _module_level(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of *tree* that runs in the module's scope (definitions themselves included, not their bodies)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, _OWN_SCOPE):
            continue
        stack.extend(ast.iter_child_nodes(node))


def _root_names(target: ast.AST) -> list[str]:
    """The variables a target writes: ``a`` for ``a``, ``a[0]``, ``a.b``; each of a tuple's."""
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for element in target.elts for n in _root_names(element)]
    if isinstance(target, ast.Starred):
        return _root_names(target.value)
    while isinstance(target, (ast.Subscript, ast.Attribute)):
        target = target.value
    return [target.id] if isinstance(target, ast.Name) else []
