"""The helper that reads a child's first line leaves the lines after it for ``communicate``."""

from __future__ import annotations

import subprocess
import sys

from tests.child_output import first_line

BOTH_AT_ONCE = "import sys; sys.stdout.write('READY\\nEXIT 0\\n'); sys.stdout.flush(); sys.stderr.write('bye')"


def test_lines_written_with_the_first_are_kept_for_communicate() -> None:
    proc = subprocess.Popen([sys.executable, "-c", BOTH_AT_ONCE], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    proc.wait(timeout=60)  # the child has written everything before the first line is read: the loaded case
    assert first_line(proc) == "READY"
    out, err = proc.communicate(timeout=60)
    assert out == "EXIT 0\n" and err == "bye"


def test_a_child_that_writes_nothing_gives_an_empty_line() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "pass"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert first_line(proc) == ""
    proc.communicate(timeout=60)
