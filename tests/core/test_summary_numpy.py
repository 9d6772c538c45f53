"""Plain ndarrays take a one-run summary; it must agree with the field-by-field path."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.core.summary import ndarray as summary_numpy


def _plain_arrays() -> dict[str, np.ndarray]:
    base = np.arange(60, dtype=np.float64).reshape(3, 4, 5)
    structured = np.zeros(4, dtype=[("a", "<i4"), ("b", "<f8")])
    raw = bytearray(96)
    return {
        "owner": base, "fortran": np.asfortranarray(base), "slice": base[1:, ::2, 1:4],
        "reversed": base[::-1, :, ::-2], "broadcast": np.broadcast_to(np.arange(5.0), (4, 5)),
        "view_of_view": base[1][::2][:, 1:], "transposed": base.T, "zero_d": np.array(3.5),
        "empty": np.empty((0, 3)), "empty_view": base[:, 2:2], "strings": np.array(["ab", "cde"]),
        "structured": structured, "field": structured["b"], "bool": np.array([True, False]),
        "on_buffer": np.ndarray((3, 4), dtype=np.float64, buffer=raw, strides=(32, 8)),
        "uneven_strides": np.ndarray((3,), dtype=np.int32, buffer=raw, offset=2, strides=(6,)),
        "big_endian": np.arange(6, dtype=">i4"), "object": np.array([None, 1], dtype=object),
        "void0": np.zeros(3, dtype="V0") if hasattr(np, "void") else np.zeros(3),
    }


@pytest.mark.parametrize("key", sorted(_plain_arrays()))
def test_plain_ndarray_fast_path_agrees_with_the_careful_one(key: str) -> None:
    """The one-run summary of a plain ndarray must equal the field-by-field one, notes included."""
    arr = _plain_arrays()[key]
    assert type(arr) is np.ndarray
    careful = summary_numpy._careful_var("x", arr, np.ndarray)
    assert summary_numpy.array_var("x", arr, np.ndarray) == careful
    if key not in ("uneven_strides", "void0", "field"):  # strides in elements undefined: notes
        assert summary_numpy._fast_var("x", arr, np.ndarray) == careful
