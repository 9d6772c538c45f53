"""The kernel's sentences for the detail views, in Chinese when the GUI asks for it."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
import torch

from explorer.core import image, text_zh, values
from explorer.core.agent import Agent, decode_reply
from explorer.core.image_sample import make_plan

CJK = re.compile(r"[\u4e00-\u9fff]")


def _namespace() -> dict:
    nan_img = torch.rand(3, 8, 8)
    nan_img[0, 0, 0] = float("nan")
    nan_img[1, 1, 1] = float("inf")
    return {
        "feat": torch.rand(16, 8, 8), "empty": torch.empty(0, 4), "word": "hello", "cube5": torch.zeros(2, 2, 2, 2, 2),
        "vec": torch.zeros(7), "meta": torch.empty(3, 4, device="meta"), "strs": np.array(["a", "b"]),
        "odd": torch.rand(5, 8, 7), "nan_img": nan_img, "allnan": torch.full((8, 8), float("nan")),
        "mask": torch.rand(8, 8) > 0.5, "strs2d": np.array([["a", "b"]]), "cplx": torch.randn(8, 8, dtype=torch.complex64),
        "grad": torch.rand(8, 8, requires_grad=True), "batch": torch.randn(300, 3, 8, 8),
        "big": torch.randn(3, 600, 600) * 5, "nested": torch.nested.nested_tensor([torch.zeros(2), torch.zeros(3)]),
        "sparse": torch.sparse_coo_tensor(torch.tensor([[0, 4999], [0, 4999]]), torch.tensor([1.0, 2.0]), (5000, 5000)),
        "rgb": torch.rand(3, 8, 8),
    }


# (request, params): each one makes the core say at least one sentence for the user.
CASES = [
    ("image", {"name": "feat"}), ("image", {"name": "empty"}), ("image", {"name": "word"}),
    ("image", {"name": "cube5"}), ("image", {"name": "vec"}), ("image", {"name": "meta"}),
    ("image", {"name": "strs"}), ("image", {"name": "odd"}), ("image", {"name": "nan_img"}),
    ("image", {"name": "allnan"}), ("image", {"name": "mask"}), ("image", {"name": "cplx"}),
    ("image", {"name": "grad"}), ("image", {"name": "batch", "max_width": 64, "max_height": 64}),
    ("image", {"name": "big", "max_width": 100, "max_height": 100}),
    ("image", {"name": "rgb", "channel": 5}), ("image", {"name": "feat", "layout": "CHW"}),
    ("image", {"name": "strs2d", "layout": "HW"}), ("image", {"name": "feat", "layout": "XYZ"}),
    ("image", {"name": "feat", "layout": "NCHW"}), ("image", {"name": "nested"}),
    ("image", {"name": "sparse"}), ("image", {"name": "missing"}), ("image", {"name": "1bad"}),
    ("values", {"name": "word"}), ("values", {"name": "meta"}), ("values", {"name": "nested"}),
    ("values", {"name": "sparse"}),
    ("stats_start", {"name": "word"}), ("stats_start", {"name": "strs"}), ("stats_start", {"name": "meta"}),
    ("stats_start", {"name": "nested"}),
]


def _sentences(reply: dict) -> list[str]:
    """The user-facing sentences of one reply."""
    out = [reply["error"]] if isinstance(reply.get("error"), str) else []
    result = reply.get("result") or {}
    for key in ("notes", "device_note", "range_note"):
        value = result.get(key)
        out += value if isinstance(value, list) else ([value] if isinstance(value, str) else [])
    return out


def _ask(agent: Agent, method: str, params: dict) -> list[str]:
    reply = decode_reply(repr(agent.call(method, json.dumps(params))))
    if method == "stats_start" and "result" in reply:  # the job fails in its thread: poll for the sentence
        job = reply["result"]["job"]
        agent._jobs[job]._thread_done = None
        while True:
            status = decode_reply(repr(agent.call("stats_poll", json.dumps({"job": job}))))["result"]
            if status["state"] != "running":
                return [status["error"]] if status.get("error") else []
    return _sentences(reply)


@pytest.fixture(scope="module")
def said() -> list[tuple[str, str]]:
    """(English, Chinese) for every sentence the cases produce."""
    ns = _namespace()
    english, chinese = Agent(dict(ns)), Agent(dict(ns))
    chinese.do_set_language("zh_CN")
    pairs = []
    limit, values.MAX_SPARSE_NNZ = values.MAX_SPARSE_NNZ, 1  # "too many stored values" without GiBs
    try:
        for method, params in CASES:
            en, zh = _ask(english, method, params), _ask(chinese, method, params)
            assert en, (method, params)
            assert len(en) == len(zh)
            pairs += list(zip(en, zh))
    finally:
        values.MAX_SPARSE_NNZ = limit
    # Off-CPU tensors are not lent to the tests: the note comes from the core function itself.
    plan = make_plan([3, 64, 64], "CHW", 16, 16)
    note = image._device_note(torch.empty(3, 64, 64, device="meta"), "torch", plan)
    pairs.append((note, text_zh.to_zh(note)))
    return pairs


def test_every_sentence_is_translated(said: list[tuple[str, str]]) -> None:
    for en, zh in said:
        assert zh != en and CJK.search(zh), en
        assert not re.search(r"\b(the|is|are|not|drawn|values?)\b", zh), zh  # no English left over


def test_every_template_is_a_sentence_the_core_really_says(said: list[tuple[str, str]]) -> None:
    """Templates that nothing matches would hide drift between the English and its translation."""
    english = [en for en, _ in said]
    pieces = english + [p for en in english for p in en.split("; ")]
    reasons = [m.group(1) for en in english for m in [re.search(r"(?:not an image|cannot be drawn): (.+)\.$", en)] if m]
    unused = [pattern.pattern for pattern, _ in text_zh._COMPILED
              if not any(pattern.fullmatch(s) for s in pieces + reasons)]
    assert unused == []


def test_names_and_numbers_survive() -> None:
    zh = text_zh.to_zh("feat has 16 channels in layout CHW; choose one channel to draw it.")
    assert "feat" in zh and "16" in zh and "CHW" in zh


def test_unknown_sentences_stay_english() -> None:
    assert text_zh.to_zh("something the core never says") == "something the core never says"


def test_english_agent_leaves_sentences_alone() -> None:
    agent = Agent({"feat": torch.rand(16, 8, 8)})
    reply = decode_reply(repr(agent.call("image", json.dumps({"name": "feat"}))))
    assert reply["error"].startswith("feat is not an image: shape [16, 8, 8]")
