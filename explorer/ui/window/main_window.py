"""The main window: editor, console, inspector and detail tabs, wired to one kernel session."""

from __future__ import annotations

from collections.abc import Callable
from importlib import metadata

from PySide6.QtCore import QEvent, Qt, QTimer, QUrl
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent, QIcon, QShowEvent
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from explorer import protocol
from explorer.client.completion import KernelCompletion
from explorer.client.fix_prover import FixProver
from explorer.client.link import WindowLink
from explorer.client.run_queue import Run, RunQueue
from explorer.client.states import KernelStatus, ProblemKind
from explorer.protocol.cells import has_code
from explorer.ui.app_state import AppState
from explorer.ui.banner_widget import BannerWidget
from explorer.ui.console_follow import ConsoleFollow
from explorer.ui.detail_tabs_widget import DetailTabsWidget
from explorer.ui.editor.code_editor_widget import CodeEditorWidget
from explorer.ui.error_card_view import ErrorCardView
from explorer.ui.i18n import LANGUAGES
from explorer.ui.inspector.inspector_model import InspectorModel
from explorer.ui.inspector.inspector_view import InspectorView
from explorer.ui.kernel_extras import KernelExtras
from explorer.ui.watch_list import WatchList
from explorer.ui.window import main_actions
from explorer.ui.window.data_loader import DataLoader
from explorer.ui.window.file_watch import DiskWatch
from explorer.ui.window.pane_strip import PaneStrip
from explorer.ui.window.recovery import RecoveryStore
from explorer.ui.window.step_panel import StepPanel
from explorer.ui.window.window_disk import WindowDiskMixin
from explorer.ui.window.window_files import WindowFilesMixin
from explorer.ui.window.window_layout import PRESENTATION_SCALE, Panes, WindowLayout
from explorer.ui.window.window_recovery import WindowRecoveryMixin
from explorer.ui.window.window_steps import StepControl

__all__ = ["PRESENTATION_SCALE", "MainWindow"]
# The Chinese-font check waits this long after start: it may scan the system's fonts.
FONT_CHECK_DELAY_MS = 1500


def _installed_version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


class MainWindow(WindowRecoveryMixin, WindowDiskMixin, WindowFilesMixin, QMainWindow):
    """Receives the kernel *session* and the shared *state*; owns every widget and connects their signals."""

    def __init__(self, session: WindowLink, state: AppState | None = None, console: QWidget | None = None,
                 icon: QIcon | None = None) -> None:
        super().__init__()
        self.session = session
        self.app_state = state or AppState()
        self.runs = RunQueue(session, self)
        self.fix_prover = FixProver(self.runs, session, lambda: self.language, self)
        self.setObjectName("main_window")
        if icon is not None:
            self.setWindowIcon(icon)
        self.file_path: str | None = None
        self._kernel_torch: str | None = None
        self._card_run: Run | None = None  # the run the error card speaks of
        self._build_widgets(console)
        self.actions_ = main_actions.build(self)
        self.layout_ = WindowLayout(self, Panes(self.editor, self.console, self.step_panel, self.error_card,
                                                self.inspector, self.inspector.tree, self.details, self.pane_strip,
                                                self._splitters), self.actions_["presentation"])
        self.pane_strip.pane_chosen.connect(self.layout_.focus_pane)
        self._build_status_bar()
        self.steps = StepControl(session, self.runs, self.editor, self.step_panel, self.inspector_model, self.inspector,
                                 self.statusBar(), self.kernel_label, self.actions_["watch_gradients"],
                                 self.actions_["spare_kernel"], self.lesson_open, self)
        self.steps.kernel_status_due.connect(lambda: self._on_session_status_changed(self.session.status))
        self.stepper = self.steps.stepper
        self.actions_["lesson_both"].setChecked(self.lessons_in_both_languages())
        self.actions_["check_fixes"].setChecked(self.fix_prover.enabled)
        self._connect()
        self.setAcceptDrops(True)
        self.disk_watch = DiskWatch(self)
        self.disk_watch.changed.connect(self._on_disk_watch_changed)
        self.disk_watch.removed.connect(self._on_disk_watch_removed)
        self.recovery = RecoveryStore(self.editor.document(), parent=self)
        self.recovery.failed.connect(self._on_recovery_failed)
        self.editor.document().contentsChanged.connect(self._on_editor_contents_changed)
        self.loader = DataLoader(session, self._run_loading_code, self._confirm_pickle, self)
        self.loader.problems_reported.connect(self._on_loader_problems_reported)
        self.loader.loaded.connect(lambda _name: self.banner.clear("files"))  # an older failure has passed
        self.retranslate()
        self.layout_.restore()

    # -- construction -----------------------------------------------------------------
    def _build_widgets(self, console: QWidget | None) -> None:
        self.editor = CodeEditorWidget(self)
        self.editor.set_completion_source(KernelCompletion(self.session, self))
        self.console = console or QLabel(self.tr("Starting the Python kernel…"), self)
        self.error_card = ErrorCardView(self)
        self.error_card.hide()
        self.step_panel = StepPanel(self)
        self.banner = BannerWidget(self)
        self.inspector_model = InspectorModel(self)
        self.inspector = InspectorView(self.inspector_model, self.session, self.app_state, self)
        self.watch = WatchList(self.session, self)
        self.details = DetailTabsWidget(self.session, self.app_state, self, watch=self.watch)
        left = QSplitter(Qt.Orientation.Vertical, self)
        left.addWidget(self.editor)
        bottom = QWidget(self)
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(self.step_panel)
        bottom_layout.addWidget(self.error_card)
        bottom_layout.addWidget(self.console, 1)
        self._bottom_layout = bottom_layout
        left.addWidget(bottom)
        left.setSizes([560, 360])
        right = QSplitter(Qt.Orientation.Vertical, self)
        right.addWidget(self.inspector)
        right.addWidget(self.details)
        right.setSizes([430, 490])
        main = QSplitter(Qt.Orientation.Horizontal, self)
        main.addWidget(left)
        main.addWidget(right)
        main.setSizes([700, 800])
        self._splitters = {"left": left, "right": right, "main": main}
        self.pane_strip = PaneStrip(self)
        self.kernel_extras: KernelExtras | None = None  # frames, pauses, input(): set by explorer.app
        self.pane_strip.hide()
        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.banner)
        layout.addWidget(self.pane_strip)
        layout.addWidget(main, 1)
        self.setCentralWidget(central)

    def _build_status_bar(self) -> None:
        self.kernel_label = QLabel(self)
        self.torch_label = QLabel(self)
        self.grad_label = QLabel(self)
        for label in (self.grad_label, self.torch_label, self.kernel_label):
            self.statusBar().addPermanentWidget(label)
        self._installed_torch = _installed_version("torch")

    def _connect(self) -> None:
        self.session.status_changed.connect(self._on_session_status_changed)
        self.session.namespace_changed.connect(self._on_session_namespace_changed)
        # A run's reply carries the selection's overlaps; the kernel's pushed replies follow the selection.
        self.session.selected_overlaps.connect(self.inspector.offer_overlaps)
        self.session.selection = lambda: self.app_state.selected_name
        self.app_state.selection_changed.connect(self.session.selection_moved)
        self.runs.started.connect(self._on_runs_started)
        self.runs.finished.connect(self._on_runs_finished)
        self.session.kernel_died.connect(self._on_session_kernel_died)
        self.session.kernel_restarted.connect(self._on_session_kernel_restarted)
        self.session.ready.connect(self._on_session_ready)
        self.session.problem.connect(self._on_session_problem)
        self.inspector_model.out_of_step.connect(self._on_inspector_model_out_of_step)
        self.inspector.watch_toggled.connect(self.watch.toggle)
        self.watch.changed.connect(self.inspector_model.set_pinned)
        self.watch.run_started.connect(self._on_watch_run_started)
        self.error_card.line_activated.connect(self._on_error_card_line_activated)
        self.fix_prover.checked.connect(self.error_card.show_proof)
        self.editor.document().modificationChanged.connect(self._on_editor_modification_changed)
        self.app_state.language_changed.connect(self._on_state_language_changed)
        if self.language.startswith("zh"):
            QTimer.singleShot(FONT_CHECK_DELAY_MS, lambda: self.layout_.check_figure_font(self.language))  # after the first paint

    def attach_console(self, console: QWidget) -> None:
        """Put the real console (created once the kernel runs) in place of the placeholder."""
        self._bottom_layout.replaceWidget(self.console, console)
        self.console.deleteLater()
        self.console = console
        self.console_follow = ConsoleFollow(self.runs, console)  # the newest output after each run
        self.layout_.set_console(console)

    # -- language and fonts -----------------------------------------------------------------
    def retranslate(self) -> None:
        main_actions.retranslate(self, self.actions_)
        self.editor.setPlaceholderText(self.tr(
            "Type PyTorch code here and press F5 to run it, e.g.\n\n"
            "import torch\nt = torch.arange(10).reshape(2, 5)\ncols = t[:, 1:3]\n\n"
            "Or open a ready lesson from the Lessons menu and step through it with Shift+Enter."))
        self._fill_language_menu()
        self._fill_lessons_menu()
        self._rerender_lesson()
        self._update_recent_menu()
        self._update_title()
        self._on_session_status_changed(self.session.status)
        self._show_torch_version(self._kernel_torch)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.layout_.fit_to_screen()  # now the window manager's frame is known

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    @property
    def language(self) -> str:
        return self.app_state.language

    def set_language(self, lang: str) -> None:
        """Switch the interface (and, through the state, the kernel's sentences) to *lang*."""
        self.app_state.set_language(lang)

    def _on_state_language_changed(self, _lang: str) -> None:
        QTimer.singleShot(0, lambda: self.layout_.check_figure_font(self.language))

    def _fill_language_menu(self) -> None:
        menu = self.actions_.language_menu
        if menu is None:  # the menus are not built yet
            return
        menu.clear()
        for code, title in LANGUAGES.items():
            action = menu.addAction(title)
            action.setCheckable(True)
            action.setChecked(code == self.language)
            action.triggered.connect(lambda _=False, c=code: self.set_language(c))

    # -- running code ------------------------------------------------------------------
    def run_file(self) -> None:
        self._submit(Run(self.editor.toPlainText(), 1, "file"))

    def run_cell(self) -> None:
        code, first = self.editor.current_cell()
        self._submit(Run(code, first, "cell"))

    def run_cell_and_advance(self) -> None:
        # A cell of comments only (a lesson's title) would run nothing visible: start at the next cell with code.
        while not has_code(self.editor.current_cell()[0]) and self.editor.advance_to_next_cell():
            pass
        self.run_cell()
        self.editor.advance_to_next_cell()

    def run_selection(self) -> None:
        code, first = self.editor.selection_or_line()
        self._submit(Run(code, first, "selection"))

    def _submit(self, run: Run) -> None:
        self.runs.submit(run)

    def _on_runs_started(self, run: Run) -> None:
        """A run of ours began: the last run's error marks, cards and restart notice are out of date."""
        self.banner.clear("restarted")
        self.editor.mark_error_line(None)
        self.error_card.clear()
        self.error_card.hide()

    def _on_watch_run_started(self) -> None:
        """A watched run began: its curves are the detail tab shown (in presentation mode, when the details pane is)."""
        self.details.setCurrentWidget(self.details.watch)

    def _run_loading_code(self, code: str, done: Callable[[], None]) -> None:
        """Run a data file's loading snippet visibly (the console shows it), then call *done*."""
        self.runs.submit(Run(code, None, "load", on_finished=lambda _result: done()))

    def step(self) -> None:
        """F10 (see :meth:`StepControl.step`)."""
        self.steps.step()

    def step_back(self) -> None:
        """Shift+F10 (see :meth:`StepControl.step_back`)."""
        self.steps.step_back()

    def stop_kernel(self) -> None:
        self.runs.clear()
        self.session.interrupt()
        self.statusBar().showMessage(self.tr("Interrupted: the running code was stopped"), 5000)

    def set_check_fixes(self, on: bool) -> None:
        """Run > Check Fixes on My Script: prove each error card's fix in the background, or not."""
        self.fix_prover.set_enabled(on)
        self.actions_["check_fixes"].setChecked(self.fix_prover.enabled)
        if not on:
            self.error_card.show_proof(None)

    def restart_kernel(self) -> None:
        self.stepper.reset()
        self.runs.clear()
        self.session.restart()

    # -- session signals ------------------------------------------------------------------
    def _on_session_status_changed(self, status: KernelStatus) -> None:
        texts = {"starting": self.tr("Kernel starting…"), "idle": self.tr("Kernel idle"),
                 "busy": self.tr("Kernel busy"), "restarting": self.tr("Kernel restarting…"),
                 "dead": self.tr("Kernel stopped")}
        colors = {"starting": "#E69F00", "idle": "#009E73", "busy": "#D55E00", "restarting": "#E69F00", "dead": "#888888"}
        if not (self.stepper.is_replaying() and status in ("idle", "busy")):  # a replay shows its progress there
            self.kernel_label.setText(f"<span style='color:{colors.get(status, '#888')}'>●</span> "
                                      f"{texts.get(status, status)}")
        self.kernel_label.setToolTip(self.tr("The Python process that runs your code. Stop interrupts it; Restart starts a fresh one."))
        # Enabled whenever a kernel runs: the GUI may not have heard "busy" yet when the user
        # presses Stop, and interrupting an idle kernel does no harm.
        self.actions_["stop"].setEnabled(status in ("idle", "busy"))

    def sync_script_context(self) -> None:
        """Tell the kernel which file the editor holds (``__file__``, sibling imports); waits for the kernel."""
        self.session.ask(protocol.ScriptContext(path=self.file_path), lambda _reply: None)

    def _on_session_ready(self, _hello: dict) -> None:
        """After every start and restart: the kernel has a fresh namespace and our script's context."""
        if self.banner.topic() == "kernel":  # "the kernel died, restarting" has passed: say what is now
            self.banner.show_message(self.tr("The kernel died and was restarted: your variables are gone, "
                                             "your script is safe in the editor. Run it again."),
                                     "warning", topic="restarted")
        self.sync_script_context()

    def show_snapshot(self, snapshot: protocol.SnapshotReply) -> None:
        """A snapshot asked for outside a run (an attached kernel's variables): shown as a run's would be."""
        self._on_session_namespace_changed(snapshot)

    def _on_session_namespace_changed(self, snapshot: protocol.SnapshotReply) -> None:
        self.steps.remember_changes(snapshot["changes"])
        self.inspector.apply_snapshot(snapshot)
        self._kernel_torch = snapshot["torch_version"]
        self._show_torch_version(self._kernel_torch)
        grad = snapshot["grad_enabled"]
        #: Status bar warning: the kernel runs under torch.no_grad(), so no graph is recorded.
        self.grad_label.setText("" if grad else self.tr("⚠ no_grad: gradients are off"))
        self.grad_label.setToolTip(self.tr("torch.is_grad_enabled() is False in the kernel: operations are not recorded for backward()"))

    def _on_session_problem(self, kind: ProblemKind, facts: dict) -> None:
        """The kernel runs another release of the kernel side, or cannot load it: say what to install."""
        if kind == "version":
            text = self.tr("The kernel has tensor-explorer {kernel}, the app {app}: its answers may be wrong. "
                           "Run `pip install tensor-explorer=={app}` in the kernel's environment and restart it.").format(
                kernel=facts.get("kernel"), app=facts.get("app"))
        else:
            text = self.tr("The kernel cannot load the tensor-explorer extension ({error}). Run "
                           "`pip install tensor-explorer` in the kernel's environment and restart it.").format(
                error=facts.get("error") or self.tr("no answer"))
        self.banner.show_message(text, "error", topic="version")

    def _on_inspector_model_out_of_step(self) -> None:
        """A snapshot reply was lost: ask for everything once."""
        self.session.ask(protocol.Snapshot(overlaps=False),
                         lambda reply: self.inspector.apply_snapshot(reply.result) if reply.result is not None else None)

    def _show_torch_version(self, imported: str | None) -> None:
        """The kernel's torch version once imported; before that, the installed one (read without importing)."""
        if imported:
            self.torch_label.setText(self.tr("torch {version}").format(version=imported))
        elif self._installed_torch:
            self.torch_label.setText(self.tr("torch {version} (not imported yet)").format(version=self._installed_torch))
        else:
            self.torch_label.setText(self.tr("torch is not installed"))

    def _on_runs_finished(self, run: Run | None, result: dict) -> None:
        """Show what a finished run left: its error card (marked in the editor), or its hints and warnings."""
        self._card_run = run
        error = _in_file_lines(result.get("error"), run)
        cards = (result.get("hints") or []) + (result.get("warnings") or [])
        notes = [note for card in cards if (note := _in_file_lines(card, run)) is not None]
        if error and error.get("type") == "KeyboardInterrupt":
            # The user pressed Stop: nothing to explain.
            self.statusBar().showMessage(self.tr("Stopped (KeyboardInterrupt)"), 6000)
        elif error:
            self.error_card.show_error(error)
            # The fix is run on the script in the background: "checking…" now, the verdict later.
            script = run.code if run is not None and run.origin == "file" else self.editor.toPlainText()
            self.error_card.show_proof(self.fix_prover.check(run, error, script, self.file_path))
            self.error_card.show()
            if run is not None and isinstance(error.get("line"), int):
                self.editor.mark_error_line(error["line"])
        elif notes:
            self.error_card.show_error(None)
            self.error_card.show_hints(notes)
            self.error_card.show()
        elif run is not None:
            self.error_card.clear()
            self.error_card.hide()
        self.steps.select_after_run(run)

    def _on_session_kernel_died(self, message: str) -> None:
        self.stepper.reset()
        self.banner.show_message(self.tr("The kernel died (the code crashed or called exit); it is restarting. Your script is safe in the editor."), "warning", topic="kernel")

    def _on_session_kernel_restarted(self) -> None:
        self.banner.clear("version")  # the new kernel is asked again
        self.inspector.apply_snapshot(protocol.empty_snapshot())
        if not self.stepper.is_replaying():
            self.statusBar().showMessage(self.tr("A fresh kernel is ready; run your code again"), 8000)

    def _on_error_card_line_activated(self, line: int) -> None:
        """The card's lines are the file's lines when the card came from the editor's code."""
        if self._card_run is not None and self._card_run.first_line is not None:
            self.editor.go_to_line(line)
            self.editor.setFocus()

    # -- drag and drop -------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        urls = event.mimeData().urls()
        if urls:
            event.acceptProposedAction()
            self.open_urls(urls)

    def open_urls(self, urls: list[QUrl]) -> None:
        paths, problems = [], []
        for url in urls:
            if url.isLocalFile():
                paths.append(url.toLocalFile())
            else:
                problems.append(self.tr("{url}: only files on this computer can be opened, not web addresses.").format(url=url.toString()))
        self.open_paths(paths, problems)

    def closeEvent(self, event: QCloseEvent) -> None:
        # Unsaved text is kept for the next start (hot exit); only with autosave off is there a question.
        if not self.prepare_to_close():
            event.ignore()
            return
        self.fix_prover.shutdown()  # a pending proof's kernel goes now, not when the process ends
        self.layout_.save()
        super().closeEvent(event)


def _in_file_lines(card: dict | None, run: Run | None) -> dict | None:
    """*card* with ``line`` and ``fix_line`` counted in the editor's file, when *run* was the editor's code.

    The kernel counts lines in the code it was given (a cell, a selection); the
    editor, the gutter and the card all speak of the file. Code typed in the console (no *run*) has no
    file line: the card says it came from the console.
    """
    if card and run is None:
        return {**card, "source": "console"}
    if not card or run is None or run.first_line is None:
        return card
    out = dict(card)
    for key in ("line", "fix_line"):
        if isinstance(card.get(key), int):
            out[key] = run.file_line(card[key])
    return out
