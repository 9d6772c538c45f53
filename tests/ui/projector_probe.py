"""Run the real window on a screen of a given size, use every pane and tab, and print where its frame went.

Run by ``tests/ui/test_projector_fit.py`` in a subprocess, because the screen
size of Qt's offscreen platform is fixed when the application starts:

    QT_QPA_PLATFORM=offscreen:configfile=SCREENS.json python tests/ui/projector_probe.py --lang zh_CN

Prints one JSON object: the screen's available geometry and, for every
situation, the window's frame and the smallest size its layout allows.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.getcwd())

from PySide6.QtCore import QCoreApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

CODE = """import torch
import torch.nn as nn
t = torch.arange(12).reshape(3, 4)
sub = t[:, 1:3]
img = torch.rand(3, 48, 64)
batch = torch.rand(6, 3, 16, 16)
model = nn.Linear(4, 2)
x = torch.tensor(2.0, requires_grad=True)
y = x * 3
z = y * y
z.backward()
a_very_long_variable_name_that_a_student_might_write_on_a_slow_afternoon = torch.zeros(2, 3, 4, 5)
"""
FAILING = "wrong = torch.ones(4, 3) @ torch.ones(4, 5)\n"


def wait_until(condition, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the window did not get there in time")
        QTest.qWait(20)


def record(window, label: str, out: list) -> None:
    QTest.qWait(150)  # let layouts settle (views build, fonts propagate)
    frame = window.frameGeometry()
    minimum = window.minimumSizeHint().expandedTo(window.minimumSize())
    out.append({"label": label, "frame": [frame.x(), frame.y(), frame.width(), frame.height()],
                "minimum": [minimum.width(), minimum.height()]})


def run_code(window, code: str) -> None:
    finished = []
    window.session.run_finished.connect(lambda _r: finished.append(1))
    window.editor.setPlainText(code)
    window.running.run_file()
    wait_until(lambda: bool(finished))


def use_everything(window, out: list) -> None:
    """Every pane, every tab with a variable that fills it, the error card, the step panel."""
    record(window, "start", out)
    run_code(window, CODE)
    record(window, "after a run", out)
    for pane in ("editor", "inspector", "details"):
        window.layout_.focus_pane(pane)
        record(window, f"pane {pane}", out)
    window.layout_.focus_pane("details")
    for name, tabs in (("img", (0, 1, 2, 3)), ("batch", (0,)), ("sub", (1, 3)), ("z", (4,)), ("model", (0, 4)),
                       ("a_very_long_variable_name_that_a_student_might_write_on_a_slow_afternoon", (0, 1, 2, 3))):
        window.inspector.select(name)
        for tab in tabs:
            window.details.setCurrentIndex(tab)
            record(window, f"{name} in tab {tab}", out)
    window.layout_.focus_pane("editor")
    run_code(window, CODE + FAILING)
    wait_until(window.error_card.isVisible)
    record(window, "error card", out)
    if hasattr(window, "step"):
        window.editor.go_to_line(1)
        window.steps.step()
        wait_until(lambda: window.step_panel.isVisible())
        record(window, "step panel", out)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    QCoreApplication.setOrganizationName("TensorExplorerProbe")
    QCoreApplication.setApplicationName("Tensor Explorer Probe")
    app = QApplication(sys.argv[:1])
    from explorer.app import create_window

    window, session = create_window(argparse.Namespace(lang=args.lang, presentation=True, files=[], lesson=None))
    out: list = []
    try:
        window.show()
        wait_until(lambda: session.is_ready and session.status == "idle")
        wait_until(lambda: type(window.console).__name__ != "QLabel")
        use_everything(window, out)
        window.layout_.set_presentation(False)
        record(window, "after presentation mode", out)
        for tab in range(window.details.count()):
            window.details.setCurrentIndex(tab)
            record(window, f"normal, tab {tab}", out)
        window.layout_.set_presentation(True)
        record(window, "presentation again", out)
    finally:
        session.shutdown()
    available = app.primaryScreen().availableGeometry()
    print(json.dumps({"available": [available.x(), available.y(), available.width(), available.height()],
                      "records": out}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
