"""Benchmark rows of attaching again and again: what each connection leaves in a kernel someone else started.

A notebook's kernel inspected in a loop (``inspect --existing``) meets one new client per inspection. Each row
starts a fresh plain ipykernel, connects ``ATTACHES`` times in one way, and reports the kernel's resident memory
growth per connection, measured after a garbage collection and ``malloc_trim`` (so freed memory the allocator
kept does not count). The references are plain ``jupyter_client`` clients with none of our code: the growth
they show is the Jupyter kernel's own per connection (ZMQ and ipykernel), which ours cannot go below.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable

import psutil

from explorer import protocol
from explorer.client.attached import AttachedKernel
from explorer.client.connection import resolve
from tests.client.tcp_kernel import run_in, tcp_kernel

Row = tuple[str, str, str, str]
ATTACHES = 150
_TRIM = "import ctypes, gc\ngc.collect()\nctypes.CDLL('libc.so.6').malloc_trim(0)"


def _plain(path: str, code: str | None = None) -> None:
    """A plain Jupyter client: shell, IOPub, heartbeat and control, one kernel_info on control (as our handshake)."""
    from jupyter_client import BlockingKernelClient

    client = BlockingKernelClient()
    client.load_connection_file(path)
    client.start_channels(stdin=False)
    try:
        client.control_channel.send(client.session.msg("kernel_info_request", {}))
        client.control_channel.get_msg(timeout=60)
        if code is None:
            client.kernel_info(reply=True, timeout=60)
        else:
            client.execute_interactive(code, store_history=False, timeout=60, output_hook=lambda _msg: None)
    finally:
        client.stop_channels()


def _ours(path: str) -> None:
    """What ``inspect --existing`` does: attach, one snapshot, detach."""
    with AttachedKernel(resolve(path)) as kernel:
        assert kernel.ask(protocol.Snapshot(exact_overlaps=True), timeout=60).ok


def _growth_kb(connect: Callable[[str], None]) -> float:
    """Kernel RSS growth per connection (KB) over ATTACHES connections, after 5 to warm up."""
    with tcp_kernel(tempfile.mkdtemp(prefix="te-bench-attach-")) as kernel:
        path, process = kernel["file"], psutil.Process(kernel["process"].pid)
        run_in(path, "import numpy as np\nimgs = [np.zeros((8, 8)) for _ in range(50)]")
        for _ in range(5):
            connect(path)
        run_in(path, _TRIM)
        before = process.memory_info().rss
        for _ in range(ATTACHES):
            connect(path)
        run_in(path, _TRIM)
        return (process.memory_info().rss - before) / ATTACHES / 1024


def bench_attach_growth() -> list[Row]:
    plain = _growth_kb(_plain)
    printed = _growth_kb(lambda path: _plain(path, "print('x' * 30000)"))
    ours = _growth_kb(_ours)
    what = f"kernel memory left per connection, {ATTACHES} connections to a plain ipykernel (RSS after gc + malloc_trim)"
    return [
        (f"{what}: attach + snapshot of 50 arrays (inspect --existing)", f"{ours:.1f} KB",
         f"plain jupyter_client, kernel_info only {plain:.1f} KB; printing 30 KB {printed:.1f} KB",
         "no more than a plain client's"),
    ]
