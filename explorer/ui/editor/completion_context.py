"""What is being completed at the cursor, and what the kernel may be asked about it.

The kernel is asked only about plain names (``t.``, ``torch.nn.Lin``, ``np.zer``): for
those IPython's standard completion looks names up in the namespace and reads
attributes; ``x[0].`` or ``f().`` would make it evaluate a subscript or a call on a
live object (jedi calls ``__getitem__`` there), so those are completed from the
script's text instead (see :mod:`explorer.client.completion`).
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass

_NAME = r"[^\W\d]\w*"
_PREFIX = re.compile(rf"(?:{_NAME})?$")
# A dotted chain of names ending in a dot, not itself preceded by code that would be evaluated.
_CHAIN_DOT = re.compile(rf"(?<![\w.)\]}}'\"])({_NAME}(?:\.{_NAME})*)\.$")
_CALLEE = re.compile(rf"(?<![\w.)\]}}'\"])({_NAME}(?:\.{_NAME})*)\s*\($")
_DEFINITION = re.compile(r"^\s*(?:async\s+)?(?:def|class)\s")


@dataclass(frozen=True)
class Context:
    """The name being typed (*prefix*) and, after a dot, the object whose attributes complete it."""

    prefix: str
    after_dot: bool
    chain: str | None  # "torch.nn" in "torch.nn.Lin": the plain names before the dot (None: not plain names)

    @property
    def kernel_may_ask(self) -> bool:
        """Plain names only: nothing but lookups and attribute reads (see the module docstring)."""
        return self.chain is not None or (not self.after_dot and bool(self.prefix))


def completion_context(before: str, explicit: bool = False) -> Context | None:
    """The completion at the end of *before* (the line up to the cursor); None where there is none.

    Without *explicit* (Ctrl+Space, Tab), a completion starts only after a dot.
    """
    prefix = _PREFIX.search(before)
    assert prefix is not None  # the pattern matches the empty string at the end
    word = prefix.group()
    rest = before[: len(before) - len(word)]
    if rest.endswith("."):
        if re.search(r"(?<![\w.])\d[\d_]*\.$", rest):
            return None  # "1." is a number being typed
        chain = _CHAIN_DOT.search(rest)
        return Context(word, True, chain.group(1) if chain else None)
    if not explicit or not word or keyword.iskeyword(word):
        return None
    return Context(word, False, None)


def callee(before: str) -> str | None:
    """The plain dotted name called by the ``(`` that ends *before*, e.g. ``torch.zeros``; None otherwise."""
    if _DEFINITION.match(before):
        return None
    match = _CALLEE.search(before)
    if match is None or keyword.iskeyword(match.group(1).rsplit(".", 1)[-1]):
        return None
    return match.group(1)
