"""The views' matplotlib canvas: no garbage collection can delete it halfway through a draw or a paint."""

from __future__ import annotations

import gc

from matplotlib.figure import Figure
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget

from explorer.ui.canvas import Canvas, collector_paused


def _shown_canvas(qtbot) -> tuple[QWidget, Canvas]:
    """A canvas inside an owner widget, both shown (the caller keeps the owner: qtbot holds only a weak reference)."""
    owner = QWidget()
    qtbot.addWidget(owner)
    canvas = Canvas(Figure(figsize=(2, 2)))
    canvas.setParent(owner)
    canvas.resize(120, 90)
    owner.show()
    qtbot.waitExposed(owner)
    return owner, canvas


def test_the_collector_is_paused_while_the_canvas_draws_and_paints(qtbot) -> None:
    _owner, canvas = _shown_canvas(qtbot)
    during: list[bool] = []
    canvas.mpl_connect("draw_event", lambda _event: during.append(gc.isenabled()))
    assert gc.isenabled()
    canvas.draw()  # a direct draw
    canvas.draw_idle()  # a deferred one
    qtbot.waitUntil(lambda: len(during) >= 2)
    canvas.figure.add_subplot().plot([1, 2, 3])
    canvas.repaint()  # a paint with a pending draw draws inside paintEvent
    assert during and not any(during)
    assert gc.isenabled()  # and it is back on afterwards


def test_deferred_draws_coalesce_into_one_on_a_timer_the_canvas_owns(qtbot) -> None:
    _owner, canvas = _shown_canvas(qtbot)
    qtbot.waitUntil(lambda: not canvas.idle_timer.isActive())
    drawn: list[int] = []
    canvas.mpl_connect("draw_event", lambda _event: drawn.append(1))
    for _ in range(5):
        canvas.draw_idle()
    assert canvas.idle_timer.parent() is canvas and canvas.idle_timer in canvas.findChildren(QTimer)
    qtbot.waitUntil(lambda: drawn == [1])
    qtbot.wait(20)
    assert drawn == [1]


def test_a_canvas_deleted_with_a_draw_pending_never_draws(qtbot) -> None:
    owner, canvas = _shown_canvas(qtbot)
    drawn: list[int] = []
    canvas.mpl_connect("draw_event", lambda _event: drawn.append(1))
    qtbot.waitUntil(lambda: not canvas.idle_timer.isActive())
    drawn.clear()
    canvas.draw_idle()
    timer = canvas.idle_timer
    owner.deleteLater()  # the owner goes; its canvas and the canvas's timer with it
    qtbot.waitUntil(lambda: not _alive(timer))
    qtbot.wait(20)
    assert drawn == []


def test_a_draw_on_a_canvas_whose_owner_is_gone_does_nothing(qtbot) -> None:
    owner, canvas = _shown_canvas(qtbot)
    drawn: list[int] = []
    canvas.mpl_connect("draw_event", lambda _event: drawn.append(1))
    del owner  # the last reference: the owner's widget and the canvas's go at once
    assert not _alive(canvas)
    canvas.draw()
    canvas.draw_idle()
    assert drawn == []


def test_an_owner_released_during_the_draw_ends_that_draw_quietly(qtbot) -> None:
    owner, canvas = _shown_canvas(qtbot)
    holder = [owner]
    del owner
    canvas.mpl_connect("draw_event", lambda _event: holder.clear())  # drops the owner in mid-draw
    canvas.draw()
    assert not _alive(canvas)


def test_nested_pauses_keep_the_collector_off_until_the_outermost_ends() -> None:
    assert gc.isenabled()
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def _alive(obj) -> bool:
    import shiboken6

    return shiboken6.isValid(obj)
