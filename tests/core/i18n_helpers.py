"""Helpers shared by the tests of the core's sentences in English and Chinese (no tests here)."""

from __future__ import annotations

import contextlib
import gettext
import re
from collections.abc import Iterator
from pathlib import Path

from explorer.core import i18n

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u4e00-\u9fff]")
# Quoted names ('x.npy', 'w') and words that are code: anything with a dot, bracket, operator or digit.
_QUOTED = re.compile(r"'[^']*'")
_CODE = re.compile(r"[^\s\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]*[._()\[\]{}=<>/|:;,0-9][^\s\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]*")
_RUN = re.compile(r"\b[A-Za-z]{2,}(?: [A-Za-z]{2,}){2,}\b")


def english_left(text: str) -> list[str]:
    """Runs of three or more English words left in a Chinese sentence once names and code are taken out."""
    return _RUN.findall(_CODE.sub(" ", _QUOTED.sub(" ", text)))


def check_sentence(text: str, lang: str, values: tuple[str, ...] = ()) -> None:
    """*text* is written in *lang* (English: no Chinese; Chinese: no English left) and carries *values* unchanged."""
    assert text and isinstance(text, str)
    if lang == "zh_CN":
        assert CJK.search(text), text
        words = text
        for value in values:  # filled-in data (a name, Python's own message) is not the sentence's words
            words = words.replace(value, " ")
        assert english_left(words) == [], text
        assert not re.search(r"[\u4e00-\u9fff][,;:()]|。 ", text), text  # full-width punctuation, no space after 。
    else:
        assert not CJK.search(text), text
        assert "(s)" not in text, text  # plurals are chosen, not hedged
    for value in values:
        assert value in text, (value, text)


@contextlib.contextmanager
def language(lang: str) -> Iterator[None]:
    """Write the core's sentences in *lang* inside the block, then restore the language."""
    with i18n.speaking(lang):
        yield


class Recording(gettext.NullTranslations):
    """A catalog that answers like *inner* and remembers every English source it was asked for."""

    def __init__(self, inner: gettext.NullTranslations) -> None:
        super().__init__()
        self.inner = inner
        self.asked: set[str] = set()

    def gettext(self, message: str) -> str:
        self.asked.add(message)
        return self.inner.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        self.asked.add(singular)
        return self.inner.ngettext(singular, plural, n)


def sources(*paths: str) -> set[str]:
    """The English sources (singular for plurals) that the modules under *paths* send through gettext."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    found = set()
    for message in script.extract_pot():
        if message.id and any(loc.startswith(p) for loc, _line in message.locations for p in paths):
            found.add(message.id[0] if isinstance(message.id, tuple) else message.id)
    return found
