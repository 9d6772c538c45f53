"""The work behind ``inspect`` and ``render``: run the target in a fresh kernel, ask the agent."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from explorer.cli.common import UsageError, fail, is_script
from explorer.cli.table import format_table
from explorer import protocol
from explorer.kernel.headless import HeadlessKernel, KernelDiedError

ARRAY_KINDS = ("tensor", "parameter", "ndarray")
ERROR_KEYS = ("type", "message", "line", "title", "explanation", "fix")
HINT_KEYS = ("line", "title", "explanation", "fix")


def _read_script(path: str) -> str:
    if not os.path.exists(path):
        raise UsageError(f"{path} does not exist.")
    if os.path.isdir(path):
        raise UsageError(f"{path} is a directory, not a script.")
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise UsageError(f"{path} cannot be read ({exc.strerror or exc}).") from exc
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path} is not a UTF-8 text script.") from exc


def _check_target(target: str) -> str | None:
    """Fail fast, before a kernel starts: return the script text, or None for a data file."""
    if is_script(target):
        return _read_script(target)
    if "://" not in target and not os.path.lexists(target):  # URLs get the loader's own sentence
        raise UsageError(f"{target} does not exist.")
    return None


def _load_into(kernel: HeadlessKernel, options: argparse.Namespace, script: str | None) -> tuple[str, dict[str, Any]]:
    """Run the script (already read) or load the data file in *kernel*; return (code run, the run's outcome)."""
    target = options.target
    if script is not None:
        code = script
        kernel.ask(protocol.ScriptContext(path=os.path.abspath(target)))
    else:
        path = target if "://" in target else os.path.abspath(target)
        reply = kernel.ask(protocol.PrepareLoad(path=path, allow_pickle=options.allow_pickle))
        result = reply.result or {}
        message = reply.message or result.get("error")
        if message:
            if result.get("needs_pickle") and not options.allow_pickle:
                message = message.rstrip(".") + "; pass --allow-pickle to load it anyway."
            raise UsageError(message)
        code = result["code"]
    outcome = kernel.run(code, timeout=options.timeout)
    if outcome["status"] == "error" and not is_script(target):
        text = next((o.get("evalue", "") for o in outcome["outputs"] if o["type"] == "error"), "")
        raise UsageError(f"{target} could not be loaded: {text}".rstrip(": ") + ".")
    return code, outcome


def _after_run(kernel: HeadlessKernel, code: str, outcome: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """The kernel's report after the run, and whether the script failed.

    ``sys.exit()`` / ``sys.exit(0)`` end the script normally: the kernel reports a SystemExit,
    the explainer gives it no card (the reply then carries the hints), and the run counts as a success.
    """
    failed = outcome["status"] == "error"
    reply = kernel.ask(protocol.AfterRun(code=code, failed=failed, exact_overlaps=True))
    if not reply.ok or reply.result is None:
        raise RuntimeError(f"the inspector failed: {reply.message}")
    result = dict(reply.result)
    names = {o.get("ename") for o in outcome["outputs"] if o["type"] == "error"}
    if failed and result.get("error") is None and names == {"SystemExit"}:
        failed = False
    return result, failed


def _contract_error(error: dict[str, Any] | None, script: str | None) -> dict[str, Any] | None:
    if not error:
        return None
    error = _file_lines(error, script)
    return {key: error.get(key) for key in ERROR_KEYS} | {k: v for k, v in error.items() if k not in ERROR_KEYS}


def _contract_hints(hints: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
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


def _died(target: str) -> dict[str, Any]:
    message = "The kernel process died while running the script (it exited or crashed)."
    return {"type": "KernelDied", "message": message, "line": None, "title": "The kernel died",
            "explanation": f"{target} ended the Python process (os._exit, a crash or running out of memory).",
            "fix": None}


def inspect_target(options: argparse.Namespace) -> int:
    """``tensor-explorer inspect TARGET [--json]``."""
    try:
        script = _check_target(options.target)
        with HeadlessKernel() as kernel:
            try:
                code, outcome = _load_into(kernel, options, script)
                result, failed = _after_run(kernel, code, outcome)
            except KernelDiedError:
                if not is_script(options.target):
                    raise UsageError(f"{options.target} could not be loaded: the loader crashed.")
                result, failed = {"snapshot": {"variables": []}, "error": _died(options.target)}, True
    except UsageError as exc:
        return fail(str(exc), options.json, "FileLoadError")
    payload = {"variables": result["snapshot"]["variables"], "error": _contract_error(result.get("error"), script),
               "hints": _contract_hints((result.get("hints") or []) + (result.get("warnings") or []))}
    if failed and payload["error"] is None:
        payload["error"] = {"type": "Error", "message": "the script raised an exception", "line": None,
                            "title": "The script failed", "explanation": "", "fix": None}
    if options.json:
        print(json.dumps(payload))
    else:
        print(format_table(payload) + _hint_lines(payload["hints"]))
    return 1 if failed else 0


def _hint_lines(hints: list[dict[str, Any]]) -> str:
    """The hints under the table, one block each."""
    lines = []
    for hint in hints:
        where = f" (line {hint['line']})" if hint.get("line") else ""
        lines += ["", f"Hint{where}: {hint.get('title')}", f"  explanation: {hint.get('explanation')}"]
        if hint.get("fix"):
            lines.append(f"  fix: {hint['fix']}")
    return "\n".join(lines)


def _pick_variable(variables: list[dict[str, Any]], wanted: str | None) -> str:
    if wanted:
        return wanted
    arrays = [v["name"] for v in variables if v.get("kind") in ARRAY_KINDS]
    if len(arrays) == 1:
        return arrays[0]
    if not arrays:
        raise UsageError("the target holds no tensor or array to draw.")
    raise UsageError(f"the target holds {len(arrays)} arrays ({', '.join(arrays[:5])}); choose one with --var.")


def render_target(options: argparse.Namespace) -> int:
    """``tensor-explorer render TARGET --var NAME --out FILE.png [--json]``."""
    try:
        script = _check_target(options.target)
        with HeadlessKernel() as kernel:
            try:
                code, outcome = _load_into(kernel, options, script)
                failed = outcome["status"] == "error"
            except KernelDiedError:
                raise UsageError(f"{options.target} ended the kernel process before anything could be drawn.")
            snapshot = kernel.ask(protocol.Snapshot(code=code)).result or {"variables": []}
            name = _pick_variable(snapshot["variables"], options.var)
            reply = kernel.ask(protocol.Render(name=name, out=os.path.abspath(options.out), layout=options.layout))
    except UsageError as exc:
        return fail(str(exc), options.json)
    if not reply.ok:
        return fail(_sentence(reply.message), options.json)
    facts = reply.result
    if options.json:
        print(json.dumps(facts))
    else:
        print(f"{name}: layout {facts.get('layout')}, shown as {facts.get('display_shape')} -> {options.out}")
    return 1 if failed else 0


def _sentence(error: str) -> str:
    """Strip an exception class prefix ("ValueError: ...") from an agent error."""
    head, _, rest = error.partition(": ")
    text = rest if rest and head.replace(".", "").replace("_", "").isalnum() else error
    return text if text.endswith(".") else text + "."


if __name__ == "__main__":  # pragma: no cover
    sys.exit("use tensor-explorer")
