"""Issue 13 item 1: the real window, in presentation mode on a projector-sized screen, never leaves the screen.

Qt's offscreen platform takes its screen size from a JSON file named in
``QT_QPA_PLATFORM`` (``offscreen:configfile=...``) when the application starts,
so each screen size runs the window in its own process
(``tests/ui/projector_probe.py``), with private settings, in both languages.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _probe(tmp_path: Path, lang: str, width: int, height: int) -> dict:
    screens = {"screens": [{"name": "projector", "x": 0, "y": 0, "width": width, "height": height,
                            "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}
    config = tmp_path / "screens.json"
    config.write_text(json.dumps(screens))
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", MPLBACKEND="Agg",
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"),
               TENSOR_EXPLORER_DATA_DIR=str(tmp_path / "recovery"))
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "projector_probe.py"), "--lang", lang],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


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
