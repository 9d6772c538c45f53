"""The kernel's sentences for the detail views, in Chinese when the GUI asks for it."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import numpy as np
import pytest
import torch

from explorer.core import text_zh
from explorer.core.agent.handlers import Agent, decode_reply
from explorer.core.files import prepare as files
from explorer.core.image import payload as image
from explorer.core.image.sample import make_plan
from explorer.core.values import window as values

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
    views = [re.compile(p, re.DOTALL) for p, _ in text_zh._VIEW_TEMPLATES]
    assert [p.pattern for p in views if not any(p.fullmatch(s) for s in pieces + reasons)] == []


# -- file loading: every FileLoadError sentence in the source, with sample values --------
_SAMPLES = (  # (text in the f-string's expression, a value it can take)
    ("torch_classes", " (collections.OrderedDict, MyModel)"), ("tensor_where", "'x.safetensors' (tensor 'w')"),
    ("_CONTENT_LABEL", tuple(files._CONTENT_LABEL.values())), ("human_bytes", "2.0 GiB"),
    ("known", ("", "; it looks like a NumPy .npy array")),
    ("advice", None), ("what", None), ("where", "'x.npz' (array 'k')"), ("limit", "89,478,485"),
    ("scheme", "https"), ("netloc", "server"), ("strerror", "Input/output error"), ("__name__", "OSError"),
    ("rename", ".npy"), ("ext or base", "'.txt'"), ("shown", "'x.pt'"), ("key", "'w'"), ("dtype", "'F8_E4M3'"),
    ("show(", "'x.npy'"), ("label", "'x.npy'"),
)


# Names that mean something else in one module: (module, expression) -> an expression of _SAMPLES.
_LOCAL_NAMES = {("torch_format.py", "shown"): "torch_classes", ("safetensors_format.py", "where"): "tensor_where"}


def _string_args(tree: ast.AST, func: str, index: int) -> list[str]:
    """The literal strings passed as argument *index* to calls of *func* (the advice and 'what' texts)."""
    return [node.args[index].value for node in ast.walk(tree) if isinstance(node, ast.Call)
            and getattr(node.func, "id", None) == func and len(node.args) > index
            and isinstance(node.args[index], ast.Constant)]


def _file_messages() -> list[str]:
    files = sorted((Path(text_zh.__file__).parent / "files").glob("*.py"))
    trees = [ast.parse(p.read_text(encoding="utf-8")) for p in files]
    advice = [a for t in trees for a in _string_args(t, "check_fits_in_memory", 2)]
    what = [a for t in trees for a in _string_args(t, "_object_refusal", 1)]
    assert advice and what
    messages = []
    for path, tree in zip(files, trees):
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "FileLoadError" and node.args):
                continue
            arg = node.args[0]
            if not isinstance(arg, (ast.Constant, ast.JoinedStr)):
                continue  # a gettext sentence, _("...").format(...): test_i18n checks its translation
            parts = arg.values if isinstance(arg, ast.JoinedStr) else [arg]
            variants = [""]
            for part in parts:
                if isinstance(part, ast.Constant):
                    variants = [v + part.value for v in variants]
                    continue
                expr = ast.get_source_segment(source, part.value) or ""
                expr = _LOCAL_NAMES.get((path.name, expr), expr)
                choices = next((list(value) if isinstance(value, tuple) else [value] if value
                                else (advice if name == "advice" else what)
                                for name, value in _SAMPLES if name in expr), None)
                assert choices is not None, f"no sample value for {{{expr}}} in {path.name}"
                variants = [v + c for v in variants for c in choices]
            messages += [" ".join(v.split()) + "." for v in variants]  # as FileLoadError words them
    return messages


def test_every_file_message_is_translated() -> None:
    messages = _file_messages()
    assert len(messages) > 50
    for en in messages:
        zh = text_zh.to_zh(en)
        assert CJK.search(zh), en
        leftover = re.sub(r"'[^']*'|np\.load\S*|safe_open\S*|torch\.save|Pillow|NumPy|PyTorch|JSON|Tensor Explorer"
                          r"|__metadata__|[A-Z]\w*Error|Input/output error|https|dtype|shape", "", zh)
        assert not re.search(r"\b(is|the|file|not|of|and|it|to)\b", leftover), (en, zh)


def test_every_file_template_is_used() -> None:
    pieces = _file_messages()
    used: set[str] = set()
    while pieces:
        text = pieces.pop().removesuffix(".")
        for pattern, _ in text_zh._COMPILED:
            match = pattern.fullmatch(text)
            if match:
                used.add(pattern.pattern)
                pieces += [v for k, v in match.groupdict().items() if k.startswith("t_") and v]
                break
    assert [p for p, _ in text_zh._FILE_TEMPLATES if p not in used] == []


def test_names_and_numbers_survive() -> None:
    zh = text_zh.to_zh("feat has 16 channels in layout CHW; choose one channel to draw it.")
    assert "feat" in zh and "16" in zh and "CHW" in zh


def test_unknown_sentences_stay_english() -> None:
    assert text_zh.to_zh("something the core never says") == "something the core never says"


def test_english_agent_leaves_sentences_alone() -> None:
    agent = Agent({"feat": torch.rand(16, 8, 8)})
    reply = decode_reply(repr(agent.call("image", json.dumps({"name": "feat"}))))
    assert reply["error"].startswith("feat is not an image: shape [16, 8, 8]")


def test_file_errors_reach_the_gui_in_chinese(tmp_path: Path) -> None:
    agent = Agent({})
    agent.do_set_language("zh_CN")
    (tmp_path / "empty.npy").write_bytes(b"")
    (tmp_path / "junk.safetensors").write_bytes(b"\x01\x02")
    for name, words in (("missing.npy", "处没有文件"), ("empty.npy", "是空文件"), ("junk.safetensors", "不是 safetensors 文件")):
        reply = decode_reply(repr(agent.call("prepare_load", json.dumps({"path": str(tmp_path / name)}))))
        assert words in reply["result"]["error"], reply


def test_spaces_only_between_chinese_and_latin() -> None:
    assert text_zh.to_zh("'x.npy' is a zip archive but not an image") == "'x.npy' 是 zip 压缩包，但不是图像"
    assert text_zh.to_zh("'x.npy' is a zip archive but not a PyTorch checkpoint").endswith("但不是 PyTorch 检查点")
