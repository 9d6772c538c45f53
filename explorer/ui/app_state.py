"""What the whole window shares: the interface language and the selected variable.

One object holds each, so no widget keeps its own copy: views read the
selection from here and listen to ``selection_changed``; the language is
switched here, which installs the translators (widgets retranslate on Qt's
LanguageChange) and tells the kernel. Every selection change bumps
``generation``: a reply asked for under an older generation is stale and is
dropped before it reaches a view (see :class:`~explorer.ui.selection_fetch.SelectionFetch`).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QSettings, Signal

from explorer import protocol
from explorer.ui.i18n import LANGUAGES, install_language


class AppState(QObject):
    """The language and the selection of one window."""

    language_changed = Signal(str)
    selection_changed = Signal(object)  # the selected protocol.Var, or None when nothing is selected

    def __init__(self, language: str = "en", parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._language = language if language in LANGUAGES else "en"
        self._selection: protocol.Var | None = None
        self.generation = 0

    # -- language ---------------------------------------------------------------------
    @property
    def language(self) -> str:
        return self._language

    def set_language(self, lang: str, remember: bool = True) -> None:
        """Switch the interface (and, through ``language_changed``, the kernel's sentences)."""
        if lang not in LANGUAGES:
            return
        self._language = lang
        install_language(lang)
        if remember:
            QSettings().setValue("language", lang)
        self.language_changed.emit(lang)

    # -- selection --------------------------------------------------------------------
    @property
    def selection(self) -> protocol.Var | None:
        """The selected VAR (None when none)."""
        return self._selection

    @property
    def selected_name(self) -> str | None:
        return self._selection["name"] if self._selection else None

    def select(self, var: protocol.Var | None) -> None:
        """Make *var* the selection (also when the same name got a new VAR after a run)."""
        self._selection = var.copy() if var else None
        self.generation += 1
        self.selection_changed.emit(self._selection)

    def amend(self, var: protocol.Var) -> None:
        """The selected variable's VAR grew facts (its overlaps came): the selection holds them too.

        Not a new selection: nothing is emitted, and requests made for it stay current.
        """
        if self._selection is not None and var["name"] == self._selection["name"]:
            self._selection = var.copy()

    def is_current(self, generation: int) -> bool:
        """Whether a request made under *generation* still answers the selection shown."""
        return generation == self.generation
