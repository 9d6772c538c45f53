"""What changed since the previous run, and through which alias.

:class:`ChangeTracker` keeps a small fingerprint of every variable and, after
each run, reports the variables that appeared or changed. A variable that
changed although the code never wrote it by name, while the code did write
another variable sharing its memory, is reported as ``"changed_through"`` that
alias (``n[0] = 100.0`` changes ``t`` when ``n = t.numpy()``).

What the fingerprints cover is described in :mod:`explorer.core.snapshot.fingerprint`.

Every per-run cost is linear in the number of variables: metadata comes from the
snapshot's VARs, children are found again through memoised paths, and the alias
search (:mod:`explorer.core.snapshot.aliases`) indexes the written names once per run.
No user code runs (docs/architecture.md, "Inspection never runs user code").
"""

from __future__ import annotations

from typing import Any

from explorer.core.resolve import resolve
from explorer.core.snapshot.aliases import AliasIndex
from explorer.core.snapshot.fingerprint import fingerprint, fingerprint_of, refresh_plain, unchanged
from explorer.core.snapshot.written import written_names
from explorer.core.summary.static import PRISTINE_BUILTINS, inspecting

globals()["__builtins__"] = PRISTINE_BUILTINS
__all__ = ["ChangeTracker", "fingerprint", "written_names"]

_NEW = "new"
_CHANGED = "changed"


class ChangeTracker:
    """Remembers fingerprints between runs and names what changed and how."""

    def __init__(self) -> None:
        self._prints: dict[str, tuple] = {}
        self._vars: dict[str, dict] = {}  # the VARs the quick fingerprints read their facts from

    def update(self, namespace: dict[str, Any], variables: list[dict], code: str) -> dict:
        """Report the variables that appeared or changed since the previous call.

        Parameters
        ----------
        namespace : dict
            The user namespace (values are looked up by VAR name).
        variables : list of dict
            The snapshot's VARs (children included through ``children``).
        code : str
            The code that just ran (used to tell a direct write from a write through an alias).

        Returns
        -------
        dict
            ``{name: {"status": "new" | "changed" | "changed_through", "through": str | None}}``.
        """
        try:
            with inspecting():
                return self._update(namespace, variables, code)
        except Exception:  # noqa: BLE001 - the tracker must never break a snapshot
            return {}

    def _update(self, namespace: dict[str, Any], variables: list[dict], code: str) -> dict:
        refresh_plain()
        strong, weak = written_names(code if type(code) is str else "")
        walk = _Walk(namespace, self._prints, self._vars)
        walk.variables(variables, None)
        report: dict[str, dict] = {}
        aliases: AliasIndex | None = None
        for name, is_new, root in walk.events:
            if is_new:
                report[name] = {"status": _NEW, "through": None}
                continue
            if root in strong or root in weak:
                report[name] = {"status": _CHANGED, "through": None}
                continue
            if aliases is None:  # built once per run, only when some change needs an alias
                aliases = AliasIndex(walk.entry, walk.children, namespace, (strong, weak))
            alias = aliases.alias_for(*walk.entry(name)[:2]) if aliases.possible else None
            report[name] = ({"status": "changed_through", "through": alias} if alias is not None
                            else {"status": _CHANGED, "through": None})
        self._prints, self._vars = walk.prints, walk.vars
        return report


class _Walk:
    """One pass over the VAR tree: each variable's fingerprint, and what is new or changed.

    Top-level variables cost one namespace lookup and one fingerprint; nothing else
    is allocated per variable (fingerprints of small arrays hold no containers, so
    the cyclic GC soon stops tracking them).
    """

    def __init__(self, namespace: dict[str, Any], old: dict[str, tuple], old_vars: dict[str, dict]) -> None:
        self.namespace = namespace
        self.get = namespace.get if type(namespace) is not dict else dict.get.__get__(namespace)
        self.old = old
        self.old_vars = old_vars
        self.prints: dict[str, tuple] = {}
        self.vars: dict[str, dict] = {}  # name -> VAR, every name visited
        self.children: dict[str, tuple[Any, str]] = {}  # child name -> (value, top-level name)
        self.events: list[tuple[str, bool, str]] = []  # (name, is new, top-level name) in snapshot order

    def entry(self, name: str) -> tuple[Any, dict | None, str]:
        """``(value, VAR, top-level name)`` of a visited name (VAR None if it was not visited)."""
        child = self.children.get(name)
        if child is not None:
            return child[0], self.vars[name], child[1]
        return self.get(name), self.vars.get(name), name

    def variables(self, variables: list[dict], root: str | None) -> None:
        """Visit *variables* (top-level when *root* is None) and their children."""
        get, prints, found, old, old_vars, events = self.get, self.prints, self.vars, self.old, self.old_vars, \
            self.events
        for var in variables:
            name = var.get("name")
            if type(name) is not str:
                continue
            if root is None:
                top, value = name, get(name)
            else:
                top, value = root, _value(self.namespace, name)
                self.children[name] = (value, top)
            found[name] = var
            fp = prints[name] = fingerprint_of(value, var)
            before = old.get(name)
            if before is None:
                events.append((name, True, top))
            elif before[0] != fp[0] or not unchanged(before, old_vars.get(name), fp, var):  # a new id: changed
                events.append((name, False, top))
            children = var.get("children")
            if children and type(children) is list:
                self.variables(children, top)


def _value(namespace: dict[str, Any], name: str) -> Any:
    """The value of a child VAR's name, through its memoised path."""
    try:
        return resolve(namespace, name)
    except Exception:  # noqa: BLE001 - a child that is gone or unreadable
        return None
