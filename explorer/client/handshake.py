"""Whether a running kernel answers signed requests at all: in seconds, and, when it does not, why.

A kernel answers a ``kernel_info_request`` on its control channel even while it runs code
(ipykernel's control thread), so a silence there within :data:`budgets.HANDSHAKE` seconds means
the kernel drops our messages: their signature is not its key's. An unsigned ping of its
heartbeat then tells that apart from no kernel at all. Used by ``inspect --existing`` and before
the window opens on ``--existing``.
"""

from __future__ import annotations

import queue
import time
from typing import Any

from explorer.client import budgets
from explorer.client.connection import describe


class HandshakeError(RuntimeError):
    """The kernel does not answer signed requests; the message says why in one sentence."""


def check_answers(info: dict[str, Any], seconds: float | None = None) -> None:
    """:class:`HandshakeError` unless the kernel of *info* answers on its control channel (default: the scaled budget)."""
    from jupyter_client import BlockingKernelClient

    client: Any = BlockingKernelClient()
    client.load_connection_info(info)
    client.start_channels(shell=False, iopub=False, stdin=False, hb=False, control=True)
    try:
        control_handshake(client, info, budgets.seconds(budgets.HANDSHAKE) if seconds is None else seconds)
    finally:
        client.stop_channels()


def control_handshake(client: Any, info: dict[str, Any], seconds: float) -> None:
    """Wait for *client*'s signed request to be answered on the control channel; :class:`HandshakeError` if not."""
    if _control_answers(client, seconds):
        return
    # Unsigned, so it tells a wrong key from no kernel at all (asked only now: one connection less per attach).
    heartbeat = _ping_heartbeat(info)
    try:
        beating = bool(heartbeat.poll(int(budgets.seconds(budgets.HEARTBEAT) * 1000)))
    finally:
        heartbeat.close(linger=0)
    raise HandshakeError(_silence_sentence(info, seconds, beating))


def _control_answers(client: Any, seconds: float) -> bool:
    request = client.session.msg("kernel_info_request", {})
    client.control_channel.send(request)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            reply = client.control_channel.get_msg(timeout=min(0.2, max(end - time.monotonic(), 0.01)))
        except (queue.Empty, ValueError):  # ValueError: a reply signed with another key than ours
            continue
        if reply.get("parent_header", {}).get("msg_id") == request["header"]["msg_id"]:
            return True
    return False


def _ping_heartbeat(info: dict[str, Any]) -> Any:
    """A socket that has sent one ping to the kernel's heartbeat (which echoes it, key or no key)."""
    import zmq

    socket: Any = zmq.Context.instance().socket(zmq.REQ)
    socket.linger = 0
    port = info["hb_port"]
    socket.connect(f"ipc://{info['ip']}-{port}" if info.get("transport") == "ipc" else f"tcp://{info['ip']}:{port}")
    socket.send(b"ping")
    return socket


def _silence_sentence(info: dict[str, Any], seconds: float, beating: bool) -> str:
    """Why the control channel said nothing: a wrong key (the heartbeat answers) or no kernel at all."""
    name = describe(info)
    if beating:
        return (f"the kernel of {name} answers its heartbeat but not our signed requests within {seconds:g} s: "
                "the key (or signature_scheme) in the connection file is probably not this kernel's, e.g. a "
                "file left by an earlier run of it; or the kernel is stuck in a long call that holds "
                "Python's interpreter lock")
    where = "through the SSH tunnels" if info.get("ssh") else "on its ports"
    return (f"no Jupyter kernel answers {where} within {seconds:g} s: the kernel of {name} has probably "
            "ended (something else may hold its ports)")
