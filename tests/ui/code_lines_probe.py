"""Run the window (no kernel) in presentation mode on a screen of a given size and print what the code pane shows.

Run by ``tests/ui/test_back_row_layout.py`` in a subprocess, because the screen size of Qt's offscreen
platform is fixed when the application starts:

    QT_QPA_PLATFORM=offscreen:configfile=SCREENS.json python tests/ui/code_lines_probe.py --lang zh_CN

Lesson 07 is opened, F10's step panel shows a step that changed two variables, and the probe prints one
JSON object: how many whole code lines the editor shows, the console's height in lines, the screen.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.getcwd())

from PySide6.QtCore import QCoreApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QToolBar


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    app = QApplication([])
    QCoreApplication.setOrganizationName("TensorExplorerProbe")
    from explorer.client.statements import split_statements
    from explorer.client.step import StepResult
    from explorer.ui.app_state import AppState
    from explorer.ui.window.main_window import MainWindow
    from tests.ui.quiet_window import StandInSession

    state = AppState(args.lang)
    state.set_language(args.lang, remember=False)
    window = MainWindow(StandInSession(), state)
    window.files.open_paths([])
    window.unsaved.offer_recovery()
    window.show()
    window.files.open_lesson_by_id("07")
    window.layout_.set_presentation(True)
    QTest.qWait(200)
    statements = split_statements(window.editor.toPlainText())
    item = {"name": "x_grad", "captured": True, "before": None,
            "after": {"kind": "tensor", "full": True, "shape": [], "dtype": "float32", "text": "36.", "grad": None}}
    window.step_panel.show_result(StepResult(statements[5], 5, len(statements), [item, dict(item, name="z")]))
    QTest.qWait(300)
    editor = window.editor
    line = editor.blockBoundingRect(editor.firstVisibleBlock()).height()
    console = window.console
    screen = window.screen().availableGeometry()
    print(json.dumps({"code_lines": int(editor.viewport().height() // line),
                      "console_height": console.height(), "console_visible": console.isVisible(),
                      "step_panel": window.step_panel.isVisible(), "step_height": window.step_panel.height(),
                      "left_sizes": window._splitters["left"].sizes(), "line": line,
                      "editor_height": editor.height(), "toolbar": window.findChild(QToolBar, "main_toolbar").isVisible(),
                      "strip": window.pane_strip.height(), "menu": window.menuBar().height(),
                      "window": [window.width(), window.height()], "screen": [screen.width(), screen.height()]}))
    window.editor.document().setModified(False)
    window.close()
    app.quit()


if __name__ == "__main__":
    main()
