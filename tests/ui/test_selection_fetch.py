"""SelectionFetch: fetch when visible, drop replies to earlier selections."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from explorer.ui.selection_fetch import SelectionFetch


class _HeldSource:
    """Keeps callbacks so the test decides when (and in which order) replies arrive."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict, object]] = []

    def request(self, method, params, callback) -> None:
        self.calls.append((method, params, callback))


def test_hidden_view_fetches_when_shown(qtbot) -> None:
    view = QWidget()
    qtbot.addWidget(view)
    fetched = []
    fetch = SelectionFetch(view, _HeldSource(), lambda: fetched.append(1))
    fetch.schedule()
    assert fetched == []
    view.show()
    qtbot.waitUntil(lambda: fetched == [1])
    view.hide()
    view.show()
    assert fetched == [1]  # only once per schedule


def test_replies_to_an_earlier_selection_are_dropped(qtbot) -> None:
    view = QWidget()
    qtbot.addWidget(view)
    source = _HeldSource()
    fetch = SelectionFetch(view, source, lambda: None)
    got = []
    fetch.request("image", {"name": "a"}, got.append)
    fetch.restart()
    fetch.request("image", {"name": "b"}, got.append)
    source.calls[1][2]({"result": "b"})
    source.calls[0][2]({"result": "a"})  # late reply for the old selection
    assert got == [{"result": "b"}]
