"""Leaving a kernel never waits for ever: a jupyter_client shutdown stuck in ZMQ is left behind, the process killed.

Seen in a CI-like run: Ctrl+C while the kernel started left a socket open, and the command's
shutdown then waited in ``zmq_ctx_term`` for ever (``tensor-explorer inspect`` never exited).
"""

from __future__ import annotations

import threading

from explorer.client import budgets, headless
from explorer.client.headless import HeadlessKernel

#: Far longer than the shutdown budget the test sets: only a shutdown that waits for ever reaches it.
GUARD_S = 120


class _StuckManager:
    """A KernelManager whose shutdown blocks until released (as zmq_ctx_term did)."""

    has_kernel = True
    provisioner = None

    def __init__(self) -> None:
        self.release = threading.Event()
        self.cleaned = False

    def shutdown_kernel(self, now: bool = False) -> None:
        self.release.wait()

    def cleanup_resources(self) -> None:
        self.cleaned = True


def test_a_shutdown_stuck_in_zmq_does_not_hold_the_command(monkeypatch) -> None:
    monkeypatch.setattr(budgets, "SHUTDOWN", 0.2)
    monkeypatch.setattr(headless, "_cancel_interrupted_start", lambda: None)
    kernel = HeadlessKernel.__new__(HeadlessKernel)
    kernel._runtime, kernel.client, kernel.manager = None, None, _StuckManager()
    headless._RUNNING.append(kernel)
    done = threading.Event()
    threading.Thread(target=lambda: (kernel.shutdown(), done.set()), daemon=True).start()
    try:
        assert done.wait(GUARD_S), "shutdown waited for the stuck manager"
        assert kernel not in headless._RUNNING
    finally:
        kernel.manager.release.set()


def test_the_steps_after_a_failing_one_still_run() -> None:
    ran: list[str] = []

    def fails() -> None:
        ran.append("first")
        raise RuntimeError("already dead")

    assert headless._within(GUARD_S, [fails, lambda: ran.append("second")])
    assert ran == ["first", "second"]


def test_a_kernel_whose_pid_jupyter_client_never_kept_is_killed(tmp_path) -> None:
    """A signal can stop the start after the launch but before the pid was kept: the folder names the stray."""
    import subprocess
    import sys

    folder = tmp_path / "tensor-explorer-runtime"
    folder.mkdir()
    stray = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", str(folder / "kernel.json")])
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", str(tmp_path / "elsewhere")])
    try:
        assert headless.kill_strays(str(folder)) == [stray.pid]
        assert stray.poll() is not None  # ended and reaped
        assert other.poll() is None  # a child that does not name the folder is not ours to kill
    finally:
        for proc in (stray, other):
            proc.kill()
            proc.wait()
