"""Worker threads of the window's process that touch Qt objects, ended before the interpreter finalizes.

A daemon thread still running when Python finalizes is stopped by ``pthread_exit`` the next
time it takes the interpreter lock (Python 3.11-3.13). If that happens inside PySide
(shiboken gives the lock back in a C++ destructor, as any wrapper's deletion does), the
unwinding meets a ``noexcept`` frame and the C++ runtime aborts the process: "terminate
called without an active exception", exit status -6, after a quit that was otherwise clean.

So each such thread is started here: a daemon (a thread that hangs never keeps the app
alive), but at exit, before finalizing starts (``atexit`` runs first), each live one is
asked to stop (its *stop* callable) and joined, for at most :data:`EXIT_WAIT_S` in all.
"""

from __future__ import annotations

import atexit
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

EXIT_WAIT_S = 10.0  # the longest a quit waits for the threads below (an import of matplotlib takes ~1 s)

_lock = threading.Lock()
_live: dict[threading.Thread, Callable[[], Any] | None] = {}


def start(target: Callable[..., Any], name: str, *args: Any, stop: Callable[[], Any] | None = None) -> threading.Thread:
    """Start *target(*args)* on a daemon thread called *name* that :func:`end_all` stops and joins at exit.

    *stop*, if given, makes the thread end soon (closes what it reads, cancels its job);
    without it the thread is simply waited for.
    """

    def run() -> None:
        try:
            target(*args)
        finally:
            with _lock:
                _live.pop(threading.current_thread(), None)

    thread = threading.Thread(target=run, name=name, daemon=True)
    with _lock:
        _live[thread] = stop
    thread.start()
    return thread


def live() -> list[threading.Thread]:
    """The threads started here that have not ended."""
    with _lock:
        return [thread for thread in _live if thread.is_alive()]


def end_all(limit: float = EXIT_WAIT_S, only: Iterable[threading.Thread] | None = None) -> list[threading.Thread]:
    """Ask every live thread (or those of *only*) to stop, then join them within *limit* seconds in all;
    returns those still alive."""
    chosen = None if only is None else set(only)
    with _lock:
        threads = [(thread, stop) for thread, stop in _live.items() if chosen is None or thread in chosen]
    for _thread, stop in threads:
        if stop is not None:
            try:
                stop()
            except Exception:  # noqa: BLE001 - one thread's failed stop must not keep the others running
                pass
    deadline = time.monotonic() + limit
    for thread, _stop in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    return [thread for thread, _stop in threads if thread.is_alive()]


atexit.register(end_all)
