"""The Watch tab (issue 26): pins, curves that grow while code runs, pause, comparing two runs.

The session is a stand-in with the real session's signals; samples are the kernel's
``watch_sample`` events as :mod:`tests.client.test_watch` receives them.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMenu

from explorer import protocol
from explorer.ui.app_state import AppState
from explorer.ui.inspector.inspector_model import InspectorModel
from explorer.ui.inspector.inspector_view import InspectorView
from explorer.ui.watch_list import WatchList
from explorer.ui.watch_panel import WatchPanel
from tests.ui.fakes import var


class FakeSession(QObject):
    watch_sampled = Signal(object)
    run_started = Signal(object)
    run_finished = Signal(object)
    ready = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[Any] = []
        self.pauses: list[bool] = []

    def ask(self, request: Any, on_reply: Any, valid: Any = None) -> None:
        self.requests.append(request)

    def pause_watch(self, paused: bool) -> bool:
        self.pauses.append(paused)
        return True


def _sample(seq: int, loss: float, norm: float, grad: float | None = None) -> dict:
    weight = {"shape": [3, 4], "dtype": "torch.float32", "device": "cpu", "numel": 12, "value": None,
              "norm": norm, "min": 0.0, "max": 1.0, "mean": 0.5, "nan": 0, "inf": 0, "grad_norm": grad}
    return {"seq": seq, "t": seq * 0.25, "frame": "train", "line": 3, "names": ["loss", "w"],
            "values": {"loss": loss, "w": weight}, "skipped": {}, "every": 0.25, "cost": 0.001}


def _panel(qtbot) -> tuple[FakeSession, WatchList, WatchPanel]:
    session = FakeSession()
    watch = WatchList(session)
    panel = WatchPanel(session, AppState(), watch)
    qtbot.addWidget(panel)
    panel.show()
    return session, watch, panel


def test_pinning_sends_the_watch_and_samples_grow_the_curves(qtbot) -> None:
    session, watch, panel = _panel(qtbot)
    watch.toggle("loss")
    watch.add("w")
    assert session.requests[-1] == protocol.Watch(names=["loss", "w"], every=0.25, paused=False, enabled=True)
    assert [panel.names.item(i).data(0x0100) for i in range(panel.names.count())] == ["loss", "w"]
    session.run_started.emit({})
    for seq in range(1, 6):
        session.watch_sampled.emit(_sample(seq, 1.0 / seq, 2.0 + seq, grad=0.1 * seq))
    run = watch.curves.current
    assert run.samples == 5 and run.curves["loss"][1] == [1.0, 0.5, 1 / 3, 0.25, 0.2]
    assert run.curves["w"][1] == [3.0, 4.0, 5.0, 6.0, 7.0] and run.curves["w.grad"][1][-1] == 0.5
    qtbot.waitUntil(lambda: len(panel.charts.charts) == 2)
    assert [len(chart.lines) for chart in panel.charts.charts] == [1, 2]  # w: its norm and its gradient's
    assert "5" in panel.status.text() and "train" in panel.status.text()
    watch.toggle("loss")
    assert session.requests[-1].names == ["w"]


def test_a_stale_sample_is_dropped_and_samples_do_not_redraw_each_time(qtbot, monkeypatch) -> None:
    session, watch, panel = _panel(qtbot)
    watch.set_names(["loss"])
    session.run_started.emit({})
    draws: list[int] = []
    monkeypatch.setattr(panel, "redraw", lambda: draws.append(1))
    for seq in range(1, 301):
        session.watch_sampled.emit(_sample(seq, float(seq), 1.0))
    session.watch_sampled.emit(_sample(3, 99.0, 1.0))  # an older sample, arriving late
    assert watch.curves.current.samples == 300 and watch.curves.current.curves["loss"][1][-1] == 300.0
    assert draws == []  # applying samples only appends numbers: the timer draws
    qtbot.waitUntil(lambda: len(draws) == 1)


def test_pause_goes_on_the_control_channel_while_running_and_the_last_run_is_compared(qtbot) -> None:
    session, watch, panel = _panel(qtbot)
    watch.set_names(["loss"])
    session.run_started.emit({})
    session.watch_sampled.emit(_sample(1, 4.0, 1.0))
    panel.pause_button.click()
    assert session.pauses == [True] and session.requests[-1].paused is True
    session.watch_sampled.emit(_sample(2, 3.0, 1.0))  # in flight when the pause was asked
    assert watch.curves.current.samples == 1
    assert panel.pause_button.text() != "" and panel.pause_button.isChecked()
    panel.pause_button.click()
    session.run_finished.emit({})
    session.run_started.emit({})
    session.watch_sampled.emit(_sample(1, 2.0, 1.0))
    assert watch.curves.previous is not None and watch.curves.previous.curves["loss"][1] == [4.0]
    panel.compare_box.setChecked(True)
    qtbot.waitUntil(lambda: len(panel.charts.charts) == 1 and [line.dashed for line in panel.charts.charts[0].lines] == [True, False])
    assert session.pauses == [True, False]  # resumed while the run still ran: at once, on the control channel
    session.run_finished.emit({})
    watch.set_paused(True)  # between runs: the Watch request carries it
    assert session.pauses == [True, False] and session.requests[-1].paused is True


def test_the_inspector_row_menu_pins_a_variable(qtbot) -> None:
    model = InspectorModel()
    view = InspectorView(model, FakeSession(), AppState())
    qtbot.addWidget(view)
    view.apply_snapshot({**protocol.empty_snapshot(), "variables": [var("loss", "tensor", shape=[])], "full": True})
    toggled: list[str] = []
    view.watch_toggled.connect(toggled.append)
    menu = QMenu(view)
    view.add_watch_action(menu, "loss").trigger()
    assert toggled == ["loss"]
    model.set_pinned(["loss"])
    index = model.index(0, 0)
    assert model.is_pinned("loss") and not model.data(index, 1).isNull()  # DecorationRole: the pin
    assert "loss" in view.add_watch_action(menu, "loss").text()


def test_a_watched_tensor_can_be_drawn_as_its_histogram(qtbot) -> None:
    session, watch, panel = _panel(qtbot)
    watch.set_names(["loss", "w"])
    panel.names.setCurrentRow(1)
    assert panel.histogram_button.isEnabled() and not panel.histogram_button.isChecked()
    panel.histogram_button.click()
    assert watch.histograms == {"w"} and session.requests[-1].histograms == ["w"]
    session.run_started.emit({})
    sample = _sample(1, 0.5, 2.0)
    sample["values"]["w"]["hist"] = {"lo": 0.0, "hi": 1.0, "counts": [5, 0, 7]}
    session.watch_sampled.emit(sample)
    qtbot.waitUntil(lambda: len(panel.charts.charts) == 2)
    loss, hist = panel.charts.charts
    assert loss.bars is None and hist.bars == (0.0, 1.0, [5, 0, 7]) and "w" in hist.title
    assert panel.charts.xlabel  # the loss curve is over time
    watch.set_names(["w"])  # the histogram alone: no time axis to name
    qtbot.waitUntil(lambda: [c.bars for c in panel.charts.charts] == [(0.0, 1.0, [5, 0, 7])])
    assert panel.charts.xlabel == ""
    watch.set_names(["loss", "w"])
    panel.names.setCurrentRow(1)
    assert panel.histogram_button.isChecked()
    panel.histogram_button.click()  # back to its norm
    assert watch.histograms == set() and session.requests[-1].histograms is None
    qtbot.waitUntil(lambda: [c.bars is None for c in panel.charts.charts] == [True, True])
    watch.set_histogram("missing", True)  # only watched names
    assert watch.histograms == set()
