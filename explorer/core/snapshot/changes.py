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

A name bound to another object than last time changed whatever its content, so its
fingerprint is not needed to say so: only the next run compares against it. Those
fingerprints are taken by :meth:`ChangeTracker.settle` when :meth:`ChangeTracker.update`
is asked to defer them: the kernel side calls it once the reply has gone (no user code
runs in between), so a script that re-binds thousands of names gets its reply without
waiting for their content hashes. A deferred print that was never settled compares as
"changed" (its content at the end of that run is unknown).
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
_REBOUND = "rebound"  # a top-level name bound to another object
_UNSETTLED = "not settled"  # a print's type name that matches none: "changed" next run


class ChangeTracker:
    """Remembers fingerprints between runs and names what changed and how."""

    def __init__(self) -> None:
        self._prints: dict[str, tuple] = {}
        self._vars: dict[str, dict] = {}  # the VARs the quick fingerprints read their facts from
        self._later: list[tuple[str, Any, dict]] = []  # (name, value, VAR) whose print settle() takes

    def update(self, namespace: dict[str, Any], variables: list[dict], code: str, defer: bool = False) -> dict:
        """Report the variables that appeared or changed since the previous call.

        Parameters
        ----------
        namespace : dict
            The user namespace (values are looked up by VAR name).
        variables : list of dict
            The snapshot's VARs (children included through ``children``).
        code : str
            The code that just ran (used to tell a direct write from a write through an alias).
        defer : bool
            Leave the fingerprints of names bound to a new object to :meth:`settle`.

        Returns
        -------
        dict
            ``{name: {"status": "new" | "changed" | "changed_through", "through": str | None}}``.
        """
        try:
            with inspecting():
                return self._update(namespace, variables, code, defer)
        except Exception:  # noqa: BLE001 - the tracker must never break a snapshot
            return {}

    def settle(self) -> None:
        """Take the fingerprints :meth:`update` left for later (names bound to a new object); call it once the
        run's reply is sent, before any user code runs again. Never raises."""
        later, self._later = self._later, []
        if not later:
            return
        prints = self._prints
        with inspecting():
            for name, value, var in later:
                try:
                    prints[name] = fingerprint_of(value, var)
                except Exception:  # noqa: BLE001 - then the next run reports it as changed
                    prints[name] = (id(value), _UNSETTLED)

    def _update(self, namespace: dict[str, Any], variables: list[dict], code: str, defer: bool) -> dict:
        for name, value, _var in self._later:  # never settled: the content they ended the run with is unknown
            self._prints[name] = (id(value), _UNSETTLED)
        self._later = []
        refresh_plain()
        strong, weak = written_names(code if type(code) is str else "")
        walk = _Walk(namespace, self._prints, self._vars)
        walk.variables(variables, None)
        report: dict[str, dict] = {}
        aliases: AliasIndex | None = None
        for name, kind, root in walk.events:
            if kind is _NEW:
                report[name] = {"status": _NEW, "through": None}
                continue
            # A name bound to another object was bound again by the code itself (globals(), exec): only an
            # object changed in place, or a container's item, can have changed through an alias.
            if kind is _REBOUND or root in strong or root in weak:
                report[name] = {"status": _CHANGED, "through": None}
                continue
            if aliases is None:  # built once per run, only when some change needs an alias
                aliases = AliasIndex(walk.entry, walk.children, namespace, (strong, weak))
            alias = aliases.alias_for(*walk.entry(name)[:2]) if aliases.possible else None
            report[name] = ({"status": "changed_through", "through": alias} if alias is not None
                            else {"status": _CHANGED, "through": None})
        self._prints, self._vars, self._later = walk.prints, walk.vars, walk.later
        if not defer:
            self.settle()
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
        self.events: list[tuple[str, str, str]] = []  # (name, _NEW | _REBOUND | _CHANGED, top-level name), in order
        self.later: list[tuple[str, Any, dict]] = []  # names bound to a new object: printed after the reply

    def entry(self, name: str) -> tuple[Any, dict | None, str]:
        """``(value, VAR, top-level name)`` of a visited name (VAR None if it was not visited)."""
        child = self.children.get(name)
        if child is not None:
            return child[0], self.vars[name], child[1]
        return self.get(name), self.vars.get(name), name

    def variables(self, variables: list[dict], root: str | None) -> None:
        """Visit *variables* (top-level when *root* is None) and their children."""
        get, prints, found, old, old_vars, events, later = self.get, self.prints, self.vars, self.old, \
            self.old_vars, self.events, self.later
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
            before = old.get(name)
            if before is None or before[0] != id(value):  # new, or another object: changed, whatever it holds
                events.append((name, _NEW if before is None else _REBOUND if root is None else _CHANGED, top))
                later.append((name, value, var))
            else:
                fp = prints[name] = fingerprint_of(value, var)
                if not unchanged(before, old_vars.get(name), fp, var):
                    events.append((name, _CHANGED, top))
            children = var.get("children")
            if children and type(children) is list:
                self.variables(children, top)


def _value(namespace: dict[str, Any], name: str) -> Any:
    """The value of a child VAR's name, through its memoised path."""
    try:
        return resolve(namespace, name)
    except Exception:  # noqa: BLE001 - a child that is gone or unreadable
        return None
