"""The learner scripts of tests/learner_scripts, each written after a real question: the card, its names, its fix.

Each script runs in-process as the kernel would run it (its real path, registered in
linecache); the card must mark the right line, name the learner's variables and shapes,
state only what the live values confirm, and offer a fix that makes the script run to its
end when applied with ``apply_fix``, never resizing a layer when the data was wrong.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import io
import re
import warnings
from pathlib import Path
from typing import Any

import pytest
import torch

from explorer.core.errors.explain import explain
from explorer.core.errors.source import apply_fix, is_code
from tests.core.errors.harness import CJK, english_left, language, run
from tests.learner_scripts.expected import EXPECTED, Expect

FOLDER = Path(__file__).resolve().parents[2] / "learner_scripts"
LAYERS = {"Linear", "Conv1d", "Conv2d", "Conv3d", "Embedding"}
CLAIM = re.compile(r"`(?P<name>[^`]+)` is (?P<shape>\[[\d, ]*\]) \((?P<dtype>[\w.]+), (?P<device>[\w:]+)\)")


def _scripts() -> list[Path]:
    return sorted(p for p in FOLDER.glob("*.py") if p.name not in ("__init__.py", "expected.py"))


def _quiet_run(code: str, filename: str) -> tuple[BaseException | None, dict[str, Any]]:
    """Run a script without its prints and warnings (it is the learner's, not the test's)."""
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return run(code, filename)


@functools.cache  # each script runs once per language; the tests only read its card
def _card(expect: Expect, lang: str = "en") -> tuple[str, BaseException, dict[str, Any], dict[str, Any]]:
    path = FOLDER / expect.script
    code = path.read_text(encoding="utf-8")
    exc, ns = _quiet_run(code, str(path))
    assert exc is not None, f"{expect.script} did not raise"
    with language(lang):
        card = explain(exc, ns, code_filenames={str(path)}, code=code)
    assert card is not None
    return code, exc, ns, card


def _layer_calls(code: str) -> list[str]:
    """Every nn.Linear / nn.Conv2d / nn.Embedding ... call of a script, as code, in order."""
    found = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in LAYERS:
                found.append(ast.unparse(node))
    return sorted(found)


def test_every_script_is_in_the_table_and_cites_its_question() -> None:
    assert sorted(e.script for e in EXPECTED) == [p.name for p in _scripts()]
    assert len(EXPECTED) >= 40
    for path in _scripts():
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert re.fullmatch(r"# https://\S+", first), (path.name, first)


@pytest.mark.parametrize("expect", EXPECTED, ids=lambda e: e.script)
def test_card_marks_the_line_and_names_the_learners_values(expect: Expect) -> None:
    code, exc, _, card = _card(expect)
    assert card["key"] == expect.key, (card["key"], str(exc), card["explanation"])
    assert card["line"] == expect.line
    assert card["code_line"] == code.splitlines()[expect.line - 1].strip()
    for text in expect.says:
        assert text in card["explanation"], (text, card["explanation"])


@pytest.mark.parametrize("expect", EXPECTED, ids=lambda e: e.script)
def test_the_fix_makes_the_script_run(expect: Expect) -> None:
    code, _, _, card = _card(expect)
    if not expect.fix:
        assert not is_code(card["fix"]) and card["fix_mode"] is None, card["fix"]
        return
    assert is_code(card["fix"]), card["fix"]
    if expect.fix_line is not None:
        assert card["fix_line"] == expect.fix_line
    else:
        assert card["fix_line"] == expect.line
    patched = apply_fix(code, card)
    assert patched is not None
    exc, _ = _quiet_run(patched, str(FOLDER / expect.script) + ".fixed")
    assert exc is None, f"the fix did not make it run: {exc!r}\n--- patched:\n{patched}"
    before, after = _layer_calls(code), _layer_calls(patched)
    if expect.reading == "data":
        assert after == before, ("a data mistake must not resize a layer", before, after)
    elif expect.reading == "layer":
        assert after != before, "the values say the layer is wrong: its size is what the fix changes"


@pytest.mark.parametrize("expect", EXPECTED, ids=lambda e: e.script)
def test_every_claim_about_a_value_is_true(expect: Expect) -> None:
    """'`x` is [2, 3] (torch.float32, cpu)' is checked against the value recorded from the live run."""
    _, _, ns, card = _card(expect)
    records = {v["name"]: v for v in card["variables"]}
    for claim in CLAIM.finditer(card["explanation"]):
        name = claim["name"]
        shape = [int(d) for d in re.findall(r"\d+", claim["shape"])]
        value = ns.get(name) if name.isidentifier() else None
        if isinstance(value, torch.Tensor):
            assert list(value.shape) == shape and str(value.dtype) == claim["dtype"], (name, claim[0])
        elif name in records:
            assert records[name]["shape"] == shape and records[name]["dtype"] == claim["dtype"], (name, claim[0])
    for sentence in re.split(r"(?<=\.) ", card["explanation"]):
        if "it requires grad" in sentence:  # "`x` is [...], and it requires grad." / "... so it requires grad too."
            for name in re.findall(r"`([^`]+)`", sentence):
                value = ns.get(name)
                if isinstance(value, torch.Tensor):
                    assert value.requires_grad, (name, sentence)


@pytest.mark.parametrize("expect", EXPECTED, ids=lambda e: e.script)
def test_card_in_chinese(expect: Expect) -> None:
    _, _, _, en = _card(expect)
    _, _, _, zh = _card(expect, "zh_CN")
    assert (zh["key"], zh["line"], zh["fix_line"], zh["fix_mode"]) == (en["key"], en["line"], en["fix_line"], en["fix_mode"])
    assert CJK.search(zh["title"]) and CJK.search(zh["explanation"])
    assert english_left(zh["title"] + " " + zh["explanation"]) == [], zh["explanation"]
    for text in expect.says:
        if not re.search(r"[A-Za-z]", re.sub(r"`[^`]*`|torch\.\w+|\w+=\d+", "", text)):  # shapes, numbers, names
            assert text in zh["explanation"], (text, zh["explanation"])
