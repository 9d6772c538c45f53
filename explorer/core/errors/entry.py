"""One known error (:class:`Entry`), the card it writes (:class:`Card`) and conditions entries share."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from explorer.core.errors.context import ErrorContext


@dataclass
class Card:
    """What a catalogue entry says, in the current language.

    Parameters
    ----------
    title, explanation : str
        One short title; the cause in the learner's names and shapes, and the rule it broke.
    fix : str or None
        Code built from the learner's own statement (comment lines allowed), or advice in
        words as comment lines only.
    mode : str or None
        How the code applies at ``fix_line``: ``"replace"`` the statement there, or insert it
        ``"before"`` it. Ignored for advice.
    fix_line : int or None
        Line of the failing file the fix applies to; None means the failing statement.
    advice : str or None
        Words (comment lines) shown instead of ``fix`` when the code turns out unsafe.
    scopes : list of dict or None
        Where the fix's names are looked up when it applies to another frame's line (a caller's
        ``out = net(images)``); None means the failing frame's scopes.
    """

    title: str
    explanation: str
    fix: str | None = None
    mode: str | None = "replace"
    fix_line: int | None = None
    advice: str | None = None
    scopes: list[dict[str, Any]] | None = None


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
        ``build(ctx) -> Card``; ``ctx.match`` is the match.
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
            if match is None:
                continue
            ctx.match = match  # the condition may read the message's numbers
            if self.when is None or self.when(ctx):
                return match
        return None


def in_loss(ctx: ErrorContext) -> bool:
    """True when the error came from a classification loss (a traceback frame, or the call in the statement).

    A bare word "loss" on the line is not enough: ``loss = conv(x)`` fails inside the conv.
    """
    frames = ("cross_entropy", "nll_loss")
    calls = ("cross_entropy", "nll_loss", "CrossEntropyLoss", "NLLLoss", "criterion")
    return any(w in name for name in ctx.frame_names for w in frames) or any(w in ctx.statement_text for w in calls)
