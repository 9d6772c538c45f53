"""Watching a running loop (issue 26): samples arrive while the kernel is busy, and run no user code.

A 3-second loop, inside a function and at the top level, must send at least five samples with
increasing ``seq`` and iteration numbers, the watched scalar and tensor read correctly, while a
class that counts every method, property and ``__torch_function__`` call sees none.
"""

from __future__ import annotations

import pytest

from explorer import protocol
from explorer.client.headless import HeadlessKernel

COUNTING = '''
import time, torch
CALLS = []

class Counting(torch.nn.Module):
    """A module whose every user-level hook counts: attribute lookups, properties, repr, len."""
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 3)
    def __getattr__(self, name):
        CALLS.append("__getattr__ " + name)
        return super().__getattr__(name)
    def __repr__(self):
        CALLS.append("__repr__")
        return "Counting()"
    def __len__(self):
        CALLS.append("__len__")
        return 1
    @property
    def weight_norm(self):
        CALLS.append("weight_norm")
        return 0.0

class CountingTensor(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        CALLS.append("__torch_function__")
        return super().__torch_function__(func, types, args, kwargs or {})

class Box:
    def __init__(self):
        self.value = 7
    @property
    def secret(self):
        CALLS.append("secret")
        return 1
'''

IN_FUNCTION = COUNTING + '''
def train():
    model = Counting()
    with torch.no_grad():
        model.fc.weight.fill_(0.5)
    marked = torch.ones(8, 8).as_subclass(CountingTensor)
    box = Box()
    history = []
    i = 0
    CALLS.clear()  # the loop's own set-up used the classes; from here on only the sampler reads them
    end = time.monotonic() + 3.0
    while time.monotonic() < end:
        i += 1
        loss = float(i)
        history.append(loss)
        time.sleep(0.01)
    return i

last_i = train()
'''

AT_TOP = COUNTING + '''
model = Counting()
with torch.no_grad():
    model.fc.weight.fill_(0.5)
marked = torch.ones(8, 8).as_subclass(CountingTensor)
box = Box()
history = []
i = 0
CALLS.clear()  # the set-up used the classes; from here on only the sampler reads them
end = time.monotonic() + 3.0
while time.monotonic() < end:
    i += 1
    loss = float(i)
    history.append(loss)
    time.sleep(0.01)
last_i = i
'''

WATCHED = ["i", "loss", "model.fc.weight", "history[-1]", "marked", "box.secret", "box.value", "missing"]


@pytest.fixture(scope="module")
def kernel():
    k = HeadlessKernel()
    yield k
    k.shutdown()


def _watched_run(kernel: HeadlessKernel, code: str) -> list[dict]:
    reply = kernel.ask(protocol.Watch(names=WATCHED, every=0.25))
    assert reply.ok and reply.result["names"] == WATCHED
    kernel.samples.clear()
    assert kernel.run(code)["status"] == "ok"
    samples = list(kernel.samples)
    assert kernel.ask(protocol.Watch(enabled=False)).ok
    return samples


@pytest.mark.parametrize("code, frame", [(IN_FUNCTION, "train"), (AT_TOP, "<module>")], ids=["function", "top"])
def test_a_running_loop_is_sampled_without_running_user_code(kernel: HeadlessKernel, code: str, frame: str) -> None:
    samples = _watched_run(kernel, code)
    with_i = [s for s in samples if "i" in s["values"]]
    assert len(with_i) >= 5, samples[-3:]
    seqs = [s["seq"] for s in samples]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    iterations = [s["values"]["i"] for s in with_i]
    assert iterations == sorted(iterations) and iterations[-1] > iterations[0]
    assert [s["t"] for s in samples] == sorted(s["t"] for s in samples)
    for sample in with_i:
        assert sample["frame"] == frame
        assert "model" in sample["names"] and "i" in sample["names"]
        values = sample["values"]
        if "loss" in values:  # the scalar: the loop sets loss = float(i) just after i += 1
            assert values["loss"] in (float(values["i"]), float(values["i"] - 1))
        weight = values["model.fc.weight"]
        assert weight["shape"] == [3, 4] and weight["dtype"] == "torch.float32" and weight["device"] == "cpu"
        assert weight["min"] == weight["max"] == weight["mean"] == 0.5
        assert weight["norm"] == pytest.approx(0.5 * 12 ** 0.5)
        assert weight["nan"] == weight["inf"] == 0 and weight["requires_grad"] is True
        assert values["box.value"] == 7
        if "history[-1]" in values:  # a negative index, read through list's own __getitem__
            assert values["history[-1]"] in (float(values["i"]), float(values["i"] - 1))
        assert "box.secret" in sample["skipped"] and "missing" in sample["skipped"]
        if "marked" in values:  # a subclass without __torch_dispatch__ is read through a plain alias
            assert values["marked"]["norm"] == pytest.approx(8.0)
    assert kernel.run("assert CALLS == [], CALLS")["status"] == "ok"


def test_no_watch_no_samples_and_pause_on_the_control_channel(kernel: HeadlessKernel) -> None:
    kernel.samples.clear()
    assert kernel.run("import time\nfor _k in range(40):\n    time.sleep(0.02)\n")["status"] == "ok"
    assert list(kernel.samples) == []
    assert kernel.ask(protocol.Watch(names=["k"], every=0.1)).ok
    kernel.samples.clear()
    seen: list[dict] = []

    def on_sample(sample: dict) -> None:
        seen.append(sample)
        if len(seen) == 2:
            kernel.pause_watch(True)  # while the loop runs: the shell is busy, the control channel is not

    kernel.on_sample = on_sample
    try:
        code = "import time\nend = time.monotonic() + 3\nk = 0\nwhile time.monotonic() < end:\n    k += 1\n    time.sleep(0.01)\n"
        assert kernel.run(code)["status"] == "ok"
    finally:
        kernel.on_sample = None
        kernel.ask(protocol.Watch(enabled=False))
    assert 2 <= len(seen) <= 4, [s["t"] for s in seen]  # at most one more in flight when the pause arrived
