"""Turning a catalogue card into the JSON the GUI and the CLI show, and telling the learner's files from libraries."""

from __future__ import annotations

import linecache
import os
import sysconfig
from collections.abc import Iterable
from typing import Any

from explorer.core.errors.context import ErrorContext, variable_record
from explorer.core.errors.entry import Card
from explorer.core.errors.safe import is_array
from explorer.core.errors.source import is_code
from explorer.core.errors.spelling import unknown_names

_MAX_VARIABLES = 12


def _library_roots() -> tuple[str, ...]:
    """Folders whose frames are never 'the learner's code': the stdlib and this package."""
    paths = sysconfig.get_paths()
    roots = {paths.get("stdlib", ""), paths.get("platstdlib", ""), os.path.dirname(os.path.dirname(__file__))}
    return tuple(os.path.normcase(os.path.abspath(r)) + os.sep for r in roots if r)


_LIBRARY_ROOTS = _library_roots()


def is_library(filename: str) -> bool:
    """True for frames in site-packages, the standard library, frozen modules or explorer itself."""
    if not filename or filename.startswith("<frozen"):
        return True
    if filename.startswith("<"):  # <cell-1>, <string>: code that was typed, not installed
        return False
    path = os.path.normcase(os.path.abspath(filename))
    if "site-packages" in path or "dist-packages" in path:
        return True
    return path.startswith(_LIBRARY_ROOTS)


def is_user_file(filename: str, code_filenames: Iterable[str]) -> bool:
    """A file of the learner's code: one of the executed cells, else anything outside the libraries."""
    names = set(code_filenames)
    return filename in names if names else not is_library(filename)


def source_of(filename: str, module_globals: dict | None = None) -> str:
    """The text Python compiled for *filename* (IPython keeps its cells in linecache)."""
    return "".join(linecache.getlines(filename, module_globals))


def checked_fix(card: Card, scopes: list[dict[str, Any]], default_line: int | None) -> tuple[str | None, str | None, int | None]:
    """(fix, mode, fix_line): code only when it parses and reads no name the script lacks, else the advice."""
    fix = card.fix
    if is_code(fix):
        unknown = unknown_names(fix or "", scopes)
        if unknown is None or unknown:
            fix = card.advice
    if not is_code(fix):
        return (fix or None), None, None
    return fix, card.mode, card.fix_line or default_line


def card_dict(key: str, card: Card, ctx: ErrorContext, offset: int, severity: str) -> dict[str, Any]:
    """The JSON card: the fix checked, every line moved to the submitted code's numbering."""
    fix, mode, fix_line = checked_fix(card, card.scopes or ctx.scopes, ctx.statement.lineno if ctx.statement else ctx.line)

    def shift(n: object) -> int | None:
        return n + offset if isinstance(n, int) else None

    return {"key": key, "severity": severity, "line": shift(ctx.line), "title": card.title,
            "explanation": card.explanation, "fix": fix, "fix_mode": mode, "fix_line": shift(fix_line),
            "code_line": ctx.code_line, "variables": _variables(ctx)}


def _variables(ctx: ErrorContext) -> list[dict[str, Any]]:
    """Records of the tensors/arrays named in the failing statement, then the learner's names for its parameters."""
    named = dict(ctx.tensors)
    for _inner, (outer, caller, _same) in ctx.aliases.items():
        value = caller.objects.get(outer)
        if outer not in named and is_array(value):
            named[outer] = value
    records = []
    for name, value in list(named.items())[:_MAX_VARIABLES]:
        try:
            records.append(variable_record(name, value))
        except Exception:  # noqa: BLE001
            continue
    return records
