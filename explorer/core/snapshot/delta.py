"""What changed between two snapshots sent to one client: new and changed VARs, removed names, order."""

from __future__ import annotations

from typing import Any


class SnapshotDelta:
    """Remembers the VARs last sent on one comm and turns the next snapshot into a delta.

    A VAR is resent when any field differs (its memory group label included), so
    the client's copy always equals the kernel's after applying the delta; the
    cost is one dict comparison per variable, linear in the namespace.
    """

    def __init__(self) -> None:
        self.seq = 0
        self._sent: dict[str, dict[str, Any]] = {}
        self._order: list[str] = []

    def reset(self) -> None:
        """Forget what was sent: the next reply is full."""
        self.seq = 0
        self._sent = {}
        self._order = []

    def make(self, variables: list[dict[str, Any]], delta: bool) -> dict[str, Any]:
        """The ``seq``, ``full``, ``variables``, ``removed`` and ``order`` fields of a snapshot reply."""
        order = [var["name"] for var in variables]
        current = dict(zip(order, variables))
        full = not delta or self.seq == 0
        if full:
            out = {"full": True, "variables": variables, "removed": [], "order": None}
        else:
            sent = self._sent
            # A re-bound tensor or array differs in its address: compared first, before the whole record.
            changed = [var for name, var in current.items()
                       if (old := sent.get(name)) is None or old.get("data_ptr") != var.get("data_ptr") or old != var]
            removed = [name for name in self._sent if name not in current]
            out = {"full": False, "variables": changed, "removed": removed,
                   "order": order if order != self._order else None}
        self._sent, self._order = current, order
        self.seq += 1
        out["seq"] = self.seq
        return out
