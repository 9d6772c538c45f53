"""Every catalogue entry, raised for real by a learner's script: the card names the cause, in both languages."""

from __future__ import annotations

import json
import re

import pytest

from explorer.core.errors.catalogue import all_entries
from explorer.core.errors.source import is_code
from tests.core.errors.cases import CASES
from tests.core.errors.harness import CJK, Case, card, english_left


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_card_names_the_cause(case: Case) -> None:
    exc, _, result = card(case.script)
    if case.message:
        assert re.search(case.message, str(exc)), str(exc)
    assert result["key"] == case.key, (result["key"], str(exc), result["explanation"])
    assert result["severity"] == "error" and result["type"] == type(exc).__name__
    assert result["line"] == case.line
    assert result["code_line"] == case.script.splitlines()[case.line - 1].strip()
    for text in case.says:
        assert text in result["explanation"], (text, result["explanation"])
    for text in case.fix_has:
        assert text in (result["fix"] or ""), (text, result["fix"])
    if case.fix_line is not None:
        assert result["fix_line"] == case.fix_line
    json.dumps(result)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_card_in_chinese(case: Case) -> None:
    _, _, en = card(case.script)
    _, _, zh = card(case.script, "zh_CN")
    assert (zh["key"], zh["line"], zh["fix_line"], zh["fix_mode"]) == (en["key"], en["line"], en["fix_line"], en["fix_mode"])
    assert CJK.search(zh["title"]) and CJK.search(zh["explanation"])
    assert english_left(zh["title"] + " " + zh["explanation"]) == [], zh["explanation"]
    # Facts that are not English words (shapes, numbers, `names`, dtypes) survive translation.
    facts = [t for t in case.says if not re.search(r"[A-Za-z]", re.sub(r"`[^`]*`|torch\.\w+", "", t))]
    for text in facts:
        assert text in zh["explanation"], (text, zh["explanation"])
    # The code of a fix is the same in both languages; only its comments are translated.
    code = lambda fix: [re.sub(r"\s+#.*$", "", row) for row in (fix or "").splitlines() if not row.strip().startswith("#")]  # noqa: E731
    assert code(zh["fix"]) == code(en["fix"])
    comments = [row for row in (zh["fix"] or "").splitlines() if "#" in row]
    for row in comments:
        assert english_left(row.split("#", 1)[1]) == [], row


def test_every_entry_is_raised_for_real_and_offers_code_somewhere() -> None:
    keys = {c.key for c in CASES}
    assert {e.key for e in all_entries()} <= keys
    with_code = {c.key for c in CASES if c.effect is not None}
    advice_only = {"loss_target_class", "index_out_of_range", "dim_out_of_range", "grad_none_update", "numpy_device",
                   "device_mismatch", "out_of_memory"}  # no code can make memory appear
    assert keys - with_code <= advice_only


@pytest.mark.parametrize("case", [c for c in CASES if c.effect is None], ids=lambda c: c.id)
def test_advice_is_words_only(case: Case) -> None:
    _, _, result = card(case.script)
    assert not is_code(result["fix"]) and result["fix_mode"] is None and result["fix_line"] is None
    if result["fix"]:
        assert all(row.startswith("#") for row in result["fix"].splitlines())
