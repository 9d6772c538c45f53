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

from explorer.client import budgets, headless
from explorer.client.channel import CommChannel
from explorer.client.connection import check_listening
from explorer.client.handshake import HandshakeError, control_handshake
from explorer.client.headless import HeadlessKernel, KernelStartTimeout

__all__ = ["AttachedKernel", "HandshakeError", "interrupt_message"]


def interrupt_message(client: Any) -> None:
    """Ask the kernel to interrupt itself (Jupyter's ``interrupt_request`` on the control channel)."""
    client.control_channel.send(client.session.msg("interrupt_request", {}))


class AttachedKernel(HeadlessKernel):
    """Attach to the kernel described by *info* (see :func:`explorer.client.connection.resolve`).

    First, within *handshake_timeout* seconds: something listens on its ports, and it answers a
    signed ``kernel_info_request`` on its control channel (a kernel answers there even while it
    runs code); a wrong key gets no answer at all, which is told apart from a kernel that has
    ended by its heartbeat. Then, within *start_timeout*, the shell channel and our comm (a kernel
    busy running code answers them when the code ends).

    Parameters
    ----------
    info : dict
        Its connection facts (ports, key, transport, ip).
    language : str
        Language of the kernel's sentences.
    start_timeout : float, optional
        Seconds for the kernel to answer and shake hands (default :data:`budgets.KERNEL_START`, scaled).
    handshake_timeout : float, optional
        Seconds for its control channel to answer (default :data:`budgets.HANDSHAKE`, scaled).
    """

    def __init__(self, info: dict[str, Any], language: str = "en", start_timeout: float | None = None,
                 handshake_timeout: float | None = None) -> None:
        headless._RUNNING.append(self)
        self._runtime = None
        self._reset_state()
        self.manager = None
        self.info = info
        self.client = None
        try:
            limit = budgets.seconds(budgets.KERNEL_START) if start_timeout is None else start_timeout
            deadline = time.monotonic() + limit
            handshake = budgets.seconds(budgets.HANDSHAKE) if handshake_timeout is None else handshake_timeout
            if not info.get("ssh"):  # a tunnel's forwarder listens whatever is behind it
                check_listening(info, handshake)
            self.client = BlockingKernelClient()
            self.client.load_connection_info(info)
            self.client.hb_channel.time_to_dead = budgets.seconds(budgets.HEARTBEAT)  # a busy machine is not a dead kernel
            # No stdin channel: nothing here answers input(), and the kernel never reads its stdin socket between
            # input requests, so each connection to it stayed in the kernel's memory (11 KB per attach).
            self.client.start_channels(stdin=False)
            control_handshake(self.client, info, handshake)
            try:
                self.client.wait_for_ready(timeout=max(deadline - time.monotonic(), 0.01))
            except RuntimeError as exc:
                raise KernelStartTimeout(f"the kernel answered on its control channel but not on its shell "
                                         f"channel within {limit:g} s (it is busy running code)") from exc
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
        deadline = time.monotonic() + budgets.seconds(budgets.CLOSE_WAIT)
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
