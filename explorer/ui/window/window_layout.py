"""The main window's size and layout: it fits the screen, and presentation mode shows one big pane at a time.

:class:`WindowLayout` is owned by :class:`~explorer.ui.window.main_window.MainWindow`,
which gives it itself (the geometry and the full-screen state are the window's)
and the panes it lays out. Every size the
window takes (the first one, one restored from the settings, the one after
leaving presentation mode) is fitted into the screen's available geometry, so a
1024x768 or 1280x720 projector shows the whole window. Presentation mode is a
layout, not only a font size: it fills the screen, scales the fonts, and shows
one pane (code, variables or the detail tabs) big while the others wait in a
strip of buttons; Ctrl+1/2/3 or F6 bring them back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QByteArray, QEvent, QObject, QRect, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QFont, QFontMetrics, QGuiApplication, QScreen
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QSplitter, QToolBar, QWidget

from explorer.ui.editor.code_editor_widget import CodeEditorWidget
from explorer.ui.window.pane_strip import PANES, PaneStrip
from explorer.ui.window.step_panel import StepPanel

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


@dataclass
class Panes:
    """What :class:`WindowLayout` lays out: the window's panes, its splitters ("left": the code over the
    console, "right": the variables over the details, "main": the two) and the pane buttons."""

    editor: CodeEditorWidget
    console: QWidget  # qtconsole's widget once the kernel runs (see WindowLayout.set_console)
    step_panel: StepPanel
    error_card: QWidget
    inspector: QWidget
    inspector_tree: QWidget  # the inspector's part that takes the keyboard focus
    details: QWidget
    pane_strip: PaneStrip
    splitters: dict[str, QSplitter]


class WindowLayout(QObject):
    """Geometry, presentation mode, pane focus and zoom for *window*; *presentation_action* is
    View > Presentation Mode's check box."""

    def __init__(self, window: QMainWindow, panes: Panes, presentation_action: QAction) -> None:
        super().__init__(window)
        self._window = window
        self._p = panes
        self._splitters = panes.splitters
        self._action = presentation_action
        self._base_point_size = QApplication.font().pointSizeF() or 10.0
        self._zoom = 1.0
        self._presentation = False
        self._pane = "editor"
        self._normal_geometry: QByteArray | None = None  # saveGeometry() before presentation mode
        self._normal_sizes: dict[str, list[int]] = {}
        self._console_big = False  # Ctrl+4 in presentation mode: the console gets half the code pane
        self._refit = _Refit(self._fit_code_pane, self)

    def set_console(self, console: QWidget) -> None:
        """The real console took the placeholder's place: it gets the code's font."""
        self._p.console = console
        self.apply_fonts()

    def _watch_code_pane(self) -> None:
        """The step panel and the error card change the room the code needs, and so does the pane's height."""
        for widget in (self._p.step_panel, self._p.error_card, self._splitters["left"]):
            widget.removeEventFilter(self._refit)
            widget.installEventFilter(self._refit)

    # -- fitting the screen ------------------------------------------------------------
    def _frame_margins(self) -> QSize:
        """Frame minus client size; an allowance until the window manager has framed the window."""
        extra = self._window.frameGeometry().size() - self._window.geometry().size()
        if self._window.isVisible() and (extra.width() > 0 or extra.height() > 0):
            return extra
        return FRAME_ALLOWANCE

    def fit_to_screen(self) -> None:
        """Move and shrink the window so its frame lies inside the screen's available geometry."""
        if self._window.isFullScreen() or self._window.isMaximized():
            return
        margins = self._frame_margins()
        frame = QRect(self._window.geometry().topLeft(), self._window.size() + margins)
        if self._window.isVisible():
            frame.moveTopLeft(self._window.frameGeometry().topLeft())
        target = fitted(frame, available_geometry(self._window))
        if target.size() != frame.size():
            size = target.size() - margins
            self._window.resize(max(size.width(), 1), max(size.height(), 1))
        if target.topLeft() != frame.topLeft():
            self._window.move(target.topLeft())

    def restore(self) -> None:
        """Window and pane sizes as the user left them, fitted into this screen."""
        self._window.resize(PREFERRED_SIZE)
        settings = QSettings()
        geometry = settings.value("window/geometry")
        # A size saved on another screen (a laptop, then the projector) is not this screen's: start afresh.
        saved_on = settings.value("window/screen")
        if geometry is not None and saved_on in (None, _screen_key(available_geometry(self._window))):
            self._window.restoreGeometry(geometry)
        self.fit_to_screen()
        for key, splitter in self._splitters.items():
            state = settings.value(f"window/splitter_{key}")
            if state is not None:
                splitter.restoreState(state)

    def save(self) -> None:
        settings = QSettings()
        geometry = self._window.saveGeometry()
        if self._presentation:  # remember the normal layout, not the presentation one
            self._leave_presentation_layout()
            geometry = self._normal_geometry or geometry
        settings.setValue("window/geometry", geometry)
        settings.setValue("window/screen", _screen_key(available_geometry(self._window)))
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
            self._action.setChecked(on)
            return
        self._presentation = on
        self._action.setChecked(on)
        app = QApplication.instance()
        if app is not None:
            app.setProperty("presentation", on)  # views that fit their content read it (the graph)
        if on:
            self._normal_geometry = self._window.saveGeometry()
            self._normal_sizes = {key: s.sizes() for key, s in self._splitters.items()}
            self._window.setWindowState(self._window.windowState() | Qt.WindowState.WindowFullScreen)
            QTimer.singleShot(0, self.fill_screen_if_needed)  # without a window manager nobody else does
        self.apply_fonts()
        self._p.pane_strip.setVisible(on)
        toolbar = self._window.findChild(QToolBar, "main_toolbar")
        if toolbar is not None:  # every button is a key (F5, F10, Shift+F10...): its row is code lines
            toolbar.setVisible(not on)
        self._p.step_panel.set_max_lines(PRESENTATION_STEP_LINES if on else None)
        self._watch_code_pane()
        if on:
            self._apply_pane_focus()
        else:
            self._p.console.setMinimumHeight(0)  # its own minimum again
            self._leave_presentation_layout()
            self._window.setWindowState(self._window.windowState() & ~Qt.WindowState.WindowFullScreen)
            if self._normal_geometry is not None:
                self._window.restoreGeometry(self._normal_geometry)
            self.fit_to_screen()

    def fill_screen_if_needed(self) -> None:
        """Presentation mode: cover the screen's available geometry when the full-screen state did not
        (an X server without a window manager, as a classroom kiosk may run, leaves the window's size)."""
        if not self._presentation:
            return
        available = available_geometry(self._window)
        if not self._window.frameGeometry().contains(available):
            self._window.setGeometry(available)

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
        self._p.pane_strip.set_current(pane)
        if self._presentation:
            self._apply_pane_focus()
        target = {"editor": self._p.editor, "inspector": self._p.inspector_tree, "details": self._p.details}[pane]
        target.setFocus()

    def focus_next_pane(self) -> None:
        self.focus_pane(PANES[(PANES.index(self._pane) + 1) % len(PANES)])

    def _pane_widget(self, pane: str) -> QWidget:
        return {"editor": self._splitters["left"], "inspector": self._p.inspector, "details": self._p.details}[pane]

    def _apply_pane_focus(self) -> None:
        """Hide the panes that are not focused: hidden panes take no room and fetch nothing."""
        left, right = self._splitters["left"], self._splitters["right"]
        on_left = self._pane == "editor"
        left.setVisible(on_left)
        right.setVisible(not on_left)
        self._p.inspector.setVisible(self._pane == "inspector")
        self._p.details.setVisible(self._pane == "details")
        self._p.pane_strip.set_current(self._pane)
        if not on_left:
            right.setSizes([1, 1])  # the visible one takes all the room
        else:
            self._fit_code_pane()

    def toggle_console(self) -> None:
        """Ctrl+4: in presentation mode, the console under the code big (half the pane) or small again."""
        if not self._presentation:
            self._p.console.setFocus()
            return
        self._console_big = not self._console_big
        self.focus_pane("editor")
        self._fit_code_pane()
        if self._console_big:
            self._p.console.setFocus()

    def _fit_step_rows(self, room: int) -> None:
        """The step panel's rows may take what *room* leaves beside MIN_CODE_LINES lines of code (fewer when
        the script is shorter), never less than PRESENTATION_STEP_LINES: a 4-line script shows every row."""
        editor = self._p.editor
        code_lines = min(MIN_CODE_LINES, editor.document().blockCount())
        # A line with Chinese (a comment) is taller than the code font's line spacing: count the taller.
        tallest, block = float(editor.fontMetrics().lineSpacing()), editor.firstVisibleBlock()
        for _ in range(MIN_CODE_LINES):
            if not block.isValid():
                break
            tallest, block = max(tallest, editor.blockBoundingRect(block).height()), block.next()
        code = int(tallest * (code_lines + 0.5)) + 2 * editor.frameWidth() + editor.horizontalScrollBar().sizeHint().height()
        if self._p.error_card.isVisibleTo(self._window):
            room -= self._p.error_card.sizeHint().height()
        line = self._p.step_panel.fontMetrics().height()
        spare = (room - code) // max(line, 1) - 2  # the header and the column titles
        self._p.step_panel.set_max_lines(max(PRESENTATION_STEP_LINES, spare))

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
        console: Any = self._p.console
        console.setMinimumHeight(1)  # qtconsole's own minimum is three lines: the code needs them more
        font = console.font if isinstance(getattr(console, "font", None), QFont) else console.font()
        stepping = self._p.step_panel.isVisibleTo(self._window)
        lines = 1 if stepping else PRESENTATION_CONSOLE_LINES
        needed = QFontMetrics(font).lineSpacing() * lines + 12  # and the frame
        if stepping:
            self._fit_step_rows(total - needed)
        for widget in (self._p.step_panel, self._p.error_card):
            if widget.isVisibleTo(self._window):
                needed += widget.sizeHint().height() + 6
        needed = min(needed, total * 2 // 3)
        if abs(left.sizes()[1] - needed) > 2:
            left.setSizes([total - needed, needed])

    # -- fonts and zoom --------------------------------------------------------------------
    def zoom_in(self) -> None:
        self._zoom = min(self._zoom * ZOOM_STEP, MAX_ZOOM)
        self.apply_fonts()

    def zoom_out(self) -> None:
        self._zoom = max(self._zoom / ZOOM_STEP, MIN_ZOOM)
        self.apply_fonts()

    def point_size(self) -> float:
        return self._base_point_size * self._zoom * (PRESENTATION_SCALE if self._presentation else 1.0)

    def apply_fonts(self) -> None:
        size = self.point_size()
        font = QFont(QApplication.font())
        font.setPointSizeF(size)
        QApplication.setFont(font)
        for chrome in (self._window.menuBar(), self._p.pane_strip, self._window.statusBar()):
            if self._presentation:
                small = QFont(font)
                small.setPointSizeF(self._base_point_size * self._zoom * CHROME_SCALE)
                chrome.setFont(small)
            else:
                chrome.setFont(QFont())  # the application's font again
        mono = QFont(self._p.editor.font())
        mono.setPointSizeF(size)
        self._p.editor.setFont(mono)
        console: Any = self._p.console  # qtconsole's widget: `font` is a property there, not QWidget.font()
        if hasattr(console, "font") and not isinstance(console, QLabel):
            console_font = QFont(console.font)
            console_font.setPointSizeF(size)
            console.font = console_font
        if not self._presentation:
            self.fit_to_screen()
        else:
            self._refit.eventFilter(self._window, QEvent(QEvent.Type.LayoutRequest))  # new font, new line heights

    # -- figure fonts ----------------------------------------------------------------------
    def check_figure_font(self, language: str) -> None:
        """In *language* Chinese, say once if no font can draw Chinese in the charts (their labels would be boxes)."""
        from explorer.ui.figure_fonts import cjk_family

        if language.startswith("zh") and cjk_family() is None:
            self._window.statusBar().showMessage(self.tr(
                "No Chinese font was found for the charts, so their Chinese labels show as boxes: "
                "install one (for example fonts-noto-cjk) and restart."), 15000)
