"""Catalogue entry for asking more memory than the computer (or the GPU) has."""

from __future__ import annotations

from explorer.core.errors.context import ErrorContext, join
from explorer.core.errors.entry import Card, Entry
from explorer.core.errors.source import comment_lines
from explorer.core.files.common import human_bytes
from explorer.core.i18n import _


def _asked(ctx: ErrorContext) -> str | None:
    """How much the failing allocation wanted, as the message says it ('70.4 TB', '128. TiB')."""
    if ctx.g("bytes"):
        return human_bytes(int(ctx.g("bytes")))
    return ctx.g("size") or None


def _out_of_memory(ctx: ErrorContext) -> Card:
    asked = _asked(ctx)
    gpu = "CUDA" in ctx.message or "cuda" in ctx.message.lower().split("out of memory")[0]
    where = _("the GPU") if gpu else _("this computer")
    said = (_("The code asked for {size} in one piece, more than {where} can give.").format(size=asked, where=where)
            if asked else _("The code asked for more memory than {where} can give.").format(where=where))
    rule = _("A tensor needs (number of elements) × (bytes per element): a shape with a wrong or huge size "
             "quickly asks for more than exists. Check the shape you asked for; for real data, use smaller "
             "batches or a smaller dtype (float16, bfloat16).")
    advice = comment_lines(_("check the shape: elements × bytes per element must fit in memory"))
    return Card(_("Not enough memory"), join(ctx.facts_sentence(), said, rule), advice, advice=advice)


ENTRIES: list[Entry] = [
    Entry("out_of_memory", ("RuntimeError", "MemoryError", "OutOfMemoryError"), (
        r"can't allocate memory: you tried to allocate (?P<bytes>\d+) bytes",
        r"CUDA out of memory\. Tried to allocate (?P<size>[\d.]+ ?[KMGTP]i?B)",
        r"Unable to allocate (?P<size>[\d.]+ ?[KMGTP]i?B) for an array",
        r"out of memory",
    ), _out_of_memory),
]
