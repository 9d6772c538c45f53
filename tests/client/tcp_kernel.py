"""A kernel someone else started: ``python -m ipykernel_launcher -f conn.json`` over TCP on loopback.

This is how a kernel reached through an SSH tunnel looks from here (ports on 127.0.0.1 and an
HMAC key), and how a notebook's or ``jupyter console``'s kernel looks: no extension loaded,
not our process to manage.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

from jupyter_client.connect import write_connection_file

from explorer.client import budgets
from explorer.client.launch import kernel_env

#: A kernel start on this machine (scaled with TENSOR_EXPLORER_TIME_SCALE, as the app's).
START_TIMEOUT = budgets.seconds(budgets.KERNEL_START)


@contextlib.contextmanager
def tcp_kernel(folder: str, key: str = "te-test-key", name: str = "kernel-te-test.json",
               path_first: str | None = None) -> Iterator[dict[str, Any]]:
    """Start a plain ipykernel over TCP writing its connection file into *folder*; kill it at the end.

    Yields ``{"file", "process"}`` once the kernel answers (a test that attaches at once must not
    meet a kernel still starting); the caller attaches and checks it is still running afterwards.
    *path_first* goes first on the kernel's PYTHONPATH (a ``sitecustomize`` that hides packages).
    """
    path = os.path.join(folder, name)
    write_connection_file(path, ip="127.0.0.1", key=key.encode(), transport="tcp")
    env = kernel_env()  # our package importable, as it would be after `pip install tensor-explorer`
    if path_first:
        env["PYTHONPATH"] = os.pathsep.join((path_first, env["PYTHONPATH"]))
    process = subprocess.Popen([sys.executable, "-m", "ipykernel_launcher", "-f", path], env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_ready(path, process)
        yield {"file": path, "process": process}
    finally:
        process.kill()
        process.wait(timeout=30)


def _wait_ready(path: str, process: subprocess.Popen) -> None:
    """Until the kernel answers on its shell channel (its process still running: a start is not a death)."""
    from jupyter_client import BlockingKernelClient

    end = time.monotonic() + START_TIMEOUT
    while True:
        client = BlockingKernelClient()
        client.load_connection_file(path)
        client.hb_channel.time_to_dead = budgets.seconds(budgets.HEARTBEAT)
        client.start_channels(stdin=False)
        try:
            # jupyter_client calls a kernel whose heartbeat has not answered for 1 s "dead": still starting, here.
            client.wait_for_ready(timeout=max(end - time.monotonic(), 0.1))
            return
        except RuntimeError:
            if process.poll() is not None or time.monotonic() > end:
                raise
        finally:
            client.stop_channels()


def run_in(path: str, code: str, timeout: float = START_TIMEOUT) -> dict[str, Any]:
    """Run *code* in the kernel of connection file *path* as another client would (a notebook); its reply content."""
    from jupyter_client import BlockingKernelClient

    client = BlockingKernelClient()
    client.load_connection_file(path)
    client.hb_channel.time_to_dead = budgets.seconds(budgets.HEARTBEAT)
    client.start_channels(stdin=False)
    try:
        client.wait_for_ready(timeout=timeout)
        reply = client.execute_interactive(code, timeout=timeout, allow_stdin=False, output_hook=lambda _msg: None)
        return reply["content"]
    finally:
        client.stop_channels()

