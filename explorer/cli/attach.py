"""``tensor-explorer inspect --existing [FILE] [--ssh USER@HOST]``: list a running kernel's variables, leave it running.

The JSON is the contract's (docs/architecture.md): ``{"variables", "error": null, "hints": []}``; nothing
runs in the kernel but the extension's load (when it lacks it) and our requests.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from explorer import protocol
from explorer.cli.common import Budget, CommandTimeout, UsageError, fail, warn
from explorer.cli.signals import Stopped
from explorer.cli.table import format_table


def inspect_existing(options: argparse.Namespace) -> int:
    """Attach, ask for a full snapshot (exact overlaps), print it; exit 0, or 2 with one sentence."""
    if options.target is not None:
        return fail("Wrong arguments: give a TARGET or --existing, not both (see tensor-explorer inspect --help).",
                    options.json)
    budget = Budget(options.timeout)
    try:
        variables = _variables(options, budget)
    except CommandTimeout as exc:
        return fail(str(exc), options.json, exc.kind)
    except UsageError as exc:
        return fail(str(exc), options.json, "AttachError")
    except Stopped as stop:
        fail(f"stopped by {stop.name}; the kernel was left running.", options.json, "Interrupted")
        return stop.status
    payload: dict[str, Any] = {"variables": variables, "error": None, "hints": []}
    print(json.dumps(payload) if options.json else format_table(payload))
    return 0


def _variables(options: argparse.Namespace, budget: Budget) -> list[protocol.Var]:
    """The kernel's variables, through our comm; every failure is one sentence."""
    from explorer.client.attached import AttachedKernel, HandshakeError
    from explorer.client.connection import AttachError, resolve
    from explorer.client.headless import ExtensionError, KernelDiedError, KernelStartTimeout, version_sentence

    try:
        info = resolve(options.existing, options.ssh, options.ssh_key)
        kernel = AttachedKernel(info, language=getattr(options, "lang", "en"), start_timeout=budget.left())
    except (AttachError, HandshakeError) as exc:
        raise UsageError(f"{str(exc).rstrip('.')}.") from None
    except KernelStartTimeout as exc:
        raise CommandTimeout(f"{str(exc).rstrip('.')}; it was left running.") from None
    except (ExtensionError, KernelDiedError, OSError) as exc:
        raise UsageError(f"{str(exc).rstrip('.')}.") from None
    try:
        note = version_sentence(kernel.hello)
        if note and kernel.hello.get("protocol") != protocol.PROTOCOL_VERSION:
            raise UsageError(note + ".")
        if note:
            warn(note + ".")
        reply = kernel.ask(protocol.Snapshot(exact_overlaps=True), timeout=budget.left())
    except KernelDiedError:
        raise UsageError("the kernel stopped answering its heartbeat while it was being inspected (it ended, or "
                         "the connection to it broke); nothing was listed.") from None
    finally:
        kernel.shutdown()
    if not reply.ok and reply.error is not None and reply.error.type == "Timeout":
        raise CommandTimeout(f"the kernel did not list its variables within {budget.option()} s (it may be busy "
                             "running code); it was left running.")
    if not reply.ok or not isinstance(reply.result, dict):
        raise UsageError(f"the inspector failed: {reply.message}")
    return list(reply.result.get("variables") or [])
