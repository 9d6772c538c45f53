"""What a cell replaced of what the kernel's own messaging needs, told to the clients before the kernel falls silent.

A script can replace a builtin or a standard library function that Jupyter's messaging calls
(``builtins.isinstance = None``, ``json.dumps = None``, ``builtins.getattr = None``; where orjson is
installed, jupyter_client packs with it and falls back to json, so it takes both). The cell
ends at once, but the kernel can then send nothing more, not even that it is idle, and a client
would wait for its whole budget. So the extension notes these names before every cell
(:func:`watch`) and, after it, sends the ones the cell replaced (:func:`replaced_since`) on every
comm: with the originals put back for the moment the sending takes, in this thread and in the
kernel's IOPub thread (:func:`tell_clients`), then the user's versions again, so nothing of the
user's changes for good. A client that then hears nothing more knows why (replacing ``print``
with one's own function is fine: the kernel goes on, and the notice means nothing).

This module's own functions use the builtins as they were at start, so a replaced builtin cannot
stop them from telling.
"""

from __future__ import annotations

import builtins
import hashlib
import hmac
import json
import sys
import threading
import uuid
from collections.abc import Callable, Iterable
from typing import Any

from explorer.core.summary.guard import PRISTINE_BUILTINS

globals()["__builtins__"] = PRISTINE_BUILTINS

#: Modules whose functions Jupyter's messaging and the kernel's event loop call all the time (packing,
#: signing, ids, logging's frames and threads).
WATCHED_MODULES: tuple[Any, ...] = (builtins, json, hmac, hashlib, uuid, sys, threading)
try:  # where installed, jupyter_client packs and unpacks every message with it (json is then its fallback)
    import orjson
except ImportError:
    pass
else:
    WATCHED_MODULES += (orjson,)
#: Seconds to wait for the IOPub thread to send the notice (it runs callbacks in order: the next one proves it went).
SEND_WAIT = 2.0
_ABSENT = object()
#: The namespaces watched, by module name: each module's public functions and classes (the builtins' too).
_TABLES: dict[str, dict[str, Any]] = {module.__name__: vars(module) for module in WATCHED_MODULES}

Watched = dict[str, dict[str, Any]]


def watch() -> Watched:
    """What every watched name is now (taken before a cell runs).

    Public functions and classes, and ``sys._getframe`` (logging calls it for every record); not
    the ``sys`` hooks, which IPython and debuggers set as they should.
    """
    return {module: {k: v for k, v in table.items() if _watched(module, k) and callable(v)}
            for module, table in _TABLES.items()}


def _watched(module: str, name: str) -> bool:
    if module == "sys":
        return name == "_getframe" or not (name.startswith("_") or name.endswith("hook"))
    return not name.startswith("_")


def replaced_since(before: Watched) -> list[str]:
    """``module.name`` of every watched name that is no longer what it was in *before*, sorted."""
    names: list[str] = []
    for module, values in before.items():
        table = _TABLES[module]
        names.extend(f"{module}.{name}" for name, value in values.items() if table.get(name, _ABSENT) is not value)
    return sorted(names)


class originals_back:  # noqa: N801 - used like a function: ``with originals_back(before): ...``
    """Put the watched names back as they were in *before* for the block; the user's values come back after."""

    def __init__(self, before: Watched) -> None:
        self._before = before
        self._swapped: list[tuple[dict[str, Any], str, Any]] = []

    def __enter__(self) -> originals_back:
        for module, values in self._before.items():
            table = _TABLES[module]
            for name, value in values.items():
                now = table.get(name, _ABSENT)
                if now is not value:
                    self._swapped.append((table, name, now))
                    table[name] = value
        return self

    def __exit__(self, *exc: Any) -> None:
        for table, name, value in reversed(self._swapped):
            if value is _ABSENT:
                table.pop(name, None)
            else:
                table[name] = value
        self._swapped = []


def tell_clients(kernel: Any, before: Watched, names: list[str],
                 notices: Iterable[Callable[[list[str]], None]]) -> None:
    """Send *names* through each of *notices* with the originals back, until the IOPub thread has sent them."""
    with originals_back(before):
        for notice in notices:
            try:
                notice(names)
            except Exception:  # noqa: BLE001 - a notice that cannot go changes nothing for the others
                pass
        _wait_for_iopub(kernel)


def _wait_for_iopub(kernel: Any) -> None:
    """Until the kernel's IOPub thread has sent what is queued."""
    thread = getattr(kernel, "iopub_thread", None)
    schedule = getattr(thread, "schedule", None)
    if schedule is None:
        return
    sent = threading.Event()
    try:
        schedule(sent.set)
    except Exception:  # noqa: BLE001 - a stopped thread: nothing to wait for
        return
    sent.wait(SEND_WAIT)
