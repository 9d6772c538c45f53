"""Colours for memory groups, memory-map rows and highlighted inspector rows.

Okabe-Ito: distinguishable with the common colour-vision deficiencies, and
saturated enough to survive a washed-out classroom projector.
"""

from __future__ import annotations

from typing import Literal

GROUP_COLORS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]


def group_color(label: str) -> str:
    """The colour of a memory group label such as ``"M3"`` (stable across runs)."""
    digits = "".join(ch for ch in label if ch.isdigit())
    index = int(digits) - 1 if digits else sum(map(ord, label))
    return GROUP_COLORS[index % len(GROUP_COLORS)]


# How an inspector row is highlighted: the selection itself, or how another variable shares its memory.
HighlightRole = Literal["selected", "overlap", "same_allocation"]
# The opacity of a highlighted row's group colour: the selection strongest, a mere shared allocation faint.
HIGHLIGHT_ALPHA: dict[HighlightRole, int] = {"selected": 110, "overlap": 90, "same_allocation": 40}
