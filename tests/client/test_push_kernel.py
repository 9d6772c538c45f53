"""The kernel pushes each run's AfterRun reply as the run ends (``PushAfterRun``, issue 25) — a real kernel.

The push is the reply an asked ``AfterRun`` gives (deltas per comm, error cards, the selection's
overlaps), it goes before the run's idle, it never runs user code, and only comms that asked get it.
"""

from __future__ import annotations

import textwrap

import pytest

from explorer import protocol
from explorer.client.channel import CommChannel
from explorer.client.headless import HeadlessKernel


@pytest.fixture()
def kernel():
    with HeadlessKernel() as k:
        yield k


def _names(reply: protocol.Reply) -> list[str]:
    return [v["name"] for v in reply.result["snapshot"]["variables"]]


def _other_comm(kernel: HeadlessKernel) -> CommChannel:
    """A second comm on the same kernel, shaken hands with (the CLI's kind: it asks)."""
    mine, kernel.channel = kernel.channel, CommChannel(kernel.client)
    kernel.channel.open()
    assert kernel.ask(protocol.Hello()).ok
    other, kernel.channel = kernel.channel, mine
    return other


def test_the_push_is_the_asked_reply_and_comes_before_idle(kernel) -> None:
    assert kernel.ask(protocol.PushAfterRun(selected="u")).result == {"enabled": True, "selected": "u"}
    other = _other_comm(kernel)
    kernel.run("import torch\nt = torch.ones(4)\nu = t[1:]")  # returns at the run's idle
    assert len(kernel.pushes) == 1  # already there: it was sent before the idle
    _, pushed = kernel.pushes[-1]
    assert pushed.ok and _names(pushed) == ["t", "u"] and pushed.result["snapshot"]["seq"] == 1
    assert pushed.result["selected"]["name"] == "u" and pushed.result["selected"]["overlaps"] == ["t"]
    mine, kernel.channel = kernel.channel, other  # the other comm asks, as today
    asked = kernel.ask(protocol.AfterRun(code="u = t[1:]", overlaps=False, delta=True))
    kernel.channel = mine
    assert _names(asked) == ["t", "u"] and asked.result["snapshot"]["seq"] == 1  # its own delta
    kernel.run("u = t[2:]")
    _, second = kernel.pushes[-1]
    assert _names(second) == ["u"] and second.result["snapshot"]["seq"] == 2  # a delta of this comm


def test_a_failed_run_pushes_its_error_card_and_frames(kernel) -> None:
    kernel.ask(protocol.PushAfterRun())
    kernel.run("def f(x):\n    return x / 0\ny = f(3)")
    _, pushed = kernel.pushes[-1]
    error = pushed.result["error"]
    assert error["type"] == "ZeroDivisionError" and error["line"] == 2
    assert [frame["function"] for frame in error["frames"]] == ["<module>", "f"]
    assert pushed.result["hints"] == []


def test_the_push_carries_the_run_s_warnings_and_hints(kernel) -> None:
    kernel.ask(protocol.PushAfterRun())
    kernel.run("import torch\nx = torch.Tensor(2, 3)")
    _, hinted = kernel.pushes[-1]
    assert [hint["title"] for hint in hinted.result["hints"]] == ["torch.Tensor(2, 3) is not zeros"]
    kernel.run("import warnings\nwarnings.warn('careful with that', UserWarning)")
    _, warned = kernel.pushes[-1]
    [card] = warned.result["warnings"]
    assert card["severity"] == "warning" and "careful with that" in str(card)


def test_no_push_without_asking_or_after_disabling(kernel) -> None:
    kernel.run("a = 1")
    assert not kernel.pushes  # the CLI's comm never asked
    kernel.ask(protocol.PushAfterRun())
    kernel.run("a = 2")
    assert len(kernel.pushes) == 1
    assert kernel.ask(protocol.PushAfterRun(enabled=False)).result["enabled"] is False
    kernel.run("a = 3")
    assert len(kernel.pushes) == 1


def test_the_push_runs_no_user_code(kernel) -> None:
    kernel.run(textwrap.dedent("""
        import torch
        CALLS = []
        class Sneaky(list):
            def __len__(self): CALLS.append("len"); return 0
            def __iter__(self): CALLS.append("iter"); return iter(())
            def __getitem__(self, i): CALLS.append("getitem"); raise IndexError(i)
            def __getattr__(self, name): CALLS.append("getattr:" + name); raise AttributeError(name)
        class Prop:
            @property
            def shape(self): CALLS.append("shape"); return (1,)
            def __getattr__(self, name): CALLS.append("getattr:" + name); raise AttributeError(name)
    """))
    kernel.ask(protocol.PushAfterRun(overlaps=True, frame_variables=True, selected="s"))
    kernel.run("s = Sneaky([torch.ones(2)])\np = Prop()\nt = torch.ones(3)")
    kernel.run("s = Sneaky([torch.zeros(2)])\np = Prop()\ndef g(v):\n    return 1 / 0\ng(p)")  # p: a frame's local
    _, pushed = kernel.pushes[-1]
    assert pushed.result["error"] is not None and "s" in _names(pushed)
    checked = kernel.run("assert CALLS == [], CALLS")
    assert checked["status"] == "ok", checked["outputs"]
