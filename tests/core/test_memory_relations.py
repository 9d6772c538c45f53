"""The sentence under the inspector: how one variable shares memory, decided in the core."""

from __future__ import annotations

import numpy as np
import torch

from explorer.core.memory.relations import describe_relations


def _roles(result: dict) -> dict[str, str]:
    return {rel["other"]: rel["role"] for rel in result["relations"]}


def test_view_of_base_with_strides_and_offset() -> None:
    t = torch.arange(10).reshape(2, 5)
    result = describe_relations({"t": t, "cols": t[:, 1:3]}, "cols")
    assert result["sentence"] == "cols is a view of t (strides 5, 1; offset 1)"
    assert _roles(result) == {"t": "overlap"}


def test_base_selected_names_its_view() -> None:
    t = torch.arange(10).reshape(2, 5)
    result = describe_relations({"t": t, "cols": t[:, 1:3]}, "t")
    assert result["sentence"] == "cols is a view of t (strides 5, 1; offset 1)"


def test_same_allocation_without_shared_elements() -> None:
    t = torch.arange(8)
    result = describe_relations({"t": t, "head": t[:4], "tail": t[4:]}, "head")
    assert "head and tail share one allocation but no element" in result["sentence"]
    assert _roles(result) == {"t": "overlap", "tail": "same_allocation"}


def test_from_numpy_is_the_same_memory() -> None:
    arr = np.ones(3)
    result = describe_relations({"arr": arr, "t2": torch.from_numpy(arr)}, "t2")
    assert result["sentence"] == "t2 and arr are the same memory (torch.from_numpy / .numpy())"


def test_alone_says_so() -> None:
    t = torch.ones(3)
    result = describe_relations({"t": t, "c": t.clone()}, "c")
    assert result["sentence"] == "c has its memory to itself" and result["relations"] == []


def test_in_chinese() -> None:
    from explorer.core import i18n

    t = torch.arange(10).reshape(2, 5)
    with i18n.speaking("zh_CN"):
        result = describe_relations({"t": t, "cols": t[:, 1:3]}, "cols")
    # who is the view of whom: the order must survive the translation
    assert result["sentence"].startswith("cols 是 t 的视图"), result["sentence"]
