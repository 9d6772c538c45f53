"""SelectionFetch: fetch when visible, drop replies to earlier selections and options."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from explorer import protocol
from explorer.ui.app_state import AppState
from explorer.ui.selection_fetch import SelectionFetch
from tests.ui.fakes import var as fake_var


class _HeldSource:
    """Keeps each delivery so the test decides when (and in which order) replies arrive."""

    def __init__(self) -> None:
        self.calls: list = []

    def ask(self, request, on_reply, valid=None) -> None:
        def deliver(result) -> None:
            if valid is None or valid():
                on_reply(protocol.Reply(True, result))

        self.calls.append((request, deliver))


def test_hidden_view_fetches_when_shown(qtbot) -> None:
    view = QWidget()
    qtbot.addWidget(view)
    fetched = []
    fetch = SelectionFetch(view, _HeldSource(), AppState(), lambda: fetched.append(1))
    fetch.schedule()
    assert fetched == []
    view.show()
    qtbot.waitUntil(lambda: fetched == [1])
    view.hide()
    view.show()
    assert fetched == [1]  # only once per schedule


def test_replies_to_an_earlier_option_are_dropped(qtbot) -> None:
    view = QWidget()
    qtbot.addWidget(view)
    source = _HeldSource()
    fetch = SelectionFetch(view, source, AppState())
    got = []
    fetch.ask(protocol.Image(name="a"), lambda reply: got.append(reply.result))
    fetch.restart()
    fetch.ask(protocol.Image(name="a", layout="HWC"), lambda reply: got.append(reply.result))
    source.calls[1][1]("HWC")
    source.calls[0][1]("auto")  # late reply for the old option
    assert got == ["HWC"]


def test_replies_to_an_earlier_selection_are_dropped(qtbot) -> None:
    view = QWidget()
    qtbot.addWidget(view)
    source, state = _HeldSource(), AppState()
    fetch = SelectionFetch(view, source, state)
    got = []
    state.select(fake_var("a"))
    fetch.ask(protocol.Image(name="a"), lambda reply: got.append(reply.result))
    state.select(fake_var("b"))
    fetch.ask(protocol.Image(name="b"), lambda reply: got.append(reply.result))
    source.calls[1][1]("b")
    source.calls[0][1]("a")  # the selection moved on: dropped without the view restarting anything
    assert got == ["b"]


def test_a_stale_reply_that_holds_a_resource_is_handed_back(qtbot) -> None:
    view = QWidget()
    qtbot.addWidget(view)
    source, state = _HeldSource(), AppState()
    fetch = SelectionFetch(view, source, state)
    current, stale = [], []
    fetch.ask(protocol.StatsStart(name="a"), lambda r: current.append(r.result), on_stale=lambda r: stale.append(r.result))
    state.select(fake_var("b"))
    source.calls[0][1]({"job": 7})
    assert current == [] and stale == [{"job": 7}]
