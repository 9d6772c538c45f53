"""The main window: editor, console, inspector and detail tabs, wired to one kernel session."""

from __future__ import annotations

from importlib import metadata

from PySide6.QtCore import QEvent, Qt, QTimer, QUrl
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent, QIcon, QShowEvent
from PySide6.QtWidgets import (
    QLabel,
    QMessageBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from explorer import protocol
from explorer.client.completion import KernelCompletion
from explorer.client.fix_prover import FixProver
from explorer.client.link import WindowLink
from explorer.client.run_queue import RunQueue
from explorer.client.states import KernelStatus, ProblemKind
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
from explorer.ui.window.data_dialogs import DataDialogs
from explorer.ui.window.data_loader import DataLoader
from explorer.ui.window.host import WindowHost
from explorer.ui.window.pane_strip import PaneStrip
from explorer.ui.window.recovery import RecoveryStore
from explorer.ui.window.script_files import ScriptFiles
from explorer.ui.window.step_panel import StepPanel
from explorer.ui.window.unsaved_text import UnsavedText
from explorer.ui.window.window_layout import PRESENTATION_SCALE, Panes, WindowLayout
from explorer.ui.window.window_runs import RunControl
from explorer.ui.window.window_steps import StepControl

__all__ = ["PRESENTATION_SCALE", "MainWindow"]
# The Chinese-font check waits this long after start: it may scan the system's fonts.
FONT_CHECK_DELAY_MS = 1500


def _installed_version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


class MainWindow(WindowHost):
    """Receives the kernel *session* and the shared *state*; owns every widget and connects their signals.

    Each responsibility is an object the window owns: :attr:`files` (the script and its file, lessons, data
    files), :attr:`unsaved` (recovery and quitting), :attr:`steps` (step-through), :attr:`layout_` (sizes,
    presentation mode, zoom). The window itself runs code and shows what the kernel says.
    """

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
        self._kernel_torch: str | None = None
        self._build_widgets(console)
        self.actions_ = main_actions.build(self)
        self.layout_ = WindowLayout(self, Panes(self.editor, self.console, self.step_panel, self.error_card,
                                                self.inspector, self.inspector.tree, self.details, self.pane_strip,
                                                self._splitters), self.actions_["presentation"])
        self.pane_strip.pane_chosen.connect(self.layout_.focus_pane)
        self._build_status_bar()
        self.steps = StepControl(session, self.runs, self.editor, self.step_panel, self.inspector_model, self.inspector,
                                 self.statusBar(), self.kernel_label, self.actions_["watch_gradients"],
                                 self.actions_["spare_kernel"], lambda: self.files.lesson_open(), self)
        self.steps.kernel_status_due.connect(lambda: self._on_session_status_changed(self.session.status))
        self.stepper = self.steps.stepper
        self.running = RunControl(self, session, self.runs, self.editor, self.error_card, self.banner, self.fix_prover,
                                  self.stepper, self.actions_["check_fixes"], lambda: self.files.file_path,
                                  self.steps.select_after_run)
        self._connect()
        self.setAcceptDrops(True)
        self.recovery = RecoveryStore(self.editor.document(), parent=self)
        self.data_dialogs = DataDialogs(self, self.banner)
        self.loader = DataLoader(session, self.running.run_loading_code, self.data_dialogs.confirm_pickle, self)
        self.loader.problems_reported.connect(self.data_dialogs.report)
        self.files = ScriptFiles(self, self.editor, self.banner, self.recovery, self.stepper, self.watch, self.actions_,
                                 self.loader, lambda: self.language)
        self.files.path_changed.connect(lambda _path: self.sync_script_context())
        self.unsaved = UnsavedText(self, self.editor, self.banner, self.recovery, self.files)
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
        self.session.kernel_died.connect(self._on_session_kernel_died)
        self.session.kernel_restarted.connect(self._on_session_kernel_restarted)
        self.session.ready.connect(self._on_session_ready)
        self.session.problem.connect(self._on_session_problem)
        self.inspector_model.out_of_step.connect(self._on_inspector_model_out_of_step)
        self.inspector.watch_toggled.connect(self.watch.toggle)
        self.watch.changed.connect(self.inspector_model.set_pinned)
        self.watch.run_started.connect(self._on_watch_run_started)
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
        self.files.retranslate()
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

    def _on_watch_run_started(self) -> None:
        """A watched run began: its curves are the detail tab shown (in presentation mode, when the details pane is)."""
        self.details.setCurrentWidget(self.details.watch)

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
        self.session.ask(protocol.ScriptContext(path=self.files.file_path), lambda _reply: None)

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

    def _on_session_kernel_died(self, message: str) -> None:
        self.stepper.reset()
        self.banner.show_message(self.tr("The kernel died (the code crashed or called exit); it is restarting. Your script is safe in the editor."), "warning", topic="kernel")

    def _on_session_kernel_restarted(self) -> None:
        self.banner.clear("version")  # the new kernel is asked again
        self.inspector.apply_snapshot(protocol.empty_snapshot())
        if not self.stepper.is_replaying():
            self.statusBar().showMessage(self.tr("A fresh kernel is ready; run your code again"), 8000)

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
        self.files.open_paths(paths, problems)

    # -- help ---------------------------------------------------------------------------------
    def show_about(self) -> None:
        from explorer import __version__

        QMessageBox.about(self, self.tr("About Tensor Explorer"), self.tr(
            "Tensor Explorer {version}\nSee what every tensor is: shape, dtype, device, strides, shared memory, autograd and images.").format(version=__version__))

    def show_shortcuts(self) -> None:
        from explorer.ui.window.shortcuts_dialog import ShortcutsDialog

        ShortcutsDialog(self).exec()

    def closeEvent(self, event: QCloseEvent) -> None:
        # Unsaved text is kept for the next start (hot exit); only with autosave off is there a question.
        if not self.unsaved.prepare_to_close():
            event.ignore()
            return
        self.fix_prover.shutdown()  # a pending proof's kernel goes now, not when the process ends
        self.layout_.save()
        super().closeEvent(event)

