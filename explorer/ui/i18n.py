"""The interface language: Qt's standard translators, installed and switched at run time.

Our strings come from ``translations/<lang>.qm`` (compiled by ``pyside6-lrelease``
from the ``.ts`` that ``pyside6-lupdate`` extracts, see ``scripts/i18n.py``);
Qt's own ``qtbase_<lang>.qm`` translates standard dialogs and buttons. English
has a catalog too, holding only the plural forms (``%n``), because Qt writes
"1 file(s)" unless a translator chooses between "1 file" and "2 files".
Widgets retranslate on the ``LanguageChange`` event Qt sends on every switch.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QSettings, QTranslator

# The languages the interface speaks, each named in its own language (for the menu).
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}
TRANSLATIONS_DIR = Path(__file__).resolve().parent / "translations"

_installed: list[QTranslator] = []


def catalog_path(lang: str) -> Path:
    """The compiled catalog of our own strings for *lang*."""
    return TRANSLATIONS_DIR / f"{lang}.qm"


def system_language() -> str:
    """The language of the desktop session: Chinese for any zh locale, else English."""
    preferred = QLocale.system().uiLanguages() or [QLocale.system().name()]
    return "zh_CN" if preferred[0].replace("-", "_").startswith("zh") else "en"


def default_language() -> str:
    """The language chosen in View > Language earlier (QSettings), else the system's."""
    saved = QSettings().value("language")
    return str(saved) if saved in LANGUAGES else system_language()


def _load(lang: str) -> list[QTranslator]:
    """Qt's catalog (standard dialogs) and ours for *lang*; a catalog that does not exist is skipped."""
    # No parent: once uninstalled and dropped from _installed, a translator is freed.
    found = []
    qt = QTranslator()
    if qt.load(QLocale(lang), "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        found.append(qt)
    ours = QTranslator()
    if ours.load(str(catalog_path(lang))):
        found.append(ours)
    return found


def install_language(lang: str) -> None:
    """Switch the application's language ("en" or "zh_CN"); open widgets retranslate on LanguageChange."""
    app = QCoreApplication.instance()
    if app is None:  # nothing to translate before the application exists
        return
    while _installed:
        app.removeTranslator(_installed.pop())
    for translator in _load(lang):
        # The last installed translator is asked first: ours wins over Qt's.
        app.installTranslator(translator)
        _installed.append(translator)
