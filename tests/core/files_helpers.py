"""Helpers shared by the file-loading tests (no tests here): make files, run snippets, check messages."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from explorer.core.files.prepare import FileLoadError, prepare_load


def run_snippet(result: dict[str, Any]) -> Any:
    """Execute the returned code in a fresh namespace, as the kernel would, and return the variable."""
    namespace: dict[str, Any] = {}
    exec(compile(result["code"], "<load>", "exec"), namespace)
    return namespace[result["name"]]


def assert_one_sentence(message: str) -> None:
    """A message is one line, one sentence, ends with a period and carries no traceback."""
    assert "\n" not in message and "\r" not in message
    assert message.endswith(".")
    assert "Traceback" not in message
    unquoted = re.sub(r"'[^']*'", "''", message)
    assert ". " not in unquoted, message
    assert len(message) < 400


def refused(path: Any, **kwargs: Any) -> FileLoadError:
    """Call prepare_load expecting FileLoadError; check the message shape and return the error."""
    with pytest.raises(FileLoadError) as info:
        prepare_load(str(path), **kwargs)
    assert_one_sentence(str(info.value))
    return info.value


def write_npy_header(path: Path, shape: tuple[int, ...], descr: str = "<f4", extra: int = 0) -> int:
    """Write only a .npy header, then extend the file sparsely; return the data offset."""
    with open(path, "wb") as fh:
        np.lib.format.write_array_header_1_0(fh, {"descr": descr, "fortran_order": False, "shape": shape})
        offset = fh.tell()
        nbytes = int(np.prod(shape, dtype=np.int64)) * np.dtype(descr).itemsize
        fh.truncate(offset + nbytes + extra)
    return offset


class Evil:
    """Pickles as a call to ``open(marker, 'w')``: loading it would create the marker file."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return (open, (self.marker, "w"))
