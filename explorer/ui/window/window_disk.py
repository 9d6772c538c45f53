"""The main window's answer when its file changes on disk: follow it, or ask when the editor has unsaved changes."""

from __future__ import annotations

import os

from explorer.ui.window.window_files import WindowFilesMixin, read_script


class WindowDiskMixin(WindowFilesMixin):
    """Slots for :class:`~explorer.ui.window.file_watch.DiskWatch` on :class:`MainWindow`."""

    def _on_disk_watch_changed(self, path: str) -> None:
        """Reload silently when the editor has no changes; otherwise ask (the editor's text is worth as much)."""
        if path != self.file_path:
            return
        try:
            text = read_script(path)
        except (OSError, UnicodeDecodeError):
            return  # half written, or not text: the next change tells more
        name = os.path.basename(path)
        if text == self.editor.toPlainText():  # back to what the editor has (a checkout undone)
            self.editor.document().setModified(False)
            self.banner.clear("disk")
        elif not self.editor.document().isModified():
            self._reload(text)
            self.statusBar().showMessage(self.tr("Reloaded {name}: it changed on disk").format(name=name), 8000)
        else:
            self.banner.show_message(
                self.tr("{name} changed on disk, and the editor has changes that are not saved. Reload the file "
                        "(your changes are lost), or keep yours (Save then overwrites the file)?").format(name=name),
                "warning", [(self.tr("Reload"), lambda: self._on_banner_reload(path)), (self.tr("Keep Mine"), self.editor.setFocus)],
                topic="disk")

    def _on_banner_reload(self, path: str) -> None:
        if path != self.file_path:
            return
        self.editor.setFocus()
        try:
            self._reload(read_script(path))
        except (OSError, UnicodeDecodeError) as exc:
            self.banner.show_message(self.tr("{path} could not be opened: {why}").format(path=path, why=getattr(exc, "strerror", None) or exc), "error", topic="files")

    def _reload(self, text: str) -> None:
        """The file's new text, with the cursor on the line it was on."""
        line = self.editor.textCursor().blockNumber() + 1
        self._set_script(text, self.file_path)
        self.editor.go_to_line(min(line, self.editor.document().blockCount()))

    def _on_disk_watch_removed(self, path: str) -> None:
        if path != self.file_path:
            return
        self.editor.document().setModified(True)  # the text is now nowhere else: keep it like unsaved text
        self.banner.show_message(self.tr("{name} was deleted or moved away on disk. Your text is still here: "
                                         "Save writes the file again.").format(name=os.path.basename(path)), "warning", topic="disk")
