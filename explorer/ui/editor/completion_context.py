"""What is being completed at the cursor, and what the kernel may be asked about it.

Inspecting never runs user code, so the kernel is asked only where IPython's standard
completion evaluates nothing of the user's: the attributes of one plain name (``t.``,
``np.ar``) and global names. Measured with a class that counts its own calls, IPython
then calls ``dir()`` on the object (a class's ``__dir__``) and probes ``__wrapped__``
(which reaches a class's ``__getattr__``), as every Jupyter front end does. For
``a.b.`` jedi would read ``a.b`` (calling a property), for ``x[0].`` it calls
``__getitem__``: those are completed from the script's text instead.

Call tips: IPython's inspector (``obj?``) builds a "string form" with ``str()``, which
for a bound method is its object's ``__repr__``. The kernel is asked only about a
function of a module the script imports (``torch.zeros``, ``np.arange``) or a builtin
(``print``); anything else gets its signature from the script's text.
"""

from __future__ import annotations

import builtins
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
        """One plain name before the dot, or a global name (see the module docstring)."""
        if self.after_dot:
            return self.chain is not None and "." not in self.chain
        return bool(self.prefix)


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


_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^#\n;]+)", re.MULTILINE)
_BUILTINS = frozenset(dir(builtins))


def imported_modules(text: str) -> set[str]:
    """The names ``import a.b``, ``import numpy as np`` bind in *text* (``a``, ``np``)."""
    names = set()
    for match in _IMPORT.finditer(text):
        for part in match.group(1).split(","):
            words = part.split()
            if len(words) == 3 and words[1] == "as":
                names.add(words[2])
            elif words:
                names.add(words[0].split(".")[0])
    return names


def kernel_may_inspect(name: str, text: str) -> bool:
    """Whether the kernel may be asked about callee *name*: a builtin, or reached from an imported module."""
    head = name.split(".")[0]
    if re.search(rf"^[ \t]*(?:(?:def|class)[ \t]+{head}\b|{head}[ \t]*=[^=])", text, re.MULTILINE):
        return False  # the script binds the name itself: it may be anything
    if "." not in name:
        return head in _BUILTINS and head not in imported_modules(text)
    return head in imported_modules(text)
