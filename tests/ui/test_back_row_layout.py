"""A real code pane (issue 24 item 2): in presentation mode on a 1024x768 or 1280x720 projector, with the
step panel open, the code a class steps through shows at least 12 lines; the console is a key away.

Each screen size runs the window in its own process (``tests/ui/code_lines_probe.py``), as Qt's offscreen
platform takes its screen size once, when the application starts.
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
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "code_lines_probe.py"), "--lang", lang],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(("lang", "width", "height"),
                         [("en", 1024, 768), ("zh_CN", 1024, 768), ("en", 1280, 720), ("zh_CN", 1280, 720)])
def test_presentation_mode_shows_twelve_code_lines_with_the_step_panel_open(tmp_path, lang, width, height) -> None:
    report = _probe(tmp_path, lang, width, height)
    assert report["screen"] == [width, height] and report["step_panel"]
    assert report["code_lines"] >= 12, json.dumps(report)
