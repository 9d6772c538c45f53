"""The bar above the inspector: which frame's variables it shows, after an error or while code is paused.

After a run raised inside functions, the bar lists the traceback's frames of the user's
code (file, function, line); picking one makes the kernel answer every request of this
window from that frame's locals (:class:`~explorer.protocol.SelectFrame`), so the
inspector, the memory groups, the image and the values show that frame. While code waits
in ``breakpoint()`` the bar shows where, with Continue (F8) and Stop; the caller's frame
is shown at once. The frames are the kernel's until the next run starts.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QWidget

from explorer import protocol


class FramesWidget(QWidget):
    """Shows the frames of the last error or of the paused code; the chosen frame's snapshot goes to the inspector.

    Parameters
    ----------
    source : object
        Has ``ask(request, on_reply, valid)`` and, for pausing, ``resume()``.
    """

    snapshot_arrived = Signal(object)  # a full SnapshotReply of the chosen scope
    line_activated = Signal(int)  # a frame in the editor's code was chosen: its line in the file
    stop_requested = Signal()

    def __init__(self, source: protocol.RequestSource, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("frames_bar")
        self._source = source
        self._frames: list[dict[str, Any]] = []
        self._paused = False
        self._first_line: int | None = None  # where the run's code starts in the editor (None: not the editor's)
        self._token = 0
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.combo = QComboBox(self)
        self.combo.setObjectName("frames_combo")
        self.continue_button = QPushButton(self)
        self.continue_button.setObjectName("frames_continue")
        self.stop_button = QPushButton(self)
        self.stop_button.setObjectName("frames_stop")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 2)
        layout.addWidget(self.status, 1)
        layout.addWidget(self.combo)
        layout.addWidget(self.continue_button)
        layout.addWidget(self.stop_button)
        self.combo.activated.connect(self._on_combo_activated)
        self.continue_button.clicked.connect(self.resume)
        self.stop_button.clicked.connect(self.stop_requested)
        self._show_nothing()
        self.retranslate()

    # -- what the window tells it ---------------------------------------------------------
    def on_run_started(self, run: Any) -> None:
        """A run of ours began: the frames of the last one are gone."""
        self._first_line = getattr(run, "first_line", None)
        if not self._paused:
            self._show_nothing()

    def on_run_finished(self, run: Any, result: dict) -> None:
        """Offer the frames of the run's error (when it raised inside functions), else hide."""
        self._first_line = getattr(run, "first_line", None) if run is not None else None
        self._paused = False
        error = result.get("error") or {}
        frames = [f for f in error.get("frames") or [] if isinstance(f, dict)]
        if error.get("type") == "KeyboardInterrupt" or len(frames) < 2:
            self._show_nothing()  # one frame is the namespace the inspector shows already
            return
        self._show(frames, None)

    def on_paused(self, event: dict) -> None:
        """Code waits in ``breakpoint()``: show where, and the caller's frame at once."""
        frames = [f for f in event.get("frames") or [] if isinstance(f, dict)]
        selected = event.get("selected")
        self._paused = True
        self._show(frames, selected if isinstance(selected, int) else None)
        if isinstance(selected, int):
            self.select_frame(selected)

    def on_resumed(self, _event: dict) -> None:
        self._paused = False
        self._show_nothing()

    @property
    def is_paused(self) -> bool:
        return self._paused

    def frames(self) -> list[dict[str, Any]]:
        return list(self._frames)

    # -- actions ---------------------------------------------------------------------------
    def resume(self) -> None:
        """Continue (F8): the paused code goes on."""
        if self._paused and hasattr(self._source, "resume"):
            self._source.resume()

    def select_frame(self, index: int | None) -> None:
        """Show frame *index* (None: the namespace) in the inspector and every view."""
        self.combo.setCurrentIndex(0 if index is None else index + 1)
        self._token += 1
        token = self._token
        self._source.ask(protocol.SelectFrame(index=index, overlaps=False), self._on_source_replied,
                         lambda: token == self._token)
        frame = self._frames[index] if index is not None and 0 <= index < len(self._frames) else None
        line = self.file_line(frame) if frame else None
        if line is not None:
            self.line_activated.emit(line)

    def file_line(self, frame: dict[str, Any]) -> int | None:
        """The editor line of a frame in the editor's code, else None."""
        line = frame.get("line")
        if not frame.get("in_code") or self._first_line is None or not isinstance(line, int):
            return None
        return self._first_line - 1 + line

    # -- internals -------------------------------------------------------------------------
    def _on_combo_activated(self, row: int) -> None:
        self.select_frame(None if row <= 0 else row - 1)

    def _on_source_replied(self, reply: protocol.Reply[protocol.FrameReply]) -> None:
        if not reply.ok or not isinstance(reply.result, dict):
            self.status.setText(self.tr("The frames are gone: {why}").format(why=reply.message))
            self.combo.hide()
            return
        self.snapshot_arrived.emit(reply.result["snapshot"])

    def _show(self, frames: list[dict[str, Any]], selected: int | None) -> None:
        self._frames = frames
        self._token += 1
        self.combo.clear()
        self.combo.addItem(self.tr("All variables (the namespace)"))
        for frame in frames:
            self.combo.addItem(self._frame_text(frame))
            self.combo.setItemData(self.combo.count() - 1, frame.get("file") or "", Qt.ItemDataRole.ToolTipRole)
        self.combo.setCurrentIndex(0 if selected is None else selected + 1)
        self.combo.show()
        self.continue_button.setVisible(self._paused)
        self.stop_button.setVisible(self._paused)
        self._update_status()
        self.show()

    def _show_nothing(self) -> None:
        self._frames = []
        self._token += 1
        self.combo.clear()
        self.hide()

    def _frame_text(self, frame: dict[str, Any]) -> str:
        function = str(frame.get("function") or "?")
        line = self.file_line(frame)
        line = line if line is not None else frame.get("line")
        if function == "<module>":
            return self.tr("top level, line {line}").format(line=line)
        return self.tr("{function}(), line {line}").format(function=function, line=line)

    def _update_status(self) -> None:
        where = self._frame_text(self._frames[-1]) if self._frames else ""
        if self._paused:
            self.status.setText(self.tr("⏸ Paused at {where}. The inspector shows that frame's variables.").format(
                where=where))
        else:
            self.status.setText(self.tr("The error happened in {where}. Pick a frame to see its variables:").format(
                where=where))

    def retranslate(self) -> None:
        self.continue_button.setText(self.tr("Continue (F8)"))
        self.continue_button.setToolTip(self.tr("Let the paused code go on to the next breakpoint() or the end"))
        self.stop_button.setText(self.tr("Stop"))
        self.stop_button.setToolTip(self.tr("End the paused code here (KeyboardInterrupt)"))
        self.combo.setToolTip(self.tr("Whose variables the inspector, the image and the values show: "
                                      "the namespace, or one function call of the traceback"))
        if self._frames:  # the same rows, in the new language
            self.combo.setItemText(0, self.tr("All variables (the namespace)"))
            for row, frame in enumerate(self._frames, start=1):
                self.combo.setItemText(row, self._frame_text(frame))
            self._update_status()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
