"""Protocol 2 on its own: events, pause-prompt requests, frame choices, and a handshake older kernels can read."""

from __future__ import annotations

import json

from explorer import protocol
from explorer.client.channel import CommChannel
from tests.agent_calls import Caller


class _NoKernel:
    session = None


def test_events_are_told_apart_from_replies() -> None:
    channel = CommChannel(_NoKernel())
    message = {"msg_type": "comm_msg", "content": {"comm_id": channel.comm_id, "data": protocol.event_message(
        "paused", {"frames": [], "selected": 0})}}
    incoming = channel.read(message)
    assert incoming is not None and incoming.event == ("paused", {"frames": [], "selected": 0})
    assert incoming.reply is None
    assert protocol.parse_event(protocol.reply_message(3, {})) is None


def test_a_request_encoded_for_the_pause_prompt_is_the_comm_envelope() -> None:
    channel = CommChannel(_NoKernel())
    request_id, text = channel.encode(protocol.Values(name="w", nrows=2))
    assert protocol.parse_request(json.loads(text)) == (request_id, protocol.Values(name="w", nrows=2))
    assert channel.encode(protocol.Resume())[0] == request_id + 1  # one numbering with the comm's requests


def test_hello_with_parameters_this_kernel_does_not_know_still_answers() -> None:
    data = protocol.request_message(1, protocol.Hello(package="9.9"))
    data["params"]["from_the_future"] = True
    assert protocol.parse_request(data)[1] == protocol.Hello(package="9.9")
    data = protocol.request_message(2, protocol.Image(name="x"))
    data["params"]["from_the_future"] = True
    try:
        protocol.parse_request(data)
    except protocol.ProtocolError as exc:
        assert "from_the_future" in str(exc)
    else:
        raise AssertionError("other requests stay strict")


def test_without_an_error_there_is_no_frame_to_choose() -> None:
    caller = Caller({"a": 1})
    reply = caller.ask(protocol.SelectFrame(index=0))
    assert not reply.ok and "until the next run" in reply.message
    back = caller.ask(protocol.SelectFrame(index=None)).result
    assert back["frame"] is None and back["frames"] == [] and [v["name"] for v in back["snapshot"]["variables"]] == ["a"]
