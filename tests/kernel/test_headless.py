"""The headless driver against a real ipykernel: run code, ask the agent, explain errors."""

from __future__ import annotations


def _by_name(variables: list[dict]) -> dict[str, dict]:
    return {v["name"]: v for v in variables}


def test_snapshot_after_run_reports_a_view(headless_kernel) -> None:
    code = "import torch\nt = torch.arange(10).reshape(2, 5)\ncols = t[:, 1:3]\n"
    assert headless_kernel.run(code)["status"] == "ok"
    reply = headless_kernel.request("after_run", {"code": code, "failed": False, "exact_overlaps": True})
    snap = reply["result"]["snapshot"]
    names = _by_name(snap["variables"])
    assert names["cols"]["strides"] == [5, 1]
    assert names["cols"]["storage_offset"] == 1
    assert names["cols"]["is_contiguous"] is False
    assert names["cols"]["memory_group"] == names["t"]["memory_group"] is not None
    assert "t" in names["cols"]["overlaps"]
    assert snap["torch_version"].startswith("2.")


def test_agent_names_are_hidden_from_the_user(headless_kernel) -> None:
    snap = headless_kernel.request("snapshot")["result"]
    assert not any(v["name"].startswith("__") for v in snap["variables"])


def test_failed_run_keeps_earlier_variables_and_explains(headless_kernel) -> None:
    code = "import torch\nbefore = torch.ones(4, 3)\nother = torch.ones(4, 5)\nbad = before @ other\n"
    outcome = headless_kernel.run(code)
    assert outcome["status"] == "error"
    result = headless_kernel.request("after_run", {"code": code, "failed": True})["result"]
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
    assert "error" in headless_kernel.request("no_such_method")
