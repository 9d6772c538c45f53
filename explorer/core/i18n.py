"""The core's sentences in the user's language, through the standard ``gettext`` catalogs.

The core writes English source text at the place a sentence is made::

    from explorer.core.i18n import _, ngettext

    _("{name} is a view of {base}").format(name=name, base=base)
    ngettext("{n} element", "{n} elements", n).format(n=n)

Translations live in ``explorer/locale/<lang>/LC_MESSAGES/tensor_explorer.po``
and are compiled to ``.mo`` next to it (``scripts/i18n``). The kernel is told the
GUI's language with :func:`set_language`; the CLI stays English. Placeholders
are always named (``{name}``) so a translation can reorder them, and the text
is formatted *after* translation.
"""

from __future__ import annotations

import contextlib
import gettext
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TypedDict

DOMAIN = "tensor_explorer"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
SOURCE_LANGUAGE = "en"

_lock = threading.Lock()
_cache: dict[str, gettext.NullTranslations] = {}


class _State(TypedDict):
    """The language in effect and its catalog."""

    lang: str
    catalog: gettext.NullTranslations


_state: _State = {"lang": SOURCE_LANGUAGE, "catalog": gettext.NullTranslations()}


def catalog(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of *lang* ("zh_CN"); the identity for English or a language we lack."""
    with _lock:
        found = _cache.get(lang)
        if found is None:
            if lang == SOURCE_LANGUAGE:
                found = gettext.NullTranslations()
            else:
                found = gettext.translation(DOMAIN, str(LOCALE_DIR), languages=[lang], fallback=True)
            _cache[lang] = found
        return found


def set_language(lang: object) -> str:
    """Write every later sentence in *lang*; returns the language now in effect (English for a non-text)."""
    lang = lang if isinstance(lang, str) and lang else SOURCE_LANGUAGE
    _state["catalog"] = catalog(lang)
    _state["lang"] = lang
    return lang


def language() -> str:
    """The language sentences are written in now."""
    return _state["lang"]


@contextlib.contextmanager
def speaking(lang: str | None) -> Iterator[None]:
    """Write in *lang* inside the block, then in the language before it (None: keep the current one)."""
    if not lang or lang == _state["lang"]:
        yield
        return
    before = _state["lang"]
    set_language(lang)
    try:
        yield
    finally:
        set_language(before)


def _(message: str) -> str:
    """*message* in the current language."""
    return _state["catalog"].gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for *n*, in the current language."""
    return _state["catalog"].ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """*message* in the current language, told apart from the same English in another *context*."""
    return _state["catalog"].pgettext(context, message)


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for "mark, translate later"
    """Mark *message* for extraction without translating it (module-level constants)."""
    return message
