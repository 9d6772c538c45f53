"""The learner's source: the statement on a line, lines of the submitted code, and applying a card's fix.

IPython drops the blank lines at the top of a cell before compiling it, so a
traceback counts from the first non-blank line; :func:`cell_offset` finds how
many lines to add so that a card's ``line`` is the line of the code that was
submitted (a file, a cell or a selection), whatever its line endings.
"""

from __future__ import annotations

import ast
import copy
from typing import Any

from explorer.protocol.cells import has_code

_COMPOUND = (ast.If, ast.While, ast.For, ast.With, ast.Try, ast.FunctionDef, ast.ClassDef,
             ast.AsyncFor, ast.AsyncWith, ast.AsyncFunctionDef)


def _normal(lines: list[str]) -> list[str]:
    return [line.strip() for line in lines]


def cell_offset(code: str, compiled: str) -> int | None:
    """Lines to add to a line of *compiled* (what Python ran) to reach the same line of *code* (what was submitted).

    None when *compiled* is not this code (another cell, a file the script imported).
    """
    submitted, ran = _normal(code.splitlines()), _normal(compiled.splitlines())
    while ran and not ran[-1]:
        ran.pop()
    if not ran:
        return None
    for offset in range(len(submitted) - len(ran) + 1):
        if submitted[offset:offset + len(ran)] == ran and all(not s for s in submitted[:offset]):
            return offset
    return None


def parse(source: str) -> ast.Module | None:
    """The module's AST, or None when it does not parse."""
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _children(node: ast.AST) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for field in ("body", "orelse", "finalbody"):
        out += [n for n in getattr(node, field, []) if isinstance(n, ast.stmt)]
    for handler in getattr(node, "handlers", []):
        out += handler.body
    for case in getattr(node, "cases", []):
        out += case.body
    return out


def _header_end(node: ast.stmt) -> int:
    """The last line of a compound statement's header (``if a > 0:``)."""
    body = _children(node)
    return (body[0].lineno - 1) if body else (node.end_lineno or node.lineno)


def statement_at(tree: ast.AST | None, line: int) -> tuple[ast.stmt | None, list[ast.stmt]]:
    """The innermost statement covering *line* and the body (list of statements) it belongs to."""
    if tree is None:
        return None, []
    body: list[ast.stmt] = list(getattr(tree, "body", []))
    found: ast.stmt | None = None
    owner = body
    while True:
        for stmt in body:
            if stmt.lineno <= line <= (stmt.end_lineno or stmt.lineno):
                found, owner = stmt, body
                break
        else:
            return found, owner
        if isinstance(found, _COMPOUND) and line > _header_end(found):
            body = _children(found)
            continue
        return found, owner


def span(stmt: ast.stmt) -> tuple[int, int]:
    """First and last line a fix replaces: the whole simple statement, or only a compound statement's header."""
    first = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])
    if isinstance(stmt, _COMPOUND):
        return first, _header_end(stmt)
    return first, stmt.end_lineno or stmt.lineno


def segment(source: str, stmt: ast.stmt) -> str:
    """The statement's own text (a compound statement's header only), lines joined."""
    first, last = span(stmt)
    return "\n".join(source.splitlines()[first - 1:last]).strip()


def apply_fix(code: str, card: dict[str, Any]) -> str | None:
    """The code with the card's fix applied at ``fix_line`` (``fix_mode`` "replace" or "before"), or None.

    The fix is indented like the line it replaces; "replace" replaces the whole statement
    on that line (only the header of an ``if``/``for``/``with``).
    """
    fix, mode, line = card.get("fix"), card.get("fix_mode"), card.get("fix_line")
    if not fix or mode not in ("replace", "before") or not isinstance(line, int):
        return None
    lines = code.splitlines()
    stmt, _ = statement_at(parse(code), line)
    first, last = span(stmt) if stmt is not None else (line, line)
    if not 1 <= first <= len(lines):
        return None
    indent = lines[first - 1][: len(lines[first - 1]) - len(lines[first - 1].lstrip())]
    new = [indent + row if row.strip() else row for row in fix.splitlines()]
    if mode == "replace":
        lines[first - 1:last] = new
    else:
        lines[first - 1:first - 1] = new
    return "\n".join(lines) + "\n"


def is_code(fix: str | None) -> bool:
    """True when the fix has at least one line that is not a comment (rather than advice in words)."""
    return has_code(fix)


def comment_lines(text: str) -> str:
    """Advice in words as comment lines (one ``#`` line per line of text)."""
    return "\n".join(f"# {row}" if row else "#" for row in text.splitlines())


def _clone(node: ast.AST, swaps: dict[int, ast.AST]) -> ast.AST:
    """A deep copy of *node* in which the nodes whose id is in *swaps* are replaced."""
    if id(node) in swaps:
        return swaps[id(node)]
    twin = copy.copy(node)
    for field, value in ast.iter_fields(node):
        if isinstance(value, list):
            setattr(twin, field, [_clone(v, swaps) if isinstance(v, ast.AST) else v for v in value])
        elif isinstance(value, ast.AST):
            setattr(twin, field, _clone(value, swaps))
    return twin


def replaced(stmt: ast.stmt, swaps: dict[ast.AST, ast.AST | str] | None = None) -> str:
    """The statement's code with some nodes replaced (by nodes or by code); a compound statement gives its header."""
    table = {id(old): (ast.parse(new, mode="eval").body if isinstance(new, str) else new)
             for old, new in (swaps or {}).items()}
    twin = _clone(stmt, table)
    if isinstance(twin, _COMPOUND):
        for field in ("body", "orelse", "finalbody", "handlers"):
            if hasattr(twin, field):
                setattr(twin, field, [])
    return ast.unparse(twin)
