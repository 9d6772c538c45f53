"""A real code pane (issue 24 item 2): in presentation mode on a 1024x768 or 1280x720 projector, with the
step panel open, the code a class steps through shows at least 12 lines; the console is a key away.

Each screen size runs the window in its own process (``tests/ui/code_lines_probe.py``), as Qt's offscreen
platform takes its screen size once, when the application starts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.ui.projector_helpers import probe_on_screen


def _probe(tmp_path: Path, lang: str, width: int, height: int) -> dict:
    return probe_on_screen(tmp_path, "code_lines_probe.py", lang, width, height, timeout=300)


@pytest.mark.parametrize(("lang", "width", "height"),
                         [("en", 1024, 768), ("zh_CN", 1024, 768), ("en", 1280, 720), ("zh_CN", 1280, 720)])
def test_presentation_mode_shows_twelve_code_lines_with_the_step_panel_open(tmp_path, lang, width, height) -> None:
    report = _probe(tmp_path, lang, width, height)
    assert report["screen"] == [width, height] and report["step_panel"]
    assert report["code_lines"] >= 12, json.dumps(report)
