"""Issue 26 in the real window and kernel: lesson 10 sets its watch, and F5 draws its loss falling while it runs."""

from __future__ import annotations

from explorer.lessons import lesson_path
from tests.ui.window_helpers import TIMEOUT


def test_lesson_10_draws_its_loss_falling_while_it_runs(shared) -> None:
    qtbot, window = shared
    window.editor.document().setModified(False)
    window.files.open_lesson(lesson_path("10"))
    assert window.watch.names == ["loss", "w", "b"]
    assert window.inspector_model.is_pinned("loss")
    window.running.run_file()
    qtbot.waitUntil(lambda: window.details.currentWidget() is window.details.page_of(window.details.watch),
                    timeout=TIMEOUT)
    # Samples arrive while the kernel is still busy with the training loop.
    qtbot.waitUntil(lambda: len((window.watch.curves.current.curves.get("loss") or ((), ()))[1]) >= 5
                    and window.session.status == "busy", timeout=TIMEOUT)
    qtbot.waitUntil(lambda: window.session.status == "idle", timeout=TIMEOUT)
    losses = [y for y in window.watch.curves.current.curves["loss"][1] if y is not None]
    assert losses[-1] < losses[0]  # the loss fell while the class watched
    ws = [y for y in window.watch.curves.current.curves["w"][1] if y is not None]
    assert ws[-1] > ws[0]  # w moves from 0 towards 3
    qtbot.waitUntil(lambda: len(window.details.watch.charts.charts) == 3, timeout=TIMEOUT)


def test_in_presentation_mode_the_details_pane_opens_on_the_curves(shared) -> None:
    """The teacher presses F5 on the code pane, then Ctrl+3: the watched run's curves, not the Image tab."""
    qtbot, window = shared
    window.editor.document().setModified(False)
    window.files.open_lesson(lesson_path("10"))
    window.details.setCurrentIndex(0)
    window.layout_.set_presentation(True)
    try:
        assert window.layout_.focused_pane() == "editor"
        window.running.run_file()
        qtbot.waitUntil(lambda: window.details.currentWidget() is window.details.page_of(window.details.watch),
                        timeout=TIMEOUT)
        assert window.layout_.focused_pane() == "editor"  # the pane shown stays the teacher's choice
        qtbot.waitUntil(lambda: window.session.status == "idle", timeout=TIMEOUT)
    finally:
        window.layout_.set_presentation(False)


def test_names_the_running_code_makes_appear_while_it_runs(shared) -> None:
    """Issue 26: new rows appear as the script creates them, with no name watched; the run's snapshot fills them in."""
    qtbot, window = shared
    window.editor.document().setModified(False)
    window.watch.set_names([])
    window.editor.setPlainText("import time\nmade_early = [1, 2]\nend = time.monotonic() + 3\n"
                               "while time.monotonic() < end:\n    time.sleep(0.01)\n")
    window.running.run_file()
    model = window.inspector_model
    qtbot.waitUntil(lambda: model.variable("made_early") is not None and window.session.status == "busy",
                    timeout=TIMEOUT)
    assert model.variable("made_early")["repr"] is None  # a name for now: its facts come with the snapshot
    assert model.variable("time") is None  # a module: the inspector never lists it
    qtbot.waitUntil(lambda: window.session.status == "idle" and bool((model.variable("made_early") or {}).get("repr")),
                    timeout=TIMEOUT)
    assert model.variable("made_early")["type"] == "list"
