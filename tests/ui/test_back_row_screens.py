"""Window sizes across screens (issue 24 item 7): a size saved on one screen is not reused on another, and
presentation mode fills the screen's available geometry even without a window manager."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(tmp_path: Path, width: int, height: int, *args: str) -> dict:
    screens = {"screens": [{"name": "screen", "x": 0, "y": 0, "width": width, "height": height,
                            "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}
    config = tmp_path / f"screens-{width}.json"
    config.write_text(json.dumps(screens))
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", MPLBACKEND="Agg",
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"),
               TENSOR_EXPLORER_DATA_DIR=str(tmp_path / "recovery"))
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / "screen_probe.py"), *args], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_size_saved_on_a_small_screen_is_not_reused_on_a_big_one(tmp_path) -> None:
    saved = _run(tmp_path, 1280, 720, "save", "1000", "650")
    assert saved["size"] == [1000, 650]
    assert _run(tmp_path, 1280, 720, "open")["size"] == [1000, 650]  # the same screen: as the user left it
    bigger = _run(tmp_path, 1600, 1000, "open")
    assert bigger["size"][0] > 1200 and bigger["size"][1] > 800, bigger  # the Image tab's controls have room


def test_presentation_mode_fills_the_screen_without_a_window_manager(qtbot) -> None:
    from tests.ui.quiet_window import quiet_window

    window = quiet_window(qtbot)
    window.layout_.set_presentation(True)
    window.showNormal()  # what an X server without a window manager leaves: the state, not the size
    window.resize(400, 300)
    window.layout_.fill_screen_if_needed()
    assert window.frameGeometry().contains(window.screen().availableGeometry())
    window.layout_.set_presentation(False)
