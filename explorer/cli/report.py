"""What ``inspect`` prints: the contract's error and hints (docs/architecture.md), and the cards the CLI writes itself.

The cards' titles, explanations and fixes and the labels of the text output are in the ``--lang``
language (gettext, like the kernel's sentences); ``message`` stays English, as on stderr.
"""

from __future__ import annotations

import ast
from typing import Any

from explorer.cli.common import Budget, printable
from explorer.core.i18n import _

ERROR_KEYS = ("type", "message", "line", "title", "explanation", "fix", "frames")
HINT_KEYS = ("line", "title", "explanation", "fix")


def contract_error(error: dict[str, Any] | None, script: str | None) -> dict[str, Any] | None:
    """The error card with the contract's keys first and its lines counted in the file."""
    if not error:
        return None
    error = _file_lines(error, script)
    out = {key: error.get(key) for key in ERROR_KEYS} | {k: v for k, v in error.items() if k not in ERROR_KEYS}
    out["frames"] = out["frames"] or []  # a card the CLI wrote itself (timeout, died) has no frames
    return out


def contract_hints(hints: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """The hints as the CLI contract lists them: line, title, explanation, fix (then any extras)."""
    out = []
    for hint in hints or []:
        if isinstance(hint, dict):
            out.append({key: hint.get(key) for key in HINT_KEYS} | {k: v for k, v in hint.items() if k not in HINT_KEYS})
    return out


def _file_lines(error: dict[str, Any], script: str | None) -> dict[str, Any]:
    """The card with its lines counted in the file, also from a kernel that counted the compiled cell.

    IPython drops a cell's leading blank lines before compiling; a kernel that does not pass the
    submitted code to the explainer reports lines that many too low. The card's ``code_line``
    tells: when the file's line differs but the line that many further down matches, shift.
    """
    line, text = error.get("line"), (error.get("code_line") or "").strip()
    if script is None or not isinstance(line, int) or not text:
        return error
    rows = [row.strip() for row in script.splitlines()]
    if 0 < line <= len(rows) and rows[line - 1] == text:
        return error
    skipped = next((i for i, row in enumerate(rows) if row), 0)
    if skipped and 0 < line + skipped <= len(rows) and rows[line + skipped - 1] == text:
        moved = dict(error, line=line + skipped)
        if isinstance(error.get("fix_line"), int):
            moved["fix_line"] = error["fix_line"] + skipped
        return moved
    return error


def died(target: str) -> dict[str, Any]:
    """The card of a script that ended the kernel process."""
    message = "The kernel process died while running the script (it exited or crashed)."
    return {"type": "KernelDied", "message": message, "line": None, "title": _("The kernel died"),
            "explanation": _("{target} ended the Python process (os._exit, a crash or running out of memory).").format(
                target=target),
            "fix": None}


def silenced(names: list[str], script: str | None, ended: bool = False) -> dict[str, Any]:
    """The card of a script that replaced *names* (``builtins.isinstance``), which the kernel's messaging calls."""
    what = ", ".join(names) or "something the kernel itself needs"
    fate = "the kernel process ended" if ended else "the kernel fell silent"
    message = f"the script replaced {what}, which the kernel itself needs to send and read messages, so {fate}"
    return {"type": "KernelSilent", "message": message, "line": _assigning_line(script, names),
            "title": "The script broke the kernel's messaging",
            "explanation": (f"Jupyter's messaging and the kernel's own event loop call {what} all the time; once "
                            "the script had replaced it, the kernel could not even say that the script had "
                            "finished, so nothing it made can be listed."),
            "fix": ("leave builtins and standard library functions as they are: give your own version a name "
                    "of its own, or put the original back before the script ends")}


def _assigning_line(script: str | None, names: list[str]) -> int | None:
    """The first line of *script* that assigns one of *names*' attributes (``builtins.isinstance = ...``)."""
    wanted = {name.rpartition(".")[2] for name in names}
    try:
        tree = ast.parse(script or "")
    except (SyntaxError, ValueError):
        return None
    lines = [node.lineno for node in ast.walk(tree)
             if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and node.attr in wanted]
    return min(lines, default=None)


def timed_out(budget: Budget, line: Any = None, killed: bool = False) -> dict[str, Any]:
    """The card of a script still running when ``--timeout`` ran out (*killed*: it ignored the interrupt)."""
    if killed:
        message = (f"the script was still running after {budget.option()} s and ignored the interrupt, "
                   "so its kernel was stopped")
        explanation = _("The script caught KeyboardInterrupt or was inside a long call that cannot be "
                        "interrupted, so nothing it made can be listed.")
    else:
        message = f"the script was still running after {budget.option()} s and was interrupted"
        explanation = _("The variables are listed as they were when the script was interrupted.")
    return {"type": "Timeout", "message": message, "line": line if isinstance(line, int) else None,
            "title": _("The script ran past {option} s").format(option=budget.option()), "explanation": explanation,
            "fix": _("make the loop end, or allow more time with a larger --timeout")}


def hint_lines(hints: list[dict[str, Any]]) -> str:
    """The hints under the table, one block each."""
    lines = []
    for hint in hints:
        head = _("Hint (line {line})").format(line=hint["line"]) if hint.get("line") else _("Hint")
        why, fix = _("explanation"), _("fix")
        lines += ["", f"{head}: {hint.get('title')}", f"  {why}: {hint.get('explanation')}"]
        if hint.get("fix"):
            lines.append(f"  {fix}: {hint['fix']}")
    return printable("\n".join(lines), keep_lines=True)
