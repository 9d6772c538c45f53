"""A real kernel for the kernel tests (started once per session)."""

from __future__ import annotations

import pytest

from explorer.client.headless import HeadlessKernel


@pytest.fixture(scope="session")
def headless_kernel():
    kernel = HeadlessKernel()
    yield kernel
    kernel.shutdown()
