"""Simplified Chinese for every ``tr()`` string, kept as Python dicts (no .qm build step).

Each area of the app owns one ``zh_<area>.py`` module with ``STRINGS``; the
translator merges them and answers Qt's ``translate`` calls by source text, so
widgets use the ordinary ``self.tr`` / ``QCoreApplication.translate``.
"""

from __future__ import annotations

import importlib
import pkgutil

from PySide6.QtCore import QCoreApplication, QTranslator

LANGUAGES = {"en": "English", "zh_CN": "简体中文"}


def load_strings(lang: str) -> dict[str, str]:
    """All translations for *lang* ("zh_CN"), merged from the ``zh_*`` modules."""
    if lang != "zh_CN":
        return {}
    merged: dict[str, str] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("zh_"):
            module = importlib.import_module(f"{__name__}.{info.name}")
            merged.update(getattr(module, "STRINGS", {}))
    return merged


class DictTranslator(QTranslator):
    """A QTranslator answering from a dict keyed by English source text."""

    def __init__(self, strings: dict[str, str], parent=None) -> None:
        super().__init__(parent)
        self._strings = strings

    def translate(self, context: str, source: str, disambiguation: str | None = None, n: int = -1) -> str | None:
        return self._strings.get(source)  # None (a null QString) lets Qt fall back to the source text

    def isEmpty(self) -> bool:
        return not self._strings


_installed: DictTranslator | None = None


def install_language(lang: str) -> None:
    """Switch the application's language ("en" or "zh_CN"); widgets retranslate on LanguageChange."""
    global _installed
    app = QCoreApplication.instance()
    if _installed is not None:
        app.removeTranslator(_installed)
        _installed = None
    strings = load_strings(lang)
    if strings:
        _installed = DictTranslator(strings, app)
        app.installTranslator(_installed)


def tr(context: str, text: str) -> str:
    """Translate *text* outside a QObject."""
    return QCoreApplication.translate(context, text)
