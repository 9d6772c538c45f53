"""Qt kernel clients of the window's session: a client on a running kernel's connection facts, and helpers.

Kept apart from :mod:`explorer.client.session` so that file stays about the session's life cycle.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from jupyter_client.session import Session
from PySide6.QtCore import QEventLoop, QTimer

from explorer.client import budgets


def wait_for(signal: Any, start: Callable[[], None], ms: int) -> None:
    """Run *start*, then process events until *signal* fires or *ms* pass (used only on quitting)."""
    loop = QEventLoop()
    signal.connect(loop.quit)
    QTimer.singleShot(ms, loop.quit)
    start()
    loop.exec()
    signal.disconnect(loop.quit)


def attached_client(info: dict[str, Any]) -> Any:
    """A Qt kernel client on a running kernel's connection facts, with its own Session."""
    from qtconsole.client import QtKernelClient

    session = Session(key=str(info.get("key", "")).encode(), signature_scheme=info.get("signature_scheme", "hmac-sha256"))
    client = QtKernelClient(session=session)
    client.load_connection_info(info)
    # jupyter_client calls a kernel gone after one unanswered second: on a busy machine that is only a slow reply.
    client.hb_channel.time_to_dead = budgets.seconds(budgets.HEARTBEAT)
    return client


def quiet_comm_manager(client: Any) -> None:
    """qtconsole gives every Qt kernel client a comm manager that sees our comm's traffic on
    IOPub and logs "No such comm" for each message (it knows only its own comms): quiet it."""
    manager = getattr(client, "comm_manager", None)
    if manager is not None:
        quiet = logging.getLogger("tensor_explorer.foreign_comms")
        quiet.setLevel(logging.ERROR)
        manager.log = quiet
