"""``inspect``'s proof of a fix: the script runs again with the error card's fix, in a second fresh kernel.

A fix shown to a learner has run, so ``inspect`` proves by default (``--no-proof`` skips it) and
adds the verdict to the error object as ``fix_proof`` (see :mod:`explorer.client.fix_proof`). It
fits inside ``--timeout``: the proof gets what the inspection left, its script at most
:func:`~explorer.client.fix_proof.run_budget` of it; with less than :data:`MIN_LEFT` seconds left
it is ``not_checked`` ("no_time").
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from explorer.cli.common import Budget
from explorer.client.fix_proof import ProofRequest, has_code_fix, not_checked, prove, run_budget
from explorer.core.i18n import _

#: Seconds of --timeout a proof needs at least: a kernel start and a short run.
MIN_LEFT = 8.0
#: Seconds kept at the end of --timeout to print the answer.
PRINT_RESERVE = 1.0


def fix_proof(options: argparse.Namespace, script: str, error: dict[str, Any], budget: Budget,
              seconds_to_error: float) -> dict[str, Any]:
    """The verdict on the error card's fix, within what is left of *budget*."""
    if getattr(options, "no_proof", False):
        return not_checked("disabled")
    if not has_code_fix(error):
        return not_checked("no_fix")
    if budget.left() < MIN_LEFT:
        return not_checked("no_time")
    path = os.path.abspath(options.target)
    request = ProofRequest(script, error, list(error.get("frames") or []), path=path, cwd=os.getcwd(),
                           language=options.lang, budget=run_budget(seconds_to_error),
                           deadline=time.monotonic() + budget.left() - PRINT_RESERVE)
    return prove(request)


def proof_line(proof: dict[str, Any] | None) -> str | None:
    """One line for the readable output, in the ``--lang`` language (None: nothing to say)."""
    if not proof or (proof.get("status") == "not_checked" and proof.get("reason") in ("no_fix", "disabled")):
        return None
    status, past, error = proof.get("status"), proof.get("past_line"), proof.get("error") or {}
    seconds = proof.get("seconds")
    if status == "runs":
        text = _("with this fix your script runs to the end")
    elif status == "fails" and past:
        text = _("with this fix your script runs past line {past}; then line {line} fails: {kind}: {message}")
    elif status == "fails":
        text = _("this fix does not get your script past its error: line {line} fails: {kind}: {message}")
    elif status == "timeout" and past:
        text = _("with this fix your script runs past line {past}; it was still running (line {stopped}) when "
                 "the check stopped after {budget} s")
    elif status == "timeout":
        text = _("not proven: after {budget} s the fixed script had not got past the failing line yet")
    else:
        text = _not_checked(str(proof.get("reason")))
    text = text.format(past=past, line=error.get("line"), kind=error.get("type"), message=error.get("message"),
                       stopped=proof.get("stopped_at"), budget=f"{proof.get('budget') or 0:g}",
                       detail=proof.get("detail") or "")
    if isinstance(seconds, (int, float)):
        text += " " + _("(checked in {seconds} s)").format(seconds=f"{seconds:.1f}")
    return text


def _not_checked(reason: str) -> str:
    """Why the fix was not run, as a sentence to format."""
    if reason == "no_time":
        return _("not checked: --timeout left too little time to run the script again")
    if reason == "cannot_apply":
        return _("not checked: the fix could not be put into the script")
    return _("not checked: the kernel for the check could not start ({detail})")
