"""GPU facts checked on the CPU: memory is grouped per device, and the views copy only what they draw.

No GPU is lent to the tests. Where a CUDA tensor cannot be made, the facts the summary reads from
one are given by hand (its VAR), and the copy to the CPU is watched through ``torch.Tensor.cpu``,
which the image and value paths call on every device.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch

from explorer import protocol
from explorer.core.memory.groups import assign_memory
from explorer.core.memory.reach import Reach, shares_bytes
from tests.agent_calls import Caller


def _var(name: str, device: str, ptr: int, nbytes: int = 64) -> dict[str, Any]:
    """The VAR of a 1-d float32 tensor of *nbytes* at *ptr* on *device*, as the summary writes it."""
    return {"name": name, "kind": "tensor", "device": device, "data_ptr": ptr, "shape": [nbytes // 4],
            "byte_strides": [4], "itemsize": 4, "storage": {"data_ptr": ptr, "nbytes": nbytes}}


def _groups(*vars_: dict[str, Any]) -> dict[str, Any]:
    entries = [(var, None) for var in vars_]
    assign_memory(entries, exact_overlaps=True)
    return {var["name"]: var["memory_group"] for var in vars_}


def test_equal_addresses_on_two_devices_are_not_one_allocation() -> None:
    # Each CUDA device (and the CPU) numbers its memory from its own start: equal numbers are not shared bytes.
    groups = _groups(_var("a0", "cuda:0", 0x7F00_0000), _var("a1", "cuda:1", 0x7F00_0000),
                     _var("host", "cpu", 0x7F00_0000))
    assert groups == {"a0": None, "a1": None, "host": None}


def test_views_on_one_device_share_a_group() -> None:
    groups = _groups(_var("x", "cuda:1", 0x7F00_0000), _var("view", "cuda:1", 0x7F00_0000, 32),
                     _var("same_address_elsewhere", "cuda:0", 0x7F00_0000))
    assert groups["x"] == groups["view"] is not None and groups["same_address_elsewhere"] is None


def test_overlap_checks_never_cross_devices() -> None:
    a = Reach("cuda:0", 1000, (16,), (4,), 4, 1000, 1064, True)
    b = Reach("cuda:1", 1000, (16,), (4,), 4, 1000, 1064, True)
    assert shares_bytes(a, b) is False
    assert shares_bytes(a, Reach("cuda:0", 1032, (4,), (4,), 4, 1032, 1048, True)) is True


def test_meta_tensors_show_their_device_and_join_no_group() -> None:
    caller = Caller({"m": torch.empty(3, 4, device="meta"), "v": torch.empty(12, device="meta")[:4]})
    by_name = {v["name"]: v for v in caller.ask(protocol.Snapshot(exact_overlaps=True)).result["variables"]}
    assert by_name["m"]["device"] == "meta" and by_name["m"]["memory_group"] is None
    reply = caller.ask(protocol.Values(name="m"))
    assert not reply.ok and "meta" in reply.message


@pytest.fixture()
def copies(monkeypatch) -> list[int]:
    """The number of elements of every tensor copied with ``.cpu()`` while the test runs."""
    seen: list[int] = []
    original = torch.Tensor.cpu

    def watched(self: torch.Tensor, *args: Any, **kwargs: Any) -> torch.Tensor:
        seen.append(self.numel())
        return original(self, *args, **kwargs)

    monkeypatch.setattr(torch.Tensor, "cpu", watched)
    return seen


def test_image_and_values_copy_only_what_they_draw(copies: list[int]) -> None:
    big = torch.rand(3, 1024, 1024)
    caller = Caller({"big": big, "wide": torch.arange(1_000_000.0).reshape(1000, 1000)})
    image = caller.ask(protocol.Image(name="big", max_width=64, max_height=64))
    assert image.ok and image.result["width"] <= 64
    assert copies and max(copies) <= 3 * 64 * 64  # sampled first, then copied
    copies.clear()
    values = caller.ask(protocol.Values(name="wide", nrows=5, ncols=4))
    assert values.ok and values.result["block_shape"] == [5, 4]
    assert copies and max(copies) <= 5 * 4

