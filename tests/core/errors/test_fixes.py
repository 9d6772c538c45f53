"""Execute the fix: every card that offers code is applied to the learner's script, which then runs and does what was meant."""

from __future__ import annotations

import pytest

from tests.core.errors.cases import CASES
from tests.core.errors.harness import Case, card, run_patched


@pytest.mark.parametrize("case", [c for c in CASES if c.effect is not None], ids=lambda c: c.id)
def test_fix_runs_and_does_what_was_meant(case: Case) -> None:
    _, _, result = card(case.script)
    assert result["fix_mode"] in ("replace", "before")
    ns = run_patched(case.script, result)
    case.effect(ns)  # type: ignore[misc]
