"""Attaching again and again (``inspect --existing`` in a loop, a notebook's kernel watched all day) leaves nothing of ours.

Measured in the attached kernel itself, with tracemalloc and the garbage collector's view of the
live objects (no timer): after a score of attaches, each with a snapshot of fifty arrays, the
kernel holds no comm, endpoint or per-client state of ours, and the memory allocated under our
code is what one attach needs, not twenty times that.
"""

from __future__ import annotations

import json

from explorer import protocol
from explorer.client.attached import AttachedKernel
from explorer.client.connection import resolve
from tests.client.tcp_kernel import run_in, tcp_kernel

ATTACHES = 20
#: What one attach's snapshot of fifty arrays keeps while it lasts is some 15 KB; a per-client leak keeps that each time.
HELD_AFTER_ALL = 40_000

# Run in the attached kernel by its own client: what is left of ours, written where the test reads it.
MEASURE = """\
import gc, json, tracemalloc
gc.collect()
from explorer.core.agent import comm as _comm, extension as _extension, handlers as _handlers
_ours = [type(o).__name__ for o in gc.get_objects() if type(o) in (_comm.CommEndpoint, _handlers.ClientState)]
_grown = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(True, "*explorer*", all_frames=True)])
_held = sum(s.size_diff for s in _grown.compare_to(_before, "filename"))
_kernel = get_ipython().kernel
json.dump({"objects": _ours, "endpoints": sum(len(e.endpoints) for e in _extension._loaded.values()),
           "comms": len(_kernel.comm_manager.comms), "held": _held}, open(OUT, "w"))
"""


def _attach(path: str) -> None:
    with AttachedKernel(resolve(path)) as kernel:
        assert kernel.ask(protocol.Snapshot(exact_overlaps=True), timeout=60).ok


def test_twenty_attaches_leave_nothing_of_ours_in_the_kernel(tmp_path) -> None:
    out = tmp_path / "left.json"
    with tcp_kernel(str(tmp_path)) as kernel:
        run_in(kernel["file"], "import numpy as np\nimgs = [np.zeros((8, 8)) for _ in range(50)]")
        _attach(kernel["file"])  # the extension is loaded, its modules imported: what stays for good
        run_in(kernel["file"], "import tracemalloc\ntracemalloc.start(30)\n_before = tracemalloc.take_snapshot()")
        for _ in range(ATTACHES):
            _attach(kernel["file"])
        run_in(kernel["file"], f"OUT = {str(out)!r}\n" + MEASURE)
        left = json.loads(out.read_text())
    assert left["objects"] == [] and left["endpoints"] == 0 and left["comms"] == 0, left
    assert left["held"] < HELD_AFTER_ALL, left


def test_an_attach_opens_no_stdin_channel(tmp_path) -> None:
    """Nothing answers input() here, and a kernel never reads its stdin socket between input requests:
    every connection to it stayed in the kernel's memory (about 11 KB each, in ZMQ, not in Python)."""
    with tcp_kernel(str(tmp_path)) as kernel, AttachedKernel(resolve(kernel["file"])) as attached:
        assert attached.client._stdin_channel is None  # jupyter_client makes the channel when it is started
        assert attached.client.shell_channel.is_alive() and attached.client.iopub_channel.is_alive()
