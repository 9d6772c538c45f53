"""The namespace snapshot: one VAR per user variable, plus memory groups and overlaps."""

from __future__ import annotations

import warnings
from typing import Any

import explorer.core.memory.groups  # noqa: F401 - imported now so numpy is bound before user code can hide it
from explorer.core.summary.format import preview_budget
from explorer.core.summary.namespace import summarize_namespace
from explorer.core.summary.static import PRISTINE_BUILTINS, gc_paused, inspecting

globals()["__builtins__"] = PRISTINE_BUILTINS

# Value previews per snapshot (the first variables get them; see summary_format).
PREVIEW_BUDGET = 200

def build_snapshot(namespace: dict[str, Any], *, exact_overlaps: bool = False, overlaps: bool = True) -> dict[str, Any]:
    """Summarise every user variable and assign memory groups and overlaps.

    Parameters
    ----------
    namespace : dict
        The user namespace; its insertion order is the definition order.
    exact_overlaps : bool, optional
        Passed to :func:`explorer.core.memory.groups.assign_memory` (exact byte overlap of
        every pair in a group instead of the bounded check).
    overlaps : bool, optional
        False: memory groups only, ``overlaps`` left null (see ``assign_memory``).

    Returns
    -------
    dict
        ``{"variables": [VAR, ...], "memory_error": None | str}``; ``memory_error``
        says why memory groups could not be computed (the VARs are still there).
    """
    entries: list[tuple[dict, Any]] = []
    with inspecting(), warnings.catch_warnings(), preview_budget(PREVIEW_BUDGET):
        # Reading metadata of exotic tensors may warn; the user's console must stay clean.
        warnings.simplefilter("ignore")
        variables = summarize_namespace(namespace, entries)
        memory_error = _assign_memory(entries, exact_overlaps, overlaps)
    return {"variables": variables, "memory_error": memory_error}


_gc_paused = gc_paused  # the name scripts/bench.py uses


def _assign_memory(entries: list[tuple[dict, Any]], exact_overlaps: bool, overlaps: bool) -> str | None:
    """Run the memory module; on failure keep the VARs (null groups) and return the reason."""
    if not entries:
        return None
    from explorer.core.memory.groups import assign_memory  # looked up at call time (tests replace the module)

    try:
        assign_memory(entries, exact_overlaps=exact_overlaps, overlaps=overlaps)
    except Exception as exc:  # noqa: BLE001 - variables are worth showing without groups
        return f"{type(exc).__name__}: {exc}"
    return None
