"""A Stop that lands while IPython runs its pre-cell callbacks still stops the cell (explorer.core.agent.interrupts).

IPython catches KeyboardInterrupt in those callbacks and prints it; the cell then ran on. Nothing here
is timed: the kernel test waits for a marker the slow callback writes, so the interrupt surely lands in it.
"""

from __future__ import annotations

import ast
import os
import signal
import time

from explorer.client import budgets
from explorer.core.agent.interrupts import InterruptGuard

#: How long the test callback holds the cell back: the interrupt is sent once it is inside.
HOLD_S = 3.0


def test_the_guard_notes_an_interrupt_and_the_cell_then_starts_by_raising_it() -> None:
    before = signal.getsignal(signal.SIGINT)
    guard = InterruptGuard()
    guard.arm()
    os.kill(os.getpid(), signal.SIGINT)  # handled at the next bytecode: noted, not raised
    for _ in range(1000):
        pass
    tree = guard.visit(ast.parse("x = 1\nwhile True: pass\n"))
    assert signal.getsignal(signal.SIGINT) is before  # the handler is back once the cell is about to run
    assert isinstance(tree.body[0], ast.Raise) and ast.unparse(tree.body[0]) == "raise KeyboardInterrupt"
    assert ast.unparse(tree.body[1]) == "x = 1"
    calm = guard.visit(ast.parse("y = 2\n"))  # not armed: the next cell is left as it is
    assert ast.unparse(calm) == "y = 2"


def test_without_an_interrupt_the_cell_is_untouched_and_post_execute_disarms() -> None:
    before = signal.getsignal(signal.SIGINT)
    guard = InterruptGuard()
    guard.arm()
    assert signal.getsignal(signal.SIGINT) is not before
    assert ast.unparse(guard.visit(ast.parse("z = 3\n"))) == "z = 3"
    guard.arm()  # a cell that never compiled: post_execute puts the handler back
    assert guard.release() is False and signal.getsignal(signal.SIGINT) is before


def test_a_stop_during_a_slow_pre_run_cell_callback_ends_the_cell(headless_kernel, tmp_path) -> None:
    marker = tmp_path / "in-the-callback"
    hook = (f"import os, time\ndef _hold(*_):\n    if os.path.exists({str(tmp_path)!r}):\n"
            f"        open({str(marker)!r}, 'w').close()\n        time.sleep({HOLD_S})\n"
            "get_ipython().events.register('pre_run_cell', _hold)\n")
    assert headless_kernel.run(hook)["status"] == "ok"
    marker.unlink(missing_ok=True)
    msg_id = headless_kernel.client.execute("while True:\n    pass\n")
    deadline = time.monotonic() + budgets.seconds(budgets.KERNEL_START)
    while not marker.exists():
        assert time.monotonic() < deadline, "the callback never ran"
        headless_kernel._pump(0.05)
    headless_kernel.interrupt()  # inside the callback's sleep: IPython would swallow it there
    errors, idle = [], False
    while not idle:
        assert time.monotonic() < deadline, "the endless loop ran on after Stop"
        msg = headless_kernel._pump(0.2)
        if msg is None or msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "error":
            errors.append(msg["content"]["ename"])
        idle = msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle"
    assert errors == ["KeyboardInterrupt"]
    tmp_path.rename(tmp_path.with_name(tmp_path.name + "-done"))  # the callback holds no later cell
    assert headless_kernel.run("after = 1")["status"] == "ok"
