"""Ctrl+C and SIGTERM end a command cleanly: one line, the kernel stopped, the temp folder removed.

The first SIGINT or SIGTERM raises :class:`Stopped` where the command is; the command's
``finally`` then shuts its kernels down inside :meth:`SignalGuard.shielded`, where further
signals are only noted, so a second Ctrl+C cannot cut the clean-up short.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

HANDLED = (signal.SIGINT, signal.SIGTERM)


class Stopped(BaseException):
    """The command received SIGINT or SIGTERM (a BaseException, so ``except Exception`` lets it through)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def status(self) -> int:
        """The exit status a shell expects after this signal (130 for SIGINT, 143 for SIGTERM)."""
        return 128 + self.signum

    @property
    def name(self) -> str:
        return "Ctrl+C" if self.signum == signal.SIGINT else signal.Signals(self.signum).name


class SignalGuard:
    """Turns the first SIGINT/SIGTERM into :class:`Stopped`; later ones are ignored."""

    def __init__(self) -> None:
        self.received: int | None = None
        self._shielded = False
        self._previous: dict[int, Any] = {}

    def install(self) -> None:
        for signum in HANDLED:
            self._previous[signum] = signal.signal(signum, self._on_signal)

    def restore(self) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        self._previous.clear()

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        if self.received is not None:
            return  # already stopping
        self.received = signum
        if not self._shielded:
            raise Stopped(signum)

    @contextmanager
    def shielded(self) -> Iterator[None]:
        """Run clean-up that a signal must not interrupt (the signal is still noted)."""
        self._shielded = True
        try:
            yield
        finally:
            self._shielded = False
