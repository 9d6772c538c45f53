"""Readable from the back row (issue 24): what a class must read on a projector, on a window without a kernel."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QAbstractSlider, QWidget

from explorer.lessons import LESSONS
from tests.ui.quiet_window import quiet_window
from tests.waits import scaled_ms


def test_lessons_menu_items_carry_the_number_that_lesson_07_names(qtbot) -> None:
    window = quiet_window(qtbot)
    menu = window.actions_.lessons_menu
    texts = [action.text() for action in menu.actions()]
    assert len(texts) == len(LESSONS)
    assert any(text.startswith("07  ") for text in texts), texts
    assert all(text[:2].isdigit() for text in texts)


def test_data_ptr_is_shown_by_default(qtbot) -> None:
    QSettings().remove("inspector/hidden_columns")
    window = quiet_window(qtbot)
    tree = window.inspector.tree
    section = window.inspector.model.column_of("data_ptr")
    assert not tree.isColumnHidden(section)


def _inspector(qtbot, width: int = 900, height: int = 400):
    from explorer.ui.app_state import AppState
    from explorer.ui.inspector.inspector_model import InspectorModel
    from explorer.ui.inspector.inspector_view import InspectorView
    from tests.ui.fakes import InProcessSource

    model = InspectorModel()
    view = InspectorView(model, InProcessSource({}), AppState())
    qtbot.addWidget(view)
    view.resize(width, height)
    view.show()
    qtbot.waitExposed(view)
    return model, view


def _show(qtbot, model, variables, seq) -> None:
    with qtbot.waitSignal(model.modelReset, timeout=scaled_ms(10_000)):
        model.apply_snapshot({"full": True, "seq": seq, "variables": variables, "removed": [], "order": None,
                              "changes": {v["name"]: {"status": "new"} for v in variables}})


def _bold_width(view, text: str) -> int:
    from PySide6.QtGui import QFont, QFontMetrics

    font = QFont(view.tree.font())
    font.setBold(True)
    return QFontMetrics(font).horizontalAdvance(text)


def test_the_name_column_grows_to_names_of_a_later_step_and_to_expanded_keys(qtbot) -> None:
    from tests.ui.fakes import var

    model, view = _inspector(qtbot)
    _show(qtbot, model, [var("x", shape=[2])], 1)  # lesson 07's first step: one short name
    longer = "x_is_leaf_after_backward"
    sd = var("model_sd", "dict", children=[var("model_sd['fc.weight']", shape=[1, 3]),
                                          var("model_sd['fc.bias']", shape=[1])])
    _show(qtbot, model, [var("x", shape=[2]), var(longer, "other"), sd], 2)
    tree = view.tree
    assert tree.columnWidth(0) > _bold_width(view, longer)
    tree.expand(model.index_of("model_sd"))
    assert tree.columnWidth(0) > _bold_width(view, "model_sd['fc.weight']") + tree.indentation()
    assert tree.textElideMode() == Qt.TextElideMode.ElideMiddle  # a too-long name keeps its end: weight vs bias


def test_a_very_long_name_stops_at_the_limit_and_is_whole_in_its_tooltip(qtbot) -> None:
    from explorer.ui.inspector.inspector_view import NAME_LIMIT
    from tests.ui.fakes import var

    model, view = _inspector(qtbot)
    name = "a_name_much_longer_than_any_column_should_ever_be_on_a_projector_screen_really"
    _show(qtbot, model, [var(name, shape=[2])], 1)
    assert view.tree.columnWidth(0) <= view.tree.fontMetrics().horizontalAdvance("M") * NAME_LIMIT
    tip = model.index_of(name).data(Qt.ItemDataRole.ToolTipRole)
    assert tip.splitlines()[0] == name


def test_the_names_stay_when_the_table_scrolls_sideways(qtbot) -> None:
    from PySide6.QtCore import QPoint

    from tests.ui.fakes import var

    model, view = _inspector(qtbot, width=360)
    names = [f"tensor_{i}" for i in range(40)]
    _show(qtbot, model, [var(n, shape=[2, 3], dtype="float32", device="cpu", strides=[3, 1], memory_group="M1")
                         for n in names], 1)
    tree = view.tree
    bar = tree.horizontalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    bar.setValue(bar.maximum())  # to Offset, Grad
    frozen = view.frozen
    assert frozen.isVisible()
    qtbot.waitUntil(lambda: frozen.width() == tree.columnWidth(0) == frozen.columnWidth(0))
    assert frozen.geometry().left() == tree.frameWidth()
    mine = frozen.model().mapFromSource
    row = frozen.visualRect(mine(model.index(0, 0)))
    # the memory chip makes the tree's rows taller than a name alone: the frozen rows stay beside them
    qtbot.waitUntil(lambda: frozen.visualRect(mine(model.index(5, 0))).top() == tree.visualRect(model.index(5, 0)).top())
    at = frozen.indexAt(QPoint(4, row.center().y()))
    assert at.column() == 0 and at.data() == names[0]
    # scrolling down moves both, and a click on a frozen name selects its row
    qtbot.waitUntil(lambda: tree.verticalScrollBar().maximum() > 10)
    tree.verticalScrollBar().setValue(10)
    qtbot.waitUntil(lambda: frozen.verticalScrollBar().value() == 10)
    top = frozen.indexAt(QPoint(4, 2))
    assert top.data() == tree.indexAt(QPoint(tree.columnWidth(0) + 4, 2)).siblingAtColumn(0).data()
    qtbot.mouseClick(frozen.viewport(), Qt.MouseButton.LeftButton, pos=frozen.visualRect(top).center())  # top: its own
    assert view.app_state.selected_name == top.data()
    # the tree's selection is the frozen names' too (on the next turn: two views, two layouts, two steps)
    view.select(names[20])
    qtbot.waitUntil(lambda: [i.data() for i in frozen.selectionModel().selectedRows()] == [names[20]])
    _show(qtbot, model, [var(n, shape=[2, 3]) for n in names] + [var("sd", "dict", children=[var("sd['k']")])], 2)
    assert all(frozen.isColumnHidden(s) for s in range(1, model.columnCount()))  # a reset keeps it one column
    tree.expand(model.index_of("sd"))
    assert frozen.isExpanded(frozen.model().mapFromSource(model.index_of("sd")))


class _Console(QWidget):
    """qtconsole's shape as the window sees it: the text is ``_control``, ``font`` a property."""

    font = property(lambda self: self._control.font(), lambda self, font: self._control.setFont(font))  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        from PySide6.QtWidgets import QPlainTextEdit, QVBoxLayout

        self._control = QPlainTextEdit(self)
        QVBoxLayout(self).addWidget(self._control)


def test_the_console_shows_the_newest_output_after_each_run(qtbot) -> None:
    window = quiet_window(qtbot)
    console = _Console()
    window.attach_console(console)
    bar = console._control.verticalScrollBar()
    console._control.appendPlainText("\n".join(f"Traceback line {i}" for i in range(200)))  # the first error
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    bar.setValue(0)  # where qtconsole leaves it while another client's output comes in
    window.runs.finished.emit(None, {})
    console._control.appendPlainText("\n".join(f"second error {i}" for i in range(200)))
    qtbot.waitUntil(lambda: bar.value() == bar.maximum() and bar.maximum() > 200)
    # the user scrolls up to read: the console stays there until the next run
    bar.triggerAction(QAbstractSlider.SliderAction.SliderToMinimum)
    qtbot.waitUntil(lambda: not window.console_follow.following)
    console._control.appendPlainText("more")
    assert bar.value() == 0


def test_presentation_mode_gives_the_code_the_room_and_the_console_is_a_key_away(qtbot) -> None:
    from PySide6.QtWidgets import QToolBar

    window = quiet_window(qtbot)
    window.resize(1024, 768)
    window.layout_.set_presentation(True)
    left = window._splitters["left"]
    qtbot.waitUntil(lambda: left.sizes()[0] > 3 * left.sizes()[1])  # the console keeps its newest lines
    assert not window.findChild(QToolBar, "main_toolbar").isVisible()  # its buttons are keys
    window.actions_["toggle_console"].trigger()  # Ctrl+4
    qtbot.waitUntil(lambda: abs(left.sizes()[0] - left.sizes()[1]) <= 2)
    window.actions_["toggle_console"].trigger()
    qtbot.waitUntil(lambda: left.sizes()[0] > 3 * left.sizes()[1])
    window.layout_.set_presentation(False)
    assert window.findChild(QToolBar, "main_toolbar").isVisible()


def test_a_card_about_console_code_names_the_console_not_an_editor_line(qtbot) -> None:
    from PySide6.QtWidgets import QLabel, QPushButton

    from explorer.ui.error_card_view import ErrorCardView
    from explorer.ui.window.window_runs import in_file_lines

    warning = {"title": "y.grad is None", "explanation": "Only leaves keep .grad.", "line": 1, "fix": ""}
    card = in_file_lines(warning, None)  # the run was typed in the console
    assert card is not None and card["source"] == "console"
    view = ErrorCardView()
    qtbot.addWidget(view)
    view.show_hints([card])
    buttons = [b.text() for b in view.findChildren(QPushButton)]
    assert not any(text.startswith("line") for text in buttons), buttons
    assert "in the console" in [label.text() for label in view.findChildren(QLabel)]
    view.show_error({"type": "NameError", "message": "name 'q' is not defined", "title": "q", "line": 1,
                     "source": "console"})
    link = view.findChild(QPushButton, "lineLink")
    assert link.text() == "in the console" and not link.isEnabled()


def test_other_columns_widen_for_a_later_steps_values(qtbot) -> None:
    from tests.ui.fakes import var

    model, view = _inspector(qtbot)
    _show(qtbot, model, [var("x", shape=[2])], 1)
    shape = model.column_of("shape")
    before = view.tree.columnWidth(shape)
    _show(qtbot, model, [var("x", shape=[2]), var("z_made_by", "other", repr="'MulBackward0'")], 2)
    assert view.tree.columnWidth(shape) > max(before, view.tree.fontMetrics().horizontalAdvance("'MulBackward0'"))


def test_a_short_script_leaves_the_step_panel_room_for_every_row(qtbot) -> None:
    from explorer.client.statements import split_statements
    from explorer.client.step import StepResult
    from explorer.ui.window.window_layout import PRESENTATION_STEP_LINES

    window = quiet_window(qtbot)
    window.resize(1280, 720)
    window.editor.setPlainText("import torch\nt = torch.arange(6).reshape(2, 3)\nsub = t[:, 1:]\nsub[0, 0] = 999\n")
    window.layout_.set_presentation(True)
    statements = split_statements(window.editor.toPlainText())
    value = {"kind": "tensor", "full": True, "shape": [2, 3], "dtype": "int64", "grad": None,
             "text": "[[  0, 999,   2],\n [  3,   4,   5]]"}
    items = [{"name": name, "captured": True, "before": value, "after": value} for name in ("t", "sub")]
    window.step_panel.show_result(StepResult(statements[3], 3, 4, items))
    # both variables' two lines (and the titles) fit, where four lines showed only t
    qtbot.waitUntil(lambda: window.step_panel._max_lines > PRESENTATION_STEP_LINES)
    window.layout_.set_presentation(False)


def test_the_frozen_names_show_only_while_the_table_is_scrolled_sideways(qtbot) -> None:
    from tests.ui.fakes import var

    model, view = _inspector(qtbot, width=360)
    names = [f"tensor_{i}" for i in range(40)]
    _show(qtbot, model, [var(n, shape=[2, 3], dtype="float32", device="cpu", strides=[3, 1]) for n in names], 1)
    tree, frozen = view.tree, view.frozen
    bar = tree.horizontalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    assert not frozen.isVisible()  # over an unscrolled table it would show what the table shows, and lay out rows
    view.select(names[30])  # chosen while hidden
    qtbot.waitUntil(lambda: tree.verticalScrollBar().value() > 0)
    bar.setValue(bar.maximum())
    assert frozen.isVisible()
    qtbot.waitUntil(lambda: [i.data() for i in frozen.selectionModel().selectedRows()] == [names[30]])
    qtbot.waitUntil(lambda: frozen.verticalScrollBar().value() == tree.verticalScrollBar().value())
    bar.setValue(0)
    assert not frozen.isVisible()


def test_qtconsoles_newest_lines_are_at_the_bottom_of_its_view_not_above_it(qtbot) -> None:
    from qtconsole.rich_jupyter_widget import RichJupyterWidget

    window = quiet_window(qtbot)
    console = RichJupyterWidget()  # no kernel: its text and its scroll bar are what matter here
    window.attach_console(console)
    control = console._control
    console._append_plain_text("".join(f"output line {i}\n" for i in range(120)) + "last line")
    window.runs.finished.emit(None, {})
    bar = control.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() > 0)
    cursor = control.textCursor()
    cursor.movePosition(cursor.MoveOperation.End)
    line = control.cursorRect(cursor)
    # qtconsole's bar goes a page past the end: at its maximum the view was empty, the last line above it
    assert line.top() >= 0 and line.bottom() <= control.viewport().height()
    assert line.bottom() > control.viewport().height() - 3 * line.height()  # at the bottom: the view is full
