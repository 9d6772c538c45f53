"""How sizes, shapes and strides are written (``explorer.protocol.units``): one rule for every view and message."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from explorer.cli.table import format_table
from explorer.core.files.common import human_bytes
from explorer.core.summary.dispatch import summarize
from explorer.protocol.units import format_bytes, shape_text, strides_text


@pytest.mark.parametrize(("n", "text"), [
    (0, "0 B"), (1, "1 B"), (1023, "1023 B"), (1024, "1.0 KiB"), (1025, "1.0 KiB"), (1536, "1.5 KiB"),
    (1024 * 1024 - 52, "1023.9 KiB"), (1024 * 1024 - 1, "1.0 MiB"),  # never "1024.0 KiB"
    (4 * 1024**2, "4.0 MiB"), (3 * 1024**3, "3.0 GiB"), (1024**4, "1.0 TiB"), (1024**5, "1.0 PiB"), (1024**6, "1024.0 PiB"),
])
def test_bytes_in_binary_units(n: int, text: str) -> None:
    assert format_bytes(n) == text
    assert human_bytes(n) == text  # the file messages' name for the same rule


def test_shapes_and_strides() -> None:
    assert shape_text([2, 3]) == "[2, 3]" and shape_text(()) == "[]" and shape_text(torch.Size([5])) == "[5]"
    assert shape_text(None) == "" and shape_text(None, missing="?") == "?"
    assert strides_text((3, 1)) == "(3, 1)" and strides_text(None) == ""
    assert shape_text(np.zeros((2, 1)).shape) == "[2, 1]"


def test_the_inspector_and_the_cli_write_a_variable_alike(qapp) -> None:
    from explorer.ui.inspector.inspector_columns import columns

    var = summarize("t", torch.zeros(16, 16, dtype=torch.float32).t())  # 1024 bytes, strides (1, 16)
    texts = {column.key: column.text(var) for column in columns()}
    assert texts["nbytes"] == "1.0 KiB" and texts["shape"] == "[16, 16]" and texts["strides"] == "(1, 16)"
    row = format_table({"variables": [var]}).splitlines()[2]
    assert "[16, 16]" in row and "(1, 16)" in row
