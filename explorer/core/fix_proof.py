"""The kernel's part of proving a fix: the learner's script with a card's fix applied, and where the fix went.

The window (or the CLI) starts a separate background kernel, asks it ``ApplyFix`` and runs the
patched script there (``explorer.client.fix_proof``); the lines the fix took tell it how a line of
the patched script reads in the learner's file.
"""

from __future__ import annotations

from explorer.core.errors.source import apply_fix, parse, span, statement_at
from explorer.protocol import PatchedScript


def patched_script(code: str, fix: str, fix_mode: str, fix_line: int) -> PatchedScript:
    """*code* with the fix applied as :func:`~explorer.core.errors.source.apply_fix` applies it, and its place."""
    card = {"fix": fix, "fix_mode": fix_mode, "fix_line": fix_line}
    patched = apply_fix(code, card)
    if patched is None:
        return {"code": None, "first": None, "last": None, "lines": 0}
    stmt, _ = statement_at(parse(code), fix_line)
    first, last = span(stmt) if stmt is not None else (fix_line, fix_line)
    if fix_mode == "before":
        last = first - 1
    return {"code": patched, "first": first, "last": last, "lines": len(fix.splitlines())}
