"""Unsaved text survives: what gone windows left is offered back, autosave trouble is said, quitting keeps text.

:class:`UnsavedText` is owned by :class:`~explorer.ui.window.main_window.MainWindow`;
it works with the window's :class:`~explorer.ui.window.recovery.RecoveryStore` (the
files on disk) and :class:`~explorer.ui.window.script_files.ScriptFiles` (the editor's
script), and speaks through the banner and the status bar.

Quitting is a hot exit, as in VS Code: every way out (Ctrl+Q, File > Quit, the
close button, SIGTERM / SIGINT, logout) keeps unsaved text in this window's
recovery file, and the next window puts it back silently. Nothing is asked,
because a logout or a SIGTERM cannot wait for an answer, and all exits behave
alike. Only when autosave is off (its folder cannot be written) does closing
ask Save / Discard / Cancel: then nothing else would keep the text.
"""

from __future__ import annotations

import time
from typing import Any, Final

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel, QMainWindow

from explorer.ui.banner_widget import BannerWidget
from explorer.ui.editor.code_editor_widget import CodeEditorWidget
from explorer.ui.window.recovery import Orphan, RecoveryStore
from explorer.ui.window.script_files import ScriptFiles, read_script

TOPIC: Final = "recovery"


class UnsavedText(QObject):
    """Recovery offers, the autosave-off notice and the close decision for *window*."""

    def __init__(self, window: QMainWindow, editor: CodeEditorWidget, banner: BannerWidget, recovery: RecoveryStore,
                 files: ScriptFiles) -> None:
        super().__init__(window)
        self._window = window
        self._editor = editor
        self._banner = banner
        self._recovery = recovery
        self._files = files
        self._offers: list[Orphan] = []
        self._restored_from: list[Orphan] = []  # kept on disk until this window's own copy exists
        self._autosave_notice: str | None = None  # shown once the offers are answered
        self._let_go = False
        recovery.failed.connect(self._on_recovery_failed)

    # -- start ---------------------------------------------------------------------------
    def offer_recovery(self) -> None:
        """At start: take this window's recovery file and bring back what windows that are gone left."""
        self._offers, self._restored_from = [], []
        self._recovery.start()
        self._offers = self._recovery.orphans()
        if self._offers and self._offers[0].closed and not self._files.in_use():  # a restore would replace it
            self._restore_silently(self._offers.pop(0))
        self._offer_next()

    def _restore_silently(self, offer: Orphan) -> None:
        """Hot exit: the text the last session quit with comes back as it was, unsaved."""
        self._restore(offer)
        self._window.statusBar().showMessage(self.tr("Your unsaved text from last time is back: {where}").format(where=self._where(offer)), 8000)

    def _offer_next(self) -> None:
        if not self._offers:
            self._show_autosave_notice()
            return
        offer, count = self._offers[0], len(self._offers)
        when = time.strftime("%H:%M", time.localtime(offer.saved_at)) if offer.saved_at else "?"
        if offer.closed:
            text = self.tr("Tensor Explorer was closed with unsaved changes in {where} (kept at {time}). Restore them?")
        else:
            text = self.tr("Tensor Explorer did not close normally. Restore the unsaved text of {where} (autosaved at {time})?")
        text = text.format(where=self._where(offer), time=when)
        if count > 1:
            # One sentence with its question: Chinese joins the two without the space English puts between.
            text = self.tr("{question} ({count} texts to restore: this is the newest.)").format(question=text, count=count)
        self._banner.show_message(text, "warning", [(self.tr("Restore"), lambda: self._answer_offer(offer, True)),
                                                   (self.tr("Discard"), lambda: self._answer_offer(offer, False))],
                                 topic=TOPIC, on_close=self._show_autosave_notice)

    def _where(self, offer: Orphan) -> str:
        return offer.file or self._files.lesson_title(offer.lesson) or self.tr("an untitled script")

    def _answer_offer(self, offer: Orphan, restore: bool) -> None:
        """Restore puts the text in the editor (asking first about text there); Discard deletes the file."""
        if restore and not self._files.confirm_discard():
            self._offer_next()  # Cancel: the question stays
            return
        self._offers.remove(offer)
        if restore:
            self._restore(offer)
        else:
            offer.discard()
            self._editor.setFocus()
        self._offer_next()

    def _restore(self, offer: Orphan) -> None:
        self._files.restore(offer.text, offer.file, offer.lesson, self._original_text(offer))
        self._editor.setFocus()  # the banner's button had it: typing and Ctrl+S go on in the text
        # This window's own file first, then the old one goes: never a moment without a copy on disk.
        if self._recovery.save_now():
            offer.discard()
        else:
            self._restored_from.append(offer)

    def _original_text(self, offer: Orphan) -> str | None:
        """What the restored text was changed from: the file on disk, the lesson, or nothing (untitled)."""
        try:
            if offer.file:
                return read_script(offer.file)
            if offer.lesson:
                return self._files.render_lesson(offer.lesson)
        except (OSError, UnicodeDecodeError):
            return None
        return ""

    # -- autosave trouble --------------------------------------------------------------------
    def _on_recovery_failed(self, why: str) -> None:
        """Autosave is off: say so once (after any offer), and keep a reminder in the status bar."""
        label = QLabel(self.tr("Autosave off"), self._window)
        label.setObjectName("autosave_off_label")
        label.setToolTip(why)
        self._window.statusBar().addPermanentWidget(label)
        self._autosave_notice = self.tr(
            "Autosave is off: {why}. Unsaved text will not survive a crash; save it with Ctrl+S. "
            "Closing the window will ask about unsaved changes.").format(why=why)
        if self._banner.topic() != TOPIC:
            self._show_autosave_notice()

    def _show_autosave_notice(self) -> None:
        if self._autosave_notice:
            self._banner.show_message(self._autosave_notice, "error", topic="autosave")
            self._autosave_notice = None

    # -- quitting -------------------------------------------------------------------------
    def prepare_to_close(self, interactive: bool = True) -> bool:
        """Before the window goes: keep unsaved text for next time, or (autosave off) ask; False: stay open."""
        if self._let_go:
            return True
        if not self._recovery.finish():  # autosave is off, or the last write failed just now
            if not interactive:
                self._release_all()  # nobody to ask: leave every file as it is
                return True
            if not self._files.confirm_discard(self.tr("{name} has changes that are not saved, and autosave is off. Save them before closing?")):
                return False
            self._recovery.discard()  # saved or discarded: an older autosave must not come back
            for offer in self._restored_from:
                offer.discard()
        self._release_all()
        return True

    def _release_all(self) -> None:
        self._recovery.release()
        for offer in self._offers + self._restored_from:
            offer.release()  # not answered: offered again next time
        self._offers, self._restored_from = [], []
        self._let_go = True

    def commit_data(self, manager: Any) -> None:
        """Logout (QGuiApplication.commitDataRequest): keep the text as a quit does; ask only when it cannot be kept."""
        if self._recovery.save_now(closed=True):
            return
        if manager.allowsInteraction():
            if not self._files.confirm_discard(self.tr("{name} has changes that are not saved, and autosave is off. Save them before closing?")):
                manager.cancel()
            manager.release()
