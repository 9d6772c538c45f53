"""The main window's file handling: scripts, data files, recent files, lessons, recovery.

A mixin so the window's actions can call these directly; it uses only the
window's own widgets (editor, loader, banner, recovery).
"""

from __future__ import annotations

import os
import re
from typing import Any

from PySide6.QtCore import QObject, QSettings
from PySide6.QtWidgets import QFileDialog, QMessageBox

from explorer.lessons import LESSONS, lesson_path, render_lesson
from explorer.protocol.cells import is_cell_marker
from explorer.ui.window.host import WindowHost

BOTH_KEY = "lessons/both_languages"
DATA_PATTERNS = "*.npy *.npz *.pt *.pth *.safetensors *.png *.jpg *.jpeg *.bmp *.gif *.tif *.tiff *.webp"
MAX_RECENT = 10
_MNEMONIC = re.compile(r"\(&\w\)|&(?=\w)")


class WindowFilesMixin(WindowHost):
    """File menu behaviour for :class:`MainWindow`."""

    # -- scripts -----------------------------------------------------------------------
    def new_script(self) -> None:
        if self.confirm_discard():
            self._set_script("", None)

    def open_script_dialog(self) -> None:
        if not self.confirm_discard():
            return
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open Script"), "", self.tr("Python scripts (*.py);;All files (*)"))
        if path:
            self.open_script(path, confirmed=True)

    def confirm_discard(self) -> bool:
        """Before the editor's text is replaced: Save, Discard or Cancel when it has unsaved changes.

        Returns True when the text may be replaced (saved, discarded, or nothing to lose).
        """
        if not self.editor.document().isModified() or not self.editor.toPlainText().strip():
            return True
        name = os.path.basename(self.file_path) if self.file_path else self.tr("untitled")
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Unsaved changes"),
                          self.tr("{name} has changes that are not saved. Save them first?").format(name=name),
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                          | QMessageBox.StandardButton.Cancel, self)
        box.setObjectName("unsaved_changes_box")
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        choice = box.exec()
        if choice == QMessageBox.StandardButton.Save:
            return self.save_script()
        return choice == QMessageBox.StandardButton.Discard

    def open_script(self, path: str, confirmed: bool = False) -> bool:
        """Load *path* into the editor; a problem is shown in the banner, never raised."""
        if not confirmed and not self.confirm_discard():
            return False
        try:
            with open(path, encoding="utf-8-sig") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            self.banner.show_message(self.tr("{path} could not be opened: {why}").format(path=path, why=getattr(exc, "strerror", None) or exc), "error", topic="files")
            return False
        self._set_script(text, os.path.abspath(path))
        self._add_recent(path)
        self.banner.clear("files")
        return True

    def _set_script(self, text: str, path: str | None) -> None:
        self.stepper.reset()
        self._lesson_path: str | None = None
        self.editor.setPlainText(text)
        self.editor.document().setModified(False)
        self.editor.mark_error_line(None)
        self.editor.mark_step(None, None)
        self.file_path = path
        self.recovery.file_path = path
        self._update_title()
        self.sync_script_context()

    def save_script(self) -> bool:
        if not self.file_path:
            return self.save_script_as()
        try:
            with open(self.file_path, "w", encoding="utf-8") as handle:
                handle.write(self.editor.toPlainText())
        except OSError as exc:
            self.banner.show_message(self.tr("Could not save {path}: {why}").format(path=self.file_path, why=exc.strerror or exc), "error", topic="save")
            return False
        self.editor.document().setModified(False)
        self.banner.clear("save")
        self.statusBar().showMessage(self.tr("Saved {path}").format(path=self.file_path), 4000)
        return True

    def save_script_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save Script"), self.file_path or "script.py", self.tr("Python scripts (*.py)"))
        if not path:
            return False
        self.file_path = os.path.abspath(path)
        self.recovery.file_path = self.file_path
        self.sync_script_context()
        self._add_recent(path)
        return self.save_script()

    def _update_title(self) -> None:
        name = os.path.basename(self.file_path) if self.file_path else self.tr("untitled")
        star = " *" if self.editor.document().isModified() else ""
        self.setWindowTitle(f"{name}{star} — Tensor Explorer")

    def _on_editor_modification_changed(self, _modified: bool) -> None:
        self._update_title()

    # -- data files -----------------------------------------------------------------------
    def open_data_dialog(self) -> None:
        #: File dialog filters, separated by ;; — {patterns} is the list of file name patterns; keep (*) as is.
        filters = self.tr("Data files ({patterns});;All files (*)").format(patterns=DATA_PATTERNS)
        paths, _ = QFileDialog.getOpenFileNames(self, self.tr("Open Data"), "", filters)
        if paths:
            self.open_paths(paths)

    def open_paths(self, paths: list[str], problems: list[str] | None = None) -> None:
        """Scripts go to the editor (the first one), everything else is loaded as data."""
        data = []
        for path in paths:
            if path.lower().endswith(".py") and os.path.isfile(path):
                self.open_script(path)
            else:
                data.append(path)
                self._add_recent(path)
        # Before the kernel is ready the loader's requests wait for it: files named on the
        # command line load as soon as it is.
        self.loader.load(data, problems)

    def _confirm_pickle(self, path: str, message: str) -> bool:
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Load anyway?"),
                          self.tr("{message}\n\nLoad anyway — this runs code from the file. Only do this for files you trust.").format(message=message),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self)
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.button(QMessageBox.StandardButton.Yes).setText(self.tr("Load anyway"))
        return box.exec() == QMessageBox.StandardButton.Yes

    def _on_loader_problems_reported(self, problems: list[str]) -> None:
        head = FileCountText().not_opened(len(problems))
        self.banner.show_message(head + "<br>" + "<br>".join(_escape(p) for p in problems[:12]) + ("<br>…" if len(problems) > 12 else ""), "error", topic="files")

    # -- recent files and lessons ---------------------------------------------------------------
    def _add_recent(self, path: str) -> None:
        path = os.path.abspath(path)
        recent = [p for p in _as_list(QSettings().value("recent_files")) if p != path]
        QSettings().setValue("recent_files", [path] + recent[:MAX_RECENT - 1])
        self._update_recent_menu()

    def _update_recent_menu(self) -> None:
        menu = self.actions_.recent_menu
        if menu is None:  # the menus are not built yet
            return
        menu.clear()
        recent = _as_list(QSettings().value("recent_files"))
        for path in recent:
            action = menu.addAction(os.path.basename(path))
            action.setToolTip(path)
            action.triggered.connect(lambda _=False, p=path: self.open_paths([p]))
        menu.setEnabled(bool(recent))

    def _fill_lessons_menu(self) -> None:
        menu = self.actions_.lessons_menu
        if menu is None:
            return
        menu.clear()
        for lesson in LESSONS:
            title = lesson["title_zh"] if self.language == "zh_CN" else lesson["title_en"]
            action = menu.addAction(title)
            action.setToolTip(self.tr("Open this lesson; step through it with Shift+Enter"))
            action.triggered.connect(lambda _=False, p=lesson["path"]: self.open_lesson(p))

    def open_lesson_by_id(self, lesson_id: str) -> bool:
        """Open a lesson by id, number or word ("07", "7", "views")."""
        try:
            path = lesson_path(lesson_id)
        except KeyError:
            self.banner.show_message(self.tr("There is no lesson called {name}.").format(name=lesson_id), "error")
            return False
        self.open_lesson(path)
        return True

    def open_lesson(self, path: str) -> None:
        """Open a built-in lesson as an unsaved copy (Save asks where to keep it), in the interface's language."""
        if not self.confirm_discard():
            return
        self._set_script(self._render_lesson(path), None)
        self._lesson_path = path
        self.editor.go_to_line(1)

    def lesson_open(self) -> bool:
        """Whether the editor holds a built-in lesson (it may have been edited since)."""
        return getattr(self, "_lesson_path", None) is not None

    def lessons_in_both_languages(self) -> bool:
        return QSettings().value(BOTH_KEY, False) in (True, "true")

    def set_lessons_in_both_languages(self, on: bool) -> None:
        """View > Lessons in Both Languages (remembered); an open, unedited lesson is shown again."""
        QSettings().setValue(BOTH_KEY, bool(on))
        self.actions_["lesson_both"].setChecked(bool(on))
        self._rerender_lesson(same_lines=False)

    def _render_lesson(self, path: str) -> str:
        with open(path, encoding="utf-8") as handle:
            return render_lesson(handle.read(), self.language, both=self.lessons_in_both_languages())

    def _rerender_lesson(self, same_lines: bool = True) -> None:
        """Show the open lesson again (another language); only while the user has not edited it.

        One language has as many lines as the other, so the cursor and the
        step-through marks stay where they are; switching to both languages
        keeps the cursor's cell instead.
        """
        path = getattr(self, "_lesson_path", None)
        if path is None or self.editor.document().isModified():
            return
        text = self._render_lesson(path)
        if text == self.editor.toPlainText():
            return
        line = self.editor.textCursor().blockNumber() + 1
        cell = _cell_of(self.editor.toPlainText(), line)
        marks = self.editor.step_marks
        self.editor.setPlainText(text)
        self.editor.document().setModified(False)
        if same_lines:
            self.editor.go_to_line(line)
            self.editor.mark_step(*marks)
        else:
            self.stepper.reset()
            self.editor.mark_step(None, None)
            self.editor.go_to_line(_cell_start(text, cell))

    # -- recovery and help ----------------------------------------------------------------------
    def offer_recovery(self) -> None:
        """After a crash or kill: offer the autosaved text back (non-modal)."""
        pending = self.recovery.pending()
        if not pending or pending["text"] == self.editor.toPlainText():
            self.recovery.start()
            return
        where = pending.get("file") or self.tr("an untitled script")
        if pending.get("closed"):
            text = self.tr("Tensor Explorer was closed with unsaved changes in {where}. Restore them?")
        else:
            text = self.tr("Tensor Explorer did not close normally. Restore the unsaved text of {where}?")
        self.banner.show_message(
            text.format(where=where),
            "warning", [(self.tr("Restore"), lambda: self._restore(pending)), (self.tr("Discard"), self.recovery.discard)])
        self.recovery.start()

    def _restore(self, pending: dict) -> None:
        self._set_script(pending["text"], pending.get("file"))
        self.editor.document().setModified(True)

    def show_about(self) -> None:
        from explorer import __version__

        QMessageBox.about(self, self.tr("About Tensor Explorer"), self.tr(
            "Tensor Explorer {version}\nSee what every tensor is: shape, dtype, device, strides, shared memory, autograd and images.").format(version=__version__))

    def show_shortcuts(self) -> None:
        # "运行文件(&F)" -> "运行文件", "Run &File" -> "Run File": the access key is no part of the name.
        lines = [f"{_MNEMONIC.sub('', a.text())}: {a.shortcut().toString()}" for a in self.actions_.by_key.values() if not a.shortcut().isEmpty()]
        QMessageBox.information(self, self.tr("Keyboard Shortcuts"), "\n".join(lines))


class FileCountText(QObject):
    """Sentences with a count of files: Qt looks plural forms up by the calling object's own class, never a mixin's."""

    def not_opened(self, count: int) -> str:
        return self.tr("%n file(s) could not be opened:", "", count)


def _as_list(value: Any) -> list[str]:  # what QSettings gives back: None, a str or a list
    if value is None:
        return []
    return [value] if isinstance(value, str) else [str(v) for v in value]


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _cell_of(text: str, line: int) -> int:
    """How many cell markers come before *line* (1-based)."""
    return sum(1 for row in text.split("\n")[:line] if is_cell_marker(row))


def _cell_start(text: str, cell: int) -> int:
    """The line of the *cell*-th marker (1 when there is none)."""
    markers = [i + 1 for i, row in enumerate(text.split("\n")) if is_cell_marker(row)]
    return markers[cell - 1] if 0 < cell <= len(markers) else 1
