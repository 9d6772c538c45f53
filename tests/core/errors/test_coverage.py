"""The catalogue covers at least 40 distinct beginner errors and silent mistakes, each raised by a real script."""

from __future__ import annotations

from explorer.core.errors.catalogue import all_entries
from explorer.core.errors.warned import ENTRIES as WARNING_ENTRIES
from tests.core.errors.cases import CASES
from tests.core.errors.silent_cases import HINTS, WARNINGS

HINT_KEYS = {"tensor_uninitialised", "empty_uninitialised", "grads_none", "grad_non_leaf", "data_attr",
             "weights_never_change"}


def test_every_kind_has_a_real_script() -> None:
    assert {e.key for e in all_entries()} <= {c.key for c in CASES}
    assert {e.key for e in WARNING_ENTRIES} <= {c.key for c in WARNINGS}
    assert {c.key for c in HINTS} == HINT_KEYS


def test_at_least_forty_kinds() -> None:
    kinds = {c.key for c in CASES} | {c.key for c in HINTS} | {c.key for c in WARNINGS}
    assert len(kinds) >= 40, sorted(kinds)
