"""Open the window (no kernel) on the offscreen screen given in QT_QPA_PLATFORM and print its size as JSON.

``save WIDTH HEIGHT`` resizes it and saves its layout as closing does; ``open`` only opens it. Run by
``tests/ui/test_back_row_screens.py``: a screen's size is fixed when the application starts.
"""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.getcwd())

from PySide6.QtCore import QCoreApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication


def main() -> None:
    app = QApplication([])
    QCoreApplication.setOrganizationName("TensorExplorerProbe")
    from explorer.ui.app_state import AppState
    from explorer.ui.window.main_window import MainWindow
    from tests.ui.quiet_window import StandInSession

    window = MainWindow(StandInSession(), AppState("en"))
    window.files.open_paths([])
    window.unsaved.offer_recovery()
    window.show()
    QTest.qWait(100)
    if sys.argv[1] == "save":
        window.resize(int(sys.argv[2]), int(sys.argv[3]))
        QTest.qWait(100)
        window.layout_.save()
    size = window.size()
    available = window.screen().availableGeometry()
    print(json.dumps({"size": [size.width(), size.height()], "screen": [available.width(), available.height()]}))
    window.editor.document().setModified(False)
    window.close()
    app.quit()


if __name__ == "__main__":
    main()
