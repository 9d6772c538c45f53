"""Running the real ``tensor-explorer`` command in a subprocess, with a private TMPDIR to watch."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from explorer.client import budgets

#: The checkout under test: the subprocess imports this copy of ``explorer``, whatever its cwd.
ROOT = Path(__file__).resolve().parents[2]
#: Longest TMPDIR the CLI keeps (launch.MAX_SOCKET_PATH less a runtime folder and a socket name).
SHORT_TMP = 60
#: Long enough for a kernel start on a loaded machine (scaled by TENSOR_EXPLORER_TIME_SCALE); a command that takes
#: longer is hung.
HANG_GUARD_S = budgets.seconds(3 * budgets.KERNEL_START)


def private_tmp(tmp_path: Path) -> Path:
    """The TMPDIR of this test's CLI runs: ``tmp_path/tmp``, or a link to a short folder when that is long.

    The CLI moves to a short folder when TMPDIR is too long for socket paths; a long test name
    would then make every "nothing left in TMPDIR" check pass without looking at anything.
    """
    tmp = tmp_path / "tmp"
    if not tmp.exists():
        if len(str(tmp)) <= SHORT_TMP:
            tmp.mkdir()
        else:
            tmp.symlink_to(tempfile.mkdtemp(prefix="te-test-"))
    return tmp.resolve()


def cli_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a CLI run whose temp folders all go under :func:`private_tmp`."""
    tmp = private_tmp(tmp_path)
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return dict(os.environ, QT_QPA_PLATFORM="offscreen", TMPDIR=str(tmp), PYTHONPATH=path, **extra)


def unscaled_env(tmp_path: Path) -> dict[str, str]:
    """A CLI environment with the budgets at their own size (scale 1), for a test that must wait one out.

    A wrong key is noticed only when the handshake budget has passed, a kernel whose messaging a script
    broke only when its silence budget has, an ignored interrupt only when the stop grace has: CI's scale
    (4, in ``.ci/run``) makes each such wait four times as long and tests nothing more. The kernel start
    keeps a generous bound at scale 1 too (60 s, against 10-20 s at CI's heaviest load).
    """
    return cli_env(tmp_path, TENSOR_EXPLORER_TIME_SCALE="1")


def cli(tmp_path: Path, *args: str, env: dict[str, str] | None = None,
        timeout: float = HANG_GUARD_S) -> subprocess.CompletedProcess:
    """Run ``python -m explorer ARGS`` to the end (a hang fails the test through *timeout*)."""
    return subprocess.run([sys.executable, "-m", "explorer", *args], capture_output=True, text=True,
                          env=env or cli_env(tmp_path), timeout=timeout, cwd=tmp_path, check=False)


def start_cli(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    """Start ``python -m explorer ARGS`` without waiting for it."""
    return subprocess.Popen([sys.executable, "-m", "explorer", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env or cli_env(tmp_path), cwd=tmp_path)


def wait_for_file(path: Path, proc: subprocess.Popen | None = None, limit: float = HANG_GUARD_S) -> str:
    """The text of *path* once a script has written it (fails if *proc* ends first or it never comes)."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if path.exists() and path.read_text().strip():
            return path.read_text().strip()
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the command ended first: {proc.communicate()}")
        time.sleep(0.05)
    raise AssertionError(f"{path} was never written")


def process_gone(pid: int) -> bool:
    """True when *pid* no longer runs (a zombie waiting for its reaper counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def wait_gone(pid: int, limit: float) -> bool:
    """Poll until *pid* is gone; False when it still runs after *limit* seconds."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if process_gone(pid):
            return True
        time.sleep(0.05)
    return process_gone(pid)


def leftovers(tmp_path: Path) -> list[str]:
    """What the CLI left in its TMPDIR (it must leave nothing)."""
    tmp = private_tmp(tmp_path)
    return sorted(str(p.relative_to(tmp)) for p in tmp.rglob("*"))


def kill_if_running(pid: int) -> None:
    """Clean-up after a failed check: never leave a test's kernel burning CPU."""
    if not process_gone(pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
