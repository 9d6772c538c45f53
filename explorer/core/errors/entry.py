"""One known error (:class:`Entry`) and the conditions entries share; the list itself is in ``catalogue``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from explorer.core.errors.context import ErrorContext

Card = tuple[str, str, str]
"""(title, explanation, fix) in the context's language."""


@dataclass(frozen=True)
class Entry:
    """One known error.

    Parameters
    ----------
    key : str
        Stable id reported as ``explain(...)["key"]``.
    types : tuple of str
        Exception class names; an exception matches when any class in its MRO has one.
    patterns : tuple of str
        Regular expressions searched in the message; named groups carry its numbers.
    build : callable
        ``build(ctx) -> (title, explanation, fix)``; ``ctx.match`` is the match.
    when : callable, optional
        Extra condition (e.g. "raised inside a loss function").
    """

    key: str
    types: tuple[str, ...]
    patterns: tuple[str, ...]
    build: Callable[[ErrorContext], Card]
    when: Callable[[ErrorContext], bool] | None = None

    def search(self, exc: BaseException, ctx: ErrorContext) -> re.Match | None:
        """The first pattern match in the message when the type (and condition) fit."""
        names = {cls.__name__ for cls in type(exc).__mro__}
        if not names.intersection(self.types):
            return None
        for pattern in self.patterns:
            match = re.search(pattern, ctx.message, re.S)
            if match is not None and (self.when is None or self.when(ctx)):
                return match
        return None


def in_loss(ctx: ErrorContext) -> bool:
    """True when the error came from a classification loss (a traceback frame, or the call on the line).

    A bare word "loss" on the line is not enough: ``loss = conv(x)`` fails inside the conv.
    """
    frames = ("cross_entropy", "nll_loss")
    calls = ("cross_entropy", "nll_loss", "CrossEntropyLoss", "NLLLoss", "criterion")
    return any(w in name for name in ctx.frame_names for w in frames) or any(w in ctx.code_line for w in calls)


def assign_prefix(ctx: ErrorContext) -> str:
    """'c = ' when the failing line is a simple assignment to one name, else ''."""
    match = re.match(r"\s*([A-Za-z_]\w*)\s*=[^=]", ctx.code_line)
    return f"{match.group(1)} = " if match else ""
