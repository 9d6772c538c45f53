"""A spare kernel: started in the background, so Restart (and Step back's replay) swap to it at once.

Starting a kernel takes seconds (Python, torch, our extension) and restarting one in
place froze the window while jupyter_client killed and relaunched the process. The
session keeps one spare kernel started with the same command line, working directory
and environment as its own; Restart hands the window's clients over to it (the old
process is shut down by a worker thread) and a new spare starts a while later.

The spare is *ready* once it answered a ``kernel_info`` request (ipykernel answers only
after its start-up, our extension (``--ext``) loaded) and then imported torch, in a silent
execution that binds no name (:data:`WARM_UP`): the user's ``import torch``, the second that
most first statements spend, is then done already. The namespace stays empty. A spare that died or is not ready
yet is not used: the session restarts its kernel in place, as without a spare.
It costs one idle kernel's memory (see README.md); the user can turn it off.
"""

from __future__ import annotations

import shutil
import threading
from typing import Any

from jupyter_client.session import Session
from PySide6.QtCore import QObject, Signal
from qtconsole.manager import QtKernelManager
from traitlets.config import Config

from explorer.client.launch import configure_manager, kernel_env
from explorer.client.qt_clients import quiet_comm_manager

#: Run silently in the spare once it is up (no history, no execution count, no name bound).
WARM_UP = "try:\n    __import__('torch')\nexcept ImportError:\n    pass"


def new_manager() -> tuple[Any, str]:
    """A QtKernelManager for our kernel (IPC sockets in a private folder) and that folder."""
    config = Config()
    config.KernelRestarter.time_to_dead = 0.5  # notice a dead kernel within half a second
    config.KernelRestarter.restart_limit = 1000
    manager = QtKernelManager(config=config)
    manager.autorestart = True
    return manager, configure_manager(manager)


def new_client(manager: Any) -> Any:
    """A client with its own Session: ZMQ routes replies by session identity, so two
    clients sharing the manager's Session would steal each other's replies."""
    own = manager.session
    return manager.client(session=Session(key=own.key, signature_scheme=own.signature_scheme,
                                          username=own.username))


def dispose(kernels: list[tuple[Any, str | None]], clients: list[Any], wait: bool = False) -> threading.Thread | None:
    """Stop *clients*, shut each (manager, private folder) of *kernels* down; in a worker thread unless *wait*.

    Stopping a client's channels joins its I/O threads (about half a second each) and a
    kernel's shutdown waits for the process: neither may freeze the window.
    """
    for manager, _runtime in kernels:
        if manager is not None and manager.has_kernel:
            manager.stop_restarter()  # its QTimer belongs to this thread, not the worker's

    def finish() -> None:
        for client in clients:
            client.stop_channels()
        for manager, runtime in kernels:
            if manager is not None:
                if manager.has_kernel:
                    manager.shutdown_kernel(now=True)
                manager.cleanup_resources()
                shutil.rmtree(runtime or "", ignore_errors=True)

    if wait:
        finish()
        return None
    worker = threading.Thread(target=finish, name="te-kernel-shutdown")
    worker.start()
    return worker


class SpareKernel(QObject):
    """One kernel process started ahead, with a client that knows when it is ready."""

    ready = Signal()

    def __init__(self, cwd: str | None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._cwd = cwd
        self.manager: Any = None
        self.client: Any = None
        self._runtime: str | None = None
        self._probe: str | None = None
        self._ready = False

    @property
    def started(self) -> bool:
        return self.manager is not None

    @property
    def is_alive(self) -> bool:
        return self.manager is not None and bool(self.manager.is_alive())

    @property
    def is_ready(self) -> bool:
        """Started, answered its first request, and its process still runs."""
        return self._ready and self.is_alive

    def start(self) -> None:
        """Launch the kernel process (no restarter: it only gets one once it is the session's)."""
        if self.manager is not None:
            return
        self.manager, self._runtime = new_manager()
        self.manager.autorestart = False
        self.manager.start_kernel(env=kernel_env(), cwd=self._cwd)
        self._ready = False
        self.client = new_client(self.manager)
        self.client.start_channels()
        quiet_comm_manager(self.client)
        self.client.shell_channel.message_received.connect(self._on_shell_message_received)
        self._probe = self.client.kernel_info()  # answered once the kernel started, our extension loaded

    def take(self) -> tuple[Any, Any, str | None]:
        """Hand the ready kernel over: (its manager, its running client, its private folder); the spare is empty after."""
        self.client.shell_channel.message_received.disconnect(self._on_shell_message_received)
        taken = (self.manager, self.client, self._runtime)
        self.manager, self.client, self._runtime, self._probe, self._ready = None, None, None, None, False
        return taken

    def discard(self, wait: bool = False) -> threading.Thread | None:
        """Shut the spare down (it died or was turned off)."""
        if self.manager is None:
            return None
        manager, client, runtime = self.take()
        return dispose([(manager, runtime)], [client], wait)

    def rss_bytes(self) -> int | None:
        """The spare process's resident memory (Linux), for the README's figure and the benchmarks."""
        provisioner = getattr(self.manager, "provisioner", None)
        process = getattr(provisioner, "process", None)
        pid = getattr(process, "pid", None)
        try:
            with open(f"/proc/{pid}/status", encoding="ascii") as handle:
                for line in handle:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) * 1024
        except (OSError, ValueError, IndexError):
            return None
        return None

    def _on_shell_message_received(self, msg: dict) -> None:
        if self._ready or msg.get("parent_header", {}).get("msg_id") != self._probe:
            return
        if msg.get("msg_type") == "kernel_info_reply":  # up, extension loaded: now torch
            self._probe = self.client.execute(WARM_UP, silent=True, store_history=False)
            return
        self._ready = True
        self.ready.emit()
