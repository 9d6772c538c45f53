"""How shapes, strides and byte counts are written, in the window, the CLI and the kernel's sentences.

A shape is written as torch prints its ``Size``: ``[2, 3]`` (a scalar ``[]``); strides as
``.stride()`` prints them: ``(3, 1)``. Bytes are counted in binary units (1 KiB = 1024
bytes): tensors and arrays are mostly powers of two in size (a 1024 x 1024 float32 is
exactly 4.0 MiB, where decimal units would say 4.2 MB), memory is sold and reported
that way (torch's memory summaries use MiB and GiB), and a file's size reads in the
same unit as the tensor it holds.
"""

from __future__ import annotations

from collections.abc import Iterable

_UNITS = ("KiB", "MiB", "GiB", "TiB", "PiB")


def shape_text(shape: Iterable[int] | None, missing: str = "") -> str:
    """``[2, 3]``; *missing* when the shape is unknown (a nested tensor, a container)."""
    return missing if shape is None else "[" + ", ".join(str(int(s)) for s in shape) + "]"


def strides_text(strides: Iterable[int] | None, missing: str = "") -> str:
    """``(3, 1)``, as ``t.stride()`` prints them; *missing* when there are none (sparse, meta...)."""
    return missing if strides is None else "(" + ", ".join(str(int(s)) for s in strides) + ")"


def format_bytes(n: int) -> str:
    """``1023 B``, ``1.0 KiB``, ``4.0 MiB``: one decimal from 1 KiB up, never ``1024.0`` of a unit."""
    if n < 1024:
        return f"{n} B"
    value = float(n)
    for unit in _UNITS[:-1]:
        value /= 1024
        text = f"{value:.1f}"
        if float(text) < 1024:
            return f"{text} {unit}"
    return f"{value / 1024:.1f} {_UNITS[-1]}"
