"""The work behind ``inspect`` and ``render``: run the target in a fresh kernel, ask the agent.

``--timeout`` is one budget for the work on the target, counted from the moment the kernel is
up: loading or running it and every inspection request. The kernel's start has its own bound
(:data:`explorer.client.budgets.KERNEL_START`, scaled for slow machines), so a busy machine's
slow start never eats the script's time. A script still running when the budget is spent is
interrupted (and its kernel killed if it ignores that; see
:class:`~explorer.client.headless.HeadlessKernel`); the variables it left then get a short grace
to be listed.
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
import time
from typing import Any

from explorer import protocol
from explorer.cli import report
from explorer.cli.common import (
    Budget,
    CommandTimeout,
    UsageError,
    fail,
    is_script,
    show,
    warn,
)
from explorer.cli.proof import fix_proof
from explorer.cli.table import format_table
from explorer.client import budgets
from explorer.client.headless import (
    ExtensionError,
    HeadlessKernel,
    KernelDiedError,
    KernelKilledError,
    KernelSilentError,
    KernelStartTimeout,
)
from explorer.core.i18n import _
from explorer.protocol.kinds import is_array

#: A script larger than this is not a lesson or an experiment; reading it could exhaust memory.
MAX_SCRIPT_BYTES = 16 * 1024 * 1024


def _read_script(path: str) -> str:
    """The script's text, after the checks data files get: a regular file of a sane size."""
    shown = show(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise UsageError(f"{shown} does not exist.") from None
    except OSError as exc:
        raise UsageError(f"{shown} cannot be opened ({exc.strerror or type(exc).__name__}).") from None
    if stat.S_ISDIR(info.st_mode):
        raise UsageError(f"{shown} is a directory, not a script.")
    if not stat.S_ISREG(info.st_mode):  # reading a pipe or /dev/zero would wait or never end
        raise UsageError(f"{shown} is not a regular file (it may be a device or a pipe).")
    if info.st_size > MAX_SCRIPT_BYTES:
        raise UsageError(f"{shown} is too large for a script ({info.st_size // (1024 * 1024)} MiB; "
                         f"the limit is {MAX_SCRIPT_BYTES // (1024 * 1024)} MiB).")
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_SCRIPT_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"{shown} cannot be read ({exc.strerror or exc}).") from exc
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{shown} is not a UTF-8 text script.") from exc


def _check_target(target: str) -> str | None:
    """Fail fast, before a kernel starts: return the script text, or None for a data file."""
    if is_script(target):
        return _read_script(target)
    if "://" not in target and not os.path.lexists(target):  # URLs get the loader's own sentence
        raise UsageError(f"{show(target)} does not exist.")
    return None


def _start(language: str = "en") -> HeadlessKernel:
    """A fresh kernel speaking *language*, started within the start budget (failures are one sentence)."""
    limit = budgets.seconds(budgets.KERNEL_START)
    try:
        return HeadlessKernel(language=language, start_timeout=limit)
    except KernelStartTimeout:
        raise CommandTimeout(f"the kernel did not start within {limit:g} s ({budgets.scaled_note()}).") from None
    except (KernelDiedError, ExtensionError, OSError) as exc:
        raise UsageError(f"the kernel could not be started: {exc}.") from None


def _ask(kernel: HeadlessKernel, request: protocol.Request[Any], budget: Budget) -> protocol.Reply[Any]:
    """Ask within what is left of the budget; running out is a :class:`CommandTimeout`."""
    reply = kernel.ask(request, timeout=budget.left())
    if not reply.ok and reply.error is not None and reply.error.type == "Timeout":
        raise CommandTimeout(f"the inspection did not finish within {budget.option()} s; the kernel was stopped.")
    return reply


def _prepare(kernel: HeadlessKernel, options: argparse.Namespace, budget: Budget) -> str:
    """The code that loads the data file; with --allow-pickle, a warning when it runs the file's code."""
    target = options.target
    path = target if "://" in target else os.path.abspath(target)
    reply = _ask(kernel, protocol.PrepareLoad(path=path), budget)
    result = reply.result or {}
    if reply.ok and result.get("needs_pickle") and options.allow_pickle:
        # The refusal says which file and what kind of objects; the user chose to run them.
        warn(f"{result['error'].rstrip('.')}. Loading it anyway because --allow-pickle was given.")
        reply = _ask(kernel, protocol.PrepareLoad(path=path, allow_pickle=True), budget)
        result = reply.result or {}
    message = reply.message or result.get("error")
    if message:
        if result.get("needs_pickle"):
            message = message.rstrip(".") + "; pass --allow-pickle to load it anyway."
        raise UsageError(message)
    return str(result["code"])


def _load_into(kernel: HeadlessKernel, options: argparse.Namespace, script: str | None,
               budget: Budget) -> tuple[str, dict[str, Any]]:
    """Run the script (already read) or load the data file in *kernel*; return (code run, the run's outcome)."""
    target = options.target
    if script is not None:
        code = script
        _ask(kernel, protocol.ScriptContext(path=os.path.abspath(target)), budget)
    else:
        code = _prepare(kernel, options, budget)
    try:
        outcome = kernel.run(code, timeout=budget.left())
    except KernelKilledError:
        if script is None:
            raise CommandTimeout(f"{show(target)} did not load within {budget.option()} s.") from None
        raise
    if outcome["interrupted"]:
        if script is None:
            raise CommandTimeout(f"{show(target)} did not load within {budget.option()} s.")
        budget.allow(budgets.seconds(budgets.LIST_GRACE))
    if outcome["status"] == "error" and script is None:
        text = next((o.get("evalue", "") for o in outcome["outputs"] if o["type"] == "error"), "")
        raise UsageError(f"{show(target)} could not be loaded: {text}".rstrip(": ") + ".")
    return code, outcome


def _after_run(kernel: HeadlessKernel, code: str, outcome: dict[str, Any],
               budget: Budget) -> tuple[dict[str, Any], bool]:
    """The kernel's report after the run, and whether the script failed.

    ``sys.exit()`` / ``sys.exit(0)`` end the script normally: the kernel reports a SystemExit,
    the explainer gives it no card (the reply then carries the hints), and the run counts as a success.
    """
    failed = outcome["status"] == "error"
    reply = _ask(kernel, protocol.AfterRun(code=code, failed=failed, exact_overlaps=True, frame_variables=True), budget)
    if not reply.ok or reply.result is None:
        raise UsageError(f"the inspector failed: {reply.message}")
    result = dict(reply.result)
    names = {o.get("ename") for o in outcome["outputs"] if o["type"] == "error"}
    if failed and result.get("error") is None and names == {"SystemExit"}:
        failed = False
    if outcome["interrupted"]:  # the budget ran out, not the script's own KeyboardInterrupt
        result["error"] = report.timed_out(budget, (result.get("error") or {}).get("line"))
    return result, failed


def _inspect_in(kernel: HeadlessKernel, options: argparse.Namespace, script: str | None,
                budget: Budget) -> tuple[dict[str, Any], bool]:
    """Run or load the target and inspect it; a script that killed or outlived its kernel gets a card."""
    empty: dict[str, Any] = {"variables": []}
    try:
        code, outcome = _load_into(kernel, options, script, budget)
        return _after_run(kernel, code, outcome, budget)
    except KernelKilledError:
        return {"snapshot": empty, "error": report.timed_out(budget, killed=True)}, True
    except KernelSilentError as exc:
        if script is None:
            raise UsageError(f"{show(options.target)} could not be loaded: the loading line left the kernel "
                             "silent.") from None
        return {"snapshot": empty, "error": report.silenced(exc.names, script, exc.ended)}, True
    except KernelDiedError:
        if script is None:
            raise UsageError(f"{show(options.target)} could not be loaded: the loader crashed.") from None
        return {"snapshot": empty, "error": report.died(show(options.target))}, True


def inspect_target(options: argparse.Namespace) -> int:
    """``tensor-explorer inspect TARGET [--json]``."""
    try:
        script = _check_target(options.target)
        with _start(options.lang) as kernel:
            budget = Budget(options.timeout)  # counted once the kernel is up
            ran = time.monotonic()
            result, failed = _inspect_in(kernel, options, script, budget)
            ran = time.monotonic() - ran
    except UsageError as exc:
        return fail(str(exc), options.json, exc.kind if isinstance(exc, CommandTimeout) else "FileLoadError")
    payload = {"variables": result["snapshot"]["variables"],
               "error": report.contract_error(result.get("error"), script),
               "hints": report.contract_hints((result.get("hints") or []) + (result.get("warnings") or []))}
    if failed and payload["error"] is None:
        payload["error"] = {"type": "Error", "message": "the script raised an exception", "line": None,
                            "title": "The script failed", "explanation": "", "fix": None, "frames": []}
    if payload["error"] is not None and script is not None:  # after the first kernel is gone: one core at a time
        payload["error"]["fix_proof"] = fix_proof(options, script, payload["error"], budget, ran)
    if options.json:
        print(json.dumps(payload))
    else:
        print(format_table(payload) + report.hint_lines(payload["hints"]))
    return 1 if failed else 0


def _pick_variable(variables: list[protocol.Var], wanted: str | None) -> str:
    if wanted:
        return wanted
    arrays = [v["name"] for v in variables if is_array(v["kind"])]
    if len(arrays) == 1:
        return arrays[0]
    if not arrays:
        raise UsageError("the target holds no tensor or array to draw.")
    raise UsageError(f"the target holds {len(arrays)} arrays ({', '.join(arrays[:5])}); choose one with --var.")


def _render_in(kernel: HeadlessKernel, options: argparse.Namespace, script: str | None,
               budget: Budget) -> tuple[str, protocol.Reply[Any], bool]:
    """Run or load the target, then draw the chosen variable; returns (name, reply, whether the script failed)."""
    try:
        code, outcome = _load_into(kernel, options, script, budget)
        snapshot = _ask(kernel, protocol.Snapshot(code=code), budget).result or {"variables": []}
        name = _pick_variable(snapshot["variables"], options.var)
        out = os.path.abspath(options.out)
        reply = _ask(kernel, protocol.Render(name=name, out=out, layout=options.layout), budget)
    except KernelKilledError:
        raise CommandTimeout(f"the script was still running after {budget.option()} s and ignored the "
                             "interrupt, so its kernel was stopped.") from None
    except KernelSilentError as exc:
        raise UsageError(report.silenced(exc.names, script, exc.ended)["message"] + ".") from None
    except KernelDiedError:
        raise UsageError(f"{show(options.target)} ended the kernel process before anything could be drawn.") from None
    return name, reply, outcome["status"] == "error"


def render_target(options: argparse.Namespace) -> int:
    """``tensor-explorer render TARGET --var NAME --out FILE.png [--json]``."""
    try:
        script = _check_target(options.target)
        with _start(options.lang) as kernel:
            name, reply, failed = _render_in(kernel, options, script, Budget(options.timeout))
    except UsageError as exc:
        return fail(str(exc), options.json, exc.kind)
    if not reply.ok:
        return fail(_sentence(reply.message), options.json)
    if options.json:
        print(json.dumps(reply.result))
    else:
        facts = reply.result or {}
        print(_("{name}: layout {layout}, shown as {shape} -> {out}").format(
            name=name, layout=facts.get("layout"), shape=facts.get("display_shape"), out=options.out))
    return 1 if failed else 0


def _sentence(error: str) -> str:
    """Strip an exception class prefix ("ValueError: ...") from an agent error."""
    head, _, rest = error.partition(": ")
    text = rest if rest and head.replace(".", "").replace("_", "").isalnum() else error
    return text if text.endswith(".") else text + "."


if __name__ == "__main__":  # pragma: no cover
    sys.exit("use tensor-explorer")
