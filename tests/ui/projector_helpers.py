"""Run a probe script in a fresh app process on a pretend projector screen (Qt's offscreen screen config)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def probe_on_screen(tmp_path: Path, probe: str, lang: str, width: int, height: int, timeout: float = 600) -> dict:
    """Run ``tests/ui/<probe>`` with ``--lang`` on one *width* x *height* screen at 96 dpi; its last JSON line."""
    screens = {"screens": [{"name": "projector", "x": 0, "y": 0, "width": width, "height": height,
                            "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}
    config = tmp_path / "screens.json"
    config.write_text(json.dumps(screens))
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", MPLBACKEND="Agg",
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"),
               TENSOR_EXPLORER_DATA_DIR=str(tmp_path / "recovery"))
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "ui" / probe), "--lang", lang],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
