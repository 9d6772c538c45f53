"""The headless driver against a real ipykernel: run code, ask through the comm, explain errors."""

from __future__ import annotations

from explorer import protocol


def _by_name(variables: list[dict]) -> dict[str, dict]:
    return {v["name"]: v for v in variables}


def test_snapshot_after_run_reports_a_view(headless_kernel) -> None:
    code = "import torch\nt = torch.arange(10).reshape(2, 5)\ncols = t[:, 1:3]\n"
    assert headless_kernel.run(code)["status"] == "ok"
    reply = headless_kernel.ask(protocol.AfterRun(code=code, failed=False, exact_overlaps=True))
    snap = reply.result["snapshot"]
    names = _by_name(snap["variables"])
    assert names["cols"]["strides"] == [5, 1]
    assert names["cols"]["storage_offset"] == 1
    assert names["cols"]["is_contiguous"] is False
    assert names["cols"]["memory_group"] == names["t"]["memory_group"] is not None
    assert "t" in names["cols"]["overlaps"]
    assert snap["torch_version"].startswith("2.")


def test_agent_names_are_hidden_from_the_user(headless_kernel) -> None:
    snap = headless_kernel.ask(protocol.Snapshot()).result
    assert not any(v["name"].startswith("_") for v in snap["variables"])
    assert headless_kernel.run("print(sorted(k for k in globals() if 'explorer' in k.lower()))")["status"] == "ok"
    assert headless_kernel.run("assert not [k for k in globals() if 'explorer' in k.lower()], globals().keys()")["status"] == "ok"


def test_failed_run_keeps_earlier_variables_and_explains(headless_kernel) -> None:
    code = "import torch\nbefore = torch.ones(4, 3)\nother = torch.ones(4, 5)\nbad = before @ other\n"
    outcome = headless_kernel.run(code)
    assert outcome["status"] == "error"
    result = headless_kernel.ask(protocol.AfterRun(code=code, failed=True)).result
    names = _by_name(result["snapshot"]["variables"])
    assert "before" in names and "bad" not in names
    error = result["error"]
    assert error["line"] == 4
    assert error["type"] == "RuntimeError"


def test_timeout_interrupts_an_endless_loop(headless_kernel) -> None:
    outcome = headless_kernel.run("while True:\n    pass\n", timeout=1.0)
    assert outcome["interrupted"] is True
    assert outcome["status"] == "error"
    assert any(o.get("ename") == "KeyboardInterrupt" for o in outcome["outputs"])
    assert headless_kernel.run("after_loop = 1")["status"] == "ok"


def test_unknown_request_is_an_error_not_a_crash(headless_kernel) -> None:
    channel = headless_kernel.channel
    request_id = next(channel._ids)
    channel._send("comm_msg", {"comm_id": channel.comm_id,
                               "data": {"type": "request", "id": request_id, "method": "no_such_method", "params": {}}})
    while request_id not in headless_kernel._replies:
        headless_kernel._pump(0.2)
    reply = headless_kernel._replies.pop(request_id)
    assert not reply.ok and reply.error.type == "ProtocolError" and "no_such_method" in reply.message
    assert headless_kernel.ask(protocol.Snapshot()).ok
