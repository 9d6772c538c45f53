"""``tensor-explorer watch script.py --var loss --var model.fc.weight [--hist w] --every 0.25 [--json]``.

The script runs in a fresh kernel, as ``inspect`` runs it; while it runs, the kernel's sampler
(docs/architecture.md, "Watching running code") sends a sample of the watched name paths every
``--every`` seconds, and each one is printed as it arrives: one JSON object per line with
``--json`` (the ``watch_sample`` of docs/protocol.md), else one readable line. Exit status as
for ``inspect``: 0 the script ran, 1 it raised (one sentence on stderr says what), 2 bad
arguments or a target that is not a script.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from explorer import protocol
from explorer.cli.common import Budget, CommandTimeout, UsageError, fail, is_script, printable, show
from explorer.cli.run import _ask, _check_target, _inspect_in, _start
from explorer.protocol.names import name_steps


def watch_target(options: argparse.Namespace) -> int:
    """Run the script, printing each sample while it runs; the exit status of ``inspect``."""
    if not is_script(options.target):
        return fail(f"{show(options.target)} is not a .py script: only a running script can be watched.", options.json)
    histograms = list(dict.fromkeys(options.hist or []))
    names = list(dict.fromkeys([*(options.var or []), *histograms]))
    for name in names:
        try:
            name_steps(name)
        except ValueError:
            return fail(f"--var {name!r} is not a variable name or name path (such as model.fc.weight or "
                        "history[-1]).", options.json)
    printer = _json_line if options.json else _text_line
    try:
        script = _check_target(options.target)
        with _start(options.lang) as kernel:
            budget = Budget(options.timeout)
            reply = _ask(kernel, protocol.Watch(names=names, every=options.every, histograms=histograms or None),
                         budget)
            if not reply.ok:
                raise UsageError(f"the kernel could not watch: {reply.message}")
            kernel.on_sample = printer
            try:
                result, failed = _inspect_in(kernel, options, script, budget)
            finally:
                kernel.on_sample = None
    except UsageError as exc:
        return fail(str(exc), options.json, exc.kind if isinstance(exc, CommandTimeout) else "UsageError")
    if failed:
        error = result.get("error") or {}
        where = f" (line {error['line']})" if isinstance(error.get("line"), int) else ""
        what = error.get("message") or error.get("title") or "the script raised an exception"
        print(f"tensor-explorer: the script failed{where}: {printable(str(what))}", file=sys.stderr)
    return 1 if failed else 0


def _json_line(sample: dict[str, Any]) -> None:
    print(json.dumps(sample), flush=True)


def _text_line(sample: dict[str, Any]) -> None:
    """``t=1.25s train:12  loss=0.031  model.fc.weight=[10, 784] torch.float32 norm 3.2``."""
    parts = [f"t={sample.get('t', 0):.2f}s", f"{printable(str(sample.get('frame')))}:{sample.get('line')}"]
    for name, value in (sample.get("values") or {}).items():
        parts.append(f"{printable(name)}={_text_value(value)}")
    for name in sample.get("skipped") or {}:
        parts.append(f"{printable(name)}=?")
    print("  ".join(parts), flush=True)


def _text_value(value: Any) -> str:
    if not isinstance(value, dict):
        return f"{value:.6g}" if isinstance(value, float) else str(value)
    if value.get("value") is not None:
        return f"{value['value']:.6g}" if isinstance(value["value"], float) else str(value["value"])
    text = f"{value.get('shape')} {value.get('dtype')}"
    for key in ("norm", "min", "max", "mean", "grad_norm"):
        if isinstance(value.get(key), float):
            text += f" {key} {value[key]:.4g}"
    if value.get("nan") or value.get("inf"):
        text += f" nan {value.get('nan')} inf {value.get('inf')}"
    hist = value.get("hist")
    if isinstance(hist, dict) and isinstance(hist.get("counts"), list):
        text += f" hist [{hist.get('lo'):.4g}, {hist.get('hi'):.4g}] {' '.join(str(c) for c in hist['counts'])}"
    return text
