"""WindowLayout alone (issue 21): presentation mode, one pane at a time and zoom, on a plain QMainWindow
holding small stand-in panes, with no MainWindow, session or kernel."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QSplitter, QVBoxLayout, QWidget

from explorer.ui.editor.code_editor_widget import CodeEditorWidget
from explorer.ui.window.pane_strip import PaneStrip
from explorer.ui.window.step_panel import StepPanel
from explorer.ui.window.window_layout import PRESENTATION_SCALE, Panes, WindowLayout


def _layout(qtbot) -> tuple[WindowLayout, QMainWindow, Panes, QAction]:
    window = QMainWindow()
    qtbot.addWidget(window)
    editor, console, step_panel, card = CodeEditorWidget(window), QLabel("console", window), StepPanel(window), QLabel("card", window)
    inspector, details, strip = QLabel("variables", window), QLabel("details", window), PaneStrip(window)
    left, right, main = QSplitter(Qt.Orientation.Vertical), QSplitter(Qt.Orientation.Vertical), QSplitter()
    left.addWidget(editor)
    left.addWidget(console)
    right.addWidget(inspector)
    right.addWidget(details)
    main.addWidget(left)
    main.addWidget(right)
    central = QWidget(window)
    column = QVBoxLayout(central)
    column.addWidget(strip)
    column.addWidget(main)
    window.setCentralWidget(central)
    strip.hide()
    action = QAction(window)
    action.setCheckable(True)
    panes = Panes(editor, console, step_panel, card, inspector, inspector, details, strip,
                  {"left": left, "right": right, "main": main})
    layout = WindowLayout(window, panes, action)
    window.resize(900, 600)
    window.show()
    qtbot.waitExposed(window)
    return layout, window, panes, action


def test_presentation_shows_one_pane_big_and_leaving_it_shows_them_all_again(qtbot) -> None:
    layout, _window, panes, action = _layout(qtbot)
    normal = layout.point_size()
    layout.set_presentation(True)
    assert action.isChecked() and layout.is_presentation() and panes.pane_strip.isVisible()
    assert layout.point_size() == normal * PRESENTATION_SCALE
    assert QApplication.font().pointSizeF() == layout.point_size()
    assert panes.editor.isVisible() and not panes.inspector.isVisible() and not panes.details.isVisible()
    layout.focus_next_pane()
    assert layout.focused_pane() == "inspector" and panes.inspector.isVisible() and not panes.editor.isVisible()
    assert panes.pane_strip.buttons["inspector"].isChecked()
    layout.focus_pane("details")
    assert panes.details.isVisible() and not panes.inspector.isVisible()
    layout.focus_pane("nowhere")  # not a pane: nothing moves
    assert layout.focused_pane() == "details"
    layout.set_presentation(False)
    assert not action.isChecked() and not panes.pane_strip.isVisible()
    assert all(widget.isVisible() for widget in (panes.editor, panes.inspector, panes.details))
    assert layout.point_size() == normal


def test_zoom_scales_the_code_font_within_its_bounds(qtbot) -> None:
    layout, _window, panes, _action = _layout(qtbot)
    normal = layout.point_size()
    layout.zoom_in()
    assert layout.point_size() > normal and panes.editor.font().pointSizeF() == layout.point_size()
    for _ in range(40):
        layout.zoom_out()
    assert layout.point_size() == normal * 0.5  # MIN_ZOOM: never smaller


def test_outside_presentation_the_console_key_only_gives_the_console_the_focus(qtbot) -> None:
    layout, window, panes, _action = _layout(qtbot)
    sizes = panes.splitters["left"].sizes()
    panes.console.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    window.activateWindow()
    layout.toggle_console()
    qtbot.waitUntil(lambda: panes.console.hasFocus())
    assert panes.splitters["left"].sizes() == sizes
