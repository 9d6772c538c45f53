"""A running kernel that someone else started, driven without Qt (``inspect --existing``, kernel tests).

It asks through the same comm as :class:`~explorer.client.headless.HeadlessKernel`, loads the
extension when the kernel lacks it, and never ends the kernel: :meth:`AttachedKernel.shutdown`
only closes our comm and channels. Stop is Jupyter's ``interrupt_request`` on the control
channel (the kernel interrupts itself), which works over TCP and through SSH tunnels.
"""

from __future__ import annotations

import queue
import time
from typing import Any

from jupyter_client import BlockingKernelClient

from explorer.client import budgets, headless
from explorer.client.channel import CommChannel
from explorer.client.connection import check_listening, describe
from explorer.client.headless import HeadlessKernel, KernelStartTimeout


class HandshakeError(RuntimeError):
    """The kernel cannot be reached, or does not answer signed requests; the message says why in one sentence."""


def _ping_heartbeat(info: dict[str, Any]) -> Any:
    """A socket that has sent one ping to the kernel's heartbeat (which echoes it, key or no key)."""
    import zmq

    socket: Any = zmq.Context.instance().socket(zmq.REQ)
    socket.linger = 0
    port = info["hb_port"]
    socket.connect(f"ipc://{info['ip']}-{port}" if info.get("transport") == "ipc" else f"tcp://{info['ip']}:{port}")
    socket.send(b"ping")
    return socket


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
            self._control_handshake(handshake)
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

    def _control_handshake(self, seconds: float) -> None:
        """Wait for the answer to a signed request on the control channel; :class:`HandshakeError` when none comes."""
        if self._control_answers(seconds):
            return
        # Unsigned, so it tells a wrong key from no kernel at all (asked only now: one connection less per attach).
        heartbeat = _ping_heartbeat(self.info)
        try:
            beating = bool(heartbeat.poll(int(budgets.seconds(budgets.HEARTBEAT) * 1000)))
        finally:
            heartbeat.close(linger=0)
        raise HandshakeError(self._silence_sentence(seconds, beating))

    def _control_answers(self, seconds: float) -> bool:
        request = self.client.session.msg("kernel_info_request", {})
        self.client.control_channel.send(request)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                reply = self.client.control_channel.get_msg(timeout=min(0.2, max(end - time.monotonic(), 0.01)))
            except (queue.Empty, ValueError):  # ValueError: a reply signed with another key than ours
                continue
            if reply.get("parent_header", {}).get("msg_id") == request["header"]["msg_id"]:
                return True
        return False

    def _silence_sentence(self, seconds: float, beating: bool) -> str:
        """Why the control channel said nothing: a wrong key (the heartbeat answers) or no kernel at all."""
        name = describe(self.info)
        if beating:
            return (f"the kernel of {name} answers its heartbeat but not our signed requests within {seconds:g} s: "
                    "the key (or signature_scheme) in the connection file is probably not this kernel's, e.g. a "
                    "file left by an earlier run of it; or the kernel is stuck in a long call that holds "
                    "Python's interpreter lock")
        where = "through the SSH tunnels" if self.info.get("ssh") else "on its ports"
        return (f"no Jupyter kernel answers {where} within {seconds:g} s: the kernel of {name} has probably "
                "ended (something else may hold its ports)")

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
