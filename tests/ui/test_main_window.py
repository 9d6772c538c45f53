"""End to end: type into the editor, press the real shortcuts, read the inspector."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from tests.ui.window_helpers import TIMEOUT, press, row_text, type_code
from tests.waits import scaled_ms


def test_the_console_starts_without_comm_warnings(shared) -> None:
    """ipykernel 7 logged "No such comm" for our handshake at about every other start (see RoutingPeekFilter)."""
    _qtbot, window = shared
    assert "No such comm" not in window.console._control.toPlainText()


def test_f5_shows_strides_offset_and_memory_group(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "import torch\nt = torch.arange(10).reshape(2, 5)\ncols = t[:, 1:3]\n")
    press(qtbot, window, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: window.inspector_model.variable("cols") is not None, timeout=TIMEOUT)
    assert row_text(window, "cols", "strides") == "(5, 1)"  # torch: elements
    assert row_text(window, "cols", "storage_offset") == "1"
    assert row_text(window, "cols", "is_contiguous") == "✗"
    assert row_text(window, "cols", "memory_group") == row_text(window, "t", "memory_group") != ""
    assert row_text(window, "cols", "change") == "new"
    window.inspector.select("cols")
    # snapshots carry groups only; the exact overlaps of the selection arrive from the kernel
    qtbot.waitUntil(lambda: "cols is a view of t" in window.inspector.relation.text(), timeout=TIMEOUT)
    assert "strides 5, 1; offset 1" in window.inspector.relation.text()


def test_columns_fit_their_text_and_the_memory_chip(shared) -> None:
    """Every fitted column is as wide as Qt's own delegate needs (text, colour chip, margins): nothing elided."""
    qtbot, window = shared
    tree, model = window.inspector.tree, window.inspector_model
    try:
        for lang in ("en", "zh_CN"):  # Chinese headers are short: there the chip decides the width
            window.set_language(lang)
            type_code(qtbot, window, f"import torch\nbase = torch.zeros(4, 6)\npart = base[1:, ::2]\ndone_{lang} = 1\n")
            press(qtbot, window, Qt.Key.Key_F5)
            qtbot.waitUntil(lambda lang=lang: model.variable(f"done_{lang}") is not None, timeout=TIMEOUT)
            column = model.column_of("memory_group")
            assert model.index(model.index_of("part").row(), column).data(Qt.ItemDataRole.DecorationRole) is not None
            for section in (column, model.column_of("shape"), model.column_of("strides")):
                assert tree.columnWidth(section) >= tree.sizeHintForColumn(section), \
                    (lang, model.headerData(section, Qt.Orientation.Horizontal))
    finally:
        window.set_language("en")


def test_columns_grow_with_the_presentation_font(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "import torch\nwide = torch.zeros(2, 3)\n")
    press(qtbot, window, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: window.inspector_model.variable("wide") is not None, timeout=TIMEOUT)
    tree, model = window.inspector.tree, window.inspector_model
    sections = [model.column_of(key) for key in ("name", "type", "dtype")]
    size = tree.font().pointSizeF()
    try:
        window.layout_.set_presentation(True)  # a bigger font
        qtbot.waitUntil(lambda: tree.font().pointSizeF() > size, timeout=TIMEOUT)
        qtbot.waitUntil(lambda: all(tree.columnWidth(s) >= tree.sizeHintForColumn(s) for s in sections), timeout=scaled_ms(3000))
    finally:
        window.layout_.set_presentation(False)


def test_run_cell_and_advance_steps_through_cells(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "# %%\nfirst = 1\n# %%\nsecond = 2\n")
    window.editor.go_to_line(2)
    press(qtbot, window, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert window.inspector_model.variable("first") is not None
    assert window.inspector_model.variable("second") is None
    assert window.editor.textCursor().blockNumber() + 1 == 3
    press(qtbot, window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert window.inspector_model.variable("second") is not None
    assert window.editor.toPlainText().count("\n") == 4  # the shortcuts inserted no newline


def test_script_that_raises_marks_line_and_keeps_variables(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "import torch\na = torch.ones(4, 3)\nb = torch.ones(4, 5)\nc = a @ b\n")
    press(qtbot, window, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: window.editor.error_line == 4, timeout=TIMEOUT)
    assert window.inspector_model.variable("a") is not None
    assert window.inspector_model.variable("c") is None
    assert window.error_card.isVisible()
    assert "[4, 3]" in window.error_card.explanation_text()


def test_f9_runs_the_current_line_only(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "only_this = 7\nnot_this = 8")
    window.editor.go_to_line(1)
    press(qtbot, window, Qt.Key.Key_F9)
    assert window.inspector_model.variable("only_this") is not None
    assert window.inspector_model.variable("not_this") is None


def test_change_through_alias_is_marked(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "import torch\nsrc = torch.tensor([1.0, 2.0])\nn = src.numpy()\n")
    press(qtbot, window, Qt.Key.Key_F5)
    type_code(qtbot, window, "n[0] = 100.0")
    press(qtbot, window, Qt.Key.Key_F9)
    assert row_text(window, "src", "change") == "changed through n"


def test_stop_interrupts_an_endless_loop(shared, tmp_path) -> None:
    qtbot, window = shared
    marker = tmp_path / "looping"
    type_code(qtbot, window, f"open({str(marker)!r}, 'w').close()\nwhile True: pass")
    qtbot.keyClick(window.editor, Qt.Key.Key_F5)
    qtbot.waitUntil(marker.exists, timeout=TIMEOUT)  # the loop is really running
    with qtbot.waitSignal(window.session.run_finished, timeout=TIMEOUT):
        qtbot.keyClick(window.editor, Qt.Key.Key_Period, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.session.status == "idle", timeout=TIMEOUT)
    assert not window.error_card.isVisible()  # a Stop is not an error to explain
    type_code(qtbot, window, "alive_after_stop = True")
    press(qtbot, window, Qt.Key.Key_F5)
    assert window.inspector_model.variable("alive_after_stop") is not None


def test_dropped_files_become_variables_and_bad_ones_one_message(shared, tmp_path) -> None:
    import numpy as np

    qtbot, window = shared
    good = tmp_path / "2024 batch-data.npy"
    np.save(good, np.zeros((2, 3), dtype=np.float32))
    bad = [tmp_path / f"bad{i}.npy" for i in range(3)]
    for path in bad:
        path.write_bytes(b"not numpy at all")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in [good, *bad]] + [QUrl("https://example.org/x.npy")])
    buttons, mods = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(QPoint(50, 50), Qt.DropAction.CopyAction, mime, buttons, mods)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(50, 50), Qt.DropAction.CopyAction, mime, buttons, mods)
    with qtbot.waitSignal(window.session.run_finished, timeout=TIMEOUT):
        QApplication.sendEvent(window, drop)
    qtbot.waitUntil(lambda: window.inspector_model.variable("batch_data_2024") is not None, timeout=TIMEOUT)
    assert row_text(window, "batch_data_2024", "shape") == "[2, 3]"
    qtbot.waitUntil(lambda: window.banner.isVisible() and "could not be opened" in window.banner.text(), timeout=TIMEOUT)
    text = window.banner.text()
    assert "4 files could not be opened" in text and all(p.name in text for p in bad) and "example.org" in text


def test_language_and_presentation_mode(shared) -> None:
    qtbot, window = shared
    size = window.editor.font().pointSizeF()
    qtbot.keyClick(window.editor, Qt.Key.Key_F11)
    assert window.editor.font().pointSizeF() > size * 1.5
    window.layout_.set_presentation(False)
    window.set_language("zh_CN")
    try:
        # installing a translator posts LanguageChange events: texts change on a later turn
        qtbot.waitUntil(lambda: window.actions_.menus["run"].title() == "运行(&R)", timeout=TIMEOUT)
        qtbot.waitUntil(lambda: window.inspector_model.headerData(0, Qt.Orientation.Horizontal) == "名称", timeout=TIMEOUT)
        assert window.details.tabText(0) == "图像"
    finally:
        window.set_language("en")
    qtbot.waitUntil(lambda: window.actions_.menus["run"].title() == "&Run", timeout=TIMEOUT)


def test_seed_autograd_example_reads_as_its_graph(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "import torch\nx = torch.tensor(2.0, requires_grad=True)\ny = x * 3\nz = y * y\nz.backward()")
    press(qtbot, window, Qt.Key.Key_F5)
    window.details.setCurrentWidget(window.details.graph)
    with qtbot.waitSignal(window.details.graph.graph_shown, timeout=TIMEOUT):
        window.inspector.select("z")
    pairs = set(window.details.graph.edge_pairs())
    assert {("x", "MulBackward0"), ("MulBackward0", "y"), ("y", "MulBackward0"), ("MulBackward0", "z")} <= pairs
    assert any("36" in text for text in window.details.graph.node_texts())
    assert row_text(window, "x", "grad") == "36."  # the value, not "[] torch.float32"
    window.details.setCurrentIndex(0)


def test_console_input_updates_the_inspector(shared) -> None:
    qtbot, window = shared
    with qtbot.waitSignal(window.session.run_finished, timeout=TIMEOUT):
        window.console.execute("typed_in_console = [1, 2]", interactive=True)
    qtbot.waitUntil(lambda: window.inspector_model.variable("typed_in_console") is not None, timeout=TIMEOUT)


def test_uninitialised_tensor_gets_a_hint_card(shared) -> None:
    qtbot, window = shared
    type_code(qtbot, window, "import torch\ngarbage = torch.Tensor(2, 3)")
    press(qtbot, window, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: window.error_card.isVisible() and bool(window.error_card.hint_titles()), timeout=TIMEOUT)
    assert "torch.Tensor(2, 3)" in window.error_card.hint_titles()[0]
    assert window.editor.error_line is None


def test_opened_script_runs_with_its_file_and_folder(shared, tmp_path) -> None:
    qtbot, window = shared
    (tmp_path / "sibling_helper.py").write_text("ANSWER = 41 + 1\n")
    script = tmp_path / "lesson_here.py"
    script.write_text("import os, sibling_helper\nanswer = sibling_helper.ANSWER\nscript_name = os.path.basename(__file__)\n")
    window.editor.document().setModified(False)  # the earlier tests' typing is not worth a Save question
    assert window.files.open_script(str(script))
    assert window.windowTitle().startswith("lesson_here.py")
    press(qtbot, window, Qt.Key.Key_F5)
    assert row_text(window, "answer", "shape") == "42"
    assert row_text(window, "script_name", "shape") == "'lesson_here.py'"
    window.files.new_script()


def test_no_chinese_font_for_the_charts_is_said_in_the_status_bar(shared, monkeypatch) -> None:
    from explorer.ui import figure_fonts

    qtbot, window = shared
    monkeypatch.setattr(figure_fonts, "cjk_family", lambda: None)
    window.set_language("zh_CN")
    try:
        qtbot.waitUntil(lambda: "fonts-noto-cjk" in window.statusBar().currentMessage(), timeout=TIMEOUT)
    finally:
        window.set_language("en")
        window.statusBar().clearMessage()
