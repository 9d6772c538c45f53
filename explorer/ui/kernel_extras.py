"""What the main window gains for frames, pauses and attached kernels, wired from one place.

:func:`install` connects the inspector's frames bar to the window's runs, adds Continue
(F8) to the Run menu and the toolbar, asks the user's ``input()`` in a small dialog, and,
for a kernel the app did not start (``--existing``), disables Restart, says in the status
bar which kernel this is and shows a banner when it stops answering.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QInputDialog, QLabel, QLineEdit, QStyle, QToolBar

from explorer import protocol

if TYPE_CHECKING:
    from explorer.ui.frames_widget import FramesWidget
    from explorer.ui.window.host import WindowHost


class KernelExtras(QObject):
    """Owns the Continue action, the input dialog and the attached-kernel notes of one main window."""

    def __init__(self, window: WindowHost) -> None:
        super().__init__(window)
        self._window = window
        self._session = window.session
        self._dialog: QInputDialog | None = None
        frames = window.inspector.frames
        window.runs.started.connect(frames.on_run_started)
        window.runs.finished.connect(frames.on_run_finished)
        frames.line_activated.connect(window.editor.go_to_line)
        frames.stop_requested.connect(window.running.stop)
        self.continue_action = self._continue_action(window, frames)
        self._session.paused.connect(lambda _event: self.continue_action.setEnabled(True))
        self._session.resumed.connect(lambda _event: self.continue_action.setEnabled(False))
        self._session.run_finished.connect(self._on_session_run_finished)
        self._session.input_requested.connect(self._on_session_input_requested)
        self.attached_label: QLabel | None = None
        if not self._session.owns_kernel:
            self.attached_label = QLabel(window)
            window.statusBar().addPermanentWidget(self.attached_label)
            self._session.connection_lost.connect(self._on_session_connection_lost)
            self._session.ready.connect(self._on_session_ready)
        window.installEventFilter(self)
        self.retranslate()

    def _continue_action(self, window: WindowHost, frames: FramesWidget) -> QAction:
        action = QAction(window)
        action.setObjectName("action_continue")
        action.setShortcut(QKeySequence("F8"))
        action.setIcon(window.style().standardIcon(QStyle.StandardPixmap.SP_MediaSeekForward))
        action.setEnabled(False)
        action.triggered.connect(lambda _checked=False: frames.resume())
        window.addAction(action)
        stop = window.actions_["stop"]
        menu = window.actions_.menus.get("run")
        if menu is not None:
            menu.insertAction(stop, action)
        toolbar = window.findChild(QToolBar, "main_toolbar")
        if toolbar is not None and stop in toolbar.actions():
            toolbar.insertAction(stop, action)
        return action

    # -- texts -------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.continue_action.setText(self.tr("&Continue"))
        tip = self.tr("Let the code paused in breakpoint() go on (F8)")
        self.continue_action.setToolTip(tip)
        self.continue_action.setStatusTip(tip)
        if self._session.owns_kernel:
            return
        restart = self._window.actions_["restart"]
        restart.setEnabled(False)
        restart.setToolTip(self.tr("This kernel was started by another program (attached with --existing): "
                                   "Tensor Explorer does not restart it"))
        name = _kernel_name(self._session.connection)
        if self.attached_label is not None:
            self.attached_label.setText(self.tr("Attached to {kernel}").format(kernel=name))
            self.attached_label.setToolTip(self.tr("A kernel started by another program: Stop interrupts it, "
                                                   "quitting leaves it running"))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window and event.type() == QEvent.Type.LanguageChange:
            QTimer.singleShot(0, self.retranslate)  # after the window's own texts, which reset the Restart tip
        return False

    # -- session signals -------------------------------------------------------------------------
    def _on_session_run_finished(self, _result: dict) -> None:
        self.continue_action.setEnabled(False)
        if self._dialog is not None:  # the code that asked has ended (stopped): nothing waits for the answer
            self._dialog.blockSignals(True)
            self._dialog.close()
            self._dialog = None

    def _on_session_input_requested(self, prompt: str, password: bool) -> None:
        """The user's ``input()``: a small dialog; Cancel is end of input (EOFError in the code)."""
        dialog = QInputDialog(self._window)
        dialog.setObjectName("input_dialog")
        dialog.setWindowTitle(self.tr("The code asks for input"))
        dialog.setLabelText(prompt or self.tr("input():"))
        dialog.setTextEchoMode(QLineEdit.EchoMode.Password if password else QLineEdit.EchoMode.Normal)
        dialog.textValueSelected.connect(self._answer)
        dialog.rejected.connect(lambda: self._answer("\x04"))  # ipykernel's end of input
        self._dialog = dialog
        dialog.open()

    def _answer(self, text: str) -> None:
        self._dialog = None
        self._session.answer_input(text)

    def _on_session_ready(self, _hello: dict) -> None:
        """An attached kernel already holds variables: show them without waiting for a run."""
        window = self._window
        # Through the window's own handler: the status bar learns the kernel's torch (imported already) too.
        self._session.ask(protocol.Snapshot(overlaps=False),
                          lambda reply: window.show_snapshot(reply.result) if reply.result is not None else None)

    def _on_session_connection_lost(self) -> None:
        self.continue_action.setEnabled(False)
        self._window.banner.show_message(self.tr(
            "The attached kernel stopped answering: it ended, or the connection (or SSH tunnel) was lost. "
            "Start Tensor Explorer with --existing again once it runs."), "error", topic="connection")


def _kernel_name(connection: dict[str, Any] | None) -> str:
    from explorer.client.connection import describe

    return describe(connection or {})


def install(window: WindowHost) -> KernelExtras:
    """Wire frames, pauses, input() and attached-kernel notes into *window* (kept alive by the window)."""
    return KernelExtras(window)
