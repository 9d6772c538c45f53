#!/usr/bin/env python3
"""Make the README's screenshots from the real window on a 1280x720 virtual screen, so they stay true.

Each scene starts the app (``python -m explorer``) on its own Xvfb screen
through the ``drive`` tool, presses the keys a user would press (F5, F10,
Ctrl+1/2/3 to move between panes, arrow keys in the variable list and the
tabs), and saves the whole screen; nothing is drawn by hand. Settings live in a
temporary folder, so your own window layout and language are not used or
changed.

usage: scripts/screenshots.py [--drive PATH] [--out docs/screenshots] [--only NAME ...]
       scripts/screenshots.py --lessons [--out build/lesson-shots]

``--lessons`` makes the projector check instead of the README's pictures:
lessons 03 and 07 in presentation mode, stepped with F10, at 1024x768 and
1280x720, in English and Chinese (``lesson07-1024x768-zh.png``...). Look at each:
every variable name must be whole and at least 12 lines of code visible.

``--drive`` is the driving tool (default ``../shared/tools/drive`` beside the
checkout, or ``$TE_DRIVE``): ``drive STEPS OUT_DIR COMMAND...`` runs COMMAND on a
virtual X screen of ``$SCREEN_SIZE`` and follows STEPS (``wait``, ``key``,
``shot``, ``geometry``, see its header). It installs Xvfb, xdotool,
ImageMagick and CJK fonts with apt when they are missing.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCREEN = "1280x720x24"
#: Seconds to wait for the window, the kernel and torch's first import.
START_WAIT = 14
RUN_WAIT = 6

DEMO = """\
import torch

# %%
t = torch.arange(12).reshape(3, 4)
sub = t[:, 1:3]
img = torch.stack([torch.linspace(0, 1, 128).expand(96, 128),
                   torch.linspace(0, 1, 96)[:, None].expand(96, 128),
                   torch.full((96, 128), 0.6)])

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x * 3
z = y * y
z.backward()
"""
#: The demo's variables in the inspector's order (the arrow keys count rows).
DEMO_ROWS = ("t", "sub", "img", "x", "y", "z")

STEP = """\
import torch
t = torch.arange(6).reshape(2, 3)
sub = t[:, 1:]
sub[0, 0] = 999
"""
FAILING = """\
import torch

a = torch.ones(4, 3)
b = torch.ones(4, 5)
c = a @ b
"""
TABS = ("image", "values", "stats", "memory", "graph")


@dataclass(frozen=True)
class Scene:
    """One screenshot: the app's arguments and the keys pressed before the shot."""

    name: str
    args: tuple[str, ...]
    keys: tuple[str, ...]
    screen: str = SCREEN
    #: Shots taken on the way (``shot NAME`` among the keys), saved beside the last one.
    extra_shots: tuple[str, ...] = ()


def select(row: str, rows: tuple[str, ...] = DEMO_ROWS) -> tuple[str, ...]:
    """Keys that select *row* in the variable list (Ctrl+2 focuses it)."""
    # End first: the very first key press in a list with no current row moves the focus but selects nothing.
    return ("key ctrl+2", "key End", "key Home", *(["key Down"] * rows.index(row)))


def tab(name: str) -> tuple[str, ...]:
    """Keys that show the detail tab *name* (Ctrl+3 focuses the tabs; the arrows move between them)."""
    return ("key ctrl+3", "key Home", *(["key Right"] * TABS.index(name)))


def scenes(demo: Path, step: Path, failing: Path) -> list[Scene]:
    run_demo = ("key ctrl+1", "key F5", f"wait {RUN_WAIT}")
    return [
        Scene("normal-en", ("--lang", "en", str(demo)), run_demo + select("img") + tab("image")),
        Scene("normal-zh", ("--lang", "zh_CN", str(demo)), run_demo + select("sub") + tab("memory")),
        Scene("stats-zh", ("--lang", "zh_CN", str(demo)), run_demo + select("img") + tab("stats")),
        Scene("error-zh", ("--lang", "zh_CN", str(failing)), run_demo + select("a", ("a", "b"))),
        Scene("presentation-image-zh", ("--lang", "zh_CN", "--presentation", str(demo)),
              run_demo + select("img") + tab("image")),
        Scene("presentation-step-en", ("--lang", "en", "--presentation", str(step)),
              ("key ctrl+1", "key ctrl+Home", *(["key F10", "wait 3"] * 4))),
        Scene("presentation-graph-zh", ("--lang", "zh_CN", "--presentation", "--lesson", "07"),
              ("key ctrl+1", *(["key F10", "wait 2"] * 8), *select("z", ("x", "y", "z")), *tab("graph"))),
        # Lesson 10 watches loss, w and b: the shot is taken while its training loop still runs.
        Scene("watch-en", ("--lang", "en", "--lesson", "10"), ("key ctrl+1", "key F5", "wait 1")),
        Scene("presentation-watch-zh", ("--lang", "zh_CN", "--presentation", "--lesson", "10"),
              ("key ctrl+1", "key F5", f"wait {RUN_WAIT}", "key ctrl+3")),
    ]


#: F10 presses for each lesson of the projector check: far enough that most of its variables exist.
LESSON_STEPS = {"03": 12, "07": 10}


def lesson_scenes() -> list[Scene]:
    """Lessons 03 and 07 stepped with F10 in presentation mode, on both projector sizes, in both languages."""
    made = []
    for lesson, steps in LESSON_STEPS.items():
        for screen in ("1024x768x24", "1280x720x24"):
            for lang in ("en", "zh_CN"):
                size = screen.rsplit("x", 1)[0]
                name = f"lesson{lesson}-{size}-{lang[:2]}"
                # The code pane after the steps, then the variables (Ctrl+2): every name must be whole.
                keys = ("key ctrl+1", *(["key F10", "wait 2"] * steps), "wait 2", f"shot {name}-code",
                        "key ctrl+2", "wait 2")
                made.append(Scene(f"{name}-vars", ("--lang", lang, "--presentation", "--lesson", lesson), keys, screen,
                                  (f"{name}-code",)))
    return made


def find_drive(given: str | None) -> Path:
    candidates = [given, os.environ.get("TE_DRIVE"), str(ROOT.parent / "shared" / "tools" / "drive"),
                  "/work/shared/tools/drive"]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    sys.exit("screenshots.py: the drive tool was not found; pass --drive PATH (see this script's docstring)")


def shoot(drive: Path, scene: Scene, work: Path, out: Path) -> list[Path]:
    """Run one scene; returns its PNGs, and checks the window stayed on the screen."""
    steps = work / f"{scene.name}.steps"
    steps.write_text("\n".join((f"wait {START_WAIT}",) + scene.keys + ("wait 3", f"shot {scene.name}", "geometry",
                                                                        "alive")) + "\n")
    env = dict(os.environ, SCREEN_SIZE=scene.screen, XDG_CONFIG_HOME=str(work / scene.name / "config"),
               XDG_DATA_HOME=str(work / scene.name / "data"),
               TENSOR_EXPLORER_DATA_DIR=str(work / scene.name / "recovery"))
    shots = work / "shots"
    done = subprocess.run(["bash", str(drive), str(steps), str(shots), sys.executable, "-m", "explorer", *scene.args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    report = done.stdout + done.stderr
    png = shots / f"{scene.name}.png"
    if not png.is_file():
        sys.exit(f"{scene.name}: no screenshot was taken\n{report}")
    size = re.search(r"Geometry: (\d+)x(\d+)", report)
    where = re.search(r"Position: (-?\d+),(-?\d+)", report)
    width, height = (int(n) for n in scene.screen.split("x")[:2])
    if size and where:
        right = int(where.group(1)) + int(size.group(1))
        bottom = int(where.group(2)) + int(size.group(2))
        if right > width or bottom > height:
            print(f"warning: {scene.name}: the window reaches {right}x{bottom}, beyond the {width}x{height} screen")
    if "app alive" not in report:
        print(f"warning: {scene.name}: the app was not running at the end\n{report}")
    targets = []
    for name in (*scene.extra_shots, scene.name):
        source, target = shots / f"{name}.png", out / f"{name}.png"
        if not source.is_file():
            print(f"warning: {scene.name}: no shot {name}")
            continue
        if size and where:  # the window only: a screen without a window manager has no desktop around it
            from PIL import Image

            left, top = max(0, int(where.group(1))), max(0, int(where.group(2)))
            with Image.open(source) as shot:
                shot.crop((left, top, min(shot.width, right), min(shot.height, bottom))).save(target, optimize=True)
        else:
            shutil.copyfile(source, target)
        targets.append(target)
    return targets


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drive")
    parser.add_argument("--out")
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--lessons", action="store_true", help="the projector check of lessons 03 and 07")
    args = parser.parse_args()
    if args.out is None:
        args.out = str(ROOT / "build" / "lesson-shots") if args.lessons else str(ROOT / "docs" / "screenshots")
    drive = find_drive(args.drive)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="te-shots-") as tmp:
        work = Path(tmp)
        demo, step, failing = work / "demo.py", work / "step_through.py", work / "matmul_error.py"
        demo.write_text(DEMO)
        step.write_text(STEP)
        failing.write_text(FAILING)
        for scene in lesson_scenes() if args.lessons else scenes(demo, step, failing):
            if args.only and scene.name not in args.only:
                continue
            for saved in shoot(drive, scene, work, out):
                print("saved", saved)
    return 0


if __name__ == "__main__":
    sys.exit(main())
