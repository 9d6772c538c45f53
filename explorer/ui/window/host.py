"""What :class:`~explorer.ui.kernel_extras.KernelExtras` may use of the main window.

:class:`MainWindow` owns an object per responsibility (files, unsaved text,
step-through, layout), each given the widgets it needs. KernelExtras is wired onto
the window from ``explorer.app`` instead (it exists only where the kernel can
pause), so it sees the window through this base of the window's: a member the window
lacks is a type error before it is a crash. At run time the base is plain ``QMainWindow``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMainWindow

if TYPE_CHECKING:
    from explorer.client.link import WindowLink
    from explorer.client.run_queue import RunQueue
    from explorer.protocol import SnapshotReply
    from explorer.ui.banner_widget import BannerWidget
    from explorer.ui.editor.code_editor_widget import CodeEditorWidget
    from explorer.ui.inspector.inspector_view import InspectorView
    from explorer.ui.window.main_actions import Actions
    from explorer.ui.window.window_runs import RunControl

    class WindowHost(QMainWindow):
        """The main window as KernelExtras sees it."""

        session: WindowLink  # a KernelSession, or a test's stand-in with the same members
        runs: RunQueue
        actions_: Actions
        editor: CodeEditorWidget
        banner: BannerWidget
        inspector: InspectorView
        running: RunControl

        def show_snapshot(self, snapshot: SnapshotReply) -> None: ...
else:
    WindowHost = QMainWindow
