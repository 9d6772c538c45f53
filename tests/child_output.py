"""Reading a child process's first line without losing what follows it.

``proc.stdout.readline()`` fills the text wrapper's buffer with whatever the pipe already holds;
``proc.communicate()`` then reads the pipe's file descriptor directly (when stdout and stderr are both
pipes), so lines the child wrote right after the first are lost. On a loaded machine the child often
writes them before the test reads: ``first_line`` takes one byte at a time and leaves the rest in the pipe.
"""

from __future__ import annotations

import os
import subprocess


def first_line(proc: subprocess.Popen) -> str:
    """The next line *proc* writes on stdout, without its newline ("" when stdout closes first)."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    data = bytearray()
    while not data.endswith(b"\n"):
        byte = os.read(fd, 1)
        if not byte:
            break
        data += byte
    return data.decode("utf-8", "replace").rstrip("\r\n")
