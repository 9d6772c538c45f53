"""A detail tab's module whose import takes a while and makes Qt wrappers all along (tests/ui/test_exit_threads.py).

Its import runs on the detail tabs' worker thread; the test quits the app while it does.
"""

import sys
import time

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QLabel

print("IMPORTING", flush=True)
_end = time.monotonic() + 1.5
while time.monotonic() < _end:
    QPoint(1, 2)  # each wrapper's deletion gives the interpreter lock back inside PySide
print("IMPORTED", flush=True)
sys.stdout.flush()


class SlowView(QLabel):
    def __init__(self, _source: object, _state: object) -> None:
        super().__init__("slow")
