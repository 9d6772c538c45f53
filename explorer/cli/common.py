"""What every command shares: the one-sentence usage error, exit status 2, script detection."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

SCRIPT_SUFFIXES = (".py",)


class UsageError(Exception):
    """Wrong arguments or an unloadable target: exit 2 with one sentence."""


def fail(sentence: str, as_json: bool, kind: str = "UsageError") -> int:
    """Report an unloadable target or bad arguments: exit status 2."""
    print(f"tensor-explorer: {sentence}", file=sys.stderr)
    if as_json:
        error: dict[str, Any] = {
            "type": kind, "message": sentence, "line": None,
            "title": sentence, "explanation": sentence, "fix": None,
        }
        print(json.dumps({"variables": [], "error": error}))
    return 2


def is_script(path: str) -> bool:
    return os.path.splitext(path)[1].lower() in SCRIPT_SUFFIXES
