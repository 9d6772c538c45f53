"""Every CLI test's kernel is gone at the end, whatever the test found."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.cli.helpers import kill_if_running


@pytest.fixture(autouse=True)
def _no_stray_kernel(tmp_path: Path):
    yield
    marker = tmp_path / "kernel.pid"  # where the scripts of these tests write their kernel's pid
    if marker.exists() and marker.read_text().strip().isdigit():
        kill_if_running(int(marker.read_text()))
    tmp = tmp_path / "tmp"
    if tmp.is_symlink():  # a short folder outside tmp_path (see helpers.private_tmp)
        shutil.rmtree(tmp.resolve(), ignore_errors=True)
