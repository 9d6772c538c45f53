"""A fix's comment says the shape the fixed line makes: run the fix and compare."""

from __future__ import annotations

import ast
import re

import pytest

from tests.core.errors.cases import CASES
from tests.core.errors.harness import Case, card, run_patched

_MATMUL = [case for case in CASES if case.key == "matmul_shape" and case.effect is not None]


@pytest.mark.parametrize("case", _MATMUL, ids=lambda c: c.id)
def test_a_matrix_product_fix_names_the_shape_it_makes(case: Case) -> None:
    _, _, result = card(case.script)
    code, _, comment = result["fix"].partition("  # ")
    said = re.search(r"-> \[([\d, ]*)\]$", comment)
    assert said, result["fix"]
    target = ast.parse(code).body[0].targets[0].id
    made = tuple(run_patched(case.script, result)[target].shape)
    assert made == tuple(int(n) for n in said.group(1).split(", ")), (result["fix"], made)
