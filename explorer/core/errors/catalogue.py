"""The catalogue of known errors: every entry, in the order they are tried."""

from __future__ import annotations

import re

from explorer.core.errors import (
    api,
    autograd,
    bce,
    checkpoint,
    collate,
    device,
    dtype,
    loss,
    memory,
    params,
    ranges,
    scalars,
    shapes,
    values,
)
from explorer.core.errors.context import ErrorContext
from explorer.core.errors.entry import Entry


def all_entries() -> list[Entry]:
    """Every entry, most specific first (loss and device entries before the dtype entry)."""
    return [
        *bce.ENTRIES,
        *ranges.ENTRIES,
        *loss.ENTRIES,
        *device.ENTRIES,
        *autograd.ENTRIES,
        *api.ENTRIES,
        *checkpoint.ENTRIES,
        *params.ENTRIES,
        *collate.ENTRIES,
        *shapes.ENTRIES,
        *dtype.ENTRIES,
        *scalars.ENTRIES,
        *values.ENTRIES,
        *memory.ENTRIES,
    ]


def find_entry(exc: BaseException, ctx: ErrorContext) -> tuple[Entry, re.Match] | None:
    """The first catalogue entry that matches the exception, with its match."""
    for entry in all_entries():
        match = entry.search(exc, ctx)
        if match is not None:
            return entry, match
    return None
