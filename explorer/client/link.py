"""What the window and its helpers need of the window's kernel session.

:class:`KernelLink` is what the run queue, the step-through driver and completion use;
:class:`WindowLink` adds what the main window itself uses.
:class:`~explorer.client.session.KernelSession` is both (mypy checks it where the window builds
them); the tests' stand-ins are others. Typed with :class:`KernelLink`, a call to a member the
session does not have, or a signal it does not emit, is a type error, not a run-time surprise.
"""

from __future__ import annotations

from collections.abc import Callable
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


class WindowLink(KernelLink, Protocol):
    """The kernel as the main window sees it: a :class:`KernelLink`, plus what the menus, banners,
    the input dialog, the Watch tab and an attached kernel's notes use.

    The window and its helpers are typed with it, so every member they touch is named here.
    """

    #: The name selected in the window (the window sets it); each run's pushed reply carries its overlaps.
    selection: Callable[[], str | None]
    #: The connection file's contents of an attached kernel (``--existing``); None for our own kernel.
    connection: dict[str, Any] | None

    @property
    def owns_kernel(self) -> bool: ...

    @property
    def spare_enabled(self) -> bool: ...

    def interrupt(self) -> None: ...

    def answer_input(self, text: str) -> None: ...

    def pause_watch(self, paused: bool) -> bool: ...

    def set_spare(self, on: bool) -> None: ...

    def selection_moved(self, *_args: Any) -> None: ...

    @property
    def selected_overlaps(self) -> SignalInstance: ...

    @property
    def problem(self) -> SignalInstance: ...

    @property
    def paused(self) -> SignalInstance: ...

    @property
    def resumed(self) -> SignalInstance: ...

    @property
    def input_requested(self) -> SignalInstance: ...

    @property
    def connection_lost(self) -> SignalInstance: ...

    @property
    def watch_sampled(self) -> SignalInstance: ...
