"""The main window's file handling: scripts, data files, recent files, lessons, recovery.

A mixin so the window's actions can call these directly; it uses only the
window's own widgets (editor, loader, banner, recovery).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile

from PySide6.QtCore import QObject, QSettings
from PySide6.QtWidgets import QFileDialog, QMessageBox

from explorer.lessons import LESSONS, lesson_path, lesson_watch, render_lesson
from explorer.protocol.cells import is_cell_marker
from explorer.ui.window.host import WindowHost
from explorer.ui.window.recent_files import RecentFilesMenu

BOTH_KEY = "lessons/both_languages"
DATA_PATTERNS = "*.npy *.npz *.pt *.pth *.safetensors *.png *.jpg *.jpeg *.bmp *.gif *.tif *.tiff *.webp"
_UMASK = os.umask(0)
os.umask(_UMASK)  # reading the umask sets it: put it back at once


class WindowFilesMixin(WindowHost):
    """File menu behaviour for :class:`MainWindow`."""

    _recent: RecentFilesMenu | None = None
    _lesson_path: str | None = None
    _baseline: str | None = None  # the text of the file or lesson as last read or written
    _baseline_units = 0

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

    def confirm_discard(self, question: str | None = None) -> bool:
        """Before the editor's text is replaced (or the window closes): Save, Discard or Cancel when it has unsaved changes.

        *question* has ``{name}`` for the file's name. Returns True when the text may
        go (saved, discarded, or nothing to lose).
        """
        if not self.editor.document().isModified() or not self.editor.toPlainText().strip():
            return True
        question = question or self.tr("{name} has changes that are not saved. Save them first?")
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Unsaved changes"), question.format(name=self._display_name()),
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
            text = read_script(path)
        except (OSError, UnicodeDecodeError) as exc:
            self.banner.show_message(self.tr("{path} could not be opened: {why}").format(path=path, why=getattr(exc, "strerror", None) or exc), "error", topic="files")
            return False
        self._set_script(text, os.path.abspath(path))
        self._add_recent(path)
        self.banner.clear("files")
        return True

    def _set_script(self, text: str, path: str | None) -> None:
        self.stepper.reset()
        self._lesson_path = None
        self._set_baseline(text)
        self.editor.setPlainText(text)
        self.editor.document().setModified(False)
        self.editor.mark_error_line(None)
        self.editor.mark_step(None, None)
        self.file_path = path
        self.recovery.file_path = path
        self.recovery.lesson = None
        self.disk_watch.watch(path)
        self.banner.clear("disk")
        self._update_title()
        self.sync_script_context()

    def save_script(self) -> bool:
        if not self.file_path:
            return self.save_script_as()
        return self._write_script(self.file_path)

    def save_script_as(self) -> bool:
        suggestion = self.file_path or (os.path.basename(self._lesson_path) if self._lesson_path else "script.py")
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save Script"), suggestion, self.tr("Python scripts (*.py)"))
        if not path:
            return False
        path = os.path.abspath(path)
        if not self._write_script(path):
            return False
        self.file_path = path
        self.recovery.file_path = path
        self.recovery.lesson = None
        self._lesson_path = None
        self.disk_watch.watch(path)
        self._add_recent(path)
        self._update_title()
        self.sync_script_context()
        return True

    def _write_script(self, path: str) -> bool:
        """Write the editor's text to *path* (atomically: a failed save leaves the old file whole)."""
        text = self.editor.toPlainText()
        data = text.encode("utf-8")
        if path == self.disk_watch.path():
            self.disk_watch.adopt(data)  # our own save is no change on disk
        try:
            _atomic_write(path, data)
        except OSError as exc:
            self.disk_watch.watch(self.file_path)
            self.banner.show_message(self.tr("Could not save {path}: {why}").format(path=path, why=exc.strerror or exc), "error", topic="save")
            return False
        self._set_baseline(text)
        self.editor.document().setModified(False)
        self.banner.clear("save")
        self.banner.clear("disk")
        self.statusBar().showMessage(self.tr("Saved {path}").format(path=path), 4000)
        return True

    def _display_name(self) -> str:
        """The file's name, the lesson's title, or "untitled"."""
        if self.file_path:
            return os.path.basename(self.file_path)
        return self._lesson_title(self._lesson_path) or self.tr("untitled")

    def _lesson_title(self, path: str | None) -> str | None:
        """The title of the built-in lesson at *path*, in the interface's language."""
        lesson = next((x for x in LESSONS if x["path"] == path), None) if path else None
        if lesson is None:
            return None
        return lesson["title_zh"] if self.language == "zh_CN" else lesson["title_en"]

    def _update_title(self) -> None:
        # [*] is where Qt shows the unsaved-changes mark, while the window is "modified".
        self.setWindowTitle(f"{self._display_name()}[*] — Tensor Explorer")
        self.setWindowFilePath(self.file_path or "")
        self.setWindowModified(self.editor.document().isModified())

    def _on_editor_modification_changed(self, _modified: bool) -> None:
        self._update_title()

    def _set_baseline(self, text: str | None) -> None:
        """*text* is what the file (or the lesson) holds: the editor showing it again is unchanged."""
        self._baseline = text
        self._baseline_units = -1 if text is None else len(text.encode("utf-16-le")) // 2

    def _on_editor_contents_changed(self) -> None:
        """Typed and deleted back, or pasted the same: the text is unchanged again (as VS Code tells it)."""
        document = self.editor.document()
        # The length first (Qt counts UTF-16 units, plus one end of paragraph): a comparison per keystroke stays cheap.
        if not document.isModified() or self._baseline is None or document.characterCount() != self._baseline_units + 1:
            return
        if document.toPlainText() == self._baseline:
            document.setModified(False)

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
                self._add_recent(path)  # (only if it exists: a failed load is reported, not remembered)
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
        recent = self._recent_files()
        if recent is not None and os.path.exists(path):
            recent.add(path)

    def _update_recent_menu(self) -> None:
        recent = self._recent_files()
        if recent is not None:
            recent.refresh()

    def _recent_files(self) -> RecentFilesMenu | None:
        """File > Recent Files, once the menus exist."""
        if self._recent is None and self.actions_.recent_menu is not None:
            self._recent = RecentFilesMenu(self.actions_.recent_menu, self)
            self._recent.chosen.connect(lambda path: self.open_paths([path]))
            self._recent.vanished.connect(self._on_recent_vanished)
        return self._recent

    def _on_recent_vanished(self, path: str) -> None:
        self.banner.show_message(self.tr("{path} no longer exists; it was taken off Recent Files.").format(path=path), "warning", topic="files")

    def _fill_lessons_menu(self) -> None:
        menu = self.actions_.lessons_menu
        if menu is None:
            return
        menu.clear()
        for lesson in LESSONS:
            title = lesson["title_zh"] if self.language == "zh_CN" else lesson["title_en"]
            # Numbered as the README and `--lesson 07` name them ("&" would mark a menu key).
            number = lesson["id"].partition("_")[0]
            action = menu.addAction(f"{number}  {title.replace('&', '&&')}")
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
        with open(path, encoding="utf-8") as handle:
            watched = lesson_watch(handle.read())
        if watched:  # the lesson's "# watch:" line: its curves are drawn while it runs
            self.watch.set_names(watched)
        self.recovery.lesson = path
        self._update_title()
        self.editor.go_to_line(1)

    def lesson_open(self) -> bool:
        """Whether the editor holds a built-in lesson (it may have been edited since)."""
        return self._lesson_path is not None

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
        path = self._lesson_path
        if path is None or self.editor.document().isModified():
            return
        text = self._render_lesson(path)
        if text == self.editor.toPlainText():
            return
        line = self.editor.textCursor().blockNumber() + 1
        cell = _cell_of(self.editor.toPlainText(), line)
        marks = self.editor.step_marks
        self._set_baseline(text)
        self.editor.setPlainText(text)
        self.editor.document().setModified(False)
        if same_lines:
            self.editor.go_to_line(line)
            self.editor.mark_step(*marks)
        else:
            self.stepper.reset()
            self.editor.mark_step(None, None)
            self.editor.go_to_line(_cell_start(text, cell))

    # -- help ---------------------------------------------------------------------------------
    def show_about(self) -> None:
        from explorer import __version__

        QMessageBox.about(self, self.tr("About Tensor Explorer"), self.tr(
            "Tensor Explorer {version}\nSee what every tensor is: shape, dtype, device, strides, shared memory, autograd and images.").format(version=__version__))

    def show_shortcuts(self) -> None:
        from explorer.ui.window.shortcuts_dialog import ShortcutsDialog

        ShortcutsDialog(self).exec()


class FileCountText(QObject):
    """Sentences with a count of files: Qt looks plural forms up by the calling object's own class, never a mixin's."""

    def not_opened(self, count: int) -> str:
        return self.tr("%n file(s) could not be opened:", "", count)


def read_script(path: str) -> str:
    with open(path, encoding="utf-8-sig") as handle:
        return handle.read()


def _atomic_write(path: str, data: bytes) -> None:
    """Write *data* to a temporary file beside *path*, then rename it over *path* (a link's target is written)."""
    target = os.path.realpath(path)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_UMASK
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), prefix="." + os.path.basename(target) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)  # mkstemp makes it private: the file keeps its own permissions
        os.replace(tmp, target)
    except OSError:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _cell_of(text: str, line: int) -> int:
    """How many cell markers come before *line* (1-based)."""
    return sum(1 for row in text.split("\n")[:line] if is_cell_marker(row))


def _cell_start(text: str, cell: int) -> int:
    """The line of the *cell*-th marker (1 when there is none)."""
    markers = [i + 1 for i, row in enumerate(text.split("\n")) if is_cell_marker(row)]
    return markers[cell - 1] if 0 < cell <= len(markers) else 1
