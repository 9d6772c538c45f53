"""The work behind ``inspect`` and ``render``: run the target in a fresh kernel, ask the agent."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from explorer.cli.common import UsageError, fail, is_script
from explorer.cli.table import format_table
from explorer.kernel.headless import HeadlessKernel, KernelDiedError

ARRAY_KINDS = ("tensor", "parameter", "ndarray")
ERROR_KEYS = ("type", "message", "line", "title", "explanation", "fix")


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


def _load_into(kernel: HeadlessKernel, options: argparse.Namespace, script: str | None) -> tuple[str, bool]:
    """Run the script (already read) or load the data file in *kernel*; return (code run, whether it raised)."""
    target = options.target
    if script is not None:
        code = script
        kernel.request("script_context", {"path": os.path.abspath(target)})
    else:
        path = target if "://" in target else os.path.abspath(target)
        reply = kernel.request("prepare_load", {"path": path, "allow_pickle": options.allow_pickle})
        result = reply.get("result") or {}
        message = reply.get("error") or result.get("error")
        if message:
            if result.get("needs_pickle") and not options.allow_pickle:
                message = message.rstrip(".") + "; pass --allow-pickle to load it anyway."
            raise UsageError(message)
        code = result["code"]
    outcome = kernel.run(code, timeout=options.timeout)
    if outcome["status"] == "error" and not is_script(target):
        text = next((o.get("evalue", "") for o in outcome["outputs"] if o["type"] == "error"), "")
        raise UsageError(f"{target} could not be loaded: {text}".rstrip(": ") + ".")
    return code, outcome["status"] == "error"


def _after_run(kernel: HeadlessKernel, code: str, failed: bool) -> dict[str, Any]:
    reply = kernel.request("after_run", {"code": code, "failed": failed, "exact_overlaps": True})
    if "error" in reply:
        raise RuntimeError(f"the inspector failed: {reply['error']}")
    return reply["result"]


def _contract_error(error: dict[str, Any] | None) -> dict[str, Any] | None:
    if not error:
        return None
    return {key: error.get(key) for key in ERROR_KEYS} | {k: v for k, v in error.items() if k not in ERROR_KEYS}


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
                code, failed = _load_into(kernel, options, script)
                result = _after_run(kernel, code, failed)
            except KernelDiedError:
                if not is_script(options.target):
                    raise UsageError(f"{options.target} could not be loaded: the loader crashed.")
                result, failed = {"snapshot": {"variables": []}, "error": _died(options.target)}, True
    except UsageError as exc:
        return fail(str(exc), options.json, "FileLoadError")
    payload = {"variables": result["snapshot"]["variables"], "error": _contract_error(result.get("error"))}
    if failed and payload["error"] is None:
        payload["error"] = {"type": "Error", "message": "the script raised an exception", "line": None,
                            "title": "The script failed", "explanation": "", "fix": None}
    if options.json:
        print(json.dumps(payload))
    else:
        print(format_table(payload))
    return 1 if failed else 0


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
                code, failed = _load_into(kernel, options, script)
            except KernelDiedError:
                raise UsageError(f"{options.target} ended the kernel process before anything could be drawn.")
            snapshot = kernel.request("snapshot", {"code": code}).get("result") or {"variables": []}
            name = _pick_variable(snapshot["variables"], options.var)
            params = {"name": name, "out": os.path.abspath(options.out)}
            if options.layout:
                params["layout"] = options.layout
            reply = kernel.request("render", params)
    except UsageError as exc:
        return fail(str(exc), options.json)
    if "error" in reply:
        return fail(_sentence(reply["error"]), options.json)
    facts = reply["result"]
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
