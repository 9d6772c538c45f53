"""Hints after a successful run and cards for warnings: each raised by a real script, each fix run and checked."""

from __future__ import annotations

import json
import re

import pytest
import torch

from explorer.core.errors.explain import explain_warning, hints
from explorer.core.errors.source import apply_fix
from tests.core.errors.harness import CELL, CJK, english_left, language, run, warned, warning_cards
from tests.core.errors.silent_cases import HINTS, WARNINGS, Silent
from tests.warnings_seen import raised_by

HINT_KEYS = {"key", "severity", "line", "title", "explanation", "fix", "fix_mode", "fix_line"}


def _hint(case: Silent, lang: str = "en") -> dict:
    exc, ns = run(case.script)
    assert exc is None, repr(exc)
    with language(lang):
        found = [h for h in hints(case.script, ns) if h["key"] == case.key]
    assert len(found) == 1, hints(case.script, ns)
    return found[0]


def _rerun(code: str, card: dict) -> dict:
    patched = apply_fix(code, card)
    assert patched is not None, card
    with raised_by() as caught:
        exc, ns = run(patched, "<cell-fixed>")
    assert exc is None, f"{exc!r}\n{patched}"
    ns["_warnings"] = [str(w.message) for w in caught]
    ns["torch_zero"] = lambda t: torch.equal(t, torch.zeros_like(t))
    return ns


@pytest.mark.parametrize("case", HINTS, ids=lambda c: c.id)
def test_hint_names_the_mistake(case: Silent) -> None:
    hint = _hint(case)
    assert set(hint) == HINT_KEYS and hint["severity"] == "hint"
    assert hint["line"] == case.line and hint["fix_line"] == case.fix_line and hint["fix_mode"] == "replace"
    for text in case.says:
        assert text in hint["explanation"], (text, hint["explanation"])
    for text in case.fix_has:
        assert text in hint["fix"], (text, hint["fix"])
    json.dumps(hint)


@pytest.mark.parametrize("case", HINTS, ids=lambda c: c.id)
def test_hint_fix_runs_and_the_mistake_is_gone(case: Silent) -> None:
    hint = _hint(case)
    ns = _rerun(case.script, hint)
    case.effect(ns)  # type: ignore[misc]
    patched = apply_fix(case.script, hint)
    assert [h for h in hints(patched, ns) if h["key"] == case.key] == []


@pytest.mark.parametrize("case", HINTS, ids=lambda c: c.id)
def test_hint_in_chinese(case: Silent) -> None:
    en, zh = _hint(case), _hint(case, "zh_CN")
    assert CJK.search(zh["title"]) and CJK.search(zh["explanation"])
    assert english_left(zh["title"] + " " + zh["explanation"]) == [], zh["explanation"]
    assert re.sub(r"#.*", "", zh["fix"]) == re.sub(r"#.*", "", en["fix"])


def _warning(case: Silent, lang: str = "en") -> dict:
    if case.once:
        _, ns = warned(case.script)
        with language(lang):
            cards = [explain_warning(case.once, UserWarning, CELL, case.line, ns, case.script, code_filenames={CELL})]
    else:
        cards, _ = warning_cards(case.script, lang)
    found = [c for c in cards if c["key"] == case.key]
    assert len(found) == 1, cards
    return found[0]


@pytest.mark.parametrize("case", WARNINGS, ids=lambda c: c.id)
def test_warning_card(case: Silent) -> None:
    card = _warning(case)
    assert card["severity"] == "warning" and card["line"] == case.line
    assert card["fix_line"] == (case.fix_line or case.line)
    for text in case.says:
        assert text in card["explanation"], (text, card["explanation"])
    for text in case.fix_has:
        assert text in card["fix"], (text, card["fix"])
    json.dumps(card)


@pytest.mark.parametrize("case", WARNINGS, ids=lambda c: c.id)
def test_warning_fix_runs_without_the_warning(case: Silent) -> None:
    card = _warning(case)
    ns = _rerun(case.script, card)
    case.effect(ns)  # type: ignore[misc]
    assert ns["_warnings"] == [], ns["_warnings"]
    if case.once:
        assert ".T" not in apply_fix(case.script, card)


@pytest.mark.parametrize("case", WARNINGS, ids=lambda c: c.id)
def test_warning_card_in_chinese(case: Silent) -> None:
    en, zh = _warning(case), _warning(case, "zh_CN")
    assert CJK.search(zh["title"]) and CJK.search(zh["explanation"])
    assert english_left(zh["title"] + " " + zh["explanation"]) == [], zh["explanation"]
    assert re.sub(r"#.*", "", zh["fix"]) == re.sub(r"#.*", "", en["fix"])


def test_warning_from_a_library_frame_points_at_the_learners_line() -> None:
    code = "import torch\nfrom torch import nn\nloss_fn = nn.MSELoss()\nloss = loss_fn(torch.ones(4, 1), torch.ones(4))\n"
    caught, ns = warned(code)
    [w] = [w for w in caught if "target size" in str(w["message"])]
    assert w["filename"] != CELL  # torch warns from inside the loss module
    args = (w["message"], w["category"], w["filename"], w["lineno"], ns, code)
    assert explain_warning(*args, code_filenames={CELL}) is None  # no frame: not the learner's line
    card = explain_warning(*args, code_filenames={CELL}, frame=w["frame"])
    assert card["key"] == "loss_shape_broadcast" and card["line"] == 4


def test_unknown_warning_gets_a_quiet_generic_card() -> None:
    code = "import warnings\nwarnings.warn('careful')\nx = 1\n"
    cards, _ = warning_cards(code)
    [card] = cards
    assert card["key"] == "warning" and card["severity"] == "warning" and card["line"] == 2 and card["fix"] is None
