"""The frames a client can inspect: those of the last error's traceback, or of code paused in ``breakpoint()``.

A :class:`FrameStack` holds the frames (outermost first) only until the next run starts
or the paused code goes on; a client's choice (:class:`FrameChoice`) names the stack by
its generation, so a choice made before a run can never reach a frame of another run.
Reading a frame's locals runs no user code: ``f_locals`` is a plain dict copy made by
the interpreter (Python < 3.13) or a view of the frame's slots (3.13+).
"""

from __future__ import annotations

import itertools
import os
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import FrameType, TracebackType
from typing import Any

from explorer import protocol
from explorer.core.errors.cards import is_library, source_of
from explorer.core.errors.source import cell_offset

#: Frames kept per stack: a recursion 10,000 deep must not make a list of 10,000 rows.
MAX_FRAMES = 40

_generations = itertools.count(1)


@dataclass(frozen=True)
class FrameChoice:
    """A client's chosen frame: the stack's generation and the frame's index in it."""

    generation: int
    index: int


def is_user_frame(frame: FrameType, code_filenames: set[str]) -> bool:
    """A frame of the learner's code: a cell that ran, or a file outside the libraries."""
    filename = frame.f_code.co_filename
    return filename in code_filenames or not is_library(filename)


def traceback_frames(tb: TracebackType | None, code_filenames: set[str]) -> list[tuple[FrameType, int]]:
    """The user frames of a traceback, outermost first, each with the line it was running."""
    found = [(f, n) for f, n in traceback.walk_tb(tb) if is_user_frame(f, code_filenames)]
    return _bounded(found)


def stack_frames(frame: FrameType | None, code_filenames: set[str]) -> list[tuple[FrameType, int]]:
    """The user frames from the cell that runs *frame* in to *frame*, outermost first.

    Frames outside the outermost cell are the kernel's own (its event loop, its launcher).
    """
    stack = list(traceback.walk_stack(frame))[::-1]
    first = next((i for i, (f, _) in enumerate(stack) if f.f_code.co_filename in code_filenames), 0)
    return _bounded([(f, n) for f, n in stack[first:] if is_user_frame(f, code_filenames)])


def _bounded(frames: list[tuple[FrameType, int]]) -> list[tuple[FrameType, int]]:
    """The outermost frame and the innermost ones, at most :data:`MAX_FRAMES` in all."""
    if len(frames) <= MAX_FRAMES:
        return frames
    return frames[:1] + frames[-(MAX_FRAMES - 1):]


class FrameStack:
    """The frames of one error or one pause, described for the client and readable by index."""

    def __init__(self, frames: Sequence[tuple[FrameType, int]] = (), *, code: str | None = None,
                 code_filenames: Iterable[str] = (), script: str | None = None) -> None:
        self.generation = next(_generations)
        # A frame's line can be None (a frame between two lines), whatever walk_tb's stub says.
        self._frames: list[tuple[FrameType, int | None]] = list(frames)
        self._code = code
        self._cells = set(code_filenames)
        self._cell = _current_cell(self._frames, self._cells)
        self._script = script

    def __len__(self) -> int:
        return len(self._frames)

    def choice(self, index: int) -> FrameChoice:
        if not 0 <= index < len(self._frames):
            raise IndexError(index)
        return FrameChoice(self.generation, index)

    def frame(self, choice: FrameChoice | None) -> FrameType | None:
        """The frame *choice* names, or None when it names another (older) stack."""
        if choice is None or choice.generation != self.generation or choice.index >= len(self._frames):
            return None
        return self._frames[choice.index][0]

    def describe(self, index: int) -> protocol.FrameInfo:
        """``{index, file, function, line, in_code}`` of one frame (:class:`explorer.protocol.FrameInfo`)."""
        frame, line = self._frames[index]
        filename = frame.f_code.co_filename
        in_code = self._cell is not None and filename == self._cell
        if in_code:
            line = line + self._offset(frame) if isinstance(line, int) else line
            path = self._script
        else:  # an earlier cell has no file the user could open
            path = filename if os.path.isabs(filename) and filename not in self._cells else None
        return {"index": index, "file": path, "function": frame.f_code.co_name, "line": line, "in_code": in_code}

    def describe_all(self) -> list[protocol.FrameInfo]:
        return [self.describe(i) for i in range(len(self._frames))]

    def _offset(self, frame: FrameType) -> int:
        """Lines IPython dropped before the submitted code (leading blank lines)."""
        if self._code is None:
            return 0
        return cell_offset(self._code, source_of(frame.f_code.co_filename, frame.f_globals)) or 0

    def clear(self) -> None:
        """Let the frames go (the next run started, the paused code went on)."""
        self._frames = []
        self.generation = next(_generations)


def _current_cell(frames: Sequence[tuple[FrameType, int | None]], code_filenames: set[str]) -> str | None:
    """The file name of the code that ran: the outermost frame in a cell."""
    return next((f.f_code.co_filename for f, _ in frames if f.f_code.co_filename in code_filenames), None)


def frame_namespace(frame: FrameType, user_namespace: Callable[[], dict[str, Any]], user_ns: dict[str, Any]) -> dict[str, Any]:
    """The variables a frame shows: its locals; for a cell's top level, the user namespace itself."""
    local = frame.f_locals
    if local is user_ns:
        return user_namespace()
    return dict(local)
