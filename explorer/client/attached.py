"""A running kernel that someone else started, driven without Qt (``inspect --existing``, kernel tests).

It asks through the same comm as :class:`~explorer.client.headless.HeadlessKernel`, loads the
extension when the kernel lacks it, and never ends the kernel: :meth:`AttachedKernel.shutdown`
only closes our comm and channels. Stop is Jupyter's ``interrupt_request`` on the control
channel (the kernel interrupts itself), which works over TCP and through SSH tunnels.
"""

from __future__ import annotations

import time
from typing import Any

from jupyter_client import BlockingKernelClient

from explorer.client import headless
from explorer.client.channel import CommChannel
from explorer.client.headless import HeadlessKernel, KernelStartTimeout

#: Seconds to wait, on leaving, for the kernel to read that our comm is closed.
CLOSE_WAIT = 1.0


def interrupt_message(client: Any) -> None:
    """Ask the kernel to interrupt itself (Jupyter's ``interrupt_request`` on the control channel)."""
    client.control_channel.send(client.session.msg("interrupt_request", {}))


class AttachedKernel(HeadlessKernel):
    """Attach to the kernel described by *info* (see :func:`explorer.client.connection.resolve`).

    Parameters
    ----------
    info : dict
        Its connection facts (ports, key, transport, ip).
    language : str
        Language of the kernel's sentences.
    start_timeout : float
        Seconds for the kernel to answer and shake hands (a kernel busy running code answers later).
    """

    def __init__(self, info: dict[str, Any], language: str = "en",
                 start_timeout: float = headless.START_TIMEOUT) -> None:
        headless._RUNNING.append(self)
        self._runtime = None
        self._replies = {}
        self.events = []
        self._closed = False
        self.manager = None
        self.info = info
        self.client = None
        try:
            deadline = time.monotonic() + start_timeout
            self.client = BlockingKernelClient()
            self.client.load_connection_info(info)
            self.client.start_channels()
            try:
                self.client.wait_for_ready(timeout=max(deadline - time.monotonic(), 0.01))
            except RuntimeError as exc:
                raise KernelStartTimeout(f"the kernel did not answer within {start_timeout:g} s (it may be busy "
                                         "running code, or the connection file is from a kernel that has ended)") from exc
            self.channel = CommChannel(self.client)
            self.hello = self._connect(language, deadline)
        except BaseException:
            self.shutdown()
            raise

    def _close_comm(self) -> None:
        """Close our comm, and wait a moment for the kernel to read that (closing the channels drops unsent messages)."""
        if getattr(self, "channel", None) is None or self.client is None or not self.client.channels_running:
            return
        self.channel.close()
        msg_id = self.client.kernel_info()
        deadline = time.monotonic() + CLOSE_WAIT
        while time.monotonic() < deadline:
            try:
                reply = self.client.get_shell_msg(timeout=max(deadline - time.monotonic(), 0.01))
            except Exception:  # noqa: BLE001 - queue.Empty: the kernel is busy; it reads the close later
                return
            if reply.get("parent_header", {}).get("msg_id") == msg_id:
                return

    def is_alive(self) -> bool:
        """The heartbeat still answers (we cannot see the process of a kernel we did not start)."""
        return self.client is not None and bool(self.client.is_alive())

    def interrupt(self) -> None:
        interrupt_message(self.client)

    def kill(self) -> None:
        """A kernel we did not start is never killed: only our side is closed."""
        self.shutdown()

    def shutdown(self) -> None:
        """Close our comm and channels; the kernel goes on running."""
        steps = [self._close_comm, lambda: self.client is not None and self.client.stop_channels()]
        for step in steps:
            try:
                step()
            except Exception:  # noqa: BLE001 - a kernel that has gone cannot be told goodbye
                pass
        if self in headless._RUNNING:
            headless._RUNNING.remove(self)
