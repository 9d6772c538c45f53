"""What the main window's mixins (and :class:`~explorer.ui.kernel_extras.KernelExtras`) may use of the window.

:class:`MainWindow` is assembled from mixins (files) and objects it owns (step-through, layout). Each mixin
calls widgets the window creates; this base names them for the type checker, so a
mixin using something the window lacks is an error before it is a crash. At run time
the base is plain ``object``: the mixins stay mixins and ``QMainWindow`` comes last.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow, QWidget

    from explorer.client.link import WindowLink
    from explorer.client.run_queue import RunQueue
    from explorer.client.step import Stepper
    from explorer.protocol import SnapshotReply
    from explorer.ui.banner_widget import BannerWidget
    from explorer.ui.detail_tabs_widget import DetailTabsWidget
    from explorer.ui.editor.code_editor_widget import CodeEditorWidget
    from explorer.ui.error_card_view import ErrorCardView
    from explorer.ui.inspector.inspector_view import InspectorView
    from explorer.ui.watch_list import WatchList
    from explorer.ui.window.data_loader import DataLoader
    from explorer.ui.window.file_watch import DiskWatch
    from explorer.ui.window.main_actions import Actions
    from explorer.ui.window.recovery import RecoveryStore
    from explorer.ui.window.step_panel import StepPanel

    class WindowHost(QMainWindow):
        """The main window as its mixins see it."""

        session: WindowLink  # a KernelSession, or a test's stand-in with the same members
        runs: RunQueue
        actions_: Actions
        editor: CodeEditorWidget
        console: QWidget
        banner: BannerWidget
        inspector: InspectorView
        details: DetailTabsWidget
        watch: WatchList
        step_panel: StepPanel
        error_card: ErrorCardView
        recovery: RecoveryStore
        disk_watch: DiskWatch
        file_path: str | None
        loader: DataLoader
        stepper: Stepper

        @property
        def language(self) -> str: ...
        def sync_script_context(self) -> None: ...
        def lesson_open(self) -> bool: ...
        def show_snapshot(self, snapshot: SnapshotReply) -> None: ...
        def stop_kernel(self) -> None: ...
else:
    WindowHost = object
