"""The main window's size and layout: it fits the screen, and presentation mode shows one big pane at a time.

A mixin for :class:`~explorer.ui.window.main_window.MainWindow`. Every size the
window takes (the first one, one restored from the settings, the one after
leaving presentation mode) is fitted into the screen's available geometry, so a
1024x768 or 1280x720 projector shows the whole window. Presentation mode is a
layout, not only a font size: it fills the screen, scales the fonts, and shows
one pane (code, variables or the detail tabs) big while the others wait in a
strip of buttons; Ctrl+1/2/3 or F6 bring them back.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QByteArray, QEvent, QObject, QRect, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QFont, QFontMetrics, QGuiApplication, QScreen, QShowEvent
from PySide6.QtWidgets import QApplication, QLabel, QToolBar, QWidget

from explorer.ui.window.host import WindowHost
from explorer.ui.window.pane_strip import PANES

PRESENTATION_SCALE = 1.8
# Presentation mode: the menu bar, the pane buttons and the status bar are for the teacher, not the class;
# this smaller scale leaves their rows' height to the code.
CHROME_SCALE = 1.25
# The size the window would like on a big screen.
PREFERRED_SIZE = QSize(1500, 950)
# Room left for the window manager's frame (title bar, borders) before the real frame is known.
FRAME_ALLOWANCE = QSize(16, 48)
ZOOM_STEP, MIN_ZOOM, MAX_ZOOM = 1.15, 0.5, 4.0
# Presentation mode, code pane: the console under the code keeps this many lines (its newest output), one
# while the step panel shows what the step did; Ctrl+4 gives it half the pane.
PRESENTATION_CONSOLE_LINES = 2
# Presentation mode: the step panel's before/after rows take at least this many lines (more when the code
# needs less than MIN_CODE_LINES), then scroll.
PRESENTATION_STEP_LINES = 4
MIN_CODE_LINES = 12


def _screen_key(available: QRect) -> str:
    """What a saved window size belongs to: the available size of the screen it was saved on."""
    return f"{available.width()}x{available.height()}"


class _Refit(QObject):
    """Calls *refit* on the next turn when a watched widget is shown, hidden or asks for a new layout."""

    _EVENTS = (QEvent.Type.Show, QEvent.Type.Hide, QEvent.Type.LayoutRequest, QEvent.Type.Resize)

    def __init__(self, refit: Any, parent: QObject) -> None:
        super().__init__(parent)
        self._refit = refit
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(refit)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in self._EVENTS:
            self._timer.start()
        return False


def available_geometry(widget: QWidget) -> QRect:
    """The available geometry of the screen *widget* is on (the primary screen before it is shown)."""
    screen: QScreen | None = widget.screen()  # None before the window is shown on some platforms
    screen = screen or QGuiApplication.primaryScreen()
    return screen.availableGeometry()


def fitted(frame: QRect, available: QRect) -> QRect:
    """*frame* moved, then shrunk where needed, so it lies inside *available*."""
    width, height = min(frame.width(), available.width()), min(frame.height(), available.height())
    left = min(max(frame.left(), available.left()), available.right() + 1 - width)
    top = min(max(frame.top(), available.top()), available.bottom() + 1 - height)
    return QRect(left, top, width, height)


class WindowLayoutMixin(WindowHost):
    """Geometry, presentation mode, pane focus and zoom for the main window."""

    def _init_layout_state(self) -> None:
        self._base_point_size = QApplication.font().pointSizeF() or 10.0
        self._zoom = 1.0
        self._presentation = False
        self._pane = "editor"
        self._normal_geometry: QByteArray | None = None  # saveGeometry() before presentation mode
        self._normal_sizes: dict[str, list[int]] = {}
        self._console_big = False  # Ctrl+4 in presentation mode: the console gets half the code pane
        self._refit = _Refit(self._fit_code_pane, self)

    def _watch_code_pane(self) -> None:
        """The step panel and the error card change the room the code needs, and so does the pane's height."""
        for widget in (self.step_panel, self.error_card, self._splitters["left"]):
            widget.removeEventFilter(self._refit)
            widget.installEventFilter(self._refit)

    # -- fitting the screen ------------------------------------------------------------
    def _frame_margins(self) -> QSize:
        """Frame minus client size; an allowance until the window manager has framed the window."""
        extra = self.frameGeometry().size() - self.geometry().size()
        if self.isVisible() and (extra.width() > 0 or extra.height() > 0):
            return extra
        return FRAME_ALLOWANCE

    def fit_to_screen(self) -> None:
        """Move and shrink the window so its frame lies inside the screen's available geometry."""
        if self.isFullScreen() or self.isMaximized():
            return
        margins = self._frame_margins()
        frame = QRect(self.geometry().topLeft(), self.size() + margins)
        if self.isVisible():
            frame.moveTopLeft(self.frameGeometry().topLeft())
        target = fitted(frame, available_geometry(self))
        if target.size() != frame.size():
            size = target.size() - margins
            self.resize(max(size.width(), 1), max(size.height(), 1))
        if target.topLeft() != frame.topLeft():
            self.move(target.topLeft())

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.fit_to_screen()  # now the window manager's frame is known

    def _restore_layout(self) -> None:
        """Window and pane sizes as the user left them, fitted into this screen."""
        self.resize(PREFERRED_SIZE)
        settings = QSettings()
        geometry = settings.value("window/geometry")
        # A size saved on another screen (a laptop, then the projector) is not this screen's: start afresh.
        saved_on = settings.value("window/screen")
        if geometry is not None and saved_on in (None, _screen_key(available_geometry(self))):
            self.restoreGeometry(geometry)
        self.fit_to_screen()
        for key, splitter in self._splitters.items():
            state = settings.value(f"window/splitter_{key}")
            if state is not None:
                splitter.restoreState(state)

    def _save_layout(self) -> None:
        settings = QSettings()
        geometry = self.saveGeometry()
        if self._presentation:  # remember the normal layout, not the presentation one
            self._leave_presentation_layout()
            geometry = self._normal_geometry or geometry
        settings.setValue("window/geometry", geometry)
        settings.setValue("window/screen", _screen_key(available_geometry(self)))
        for key, splitter in self._splitters.items():
            settings.setValue(f"window/splitter_{key}", splitter.saveState())

    # -- presentation mode ------------------------------------------------------------
    def toggle_presentation(self) -> None:
        self.set_presentation(not self._presentation)

    def is_presentation(self) -> bool:
        return self._presentation

    def set_presentation(self, on: bool) -> None:
        """Presentation mode: the whole screen, big fonts, one pane at a time (see the module docstring)."""
        if on == self._presentation:
            self.actions_["presentation"].setChecked(on)
            return
        self._presentation = on
        self.actions_["presentation"].setChecked(on)
        app = QApplication.instance()
        if app is not None:
            app.setProperty("presentation", on)  # views that fit their content read it (the graph)
        if on:
            self._normal_geometry = self.saveGeometry()
            self._normal_sizes = {key: s.sizes() for key, s in self._splitters.items()}
            self.setWindowState(self.windowState() | Qt.WindowState.WindowFullScreen)
            QTimer.singleShot(0, self.fill_screen_if_needed)  # without a window manager nobody else does
        self._apply_fonts()
        self.pane_strip.setVisible(on)
        toolbar = self.findChild(QToolBar, "main_toolbar")
        if toolbar is not None:  # every button is a key (F5, F10, Shift+F10...): its row is code lines
            toolbar.setVisible(not on)
        self.step_panel.set_max_lines(PRESENTATION_STEP_LINES if on else None)
        self._watch_code_pane()
        if on:
            self._apply_pane_focus()
        else:
            self.console.setMinimumHeight(0)  # its own minimum again
            self._leave_presentation_layout()
            self.setWindowState(self.windowState() & ~Qt.WindowState.WindowFullScreen)
            if self._normal_geometry is not None:
                self.restoreGeometry(self._normal_geometry)
            self.fit_to_screen()

    def fill_screen_if_needed(self) -> None:
        """Presentation mode: cover the screen's available geometry when the full-screen state did not
        (an X server without a window manager, as a classroom kiosk may run, leaves the window's size)."""
        if not self._presentation:
            return
        available = available_geometry(self)
        if not self.frameGeometry().contains(available):
            self.setGeometry(available)

    def _leave_presentation_layout(self) -> None:
        """Every pane visible again, at the sizes it had before presentation mode."""
        for pane in PANES:
            self._pane_widget(pane).show()
        self._splitters["left"].show()  # the main splitter's two halves
        self._splitters["right"].show()
        for key, sizes in self._normal_sizes.items():
            if sizes and sum(sizes):
                self._splitters[key].setSizes(sizes)

    # -- one pane at a time -------------------------------------------------------------
    def focused_pane(self) -> str:
        """The pane shown big in presentation mode ("editor", "inspector" or "details")."""
        return self._pane

    def focus_pane(self, pane: str) -> None:
        """Show *pane* big (presentation mode) and give it the keyboard focus."""
        if pane not in PANES:
            return
        self._pane = pane
        self.pane_strip.set_current(pane)
        if self._presentation:
            self._apply_pane_focus()
        target = {"editor": self.editor, "inspector": self.inspector.tree, "details": self.details}[pane]
        target.setFocus()

    def focus_next_pane(self) -> None:
        self.focus_pane(PANES[(PANES.index(self._pane) + 1) % len(PANES)])

    def _pane_widget(self, pane: str) -> QWidget:
        return {"editor": self._splitters["left"], "inspector": self.inspector, "details": self.details}[pane]

    def _apply_pane_focus(self) -> None:
        """Hide the panes that are not focused: hidden panes take no room and fetch nothing."""
        left, right = self._splitters["left"], self._splitters["right"]
        on_left = self._pane == "editor"
        left.setVisible(on_left)
        right.setVisible(not on_left)
        self.inspector.setVisible(self._pane == "inspector")
        self.details.setVisible(self._pane == "details")
        self.pane_strip.set_current(self._pane)
        if not on_left:
            right.setSizes([1, 1])  # the visible one takes all the room
        else:
            self._fit_code_pane()

    def toggle_console(self) -> None:
        """Ctrl+4: in presentation mode, the console under the code big (half the pane) or small again."""
        if not self._presentation:
            self.console.setFocus()
            return
        self._console_big = not self._console_big
        self.focus_pane("editor")
        self._fit_code_pane()
        if self._console_big:
            self.console.setFocus()

    def _fit_step_rows(self, room: int) -> None:
        """The step panel's rows may take what *room* leaves beside MIN_CODE_LINES lines of code (fewer when
        the script is shorter), never less than PRESENTATION_STEP_LINES: a 4-line script shows every row."""
        editor = self.editor
        code_lines = min(MIN_CODE_LINES, editor.document().blockCount())
        # A line with Chinese (a comment) is taller than the code font's line spacing: count the taller.
        tallest, block = float(editor.fontMetrics().lineSpacing()), editor.firstVisibleBlock()
        for _ in range(MIN_CODE_LINES):
            if not block.isValid():
                break
            tallest, block = max(tallest, editor.blockBoundingRect(block).height()), block.next()
        code = int(tallest * (code_lines + 0.5)) + 2 * editor.frameWidth() + editor.horizontalScrollBar().sizeHint().height()
        if self.error_card.isVisibleTo(self):
            room -= self.error_card.sizeHint().height()
        line = self.step_panel.fontMetrics().height()
        spare = (room - code) // max(line, 1) - 2  # the header and the column titles
        self.step_panel.set_max_lines(max(PRESENTATION_STEP_LINES, spare))

    def _fit_code_pane(self) -> None:
        """Presentation mode: the code gets the room; under it the step panel or error card as they need,
        and the console PRESENTATION_CONSOLE_LINES lines (half the pane after Ctrl+4)."""
        if not (self._presentation and self._pane == "editor"):
            return
        left = self._splitters["left"]
        total = sum(left.sizes()) or left.height()
        if total <= 0:
            return
        if self._console_big:
            left.setSizes([total // 2, total - total // 2])
            return
        console: Any = self.console
        console.setMinimumHeight(1)  # qtconsole's own minimum is three lines: the code needs them more
        font = console.font if isinstance(getattr(console, "font", None), QFont) else console.font()
        stepping = self.step_panel.isVisibleTo(self)
        lines = 1 if stepping else PRESENTATION_CONSOLE_LINES
        needed = QFontMetrics(font).lineSpacing() * lines + 12  # and the frame
        if stepping:
            self._fit_step_rows(total - needed)
        for widget in (self.step_panel, self.error_card):
            if widget.isVisibleTo(self):
                needed += widget.sizeHint().height() + 6
        needed = min(needed, total * 2 // 3)
        if abs(left.sizes()[1] - needed) > 2:
            left.setSizes([total - needed, needed])

    # -- fonts and zoom --------------------------------------------------------------------
    def zoom_in(self) -> None:
        self._zoom = min(self._zoom * ZOOM_STEP, MAX_ZOOM)
        self._apply_fonts()

    def zoom_out(self) -> None:
        self._zoom = max(self._zoom / ZOOM_STEP, MIN_ZOOM)
        self._apply_fonts()

    def point_size(self) -> float:
        return self._base_point_size * self._zoom * (PRESENTATION_SCALE if self._presentation else 1.0)

    def _apply_fonts(self) -> None:
        size = self.point_size()
        font = QFont(QApplication.font())
        font.setPointSizeF(size)
        QApplication.setFont(font)
        for chrome in (self.menuBar(), self.pane_strip, self.statusBar()):
            if self._presentation:
                small = QFont(font)
                small.setPointSizeF(self._base_point_size * self._zoom * CHROME_SCALE)
                chrome.setFont(small)
            else:
                chrome.setFont(QFont())  # the application's font again
        mono = QFont(self.editor.font())
        mono.setPointSizeF(size)
        self.editor.setFont(mono)
        console: Any = self.console  # qtconsole's widget: `font` is a property there, not QWidget.font()
        if hasattr(console, "font") and not isinstance(console, QLabel):
            console_font = QFont(console.font)
            console_font.setPointSizeF(size)
            console.font = console_font
        if not self._presentation:
            self.fit_to_screen()
        else:
            self._refit.eventFilter(self, QEvent(QEvent.Type.LayoutRequest))  # new font, new line heights

    # -- figure fonts ----------------------------------------------------------------------
    def _check_figure_font(self) -> None:
        """In Chinese, say once if no font can draw Chinese in the charts (their labels would be boxes)."""
        from explorer.ui.figure_fonts import cjk_family

        if self.language.startswith("zh") and cjk_family() is None:
            self.statusBar().showMessage(self.tr(
                "No Chinese font was found for the charts, so their Chinese labels show as boxes: "
                "install one (for example fonts-noto-cjk) and restart."), 15000)
