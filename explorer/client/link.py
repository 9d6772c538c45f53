"""What the run queue, the step-through driver and completion need of the window's kernel session.

:class:`~explorer.client.session.KernelSession` is one (mypy checks it where the window builds
them); the tests' stand-ins are others. Typed with :class:`KernelLink`, a call to a member the
session does not have, or a signal it does not emit, is a type error, not a run-time surprise.
"""

from __future__ import annotations

from typing import Any, Protocol

from PySide6.QtCore import SignalInstance

from explorer.client.states import KernelStatus
from explorer.protocol.source import RequestSource


class KernelLink(RequestSource, Protocol):
    """The kernel as the window's helpers see it: its state, running code, restarting, its signals."""

    @property
    def status(self) -> KernelStatus: ...

    @property
    def is_ready(self) -> bool: ...

    @property
    def is_paused(self) -> bool: ...

    #: The qtconsole kernel client of our own connection (completion asks it ``complete_request``).
    kernel_client: Any

    def execute(self, code: str) -> str: ...

    def restart(self) -> None: ...

    @property
    def ready(self) -> SignalInstance: ...

    @property
    def status_changed(self) -> SignalInstance: ...

    @property
    def run_finished(self) -> SignalInstance: ...

    @property
    def kernel_restarted(self) -> SignalInstance: ...

    @property
    def kernel_died(self) -> SignalInstance: ...

    @property
    def namespace_changed(self) -> SignalInstance: ...
