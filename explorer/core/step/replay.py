"""Step back's replay as one execution: ``%%explorer_replay`` runs a script's first statements in turn.

Replaying statement by statement cost one execution and one snapshot each (seconds for a
lesson); the window now sends them in one cell (:data:`explorer.protocol.REPLAY_MAGIC`):

    %%explorer_replay 1:1 3:2
    import torch
    t = torch.ones(2,
                   3)

Each ``FIRST:LINES`` names one statement: its first line in the file and how many lines it
has. Each statement runs as IPython runs a cell (magics transformed, the namespace the
user's), compiled at its file line, so a traceback speaks of the file. One that raises shows
its traceback and the replay goes on, as the statements ran the first time; a
KeyboardInterrupt (Stop) ends the replay.
"""

from __future__ import annotations

import sys
from typing import Any


def parse(line: str, cell: str) -> list[tuple[int, str]]:
    """(first file line, code) of each statement of the magic's *line* and *cell*; ValueError when they disagree."""
    lines = cell.split("\n")
    out: list[tuple[int, str]] = []
    at = 0
    for spec in line.split():
        first, _, count = spec.partition(":")
        start, size = int(first), int(count)
        if start < 1 or size < 1 or at + size > len(lines):
            raise ValueError(f"statement {spec} is not in the cell")
        out.append((start, "\n".join(lines[at:at + size])))
        at += size
    return out


def replay(shell: Any, line: str, cell: str) -> None:
    """Run the statements of ``%%explorer_replay`` in *shell*'s namespace, one after another."""
    for first_line, code in parse(line, cell):
        source = "\n" * (first_line - 1) + shell.transform_cell(code)
        try:
            code_obj = shell.compile(source, shell.compile.cache(source), "exec")
        except (SyntaxError, ValueError, TypeError, OverflowError):
            shell.showsyntaxerror()
            continue
        try:
            exec(code_obj, shell.user_global_ns, shell.user_ns)  # noqa: S102 - the user's own script, replayed
        except KeyboardInterrupt:
            shell.showtraceback()
            return  # Stop: the rest is not replayed
        except SystemExit:
            shell.showtraceback(exception_only=True)
        except Exception:  # noqa: BLE001 - shown as it was the first time; the replay goes on
            kind, error, trace = sys.exc_info()
            shell.showtraceback((kind, error, trace.tb_next if trace else None))  # from the statement on, not this loop


def register(shell: Any) -> None:
    """Make ``%%explorer_replay`` known to *shell*."""
    from explorer import protocol

    shell.register_magic_function(lambda line, cell: replay(shell, line, cell), "cell", protocol.REPLAY_MAGIC)
