"""The sentence under the inspector, from real snapshot facts."""

from __future__ import annotations

import numpy as np
import torch

from explorer.core.snapshot.build import build_snapshot
from explorer.ui.inspector.memory_relations import describe


def _vars(ns: dict) -> dict[str, dict]:
    return {v["name"]: v for v in build_snapshot(ns, exact_overlaps=True)["variables"]}


def test_view_of_base_with_strides_and_offset(qapp) -> None:
    t = torch.arange(10).reshape(2, 5)
    variables = _vars({"t": t, "cols": t[:, 1:3]})
    text, roles = describe(dict(variables["cols"]), list(variables.values()))
    assert text == "cols is a view of t (strides 5, 1; offset 1)"
    assert roles == {"cols": "selected", "t": "overlap"}


def test_same_allocation_without_shared_elements(qapp) -> None:
    t = torch.arange(8)
    variables = _vars({"t": t, "head": t[:4], "tail": t[4:]})
    text, roles = describe(variables["head"], list(variables.values()))
    assert "head and tail share one allocation but no element" in text
    assert roles["tail"] == "same_allocation" and roles["t"] == "overlap"


def test_from_numpy_is_the_same_memory(qapp) -> None:
    arr = np.ones(3)
    variables = _vars({"arr": arr, "t2": torch.from_numpy(arr)})
    text, _ = describe(variables["t2"], list(variables.values()))
    assert text == "t2 and arr are the same memory (torch.from_numpy / .numpy())"


def test_independent_copy_says_so(qapp) -> None:
    t = torch.ones(3)
    variables = _vars({"t": t, "c": t.clone()})
    variables["c"]["copy_hint"] = "independent copy of t (clone): writing to it does not change t"
    text, roles = describe(variables["c"], list(variables.values()))
    assert text.startswith("c has its memory to itself") and "independent copy of t" in text
    assert roles == {"c": "selected"}
