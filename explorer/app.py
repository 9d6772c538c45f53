"""Builds the QApplication, the kernel session, the console and the main window, and runs them."""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import signal
import socket
import sys
from importlib import resources
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QSocketNotifier, QTimer
from PySide6.QtGui import QIcon, QKeySequence
from PySide6.QtWidgets import QApplication

if TYPE_CHECKING:
    from explorer.client.session import KernelSession
    from explorer.ui.window.main_window import MainWindow

KERNEL_START_DELAY_MS = 30
# After the kernel, the console and the detail views exist: the start-up objects are made by then.
GC_FREEZE_DELAY_MS = 3000
_KEPT: list[Any] = []


def app_icon() -> QIcon:
    """The window icon, from the package's resources."""
    return QIcon(str(resources.files("explorer") / "resources" / "icon.svg"))


def make_console(session: KernelSession) -> Any:
    """qtconsole's RichJupyterWidget on the session's kernel, through its own client."""
    from qtconsole.rich_jupyter_widget import RichJupyterWidget

    from explorer.ui.console_words import localize_console

    console = RichJupyterWidget()
    # The editor's code runs through the session's own client (so each run is known by its
    # message id); the console shows it like its own input, without a "[remote]" prefix.
    console.include_other_output = True
    console.other_output_prefix = ""
    console.kernel_manager = session.manager
    console.kernel_client = session.console_client()

    def rebind() -> None:  # Restart swapped to the spare kernel: the console follows it
        console.kernel_manager = session.manager
        console.kernel_client = session.console_client()

    swapped = getattr(session, "kernel_swapped", None)  # a session with no spare kernel has none
    if swapped is not None:
        swapped.connect(rebind)

    console.set_default_style("lightbg")
    localize_console(console)  # its banner, tips and "Kernel died, restarting" in the window's language
    # Its "Save as HTML" also wants Ctrl+S: with the console focused Qt found the shortcut
    # ambiguous and saved nothing. The window's Save wins; the export stays in the context menu.
    console.export_action.setShortcut(QKeySequence())
    return console


def create_window(options: argparse.Namespace | None = None) -> tuple[MainWindow, KernelSession]:
    """Create the session and window (the kernel starts on the first event-loop turn)."""
    from explorer.client.session import KernelSession

    # The kernel process starts first, before the window's modules are even imported: it imports
    # and loads our extension while the window is built and painted; the client connects to it
    # on the first turn of the event loop.
    session = KernelSession(cwd=os.getcwd(), connection=getattr(options, "connection", None))
    session.launch()

    from explorer.ui.app_state import AppState
    from explorer.ui.i18n import default_language
    from explorer.ui.kernel_extras import install as install_kernel_extras
    from explorer.ui.window.main_window import MainWindow

    lang = getattr(options, "lang", None) or default_language()
    state = AppState(lang)
    state.set_language(lang, remember=False)  # installs the translators before any widget exists
    session.set_language(lang)  # every handshake carries it: a restarted kernel speaks it too
    state.language_changed.connect(session.set_language)
    window = MainWindow(session, state, icon=app_icon())
    # frames, Continue (F8), input(), attached kernels; kept alive by the window
    window.kernel_extras = install_kernel_extras(window)
    window.retranslate()

    def start_kernel() -> None:
        session.start()
        window.attach_console(make_console(session))

    # After the first paint: the window appears before the kernel and the console are set up.
    QTimer.singleShot(KERNEL_START_DELAY_MS, start_kernel)
    if getattr(options, "presentation", False):
        window.layout_.set_presentation(True)
    window.files.open_paths(list(getattr(options, "files", []) or []))
    lesson = getattr(options, "lesson", None)
    if lesson:
        window.files.open_lesson_by_id(lesson)
    window.unsaved.offer_recovery()
    return window, session


def run_app(options: argparse.Namespace) -> int:
    """Entry point of the GUI: returns the exit status."""
    QCoreApplication.setOrganizationName("TensorExplorer")
    QCoreApplication.setApplicationName("Tensor Explorer")
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)  # the window needs widgets: never a bare QCoreApplication
    QApplication.setWindowIcon(app_icon())
    window, session = create_window(options)
    window.show()
    _close_on_signals(app)
    # Logout: unsaved text is kept as on any quit (asks only when autosave is off and the session lets it).
    app.commitDataRequest.connect(window.unsaved.commit_data)
    # However the app ends, unsaved text is kept first (a no-op when the window closed already);
    # then the window goes at once and a worker thread stops the kernel (the process waits for it).
    app.aboutToQuit.connect(lambda: window.unsaved.prepare_to_close(interactive=False))
    app.aboutToQuit.connect(lambda: session.shutdown(wait=False))
    # Objects made while starting (Qt wrappers, matplotlib, qtconsole) never die: keep them out
    # of the cyclic GC's full passes, which otherwise stall the window mid-refresh.
    QTimer.singleShot(GC_FREEZE_DELAY_MS, _freeze_startup_objects)
    return app.exec()


def _close_on_signals(app: QApplication) -> None:
    """SIGTERM, SIGINT and SIGHUP close the windows as Ctrl+Q does (unsaved text is kept), then the app quits.

    Python runs a signal handler only between bytecodes, and the event loop waits in C++:
    the wake-up socket lets the loop wake at once and run it.
    """
    reader, writer = socket.socketpair()
    reader.setblocking(False)
    writer.setblocking(False)
    signal.set_wakeup_fd(writer.fileno())
    notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read, app)
    notifier.activated.connect(lambda: _drain(reader))
    _KEPT.extend((reader, writer, notifier))  # alive as long as the process
    for name in ("SIGTERM", "SIGINT", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), lambda *_: QTimer.singleShot(0, app.closeAllWindows))


def _drain(reader: socket.socket) -> None:
    with contextlib.suppress(OSError):
        reader.recv(512)


def _freeze_startup_objects() -> None:
    gc.collect()
    gc.freeze()
