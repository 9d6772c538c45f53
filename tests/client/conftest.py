"""A real kernel for the kernel tests: a headless one (started once per session), and a window's session per test."""

from __future__ import annotations

import pytest

from explorer.client import budgets
from explorer.client.headless import HeadlessKernel
from explorer.client.session import KernelSession

#: A kernel start (or restart) on this machine, as the app counts it (scaled by TENSOR_EXPLORER_TIME_SCALE).
SESSION_START_MS = budgets.milliseconds(budgets.KERNEL_START)


@pytest.fixture(scope="session")
def headless_kernel():
    kernel = HeadlessKernel()
    yield kernel
    kernel.shutdown()


@pytest.fixture()
def session(qtbot):
    """The window's kernel session, started and shaken hands with; shut down after the test."""
    s = KernelSession()
    with qtbot.waitSignal(s.ready, timeout=SESSION_START_MS):
        s.start()
    yield s
    s.shutdown()
