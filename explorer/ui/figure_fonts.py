"""Fonts for matplotlib figures: sizes that follow the window's zoom, and a CJK font that really exists.

matplotlib falls back to DejaVu Sans, which has no Chinese glyphs: Chinese axis
labels come out as empty boxes. :func:`cjk_family` picks a CJK font from the
fonts matplotlib can find on this system (the font manager's list, then the
system font folders, for fonts installed after matplotlib built its cache);
figures ask for DejaVu Sans first and that font second, so Latin text keeps its
look and Chinese characters fall back to it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

# Well-known CJK families, Simplified Chinese first.
KNOWN_CJK = (
    "Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "Source Han Sans CN", "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei", "Microsoft YaHei", "SimHei", "PingFang SC", "Hiragino Sans GB", "Heiti SC",
    "Sarasa Gothic SC", "Noto Serif CJK SC", "AR PL UKai CN", "AR PL UMing CN", "Droid Sans Fallback",
    "Noto Sans CJK JP", "Noto Sans CJK TC",
)
_CJK_NAME = re.compile(r"CJK|Han Sans|Han Serif|YaHei|Hei\b|SimSun|Song|Ming|Kai|WenQuanYi|Fallback")
LATIN = "DejaVu Sans"


def _pick(names: set[str]) -> str | None:
    for family in KNOWN_CJK:
        if family in names:
            return family
    return next((name for name in sorted(names) if _CJK_NAME.search(name)), None)


@lru_cache(maxsize=1)
def cjk_family() -> str | None:
    """The family name of an installed CJK font matplotlib can use, or None when there is none."""
    from matplotlib import font_manager

    manager = font_manager.fontManager
    found = _pick({entry.name for entry in manager.ttflist})
    if found is not None:
        return found
    # Installed after matplotlib cached its font list: look in the system folders once.
    for path in font_manager.findSystemFonts():
        if _CJK_NAME.search(path.replace("-", " ")) or "cjk" in path.lower() or "wqy" in path.lower():
            try:
                manager.addfont(path)
            except (OSError, RuntimeError, ValueError):
                continue
    return _pick({entry.name for entry in manager.ttflist})


def families(text: str) -> list[str]:
    """The font families a figure asks for to draw *text*: Latin first, then a CJK font when *text* needs one."""
    if any(ord(ch) >= 0x2E80 for ch in text):  # CJK radicals, kana, ideographs, full-width forms
        cjk = cjk_family()
        return [LATIN, cjk] if cjk else [LATIN]
    return [LATIN]


def points(widget: Any) -> float:
    """The widget font's size in points, so figure text grows with the zoom and presentation mode."""
    font = widget.font()
    if font.pointSizeF() > 0:
        return font.pointSizeF()
    return font.pixelSize() * 72.0 / max(1.0, widget.logicalDpiY())
