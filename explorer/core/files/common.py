"""Shared pieces of the file loaders: the error type, size formatting and memory limits."""

from __future__ import annotations

import os
from typing import Any

from explorer.core.i18n import _
from explorer.protocol import units
from explorer.protocol.units import format_bytes

# Above this many bytes of array data the loaders prefer memory-mapping, so that
# opening a file is instant and pages are read only when the user touches them.
LARGE_BYTES = 64 * 1024 * 1024

# How much of the available memory an eager load may take before we refuse it:
# the kernel needs head-room for the user's own work.
MEMORY_FRACTION = 0.8


class FileLoadError(Exception):
    """A file that cannot be loaded; the message is one clear sentence.

    Parameters
    ----------
    message : str
        What is wrong, as one sentence (newlines are folded, a final period added if it has none).
    needs_pickle : bool, optional
        True when the file holds pickled Python objects, so loading it would run
        code from the file (the GUI may then offer ``allow_pickle=True``).
    """

    def __init__(self, message: str, *, needs_pickle: bool = False) -> None:
        text = " ".join(str(message).split())
        if not text.endswith((".", "。", "?", "？", "!", "！")):  # a translated sentence keeps its own stop
            text += "."
        super().__init__(text)
        self.needs_pickle = needs_pickle

    def __str__(self) -> str:
        return self.args[0]


def show(text: str) -> str:
    """Quote a file name for a message, escaping control characters so it stays on one line."""
    safe = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)
    return f"'{safe}'"


def human_bytes(n: int) -> str:
    """A byte count as every message writes it, e.g. ``4.4 MiB`` (:func:`explorer.protocol.units.format_bytes`)."""
    return format_bytes(n)


def human_count(n: int) -> str:
    """Format a count compactly, e.g. ``1.2 M`` (plain digits below ten thousand)."""
    if n < 10_000:
        return str(n)
    for div, unit in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if n >= div:
            return f"{n / div:.1f} {unit}"
    return str(n)  # pragma: no cover


def shape_text(shape: Any) -> str:
    """A shape as every message writes it: ``[2, 3]``, ``[5]``, ``[]`` (:func:`explorer.protocol.units.shape_text`)."""
    return units.shape_text(shape)


def available_memory() -> int | None:
    """Bytes of memory the system can still give us, or None when unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def check_fits_in_memory(nbytes: int, label: str, advice: str) -> None:
    """Refuse an eager load that would not fit in the memory left (a frozen machine is worse).

    *advice* is a translated clause without a final stop (what to do instead).
    """
    free = available_memory()
    if free is not None and nbytes > free * MEMORY_FRACTION:
        # TRANSLATORS: {need} and {free} are sizes such as "2.0 GiB"; {advice} is a clause saying what to do instead.
        raise FileLoadError(_("Loading {file} would need {need} of memory, but only {free} is free; {advice}.").format(
            file=label, need=human_bytes(nbytes), free=human_bytes(free), advice=advice))


def plan(fmt: str, code: str, summary: str, hint: str | None = None) -> dict[str, Any]:
    """The dictionary each format's planner returns (``prepare_load`` adds name and path)."""
    return {"format": fmt, "code": code, "summary": summary, "hint": hint}
