"""Issue 13 item 1: the real window, in presentation mode on a projector-sized screen, never leaves the screen.

Qt's offscreen platform takes its screen size from a JSON file named in
``QT_QPA_PLATFORM`` (``offscreen:configfile=...``) when the application starts,
so each screen size runs the window in its own process
(``tests/ui/projector_probe.py``), with private settings, in both languages.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.projector_helpers import probe_on_screen


def _probe(tmp_path: Path, lang: str, width: int, height: int) -> dict:
    return probe_on_screen(tmp_path, "projector_probe.py", lang, width, height, timeout=600)


@pytest.mark.parametrize(("lang", "width", "height"), [("en", 1280, 720), ("zh_CN", 1280, 720), ("zh_CN", 1024, 768)])
def test_presentation_mode_fits_a_projector(tmp_path, lang, width, height) -> None:
    report = _probe(tmp_path, lang, width, height)
    ax, ay, aw, ah = report["available"]
    assert (aw, ah) == (width, height)
    assert len(report["records"]) > 20  # every pane and tab was used
    for item in report["records"]:
        x, y, w, h = item["frame"]
        assert ax <= x and ay <= y and x + w <= ax + aw and y + h <= ay + ah, item
        min_w, min_h = item["minimum"]
        assert min_w <= aw and min_h <= ah, item
