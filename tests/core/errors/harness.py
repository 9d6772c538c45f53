"""Run a learner's script as a cell, explain what it raised or warned, apply a card's fix and run it again."""

from __future__ import annotations

import contextlib
import linecache
import re
import sys
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from explorer.core import i18n
from explorer.core.errors.explain import explain, explain_warning
from explorer.core.errors.source import apply_fix, is_code

CELL = "<cell-1>"
CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass(frozen=True)
class Case:
    """A learner script that raises, what its card must say, and what its fix must achieve."""

    key: str
    script: str
    line: int
    says: tuple[str, ...] = ()
    effect: Callable[[dict], None] | None = None  # None: the card gives advice in words only
    message: str = ""  # a regex the real message must match (pins torch's wording)
    fix_has: tuple[str, ...] = ()  # substrings the fix must contain (its spelling of names)
    fix_line: int | None = None  # where the fix applies when it is not the failing statement

    @property
    def id(self) -> str:
        return f"{self.key}:{self.script.strip().splitlines()[-1][:40]}"


def register(code: str, filename: str = CELL) -> None:
    """Put the cell's source in linecache, as IPython does for its cells."""
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)


def run(code: str, filename: str = CELL) -> tuple[BaseException | None, dict[str, Any]]:
    """Exec the script in a fresh namespace; return (what it raised or None, the namespace)."""
    ns: dict[str, Any] = {"__name__": "__main__"}
    register(code, filename)
    try:
        exec(compile(code, filename, "exec"), ns)
    except Exception as exc:  # noqa: BLE001 - that is the point
        return exc, ns
    return None, ns


def raise_script(code: str) -> tuple[BaseException, dict[str, Any]]:
    exc, ns = run(code)
    if exc is None:
        pytest.fail(f"the script did not raise:\n{code}")
    return exc, ns


def card(code: str, lang: str = "en") -> tuple[BaseException, dict, dict]:
    """(exception, namespace, card) for a script that raises."""
    exc, ns = raise_script(code)
    with language(lang):
        result = explain(exc, ns, code_filenames={CELL}, code=code)
    assert result is not None
    return exc, ns, result


@contextlib.contextmanager
def language(lang: str) -> Iterator[None]:
    """Set the core's language for the block and restore it."""
    with i18n.speaking(lang):
        yield


def run_patched(code: str, result: dict) -> dict[str, Any]:
    """Apply the card's fix, run the patched script, fail on any exception; return its namespace."""
    assert is_code(result["fix"]), result["fix"]
    patched = apply_fix(code, result)
    assert patched is not None, result
    exc, ns = run(patched, "<cell-fixed>")
    assert exc is None, f"the fix did not fix it: {exc!r}\n--- patched script:\n{patched}"
    return ns


def warned(code: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Run a script that should not raise; return what the warning hook saw (as the kernel's hook would) and its namespace."""
    seen: list[dict[str, Any]] = []

    def hook(message, category, filename, lineno, file=None, line=None):
        seen.append({"message": message, "category": category, "filename": filename, "lineno": lineno,
                     "frame": sys._getframe()})

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = hook
        exc, ns = run(code)
    assert exc is None, repr(exc)
    return seen, ns


def warning_cards(code: str, lang: str = "en") -> tuple[list[dict], dict]:
    caught, ns = warned(code)
    with language(lang):
        cards = [explain_warning(w["message"], w["category"], w["filename"], w["lineno"], ns, code,
                                 code_filenames={CELL}, frame=w["frame"]) for w in caught]
    return [c for c in cards if c is not None], ns


def english_left(text: str) -> list[str]:
    """Runs of three English words in a Chinese text (code, names and dtypes removed first)."""
    text = re.sub(r"`[^`]*`", "", text)
    return re.findall(r"\b[A-Za-z]{2,}(?: [A-Za-z]{2,}){2,}\b", text)


