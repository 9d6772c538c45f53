"""Stepping through a script: the variables before and after one statement, and a repeatable random state.

The window asks :class:`StepMemory` to remember how the variables look just
before a statement runs (``step_capture``), and after it ran, for the ones the
change tracker reported, what they looked like before and look like now
(``step_compare``). :func:`seed_everything` makes a replay in a fresh kernel
draw the same random numbers as the first run.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import random
import sys
from collections.abc import Iterable
from typing import Any

from explorer.core.step.previews import value_preview
from explorer.core.summary.namespace import is_hidden

__all__ = ["StepMemory", "seed_everything", "value_preview"]

#: At most this many variables are remembered before a step (the statement's own names first).
CAPTURE_LIMIT = 200
#: At most this many variables are compared after a step.
COMPARE_LIMIT = 24


def _mentioned(code: str) -> list[str]:
    """Names *code* mentions, in order of first appearance ([] when it does not parse)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return []
    names = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Name)), key=lambda n: (n.lineno, n.col_offset))
    return list(dict.fromkeys(n.id for n in names))


class StepMemory:
    """What the variables looked like before the step that runs now (one per client)."""

    def __init__(self) -> None:
        self._before: dict[str, dict[str, Any]] = {}
        self._complete = False

    def capture(self, namespace: dict[str, Any], code: str) -> int:
        """Remember the statement's own variables, then the others, up to :data:`CAPTURE_LIMIT`; returns how many."""
        order = [n for n in _mentioned(code) if n in namespace] + list(namespace)
        names = [n for n in dict.fromkeys(order) if not is_hidden(n, namespace[n])]
        self._before = {name: value_preview(namespace[name]) for name in names[:CAPTURE_LIMIT]}
        self._complete = len(names) <= CAPTURE_LIMIT
        return len(self._before)

    def compare(self, namespace: dict[str, Any], names: Iterable[object]) -> list[dict[str, Any]]:
        """Before and after of each top-level name in *names* (at most :data:`COMPARE_LIMIT`).

        ``before`` is None for a variable that did not exist (or was not
        remembered: ``captured`` False); ``after`` is None for one that is gone.
        """
        items = []
        for name in list(dict.fromkeys(n for n in names if isinstance(n, str)))[:COMPARE_LIMIT]:
            known = name in self._before
            items.append({
                "name": name,
                "before": self._before.get(name),
                "after": value_preview(namespace[name]) if name in namespace else None,
                "captured": known or self._complete,
            })
        return items


def seed_everything(seed: int) -> dict[str, Any]:
    """Seed Python's ``random``, NumPy's global generator and torch's.

    NumPy and torch are imported when installed but not imported yet: seeding
    them only once the user's code imports them would be too late, and a
    fresh ``import torch`` starts from a random seed.
    """
    random.seed(seed)
    seeded = ["random"]
    for name in ("numpy", "torch"):
        module = sys.modules.get(name)
        if module is None and importlib.util.find_spec(name) is not None:
            module = importlib.import_module(name)
        if module is None:
            continue
        if name == "numpy":
            module.random.seed(seed)
        else:
            module.manual_seed(seed)
        seeded.append(name)
    return {"seeded": seeded}
