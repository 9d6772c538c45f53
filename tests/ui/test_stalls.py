"""The window keeps answering while the kernel and the data work: no long stall of the GUI thread.

The scenarios are issue 16's (a 5 s computation, a large file loading, 10,000 variables
appearing and refreshing, a 4096 image drawn, quitting). ``scripts/bench.py --only stalls``
reports each longest gap against the 50 ms goal; this test guards against the GUI thread
being blocked on work (before issue 10: 2 s and more), with a bound that a loaded 2-core CI
machine's scheduling noise does not reach.
"""

from __future__ import annotations

import numpy as np

from tests.ui.stall_probe import DrivenWindow, stall_scenarios

#: A blocked GUI thread, not scheduler noise (the goal itself is measured in the bench).
BLOCKED_MS = 750


def test_no_scenario_blocks_the_window(qapp, tmp_path) -> None:
    big = tmp_path / "big.npy"
    np.lib.format.open_memmap(big, mode="w+", dtype=np.float32, shape=(2**26,)).flush()  # 256 MiB, sparse on disk
    window = DrivenWindow()
    gaps = dict(stall_scenarios(window, str(big)))
    assert len(gaps) == 7
    blocked = {name: round(ms) for name, ms in gaps.items() if ms > BLOCKED_MS}
    assert blocked == {}, gaps
