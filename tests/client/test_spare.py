"""The spare kernel (issue 25 goal 4): Restart swaps to a kernel started ahead; none is left behind."""

from __future__ import annotations

import os

import pytest

from explorer import protocol
from explorer.client import budgets
from explorer.client.session import KernelSession

TIMEOUT = budgets.milliseconds(budgets.KERNEL_START)


def _pid(session_or_spare) -> int:
    return session_or_spare.manager.provisioner.process.pid


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as handle:
            return "\nState:\tZ" not in handle.read()  # a zombie has exited
    except OSError:
        return False


def _run(qtbot, session: KernelSession, code: str) -> dict:
    with qtbot.waitSignal(session.run_finished, timeout=TIMEOUT) as blocker:
        session.execute(code)
    return blocker.args[0]


def _names(qtbot, session: KernelSession) -> list[str]:
    replies: list = []
    session.ask(protocol.Snapshot(), replies.append)
    qtbot.waitUntil(lambda: bool(replies), timeout=TIMEOUT)
    return [v["name"] for v in replies[0].result["variables"]]


@pytest.fixture()
def spared(qtbot, tmp_path):
    """A session with the spare on, started at once (not after the app's delay), and ready."""
    s = KernelSession(cwd=str(tmp_path))
    s._spare_timer.setInterval(0)
    s.set_spare(True)
    with qtbot.waitSignal(s.ready, timeout=TIMEOUT):
        s.start()
    assert s.spare is not None
    qtbot.waitUntil(lambda: s.spare.is_ready, timeout=TIMEOUT)
    yield s
    s.shutdown()


def test_restart_swaps_to_the_spare_and_a_new_spare_starts(qtbot, spared, tmp_path) -> None:
    old, spare = _pid(spared), _pid(spared.spare)
    _run(qtbot, spared, "x = 5")
    with qtbot.waitSignals([spared.kernel_swapped, spared.kernel_restarted, spared.ready], timeout=TIMEOUT):
        spared.restart()
    assert _pid(spared) == spare  # the kernel started ahead is the session's now
    assert _names(qtbot, spared) == []  # a fresh namespace
    run = _run(qtbot, spared, "import os; cwd = os.getcwd(); y = 1")
    assert run["failed"] is False and _names(qtbot, spared) == ["cwd", "y"]
    qtbot.waitUntil(lambda: not _alive(old), timeout=TIMEOUT)  # the old kernel is shut down
    qtbot.waitUntil(lambda: spared.spare.is_ready, timeout=TIMEOUT)  # and the next spare is there
    assert _pid(spared.spare) not in (old, spare)
    with qtbot.waitSignal(spared.run_finished, timeout=TIMEOUT) as blocker:  # cwd: the same as the first kernel's
        spared.execute("print(cwd)")
    assert blocker.args[0]["failed"] is False


def test_the_swapped_kernel_works_in_the_same_folder_and_restarts_after_a_death(qtbot, spared, tmp_path) -> None:
    with qtbot.waitSignal(spared.ready, timeout=TIMEOUT):
        spared.restart()
    (tmp_path / "here.txt").write_text("1")
    assert _run(qtbot, spared, "open('here.txt').read()")["failed"] is False  # the spare's cwd is the session's
    with qtbot.waitSignals([spared.kernel_died, spared.kernel_restarted, spared.ready], timeout=TIMEOUT):
        spared.execute("import os; os._exit(1)")  # the adopted kernel has the session's restarter
    assert _run(qtbot, spared, "alive = 1")["failed"] is False


def test_a_dead_spare_is_not_used(qtbot, spared) -> None:
    spare = _pid(spared.spare)
    os.kill(spare, 9)
    qtbot.waitUntil(lambda: not spared.spare.is_ready, timeout=TIMEOUT)
    with qtbot.waitSignal(spared.ready, timeout=TIMEOUT):
        spared.restart()  # in place, as without a spare
    assert _pid(spared) != spare and _run(qtbot, spared, "z = 1")["failed"] is False


def test_shutdown_ends_the_spare_too(qtbot, spared) -> None:
    pids = [_pid(spared), _pid(spared.spare)]
    spared.shutdown()
    assert not any(_alive(pid) for pid in pids)


def test_turning_the_spare_off_shuts_it_down_and_restart_works_in_place(qtbot, spared) -> None:
    spare = _pid(spared.spare)
    spared.set_spare(False)
    qtbot.waitUntil(lambda: not _alive(spare), timeout=TIMEOUT)
    assert not spared.spare.started
    with qtbot.waitSignal(spared.ready, timeout=TIMEOUT):
        spared.restart()
    assert not spared.spare.started and _run(qtbot, spared, "z = 1")["failed"] is False


def test_the_spare_has_torch_imported_and_an_empty_namespace(qtbot, spared) -> None:
    with qtbot.waitSignal(spared.ready, timeout=TIMEOUT):
        spared.restart()
    assert _names(qtbot, spared) == []  # the warm-up bound no name
    run = _run(qtbot, spared, "import sys\nassert 'torch' in sys.modules\ndel sys")
    assert run["failed"] is False  # imported before the user's first statement


def test_restart_with_the_spare_never_makes_the_gui_thread_wait(qtbot, spared) -> None:
    """The freeze of a Restart was jupyter_client killing and relaunching the kernel on the GUI thread
    (waits on the process and its sockets); a swap only hands the clients over."""
    from tests.ui.stall_probe import BlockingCalls

    with BlockingCalls() as waits:
        spared.restart()
    assert waits.calls == [], waits.calls
    qtbot.waitUntil(lambda: spared.is_ready, timeout=TIMEOUT)
    spared.set_spare(False)
    with BlockingCalls() as waits:
        spared.restart()  # in place: the wait the spare takes away
    assert waits.calls, "the probe no longer sees the in-place restart's waits"
    qtbot.waitUntil(lambda: spared.is_ready, timeout=TIMEOUT)
