"""Helpers for the error-explainer tests: run a snippet as a registered cell and catch what it raises."""

from __future__ import annotations

import linecache
from typing import Any

import numpy as np
import pytest
import torch
import torch.nn.functional as F

CELL = "<cell-1>"


def fresh_namespace() -> dict[str, Any]:
    """A user namespace with the usual imports."""
    return {"torch": torch, "np": np, "F": F, "nn": torch.nn}


def register(code: str, filename: str = CELL) -> None:
    """Put the cell's source in linecache, as IPython does for its cells."""
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)


def raise_in_cell(code: str, namespace: dict[str, Any] | None = None, filename: str = CELL) -> tuple[BaseException, dict]:
    """Exec the code as a cell; return the exception it raised and the namespace."""
    ns = fresh_namespace() if namespace is None else namespace
    register(code, filename)
    try:
        exec(compile(code, filename, "exec"), ns)
    except Exception as exc:  # noqa: BLE001 - that is the point
        return exc, ns
    pytest.fail(f"the snippet did not raise:\n{code}")
    raise AssertionError  # unreachable; keeps type checkers quiet
