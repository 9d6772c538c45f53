"""How long the client side waits on a kernel for things it does not control: one place, one scale.

A kernel start costs one or two seconds of CPU; on a shared 2-core machine at load 8-14 it takes
ten times as long in wall-clock time, and a fixed deadline then refuses a correct submission.
Every start, handshake and grace period below is multiplied by the positive number in the
environment variable :data:`SCALE_ENV` (default 1): the window, the CLI and the tests all read
their budgets here, and CI (``.ci/run``) gives a generous scale. ``--timeout`` is the user's own
limit and is never scaled.
"""

from __future__ import annotations

import math
import os

#: The environment variable with the multiplier (a positive number; anything else counts as 1).
SCALE_ENV = "TENSOR_EXPLORER_TIME_SCALE"

#: Seconds for a local kernel to start: the process, its first answer and the extension's handshake.
KERNEL_START = 60.0
#: Seconds for an attached kernel to answer a signed request on its control channel (it does even while busy).
HANDSHAKE = 10.0
#: Seconds an interrupted run gets to stop before its kernel is killed.
STOP_GRACE = 3.0
#: Seconds to list what a script left after it was interrupted at the end of ``--timeout``.
LIST_GRACE = 5.0
#: Seconds after a cell replaced what the kernel's messaging calls within which it must still say it is idle
#: (a kernel whose messaging works says so within milliseconds).
SILENCE = 3.0
#: Seconds to wait, on leaving an attached kernel, until it has read that our comm is closed.
CLOSE_WAIT = 1.0
#: Seconds a kernel's heartbeat may go unanswered before the kernel counts as gone (jupyter_client says 1).
HEARTBEAT = 3.0
#: Seconds jupyter_client's shutdown of our kernel (channels closed, process ended, ZMQ context ended) may
#: take; then the process is killed and the command goes on (a signal during the start once left a socket that
#: kept ``zmq_ctx_term`` waiting for ever).
SHUTDOWN = 10.0


def scale() -> float:
    """The multiplier from :data:`SCALE_ENV` (1 when unset, not a number, or not positive and finite)."""
    try:
        value = float(os.environ.get(SCALE_ENV, "1"))
    except ValueError:
        return 1.0
    return value if value > 0 and math.isfinite(value) else 1.0


def seconds(base: float) -> float:
    """*base* seconds (one of this module's budgets) on this machine: times :func:`scale`."""
    return base * scale()


def milliseconds(base: float) -> int:
    """:func:`seconds` in whole milliseconds, for Qt timers and pytest-qt waits."""
    return max(1, round(seconds(base) * 1000))


def scaled_note() -> str:
    """How to allow more time, for sentences about a budget that ran out."""
    return f"on a slow or busy machine, set {SCALE_ENV} (a multiplier, now {scale():g}) to allow more"
