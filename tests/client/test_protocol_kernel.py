"""Every request through a real kernel's comm, and a kernel whose user breaks everything they can."""

from __future__ import annotations

import time
import typing

import numpy as np
import pytest

from explorer import protocol
from explorer.client.headless import HeadlessKernel
from explorer.client.launch import kernel_argv

SETUP = (
    "import torch, numpy as np\n"
    "t = torch.arange(12.).reshape(3, 4).requires_grad_()\n"
    "v = t[:, 1:3]\n"
    "img = torch.rand(3, 16, 24)\n"
    "z = (t * 2).sum()\n"
    "a = np.arange(6).reshape(2, 3)\n"
)


@pytest.fixture(scope="module")
def kernel():
    k = HeadlessKernel()
    assert k.run(SETUP)["status"] == "ok"
    yield k
    k.shutdown()


def _ok(kernel: HeadlessKernel, request: protocol.Request) -> typing.Any:
    reply = kernel.ask(request, timeout=60)
    assert reply.ok, reply.error
    return reply.result


def _documented(cls: type) -> set[str]:
    return set(typing.get_type_hints(cls))


def test_hello_names_versions(kernel) -> None:
    from explorer import __version__

    hello = _ok(kernel, protocol.Hello(package=__version__))
    assert hello["protocol"] == protocol.PROTOCOL_VERSION and hello["package"] == __version__
    assert set(hello) == _documented(protocol.HelloReply)


def test_after_run_and_snapshot_match_their_documented_fields(kernel) -> None:
    after = _ok(kernel, protocol.AfterRun(code=SETUP))
    assert set(after) == _documented(protocol.AfterRunReply)
    assert set(after["snapshot"]) == _documented(protocol.SnapshotReply)
    snap = _ok(kernel, protocol.Snapshot())
    assert snap["full"] is True and [v["name"] for v in snap["variables"]] == ["t", "v", "img", "z", "a"]


def test_snapshot_delta_follows_the_change(kernel) -> None:
    _ok(kernel, protocol.AfterRun(code="", delta=True))  # base
    assert kernel.run("a[0, 0] = 100\nnew = 1\ndel z")["status"] == "ok"
    delta = _ok(kernel, protocol.AfterRun(code="a[0, 0] = 100\nnew = 1\ndel z", delta=True))["snapshot"]
    assert delta["full"] is False
    assert sorted(v["name"] for v in delta["variables"]) == ["a", "new"]
    assert delta["removed"] == ["z"]
    assert delta["order"] == ["t", "v", "img", "a", "new"]
    again = _ok(kernel, protocol.AfterRun(code="", delta=True))["snapshot"]
    assert again["variables"] == [] and again["removed"] == [] and again["order"] is None
    assert again["seq"] == delta["seq"] + 1
    assert kernel.run("z = (t * 2).sum()")["status"] == "ok"


def test_overlaps_say_how_memory_is_shared(kernel) -> None:
    result = _ok(kernel, protocol.Overlaps(name="v"))
    assert set(result) == _documented(protocol.OverlapsReply)
    assert result["overlaps"] == ["t"]
    assert result["relations"][0]["role"] == "overlap" and "v is a view of t" in result["sentence"]


def test_image_pixels_travel_as_a_buffer(kernel) -> None:
    result = _ok(kernel, protocol.Image(name="img", max_width=48, max_height=32))
    assert isinstance(result["pixels"], bytes)
    assert len(result["pixels"]) == result["width"] * result["height"] * result["channels"]
    assert result["layout"] == "CHW" and result["channels_by_layout"]["CHW"] == 3


def test_values_block_is_binary_and_exact(kernel) -> None:
    result = _ok(kernel, protocol.Values(name="t", nrows=3, ncols=4))
    block = np.frombuffer(result["block"], dtype=result["block_dtype"]).reshape(result["block_shape"])
    assert block.tolist() == np.arange(12.0).reshape(3, 4).tolist()
    assert result["rows"] is None


def test_stats_histogram_travels_as_buffers(kernel) -> None:
    job = _ok(kernel, protocol.StatsStart(name="a"))["job"]
    deadline = time.monotonic() + 30
    while True:
        status = _ok(kernel, protocol.StatsPoll(job=job))
        if status["state"] != "running" or time.monotonic() > deadline:
            break
    assert status["state"] == "done"
    counts = np.frombuffer(status["result"]["histogram"]["counts"], dtype="<i8")
    assert counts.sum() == 6
    assert _ok(kernel, protocol.StatsCancel(job=job)) == {"job": job}


def test_memory_map_graph_render_and_files(kernel, tmp_path) -> None:
    assert _ok(kernel, protocol.MemoryMap(name="v"))["memory_group"]
    graph = _ok(kernel, protocol.Graph(name="z"))
    assert graph["nodes"] and graph["root"]
    out = tmp_path / "img.png"
    facts = _ok(kernel, protocol.Render(name="img", out=str(out)))
    assert out.exists() and facts["layout"] == "CHW"
    np.save(tmp_path / "arr.npy", np.ones(3))
    load = _ok(kernel, protocol.PrepareLoad(path=str(tmp_path / "arr.npy")))
    assert "np.load" in load["code"]
    assert _ok(kernel, protocol.ScriptContext(path=str(tmp_path / "s.py")))["path"] == str(tmp_path / "s.py")
    assert _ok(kernel, protocol.ScriptContext(path=None)) == {"path": None}
    assert _ok(kernel, protocol.SetLanguage(lang="en")) == {"lang": "en"}
    assert _ok(kernel, protocol.ClearError()) == {}


def test_a_missing_variable_is_one_sentence(kernel) -> None:
    reply = kernel.ask(protocol.Image(name="nope"))
    assert not reply.ok and "nope" in reply.message and "Traceback" not in reply.message


@pytest.fixture()
def fresh():
    k = HeadlessKernel()
    yield k
    k.shutdown()


@pytest.mark.parametrize("attack", [
    "%reset -f",
    "for _k in [k for k in globals() if not k.startswith('__')]:\n    del globals()[_k]",
    # builtins the kernel itself survives without (len, isinstance or hasattr = None kill ipykernel itself)
    "import builtins\nbuiltins.repr = None\nbuiltins.sorted = None\nbuiltins.vars = None",
    "import sys\nsys.modules['numpy'] = None\nsys.modules['json'] = None",
    "import sys\nsys.setrecursionlimit(60)",
    "json = 1\nnp = None\ntorch = 'no'\nget_ipython = None",
])
def test_user_tampering_changes_nothing_for_the_inspector(fresh, attack) -> None:
    assert fresh.run(SETUP)["status"] == "ok"
    fresh.run(attack)
    fresh.run("after = [1, 2, 3]")
    snap = _ok(fresh, protocol.AfterRun(code="after = [1, 2, 3]"))["snapshot"]
    names = [v["name"] for v in snap["variables"]]
    assert "after" in names
    if "reset" not in attack and "del globals" not in attack:
        assert {"t", "v", "img", "a"} <= set(names)
        assert _ok(fresh, protocol.Image(name="img"))["layout"] == "CHW"
        assert _ok(fresh, protocol.Overlaps(name="v"))["overlaps"] == ["t"]


def test_extension_loads_by_hand_into_a_plain_kernel(monkeypatch) -> None:
    """A kernel started without --ext (like a notebook's) gets the extension loaded on connect."""
    plain = [arg for arg in kernel_argv() if not arg.startswith("--ext")]
    monkeypatch.setattr("explorer.client.launch.kernel_argv", lambda: plain)
    with HeadlessKernel() as k:
        assert k.hello["protocol"] == protocol.PROTOCOL_VERSION
        assert k.run("x = 1")["status"] == "ok"
        assert [v["name"] for v in _ok(k, protocol.Snapshot())["variables"]] == ["x"]


def test_the_routing_threads_no_such_comm_is_dropped_and_the_main_threads_kept(kernel) -> None:
    """ipykernel 7's shell-channel thread looks up a comm before the main thread has opened it: not an error."""
    code = (
        "import logging as _logging, threading as _threading\n"
        "_seen = []\n"
        "class _Keep(_logging.Handler):\n"
        "    def emit(self, record):\n"
        "        _seen.append(record.getMessage())\n"
        "_keep = _Keep()\n"
        "_logging.getLogger('Comm').addHandler(_keep)\n"
        "_peek = _threading.Thread(target=lambda: _logging.getLogger('Comm').warning('No such comm: %s', 'peek'))\n"
        "_peek.start(); _peek.join()\n"
        "_logging.getLogger('Comm').warning('No such comm: %s', 'main')\n"
        "_logging.getLogger('Comm').removeHandler(_keep)\n"
        "assert _seen == ['No such comm: main'], _seen\n"
    )
    result = kernel.run(code)
    assert result["status"] == "ok", result
