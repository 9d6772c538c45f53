"""The frames of an error and of code paused in ``breakpoint()``, in a real kernel."""

from __future__ import annotations

import pytest

from explorer import protocol
from explorer.client.headless import HeadlessKernel
from tests import frame_scripts
from tests.client.pause_driver import PauseDriver

DEEP = "\n" + frame_scripts.DEEP  # a blank first line: the lines below count from it


def _ok(kernel: HeadlessKernel, request: protocol.Request) -> dict:
    reply = kernel.ask(request, timeout=60)
    assert reply.ok, reply.message
    return reply.result


@pytest.fixture()
def failed(headless_kernel: HeadlessKernel) -> HeadlessKernel:
    assert headless_kernel.run(DEEP, timeout=60)["status"] == "error"
    return headless_kernel


def test_an_error_three_calls_deep_lists_each_frame_with_its_locals(failed: HeadlessKernel) -> None:
    card = _ok(failed, protocol.AfterRun(code=DEEP, failed=True, frame_variables=True))["error"]
    frames = card["frames"]
    assert [(f["function"], f["line"], f["in_code"]) for f in frames] == [
        ("<module>", 16, True), ("f", 13, True), ("g", 10, True), ("h", 6, True)]
    local_names = [[v["name"] for v in f["variables"]] for f in frames]
    assert local_names == [["x"], ["a"], ["b", "part"], ["c", "d"]]
    by_name = {v["name"]: v for v in frames[2]["variables"]}
    assert by_name["b"]["strides"] == [1, 4] and by_name["part"]["shape"] == [2, 3]
    assert by_name["b"]["memory_group"] is not None  # memory groups are computed among the frame's locals
    assert by_name["b"]["memory_group"] == by_name["part"]["memory_group"]
    assert card["line"] == 6 and [v["name"] for v in card["variables"]] == ["d"]  # the card names h's variables


def test_selecting_a_frame_answers_every_view_from_its_locals(failed: HeadlessKernel) -> None:
    _ok(failed, protocol.AfterRun(code=DEEP, failed=True))
    chosen = _ok(failed, protocol.SelectFrame(index=3, overlaps=False))
    assert chosen["frame"]["function"] == "h" and len(chosen["frames"]) == 4
    assert [v["name"] for v in chosen["snapshot"]["variables"]] == ["c", "d"]
    assert _ok(failed, protocol.Values(name="c", nrows=2, ncols=3))["shape"] == [2, 3]
    assert _ok(failed, protocol.Image(name="d", max_width=20, max_height=20))["true_shape"] == [2, 3]
    assert _ok(failed, protocol.MemoryMap(name="c"))["allocation"] is not None
    assert _ok(failed, protocol.Overlaps(name="d"))["overlaps"] == []
    assert _ok(failed, protocol.Graph(name="c"))["nodes"] is not None
    assert "x" not in [v["name"] for v in _ok(failed, protocol.Snapshot())["variables"]]
    back = _ok(failed, protocol.SelectFrame(index=None))
    assert back["frame"] is None and [v["name"] for v in back["snapshot"]["variables"]] == ["x"]


def test_the_frames_live_until_the_next_run(failed: HeadlessKernel) -> None:
    _ok(failed, protocol.AfterRun(code=DEEP, failed=True))
    _ok(failed, protocol.SelectFrame(index=2))
    assert failed.run("y = 1", timeout=60)["status"] == "ok"
    reply = failed.ask(protocol.Values(name="part"), timeout=60)
    assert not reply.ok and "part" in reply.message  # back on the namespace, where there is no `part`
    gone = failed.ask(protocol.SelectFrame(index=2), timeout=60)
    assert not gone.ok and "until the next run" in gone.message


def test_frames_of_a_module_the_user_wrote_name_its_file(headless_kernel: HeadlessKernel, tmp_path) -> None:
    module = tmp_path / "helpers_te.py"
    module.write_text("def scale(v):\n    factor = 3\n    return v * undefined_name\n")
    code = f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\nimport helpers_te\nhelpers_te.scale(2)\n"
    assert headless_kernel.run(code, timeout=60)["status"] == "error"
    frames = _ok(headless_kernel, protocol.AfterRun(code=code, failed=True))["error"]["frames"]
    assert [(f["file"], f["function"], f["line"], f["in_code"]) for f in frames] == [
        (None, "<module>", 4, True), (str(module), "scale", 3, False)]


@pytest.fixture(scope="module")
def pausing():
    with HeadlessKernel() as kernel:
        yield PauseDriver(kernel)


LOOP = """
import numpy as np

def step(i):
    w = np.full((2, 3), float(i))
    breakpoint()
    return float(w.sum())

total = 0.0
for i in range(3):
    total += step(i)
"""


def test_breakpoint_in_a_loop_pauses_shows_the_loops_locals_and_continues(pausing: PauseDriver) -> None:
    pausing.start(LOOP)
    for i in range(3):
        paused = pausing.wait_event("paused")
        frames, chosen = paused["frames"], paused["frames"][paused["selected"]]
        assert [f["function"] for f in frames] == ["<module>", "step"]
        assert (chosen["function"], chosen["line"], chosen["in_code"]) == ("step", 6, True)
        snapshot = pausing.ask(protocol.Snapshot()).result
        by_name = {v["name"]: v for v in snapshot["variables"]}
        assert set(by_name) == {"i", "w"} and by_name["i"]["repr"] == str(i)
        assert pausing.ask(protocol.Values(name="w", nrows=2, ncols=3)).result["min"] == float(i)
        outer = pausing.ask(protocol.SelectFrame(index=0, overlaps=False)).result
        assert {"total", "i"} <= {v["name"] for v in outer["snapshot"]["variables"]}
        assert pausing.ask(protocol.Resume()).result == {"stop": False}
        assert pausing.wait_event("resumed") == {"stop": False, "interrupted": False}
    assert pausing.finish() == "ok"
    total = {v["name"]: v for v in pausing.kernel.ask(protocol.Snapshot(), timeout=60).result["variables"]}["total"]
    assert total["repr"] == "18.0"  # 0*6 + 1*6 + 2*6: every step ran to its end


def test_stop_at_a_breakpoint_raises_keyboard_interrupt_there(pausing: PauseDriver) -> None:
    pausing.start("before = 1\nbreakpoint()\nafter = 2\n")
    pausing.wait_event("paused")
    names = [v["name"] for v in pausing.ask(protocol.Snapshot()).result["variables"]]
    assert "before" in names and "after" not in names  # a top-level pause shows the namespace
    assert pausing.ask(protocol.Resume(stop=True)).result == {"stop": True}
    assert pausing.finish() == "error"
    assert pausing.outputs[-1]["content"]["ename"] == "KeyboardInterrupt"
    names = [v["name"] for v in pausing.kernel.ask(protocol.Snapshot(), timeout=60).result["variables"]]
    assert "after" not in names


def test_resume_on_the_comm_is_refused_when_nothing_is_paused(pausing: PauseDriver) -> None:
    reply = pausing.kernel.ask(protocol.Resume(), timeout=60)
    assert not reply.ok and "Nothing is paused" in reply.message


def test_code_run_without_stdin_does_not_stop_at_breakpoint(headless_kernel: HeadlessKernel) -> None:
    # The CLI runs scripts without stdin: nobody could answer, so breakpoint() is passed over.
    assert headless_kernel.run("marker = 1\nbreakpoint()\nmarker = 2\n", timeout=60)["status"] == "ok"
    variables = {v["name"]: v for v in headless_kernel.ask(protocol.Snapshot(), timeout=60).result["variables"]}
    assert variables["marker"]["repr"] == "2"
