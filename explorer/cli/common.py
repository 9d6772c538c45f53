"""What every command shares: the one-sentence usage error, exit status 2, script detection, the time budget."""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

# The kernel's file messages quote names through this helper; the CLI's do the same.
from explorer.core.files.common import show

SCRIPT_SUFFIXES = (".py",)


class UsageError(Exception):
    """Wrong arguments or an unloadable target: exit 2 with one sentence."""

    kind = "UsageError"


class CommandTimeout(UsageError):
    """A bound ran out outside the script's own run (the kernel's start, loading, inspection)."""

    kind = "Timeout"


def printable(text: str, keep_lines: bool = False) -> str:
    """*text* with control characters escaped, so a hostile name cannot rewrite the terminal.

    With *keep_lines* the line breaks stay (for multi-line hints and code).
    """
    if keep_lines:
        return "\n".join(show(line)[1:-1] for line in text.split("\n"))
    return show(text)[1:-1]


def fail(sentence: str, as_json: bool, kind: str = "UsageError") -> int:
    """Report an unloadable target or bad arguments: exit status 2."""
    sentence = printable(sentence)
    print(f"tensor-explorer: {sentence}", file=sys.stderr)
    if as_json:
        error: dict[str, Any] = {
            "type": kind, "message": sentence, "line": None,
            "title": sentence, "explanation": sentence, "fix": None, "frames": [],
        }
        print(json.dumps({"variables": [], "error": error}))
    return 2


def warn(sentence: str) -> None:
    """One warning line on stderr (the command goes on)."""
    print(f"tensor-explorer: warning: {printable(sentence)}", file=sys.stderr)


def is_script(path: str) -> bool:
    return os.path.splitext(path)[1].lower() in SCRIPT_SUFFIXES


class Budget:
    """The seconds ``--timeout`` gives the work on the target, counted from its creation (once the kernel is up)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._end = time.monotonic() + seconds

    def left(self) -> float:
        """Seconds still available (0 when spent)."""
        return max(self._end - time.monotonic(), 0.0)

    def allow(self, seconds: float) -> None:
        """Grant at least *seconds* more from now (to list what an interrupted script left)."""
        self._end = max(self._end, time.monotonic() + seconds)

    def option(self) -> str:
        """How the user wrote the limit, for sentences: ``--timeout 30``."""
        return f"--timeout {self.seconds:g}"
