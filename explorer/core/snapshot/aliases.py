"""Which written name a changed variable shares memory with: an index built once per run.

The candidates are the names the code wrote (sorted), then the snapshot's
children under them (``sd['w']`` when ``sd`` was written). Their allocations are
merged into disjoint clusters sorted by address, so finding the candidates whose
allocation meets a variable's is a binary search plus the hits, and at most
``MAX_CHECKS`` of them are examined per variable: the whole search stays linear
in the number of variables, however many the code wrote.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import Any, NamedTuple

from explorer.core.memory.groups import key_from_var, reach_from_var
from explorer.core.memory.reach import allocation_key, reach, shares_bytes
from explorer.core.summary.static import PRISTINE_BUILTINS

globals()["__builtins__"] = PRISTINE_BUILTINS

MAX_CHECKS = 256
_MISSING = object()


class _Candidate(NamedTuple):
    order: int
    name: str
    lo: int
    hi: int
    value: Any
    var: dict | None


class _Cluster(NamedTuple):
    space: str
    lo: int
    hi: int
    members: list[_Candidate]  # sorted by start address


class _WrittenSet:
    """The candidates of one set of written names, clustered by allocation."""

    def __init__(self, candidates: list[tuple[str, tuple, Any, dict | None]]) -> None:
        ordered = sorted(((str(key[0]), key[1], key[2], i, name, value, var)
                          for i, (name, key, value, var) in enumerate(candidates)), key=lambda c: c[:4])
        self.clusters: list[_Cluster] = []
        for space, lo, hi, order, name, value, var in ordered:
            last = self.clusters[-1] if self.clusters else None
            if last is None or last.space != space or lo >= last.hi:
                last = _Cluster(space, lo, hi, [])
                self.clusters.append(last)
            elif hi > last.hi:
                last = self.clusters[-1] = last._replace(hi=hi)
            last.members.append(_Candidate(order, name, lo, hi, value, var))
        self._ends = [(c.space, c.hi) for c in self.clusters]

    def meeting(self, space: str, lo: int, hi: int) -> list[_Candidate]:
        """Candidates whose allocation meets ``[lo, hi)`` in *space* (at most ``MAX_CHECKS``), in written order."""
        found: list[_Candidate] = []
        i = bisect.bisect_right(self._ends, (space, lo))
        while i < len(self.clusters) and len(found) < MAX_CHECKS:
            cluster = self.clusters[i]
            if cluster.space != space or cluster.lo >= hi:
                break
            for cand in cluster.members:
                if cand.lo >= hi or len(found) >= MAX_CHECKS:
                    break
                if cand.hi > lo:
                    found.append(cand)
            i += 1
        found.sort(key=lambda c: c.order)
        return found


class AliasIndex:
    """Answers "which written name shares memory with this value?" for one run.

    Parameters
    ----------
    entry : callable
        ``entry(name) -> (value, VAR or None, top-level name)`` for the snapshot's names
        (the VAR is None for a name the snapshot does not list).
    children : dict
        ``{child VAR name: (value, top-level name)}`` of the snapshot.
    namespace : dict
        The user namespace (a written name need not be a listed variable, e.g. ``_tmp``).
    written : tuple of set
        The strongly then weakly written names (see :func:`explorer.core.snapshot.written.written_names`).
    """

    def __init__(self, entry: Callable[[str], tuple[Any, dict | None, str]], children: dict[str, tuple[Any, str]],
                 namespace: dict[str, Any], written: tuple[set[str], ...]) -> None:
        self._sets = [_WrittenSet(_candidates(names, entry, children, namespace)) for names in written]
        #: False when the code wrote no tensor or array: then nothing can be an alias.
        self.possible = any(written_set.clusters for written_set in self._sets)

    def alias_for(self, value: Any, var: dict | None) -> str | None:
        """The first written name sharing a byte with *value* (else one sharing its allocation), or None."""
        if not self.possible:
            return None
        key = _key(value, var)
        if key is None:
            return None
        mine: Any = _MISSING  # the reach is worked out only when some candidate's allocation meets ours
        for written in self._sets:
            same_alloc: str | None = None
            for cand in written.meeting(str(key[0]), key[1], key[2]):
                if mine is _MISSING:
                    mine = _reach(value, var)
                theirs = _reach(cand.value, cand.var)
                if mine is not None and theirs is not None and shares_bytes(mine, theirs, None):
                    return cand.name
                same_alloc = same_alloc or cand.name
            if same_alloc is not None:
                return same_alloc
        return None


def _candidates(written: set[str], entry: Callable[[str], tuple[Any, dict | None, str]],
                children: dict[str, tuple[Any, str]], namespace: dict[str, Any]) -> list[tuple[str, tuple, Any, dict | None]]:
    """``(name, allocation key, value, VAR)`` of the written names, then of the children under them."""
    out: list[tuple[str, tuple, Any, dict | None]] = []
    for name in sorted(written):
        value = dict.get(namespace, name, _MISSING) if type(namespace) is dict else namespace.get(name, _MISSING)
        var = entry(name)[1]
        if value is _MISSING:
            if var is None:
                continue
            value = None  # listed by the snapshot, gone since
        _add(out, name, value, var)
    for name, (value, root) in children.items():
        if root in written and name not in written:
            _add(out, name, value, entry(name)[1])
    return out


def _add(out: list, name: str, value: Any, var: dict | None) -> None:
    key = _key(value, var)
    if key is not None and key[2] > key[1]:
        out.append((name, key, value, var))


def _key(value: Any, var: dict | None) -> tuple | None:
    return key_from_var(var, value) if var is not None else allocation_key(value)


def _reach(value: Any, var: dict | None) -> Any:
    return reach_from_var(var, value) if var is not None else reach(value)
