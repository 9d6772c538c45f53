"""Issue 13 items 3-5 in the real window: F10, Shift+F10, run to cursor, before/after, lessons."""

from __future__ import annotations

import warnings
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from explorer.client.statements import split_statements
from explorer.lessons import lesson_path, render_lesson
from explorer.ui.inspector.inspector_model import InspectorModel
from tests.agent_calls import Caller
from tests.ui.window_helpers import TIMEOUT, press, type_code

#: Columns that differ between two processes running the same code (addresses) or say how the last run went.
_PROCESS_COLUMNS = ("change", "data_ptr")



def _rows(model: InspectorModel) -> list[tuple[str, ...]]:
    """Every row of the inspector as its texts, without the columns that cannot match across processes."""
    columns = [c for c in model.columns() if c.key not in _PROCESS_COLUMNS]
    return [tuple(c.text(var) for c in columns) for var in model.variables()]


def _prefix_rows(statements) -> list[list[tuple]]:
    """The inspector after running the first k statements in a fresh namespace, for every k (in this process)."""
    ns: dict = {}
    caller = Caller(ns)
    out = []
    for k in range(len(statements) + 1):
        if k:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    exec(compile(statements[k - 1].code, "<lesson>", "exec"), ns)
            except Exception:  # noqa: BLE001 - the lesson's cell that fails on purpose
                pass
            ns.pop("__builtins__", None)
        model = InspectorModel()
        model.apply_snapshot(caller.call("snapshot", overlaps=False)["result"])
        out.append(_rows(model))
    return out


def _press_step(qtbot, window, key, modifier=Qt.KeyboardModifier.NoModifier):
    with qtbot.waitSignal(window.stepper.stepped, timeout=TIMEOUT) as blocker:
        qtbot.keyClick(window.editor, key, modifier)
    QApplication.processEvents()
    return blocker.args[0]


def test_lesson_07_by_f10_and_shift_f10_equals_running_each_prefix(shared) -> None:
    """The issue's 'done when': after every step (forwards, and back by a replay), the inspector is
    what running the same prefix of statements in a fresh namespace gives."""
    qtbot, window = shared
    window.editor.document().setModified(False)
    window.files.open_lesson(lesson_path("07"))
    statements = split_statements(window.editor.toPlainText())
    assert len(statements) > 15
    expected = _prefix_rows(statements)
    window.activateWindow()
    for k in range(1, len(statements) + 1):
        result = _press_step(qtbot, window, Qt.Key.Key_F10)
        assert result.index == k - 1 and result.statement == statements[k - 1]
        assert _rows(window.inspector_model) == expected[k], statements[k - 1].code
        assert window.editor.step_marks[0] == (statements[k - 1].first_line, statements[k - 1].last_line)
    for k in range(len(statements) - 1, len(statements) - 4, -1):
        result = _press_step(qtbot, window, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
        assert result.replayed == k and window.stepper.next_index == k
        assert "replay" in window.step_panel.header_text()
        assert _rows(window.inspector_model) == expected[k], statements[k - 1].code
    result = _press_step(qtbot, window, Qt.Key.Key_F10)  # and forwards again from there
    assert result.replayed is None and _rows(window.inspector_model) == expected[len(statements) - 2]


def test_a_write_through_a_view_shows_the_base_before_and_after(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "import torch\nt = torch.arange(6).reshape(2, 3)\nsub = t[:, 1:]\nsub[0, 0] = 999")
    window.editor.go_to_line(1)
    for _ in range(4):
        result = _press_step(qtbot, window, Qt.Key.Key_F10)
    assert result.statement.code == "sub[0, 0] = 999"
    rows = {row[0]: row for row in window.step_panel.cell_texts()}
    assert rows["t"][1] == "[[0, 1, 2],\n [3, 4, 5]]"
    assert rows["t"][2] == "[[  0, 999,   2],\n [  3,   4,   5]]"
    assert "t changed through sub" in rows["t"][3]
    panel = window.step_panel
    QApplication.processEvents()
    assert panel._scroll.height() >= panel._body.sizeHint().height() > 3 * panel.fontMetrics().height()  # rows on screen
    assert window.app_state.selected_name == "sub"  # the variable the statement wrote
    assert window.editor.step_marks == ((4, 4), None)
    result = _press_step(qtbot, window, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    assert result.replayed == 3 and result.statement.code == "sub = t[:, 1:]"
    preview = window.inspector_model.variable("t")["preview"]
    assert "5" in preview and "999" not in preview  # the write is undone


def test_run_to_cursor_stops_at_the_statement_that_raises(shared) -> None:
    qtbot, window = shared
    code = "import torch\n\na = torch.ones(4, 3)\nc = a @ torch.ones(4, 5)\nafter = 1\nlast = 2"
    type_code(qtbot, window, code)
    window.stepper.reset()
    window.editor.go_to_line(6)
    result = _press_step(qtbot, window, Qt.Key.Key_F10, Qt.KeyboardModifier.ControlModifier)
    assert result.error is not None and result.statement.code.startswith("c = a @")
    qtbot.waitUntil(lambda: window.error_card.isVisible(), timeout=TIMEOUT)
    assert window.editor.error_line == 4  # the file's line, not the statement's
    assert window.inspector_model.variable("after") is None
    result = _press_step(qtbot, window, Qt.Key.Key_F10)  # F10 goes on after the error
    assert result.statement.code == "after = 1" and not window.error_card.isVisible()


def test_backward_twice_says_why_the_gradient_doubled(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "import torch\nx = torch.tensor(2.0, requires_grad=True)\n"
                             "(x * 3 * x * 3).backward()\n(x * 3 * x * 3).backward()\nx.grad.zero_()")
    window.stepper.reset()
    window.editor.go_to_line(1)
    notes = []
    for _ in range(5):
        _press_step(qtbot, window, Qt.Key.Key_F10)
        notes.append({row[0]: row for row in window.step_panel.cell_texts()}.get("x"))
    assert notes[2][2].endswith(".grad = 36.") and "filled x.grad" in notes[2][3]
    assert notes[3][1].endswith(".grad = 36.") and notes[3][2].endswith(".grad = 72.")
    assert "adds to x.grad: it was 36., now 72." in notes[3][3]
    assert "set to zeros" in notes[4][3]
    assert window.inspector_model.change_of("x")["status"] == "changed"  # the inspector marks it too


def test_watched_gradients_reach_the_graph_tab(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "import torch\nx = torch.tensor(2.0, requires_grad=True)\ny = x * 3\nz = y * y\nz.backward()")
    window.stepper.reset()
    window.editor.go_to_line(1)
    for _ in range(5):
        _press_step(qtbot, window, Qt.Key.Key_F10)
    graph = window.details.graph
    window.details.setCurrentWidget(graph)
    with qtbot.waitSignal(graph.graph_shown, timeout=TIMEOUT):
        window.inspector.select("z")
    texts = dict(zip(graph.node_labels(), graph.node_texts()))
    assert texts["x"] == "x\n.grad = 36.\n∂z/∂x = 2·y × 3 = 12 × 3 = 36"
    assert texts["y"] == "y\n∂z/∂y = 2·y = 12"
    window.details.setCurrentIndex(0)


def test_first_shift_enter_of_a_lesson_runs_code_and_selects_what_it_made(shared) -> None:
    qtbot, window = shared
    window.editor.document().setModified(False)
    window.files.open_lesson(lesson_path("07"))
    press(qtbot, window, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: window.inspector_model.variable("z") is not None, timeout=TIMEOUT)
    assert window.app_state.selected_name == "z"  # the cell's last assignment
    press(qtbot, window, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert window.app_state.selected_name == "z_made_by"


def test_lessons_follow_the_language_and_both_on_request(shared) -> None:
    qtbot, window = shared
    window.editor.document().setModified(False)
    window.files.open_lesson(lesson_path("07"))
    source = Path(lesson_path("07")).read_text(encoding="utf-8")
    assert window.editor.toPlainText() == render_lesson(source, "en")
    window.editor.go_to_line(12)
    try:
        window.set_language("zh_CN")
        qtbot.waitUntil(lambda: window.editor.toPlainText() == render_lesson(source, "zh_CN"), timeout=TIMEOUT)
        assert window.editor.textCursor().blockNumber() + 1 == 12  # the same line in the other language
        window.actions_["lesson_both"].trigger()
        assert window.editor.toPlainText() == render_lesson(source, "zh_CN", both=True)
        window.actions_["lesson_both"].trigger()
        assert window.editor.toPlainText() == render_lesson(source, "zh_CN")
        type_code(qtbot, window, "edited = 1\n")
        window.set_language("en")
        qtbot.waitUntil(lambda: window.actions_.menus["run"].title() == "&Run", timeout=TIMEOUT)
        assert window.editor.toPlainText() == "edited = 1\n"  # an edited text is the user's now
    finally:
        window.set_language("en")
        window.files.set_lessons_in_both_languages(False)
