"""How long a test waits for work it does not control: a worker process or thread, a kernel, Qt's event loop.

A wait is a bound on a failure, never a measurement (timings live in ``scripts/bench.py``): it
is generous, and it grows with ``TENSOR_EXPLORER_TIME_SCALE`` as every budget of the app does
(``.ci/run`` sets 4 for a shared, loaded machine), so a busy machine cannot turn a test red.
"""

from __future__ import annotations

from explorer.client import budgets


def scaled_ms(milliseconds: float) -> int:
    """*milliseconds* for a pytest-qt wait on this machine (times the time scale)."""
    return max(1, round(milliseconds * budgets.scale()))
