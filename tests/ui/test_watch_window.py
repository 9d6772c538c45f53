"""Issue 26 in the real window and kernel: lesson 10 sets its watch, and F5 draws its loss falling while it runs."""

from __future__ import annotations

from explorer.lessons import lesson_path
from tests.ui.window_helpers import TIMEOUT


def test_lesson_10_draws_its_loss_falling_while_it_runs(shared) -> None:
    qtbot, window = shared
    window.editor.document().setModified(False)
    window.open_lesson(lesson_path("10"))
    assert window.watch.names == ["loss", "w", "b"]
    assert window.inspector_model.is_pinned("loss")
    window.run_file()
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
    qtbot.waitUntil(lambda: len(window.details.watch.figure.axes) == 3, timeout=TIMEOUT)
