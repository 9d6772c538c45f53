"""Record the warnings a block of code raises, and only those.

``warnings.catch_warnings(record=True)`` also records what the garbage collector
happens to finalize inside the block: an event loop or a socket another test left
behind says ``ResourceWarning: unclosed ...`` from wherever the collection runs.
That failed CI once (``unclosed event loop`` inside the sampler test, which makes no
event loop). :func:`raised_by` collects the garbage first and records every category
but ``ResourceWarning``, which is a finalizer's message, not the block's.
"""

from __future__ import annotations

import gc
import warnings
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def raised_by() -> Iterator[list[warnings.WarningMessage]]:
    """Yield a list that holds, after the block, each warning the block raised (every time, not once)."""
    gc.collect()  # what earlier tests left is finalized now, outside the block
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", ResourceWarning)
        seen: list[warnings.WarningMessage] = []
        yield seen
    seen.extend(caught)
