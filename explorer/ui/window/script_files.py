"""The script in the editor and its file: open, save, the title, lessons, recent files, and changes on disk.

:class:`ScriptFiles` is owned by :class:`~explorer.ui.window.main_window.MainWindow`,
which gives it the widgets it works on (the editor, the banner, the recovery store)
and learns from :attr:`ScriptFiles.path_changed` which file the editor holds. It
keeps what belongs to the file: its path, the lesson it came from, the text as last
read or written (so typing a change and deleting it again is no change), the title
with its unsaved mark, and the answer when the file changes on disk (follow it, or
ask when the editor has unsaved changes).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Callable

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox

from explorer.client.step import Stepper
from explorer.lessons import LESSONS, lesson_path, lesson_watch, render_lesson
from explorer.protocol.cells import is_cell_marker
from explorer.ui.banner_widget import BannerWidget
from explorer.ui.editor.code_editor_widget import CodeEditorWidget
from explorer.ui.watch_list import WatchList
from explorer.ui.window.data_loader import DataLoader
from explorer.ui.window.file_watch import DiskWatch
from explorer.ui.window.main_actions import Actions
from explorer.ui.window.recent_files import RecentFilesMenu
from explorer.ui.window.recovery import RecoveryStore

BOTH_KEY = "lessons/both_languages"
_UMASK = os.umask(0)
os.umask(_UMASK)  # reading the umask sets it: put it back at once


class ScriptFiles(QObject):
    """File menu behaviour for *window*'s editor; see the module docstring.

    *language* says the interface's language (lesson titles, rendered lessons);
    *actions* holds the Recent Files and Lessons menus and the Lessons in Both
    Languages switch; *loader* loads the data files among :meth:`open_paths`.
    """

    path_changed = Signal(object)  # the file the editor holds now (str), or None (untitled, a lesson)

    def __init__(self, window: QMainWindow, editor: CodeEditorWidget, banner: BannerWidget, recovery: RecoveryStore,
                 stepper: Stepper, watch: WatchList, actions: Actions, loader: DataLoader,
                 language: Callable[[], str]) -> None:
        super().__init__(window)
        self._window = window
        self._editor = editor
        self._banner = banner
        self._recovery = recovery
        self._stepper = stepper
        self._watch = watch
        self._actions = actions
        self._loader = loader
        self._language = language
        self.file_path: str | None = None
        self._lesson_path: str | None = None
        self._baseline: str | None = None  # the text of the file or lesson as last read or written
        self._baseline_units = 0
        self._recent: RecentFilesMenu | None = None
        self.disk_watch = DiskWatch(self)
        self.disk_watch.changed.connect(self._on_disk_watch_changed)
        self.disk_watch.removed.connect(self._on_disk_watch_removed)
        editor.document().modificationChanged.connect(self._on_editor_modification_changed)
        editor.document().contentsChanged.connect(self._on_editor_contents_changed)
        actions["lesson_both"].setChecked(self.lessons_in_both_languages())

    def retranslate(self) -> None:
        """After a language change: the lessons menu, an unedited lesson, the recent files and the title."""
        self._fill_lessons_menu()
        self._rerender_lesson()
        self._update_recent_menu()
        self.update_title()

    # -- scripts -----------------------------------------------------------------------
    def new_script(self) -> None:
        if self.confirm_discard():
            self.set_script("", None)

    def open_script_dialog(self) -> None:
        if not self.confirm_discard():
            return
        path, _ = QFileDialog.getOpenFileName(self._window, self.tr("Open Script"), "", self.tr("Python scripts (*.py);;All files (*)"))
        if path:
            self.open_script(path, confirmed=True)

    def confirm_discard(self, question: str | None = None) -> bool:
        """Before the editor's text is replaced (or the window closes): Save, Discard or Cancel when it has unsaved changes.

        *question* has ``{name}`` for the file's name. Returns True when the text may
        go (saved, discarded, or nothing to lose).
        """
        if not self._editor.document().isModified() or not self._editor.toPlainText().strip():
            return True
        question = question or self.tr("{name} has changes that are not saved. Save them first?")
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Unsaved changes"), question.format(name=self.display_name()),
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                          | QMessageBox.StandardButton.Cancel, self._window)
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
            self._banner.show_message(self.tr("{path} could not be opened: {why}").format(path=path, why=getattr(exc, "strerror", None) or exc), "error", topic="files")
            return False
        self.set_script(text, os.path.abspath(path))
        self._add_recent(path)
        self._banner.clear("files")
        return True

    def set_script(self, text: str, path: str | None) -> None:
        """The editor holds *text*, unchanged, as the file *path* holds it (None: untitled)."""
        self._stepper.reset()
        self._lesson_path = None
        self.set_baseline(text)
        self._editor.setPlainText(text)
        self._editor.document().setModified(False)
        self._editor.mark_error_line(None)
        self._editor.mark_step(None, None)
        self._set_path(path)
        self._banner.clear("disk")
        self.update_title()

    def _set_path(self, path: str | None) -> None:
        self.file_path = path
        self._recovery.file_path = path
        self._recovery.lesson = None
        self.disk_watch.watch(path)
        self.path_changed.emit(path)

    def save_script(self) -> bool:
        if not self.file_path:
            return self.save_script_as()
        return self._write_script(self.file_path)

    def save_script_as(self) -> bool:
        suggestion = self.file_path or (os.path.basename(self._lesson_path) if self._lesson_path else "script.py")
        path, _ = QFileDialog.getSaveFileName(self._window, self.tr("Save Script"), suggestion, self.tr("Python scripts (*.py)"))
        if not path:
            return False
        path = os.path.abspath(path)
        if not self._write_script(path):
            return False
        self._lesson_path = None
        self._set_path(path)
        self._add_recent(path)
        self.update_title()
        return True

    def _write_script(self, path: str) -> bool:
        """Write the editor's text to *path* (atomically: a failed save leaves the old file whole)."""
        text = self._editor.toPlainText()
        data = text.encode("utf-8")
        if path == self.disk_watch.path():
            self.disk_watch.adopt(data)  # our own save is no change on disk
        try:
            _atomic_write(path, data)
        except OSError as exc:
            self.disk_watch.watch(self.file_path)
            self._banner.show_message(self.tr("Could not save {path}: {why}").format(path=path, why=exc.strerror or exc), "error", topic="save")
            return False
        self.set_baseline(text)
        self._editor.document().setModified(False)
        self._banner.clear("save")
        self._banner.clear("disk")
        self._window.statusBar().showMessage(self.tr("Saved {path}").format(path=path), 4000)
        return True

    def display_name(self) -> str:
        """The file's name, the lesson's title, or "untitled"."""
        if self.file_path:
            return os.path.basename(self.file_path)
        return self.lesson_title(self._lesson_path) or self.tr("untitled")

    def lesson_title(self, path: str | None) -> str | None:
        """The title of the built-in lesson at *path*, in the interface's language."""
        lesson = next((x for x in LESSONS if x["path"] == path), None) if path else None
        if lesson is None:
            return None
        return lesson["title_zh"] if self._language() == "zh_CN" else lesson["title_en"]

    def update_title(self) -> None:
        # [*] is where Qt shows the unsaved-changes mark, while the window is "modified".
        self._window.setWindowTitle(f"{self.display_name()}[*] — Tensor Explorer")
        self._window.setWindowFilePath(self.file_path or "")
        self._window.setWindowModified(self._editor.document().isModified())

    def _on_editor_modification_changed(self, _modified: bool) -> None:
        self.update_title()

    def set_baseline(self, text: str | None) -> None:
        """*text* is what the file (or the lesson) holds: the editor showing it again is unchanged."""
        self._baseline = text
        self._baseline_units = -1 if text is None else len(text.encode("utf-16-le")) // 2

    def _on_editor_contents_changed(self) -> None:
        """Typed and deleted back, or pasted the same: the text is unchanged again (as VS Code tells it)."""
        document = self._editor.document()
        # The length first (Qt counts UTF-16 units, plus one end of paragraph): a comparison per keystroke stays cheap.
        if not document.isModified() or self._baseline is None or document.characterCount() != self._baseline_units + 1:
            return
        if document.toPlainText() == self._baseline:
            document.setModified(False)

    def restore(self, text: str, file: str | None, lesson: str | None, original: str | None) -> None:
        """Unsaved *text* kept from an earlier window, of *file* or of the built-in *lesson*, changed from *original*."""
        self.set_script(text, file)
        self.set_baseline(original)
        if lesson and os.path.isfile(lesson):
            self._lesson_path = lesson
            self._recovery.lesson = lesson
        self._editor.document().setModified(True)
        self.update_title()

    # -- changes on disk ---------------------------------------------------------------
    def _on_disk_watch_changed(self, path: str) -> None:
        """Reload silently when the editor has no changes; otherwise ask (the editor's text is worth as much)."""
        if path != self.file_path:
            return
        try:
            text = read_script(path)
        except (OSError, UnicodeDecodeError):
            return  # half written, or not text: the next change tells more
        name = os.path.basename(path)
        if text == self._editor.toPlainText():  # back to what the editor has (a checkout undone)
            self._editor.document().setModified(False)
            self._banner.clear("disk")
        elif not self._editor.document().isModified():
            self._reload(text)
            self._window.statusBar().showMessage(self.tr("Reloaded {name}: it changed on disk").format(name=name), 8000)
        else:
            self._banner.show_message(
                self.tr("{name} changed on disk, and the editor has changes that are not saved. Reload the file "
                        "(your changes are lost), or keep yours (Save then overwrites the file)?").format(name=name),
                "warning", [(self.tr("Reload"), lambda: self._on_banner_reload(path)), (self.tr("Keep Mine"), self._editor.setFocus)],
                topic="disk")

    def _on_banner_reload(self, path: str) -> None:
        if path != self.file_path:
            return
        self._editor.setFocus()
        try:
            self._reload(read_script(path))
        except (OSError, UnicodeDecodeError) as exc:
            self._banner.show_message(self.tr("{path} could not be opened: {why}").format(path=path, why=getattr(exc, "strerror", None) or exc), "error", topic="files")

    def _reload(self, text: str) -> None:
        """The file's new text, with the cursor on the line it was on."""
        line = self._editor.textCursor().blockNumber() + 1
        self.set_script(text, self.file_path)
        self._editor.go_to_line(min(line, self._editor.document().blockCount()))

    def _on_disk_watch_removed(self, path: str) -> None:
        if path != self.file_path:
            return
        self._editor.document().setModified(True)  # the text is now nowhere else: keep it like unsaved text
        self._banner.show_message(self.tr("{name} was deleted or moved away on disk. Your text is still here: "
                                          "Save writes the file again.").format(name=os.path.basename(path)), "warning", topic="disk")

    # -- data files -----------------------------------------------------------------------
    def open_paths(self, paths: list[str], problems: list[str] | None = None) -> None:
        """Scripts go to the editor (the first one), everything else is loaded as data."""
        if not paths and not problems:
            return  # a dialog cancelled
        data = []
        for path in paths:
            if path.lower().endswith(".py") and os.path.isfile(path):
                self.open_script(path)
            else:
                data.append(path)
                self._add_recent(path)  # (only if it exists: a failed load is reported, not remembered)
        # Before the kernel is ready the loader's requests wait for it: files named on the
        # command line load as soon as it is.
        self._loader.load(data, problems)

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
        if self._recent is None and self._actions.recent_menu is not None:
            self._recent = RecentFilesMenu(self._actions.recent_menu, self)
            self._recent.chosen.connect(lambda path: self.open_paths([path]))
            self._recent.vanished.connect(self._on_recent_vanished)
        return self._recent

    def _on_recent_vanished(self, path: str) -> None:
        self._banner.show_message(self.tr("{path} no longer exists; it was taken off Recent Files.").format(path=path), "warning", topic="files")

    def _fill_lessons_menu(self) -> None:
        menu = self._actions.lessons_menu
        if menu is None:
            return
        menu.clear()
        for lesson in LESSONS:
            title = lesson["title_zh"] if self._language() == "zh_CN" else lesson["title_en"]
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
            self._banner.show_message(self.tr("There is no lesson called {name}.").format(name=lesson_id), "error")
            return False
        self.open_lesson(path)
        return True

    def open_lesson(self, path: str) -> None:
        """Open a built-in lesson as an unsaved copy (Save asks where to keep it), in the interface's language."""
        if not self.confirm_discard():
            return
        self.set_script(self.render_lesson(path), None)
        self._lesson_path = path
        with open(path, encoding="utf-8") as handle:
            watched = lesson_watch(handle.read())
        if watched:  # the lesson's "# watch:" line: its curves are drawn while it runs
            self._watch.set_names(watched)
        self._recovery.lesson = path
        self.update_title()
        self._editor.go_to_line(1)

    def lesson_open(self) -> bool:
        """Whether the editor holds a built-in lesson (it may have been edited since)."""
        return self._lesson_path is not None

    def in_use(self) -> bool:
        """Whether the editor holds anything worth keeping: a file, a lesson or text."""
        return bool(self.file_path or self.lesson_open() or self._editor.toPlainText().strip())

    def lessons_in_both_languages(self) -> bool:
        return QSettings().value(BOTH_KEY, False) in (True, "true")

    def set_lessons_in_both_languages(self, on: bool) -> None:
        """View > Lessons in Both Languages (remembered); an open, unedited lesson is shown again."""
        QSettings().setValue(BOTH_KEY, bool(on))
        self._actions["lesson_both"].setChecked(bool(on))
        self._rerender_lesson(same_lines=False)

    def render_lesson(self, path: str) -> str:
        """The built-in lesson at *path* in the interface's language (or both)."""
        with open(path, encoding="utf-8") as handle:
            return render_lesson(handle.read(), self._language(), both=self.lessons_in_both_languages())

    def _rerender_lesson(self, same_lines: bool = True) -> None:
        """Show the open lesson again (another language); only while the user has not edited it.

        One language has as many lines as the other, so the cursor and the
        step-through marks stay where they are; switching to both languages
        keeps the cursor's cell instead.
        """
        path = self._lesson_path
        editor = self._editor
        if path is None or editor.document().isModified():
            return
        text = self.render_lesson(path)
        if text == editor.toPlainText():
            return
        line = editor.textCursor().blockNumber() + 1
        cell = _cell_of(editor.toPlainText(), line)
        marks = editor.step_marks
        self.set_baseline(text)
        editor.setPlainText(text)
        editor.document().setModified(False)
        if same_lines:
            editor.go_to_line(line)
            editor.mark_step(*marks)
        else:
            self._stepper.reset()
            editor.mark_step(None, None)
            editor.go_to_line(_cell_start(text, cell))


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


def _cell_of(text: str, line: int) -> int:
    """How many cell markers come before *line* (1-based)."""
    return sum(1 for row in text.split("\n")[:line] if is_cell_marker(row))


def _cell_start(text: str, cell: int) -> int:
    """The line of the *cell*-th marker (1 when there is none)."""
    markers = [i + 1 for i, row in enumerate(text.split("\n")) if is_cell_marker(row)]
    return markers[cell - 1] if 0 < cell <= len(markers) else 1
