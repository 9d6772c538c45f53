"""The protocol module on its own: envelopes, buffers, the request table (no kernel, no Qt, no torch)."""

from __future__ import annotations

import dataclasses
import math
import subprocess
import sys

import pytest

from explorer import protocol


def test_every_request_has_a_unique_method_and_a_handler() -> None:
    from explorer.core.agent.handlers import HANDLERS

    assert set(HANDLERS) == set(protocol.REQUESTS.values())
    assert all(cls.method == name for name, cls in protocol.REQUESTS.items())


def test_every_request_documents_its_reply() -> None:
    for cls in protocol.REQUESTS.values():
        assert cls.__doc__ and "Reply" in cls.__doc__, cls.__name__


@pytest.mark.parametrize("cls", list(protocol.REQUESTS.values()), ids=lambda c: c.method)
def test_request_round_trip(cls) -> None:
    request = cls()
    data = protocol.request_message(7, request)
    assert protocol.parse_request(data) == (7, request)


def test_unknown_method_and_parameter_are_protocol_errors() -> None:
    with pytest.raises(protocol.ProtocolError, match="unknown request"):
        protocol.parse_request({"type": "request", "id": 1, "method": "do_evil", "params": {}})
    with pytest.raises(protocol.ProtocolError, match="no parameter colour"):
        protocol.parse_request({"type": "request", "id": 1, "method": "image", "params": {"colour": 1}})
    with pytest.raises(protocol.ProtocolError):
        protocol.parse_request(["not", "a", "dict"])


def test_buffers_and_non_finite_floats_survive() -> None:
    result = {"pixels": b"\x00\x01", "nested": [{"b": bytearray(b"xy")}], "lo": float("nan"), "hi": math.inf, "n": 3}
    payload, buffers = protocol.split_buffers(result)
    assert buffers == [b"\x00\x01", bytearray(b"xy")]
    assert payload["pixels"] == {"$buffer": 0}
    request_id, reply = protocol.parse_reply(protocol.reply_message(4, payload), buffers)
    assert request_id == 4 and reply.ok
    assert reply.result["pixels"] == b"\x00\x01" and reply.result["nested"][0]["b"] == b"xy"
    assert math.isnan(reply.result["lo"]) and reply.result["hi"] == math.inf and reply.result["n"] == 3


def test_error_reply_carries_type_and_sentence() -> None:
    data = protocol.reply_message(9, error=protocol.ErrorInfo("ValueError", "x is not an image."))
    _, reply = protocol.parse_reply(data)
    assert not reply.ok and reply.error == protocol.ErrorInfo("ValueError", "x is not an image.")
    assert reply.message == "x is not an image."


def test_version_mismatch() -> None:
    same = {"protocol": protocol.PROTOCOL_VERSION, "package": "1.0"}
    assert not protocol.version_mismatch(same, "1.0")
    assert protocol.version_mismatch(dict(same, package="0.9"), "1.0")
    assert protocol.version_mismatch(dict(same, protocol=protocol.PROTOCOL_VERSION + 1), "1.0")


def test_requests_are_frozen_dataclasses() -> None:
    for cls in protocol.REQUESTS.values():
        assert dataclasses.is_dataclass(cls)
        with pytest.raises(dataclasses.FrozenInstanceError):
            cls().__setattr__("x", 1)


def test_protocol_imports_nothing_heavy() -> None:
    code = "import sys, explorer.protocol; print(' '.join(sorted(sys.modules)))"
    modules = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split())
    assert not {"torch", "numpy", "PySide6"} & modules


def test_a_plain_reply_is_not_walked() -> None:
    """Snapshots of thousands of VARs say they hold no markers: the receiver takes them as they are."""
    marker_like = {"$buffer": 0}  # a user's dict that happens to look like a marker stays itself
    data = protocol.reply_message(1, {"variables": [marker_like]}, encoded=False)
    _, reply = protocol.parse_reply(data, [b"x"])
    assert reply.result["variables"][0] is marker_like
