"""ScriptFiles, UnsavedText and RunControl alone (issue 21): each on a plain QMainWindow with the real small
widgets it is given and a stand-in session, with no MainWindow and no kernel process."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QMenu

from explorer.client.fix_prover import FixProver
from explorer.client.run_queue import Run, RunQueue
from explorer.client.step import Stepper
from explorer.lessons import lesson_path
from explorer.ui.banner_widget import BannerWidget
from explorer.ui.editor.code_editor_widget import CodeEditorWidget
from explorer.ui.error_card_view import ErrorCardView
from explorer.ui.watch_list import WatchList
from explorer.ui.window.data_loader import DataLoader
from explorer.ui.window.main_actions import Actions
from explorer.ui.window.recovery import RecoveryStore
from explorer.ui.window.script_files import ScriptFiles
from explorer.ui.window.unsaved_text import UnsavedText
from explorer.ui.window.window_runs import RunControl
from tests.ui.quiet_window import StandInSession


def _parts(qtbot, language: str = "en") -> dict[str, Any]:
    """A plain window, the widgets the parts get, and the three parts made as MainWindow makes them."""
    window = QMainWindow()
    qtbot.addWidget(window)
    session = StandInSession()
    runs = RunQueue(session, window)
    editor, banner, card = CodeEditorWidget(window), BannerWidget(window), ErrorCardView(window)
    window.setCentralWidget(editor)
    recovery = RecoveryStore(editor.document(), parent=window)
    stepper = Stepper(session, runs, window)
    loaded: list[list[str]] = []
    loader = DataLoader(session, lambda _code, done: done(), lambda _path, _message: False, window)
    loader.load = lambda paths, problems=None: loaded.append(list(paths))  # type: ignore[method-assign]
    both, check = QAction(window), QAction(window)
    both.setCheckable(True)
    check.setCheckable(True)
    actions = Actions(by_key={"lesson_both": both, "check_fixes": check}, recent_menu=QMenu(window), lessons_menu=QMenu(window))
    files = ScriptFiles(window, editor, banner, recovery, stepper, WatchList(session, window), actions, loader, lambda: language)
    paths: list[str | None] = []
    files.path_changed.connect(paths.append)
    unsaved = UnsavedText(window, editor, banner, recovery, files)
    after: list[Run | None] = []
    running = RunControl(window, session, runs, editor, card, banner, FixProver(runs, session, lambda: language, window),
                         stepper, check, lambda: files.file_path, after.append)
    files.retranslate()
    return {"window": window, "session": session, "editor": editor, "banner": banner, "card": card, "files": files,
            "unsaved": unsaved, "running": running, "paths": paths, "loaded": loaded, "after": after, "actions": actions}


def test_script_files_open_edit_back_and_save_keep_the_title_and_the_kernel_told(qtbot, tmp_path) -> None:
    p = _parts(qtbot)
    script = tmp_path / "lesson.py"
    script.write_text("a = 1\n", encoding="utf-8")
    assert p["files"].open_script(str(script))
    assert p["editor"].toPlainText() == "a = 1\n" and p["paths"] == [str(script)]
    assert p["window"].windowTitle().startswith("lesson.py")
    p["editor"].insertPlainText("b")
    assert p["window"].isWindowModified()
    p["editor"].undo()  # typed and taken back: unchanged again
    assert not p["window"].isWindowModified()
    p["editor"].setPlainText("a = 2\n")
    assert p["files"].save_script()
    assert script.read_text(encoding="utf-8") == "a = 2\n" and not p["window"].isWindowModified()


def test_script_files_route_scripts_to_the_editor_and_the_rest_to_the_loader(qtbot, tmp_path) -> None:
    p = _parts(qtbot)
    script, data = tmp_path / "s.py", tmp_path / "x.npy"
    script.write_text("x = 1\n", encoding="utf-8")
    data.write_bytes(b"")
    p["files"].open_paths([str(script), str(data)])
    assert p["files"].file_path == str(script) and p["loaded"] == [[str(data)]]
    p["files"].open_paths([])  # a cancelled dialog: nothing to load
    assert p["loaded"] == [[str(data)]]


def test_a_lesson_opens_in_the_interface_language_as_an_untitled_copy(qtbot) -> None:
    p = _parts(qtbot, language="zh_CN")
    assert p["files"].open_lesson_by_id("07")
    assert p["files"].lesson_open() and p["files"].file_path is None and p["paths"] == [None]
    with open(lesson_path("07"), encoding="utf-8") as handle:
        english = handle.read()
    assert p["editor"].toPlainText() != english and any("\u4e00" <= ch <= "\u9fff" for ch in p["editor"].toPlainText())
    assert [a.text() for a in p["actions"].lessons_menu.actions()][6].startswith("07")
    assert not p["files"].open_lesson_by_id("no such lesson") and p["banner"].isVisibleTo(p["window"])


def test_unsaved_text_keeps_the_editor_for_the_next_start_and_lets_the_window_close(qtbot) -> None:
    p = _parts(qtbot)
    p["unsaved"].offer_recovery()
    p["editor"].setPlainText("kept = 1\n")
    p["editor"].document().setModified(True)
    assert p["unsaved"].prepare_to_close(interactive=False)
    assert p["unsaved"].prepare_to_close()  # once let go, closing again asks nothing


def test_run_control_submits_the_cell_at_its_file_line_and_marks_the_failing_line_there(qtbot) -> None:
    p = _parts(qtbot)
    p["editor"].setPlainText("a = 1\n# %%\nb = a @ a\n")
    p["editor"].go_to_line(3)
    p["running"].run_cell()
    assert p["session"].status == "idle"
    runs: RunQueue = p["running"]._runs
    run = runs.current
    assert run is not None and run.origin == "cell" and run.first_line == 2
    error = {"type": "RuntimeError", "message": "no", "line": 2, "title": "t", "explanation": "e"}
    runs.finished.emit(run, {"msg_id": run.msg_id, "error": error})
    assert p["card"].isVisibleTo(p["window"]) and p["editor"].error_line == 3  # the file's line, not the cell's
    assert p["after"] == [run]
    p["running"].stop()
    assert "Interrupted" in p["window"].statusBar().currentMessage()
