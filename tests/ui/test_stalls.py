"""The window never waits on the GUI thread while the kernel and the data work.

The scenarios are issue 16's (a 5 s computation, a large file loading, 10,000 variables
appearing and refreshing, a 4096 image drawn, quitting). What a test can say without a
stopwatch is that nothing the app runs on the GUI thread waits for anything outside it: no
sleep, no blocking read of a socket, no wait for a thread, a process or a nested event loop
(:class:`~tests.ui.stall_probe.BlockingCalls`). How long each GUI step takes is the bench's
(``scripts/bench.py --only stalls``, against the 50 ms goal, in ``docs/benchmarks.md``): on a
loaded 2-core CI machine a stopwatch measures the scheduler, not the app.
"""

from __future__ import annotations

import time

import numpy as np

from tests.ui.stall_probe import BlockingCalls, DrivenWindow, stall_scenarios


def test_no_scenario_makes_the_gui_thread_wait(qapp, tmp_path) -> None:
    big = tmp_path / "big.npy"
    np.lib.format.open_memmap(big, mode="w+", dtype=np.float32, shape=(2**26,)).flush()  # 256 MiB, sparse on disk
    window = DrivenWindow()
    with BlockingCalls() as waits:
        gaps = dict(stall_scenarios(window, str(big)))
    assert len(gaps) == 7
    assert waits.calls == [], waits.calls


def test_the_probe_sees_a_wait_in_the_apps_code(qapp) -> None:
    """The probe itself: the app's one deliberate wait (a nested event loop, used only on quitting) is reported
    with its place; the test's own sleep is not the app's."""
    from PySide6.QtCore import QObject, Signal

    from explorer.client.qt_clients import wait_for

    class Source(QObject):
        happened = Signal()

    source = Source()
    with BlockingCalls() as waits:
        wait_for(source.happened, source.happened.emit, 1000)
        time.sleep(0.001)
    assert len(waits.calls) == 1 and waits.calls[0].startswith("QEventLoop.exec from client/qt_clients.py:"), waits.calls
