"""Tests for the Stats tab (explorer.ui.stats_view) with the real agent and real background jobs."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from PySide6.QtCore import Qt

from explorer import protocol
from explorer.ui.app_state import AppState
from explorer.ui.stats_view import AUTO_LIMIT, StatsView
from tests.ui.fakes import InProcessSource
from tests.ui.fakes import var as fake_var
from tests.waits import scaled_ms


def _var(name: str, value: object, kind: str = "tensor") -> dict:
    shape = list(value.shape)
    return fake_var(name, kind, shape=shape, numel=int(np.prod(shape)), type=type(value).__name__)


@pytest.fixture
def make_view(qtbot):
    made: list[StatsView] = []

    def make(namespace: dict, show: bool = True) -> tuple[StatsView, InProcessSource]:
        source = InProcessSource(namespace)
        view = StatsView(source, AppState())
        qtbot.addWidget(view)
        view.resize(800, 500)
        if show:
            view.show()
            qtbot.waitExposed(view)
        made.append(view)
        return view, source

    yield make
    for view in made:  # never leave a background job running after a test
        view.cancel()


def test_known_tensor_shows_min_max_and_histogram(qtbot, make_view):
    t = torch.tensor([[-2.0, 0.0, 3.5], [float("nan"), float("inf"), 1.0]])
    view, source = make_view({"t": t})
    with qtbot.waitSignal(view.stats_shown, timeout=scaled_ms(10_000)) as blocker:
        view.app_state.select(_var("t", t))  # small: starts by itself
    result = blocker.args[0]
    assert view.values["min"].text() == "-2" and view.values["max"].text() == "3.5"
    assert view.values["nan"].text() == "1" and view.values["posinf"].text() == "1"
    assert view.values["zeros"].text() == "1" and view.values["count"].text() == "6"
    assert view.values["mean"].text() == f"{np.mean([-2.0, 0.0, 3.5, 1.0]):.6g}"
    assert sum(result["histogram"]["counts"]) == 4
    assert len(view._axes.patches) == len(result["histogram"]["counts"])
    assert "NaN" in view.message.text()
    assert source.methods()[0] == "stats_start"
    assert "stats_poll" in source.methods()
    assert view.state() == "done" and view.compute_button.isEnabled()


def test_progress_and_cancel(qtbot, make_view):
    t = torch.randn(200_000)
    view, source = make_view({"t": t})
    view.job_options = {"chunk_elements": 1}  # 200k tiny blocks: slow enough to watch and cancel
    view.app_state.select(_var("t", t))
    qtbot.waitUntil(lambda: view.state() == "running" and view.progress_bar.value() > 0, timeout=scaled_ms(10_000))
    assert view.progress_bar.isVisible() and view.cancel_button.isVisible()
    qtbot.mouseClick(view.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.state() == "cancelled", timeout=scaled_ms(10_000))
    assert protocol.StatsCancel(job=1) in source.requests
    assert view.message.text() == "Cancelled."
    assert not view.progress_bar.isVisible() and view.values["min"].text() == ""


def test_large_tensor_waits_for_compute(qtbot, make_view):
    t = torch.arange(10.0)
    var = dict(_var("t", t), numel=AUTO_LIMIT)  # pretend it is big
    view, source = make_view({"t": t})
    view.app_state.select(var)
    assert source.requests == [] and view.compute_button.isEnabled()
    with qtbot.waitSignal(view.stats_shown, timeout=scaled_ms(10_000)):
        qtbot.mouseClick(view.compute_button, Qt.MouseButton.LeftButton)
    assert view.values["max"].text() == "9"


def test_hidden_view_starts_when_shown(qtbot, make_view):
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    view, source = make_view({"a": a}, show=False)
    view.app_state.select(_var("a", a, "ndarray"))
    assert source.requests == []
    with qtbot.waitSignal(view.stats_shown, timeout=scaled_ms(10_000)):
        view.show()
    assert view.values["std"].text() == f"{a.std():.6g}"


def test_switching_variables_drops_the_old_job(qtbot, make_view):
    a, b = torch.zeros(50), torch.full((7,), 3.0)
    view, source = make_view({"a": a, "b": b})
    shown: list[dict] = []
    view.stats_shown.connect(shown.append)
    view.app_state.select(_var("a", a))
    with qtbot.waitSignal(view.stats_shown, timeout=scaled_ms(10_000)):
        view.app_state.select(_var("b", b))
    assert [r["count"] for r in shown] == [7]
    assert view.values["mean"].text() == "3"
    qtbot.waitUntil(lambda: protocol.StatsCancel(job=1) in source.requests)  # a's orphan job is stopped


def test_failure_is_a_sentence(qtbot, make_view):
    m = torch.empty(3, device="meta")
    view, _ = make_view({"m": m})
    view.app_state.select(_var("m", m))
    qtbot.waitUntil(lambda: view.state() == "failed", timeout=scaled_ms(10_000))
    assert "meta tensor" in view.message.text()


def test_not_an_array(qtbot, make_view):
    view, source = make_view({"x": 1})
    view.app_state.select(fake_var("x", "other", type="int"))
    assert not view.compute_button.isEnabled() and source.requests == []
    assert "Select a tensor" in view.message.text()


def test_language_switch_retranslates(qtbot, make_view):
    from explorer.ui.i18n import install_language

    view, _ = make_view({})
    install_language("zh_CN")
    try:
        qtbot.waitUntil(lambda: view.compute_button.text() == "计算")
        assert view._names["std"].text() == "标准差："
    finally:
        install_language("en")
    qtbot.waitUntil(lambda: view.compute_button.text() == "Compute")


def test_notes_are_translated(qtbot, make_view):
    from explorer.ui.i18n import install_language

    t = torch.tensor([1.0, float("nan")])
    view, _ = make_view({"t": t})
    with qtbot.waitSignal(view.stats_shown, timeout=scaled_ms(10_000)):
        view.app_state.select(_var("t", t))
    assert view.message.text() == "Note: min, max, mean and std leave out NaN and Inf"
    install_language("zh_CN")
    try:
        qtbot.waitUntil(lambda: view.message.text() == "说明：最小值、最大值、均值和标准差不计入 NaN 和 Inf")
    finally:
        install_language("en")


@pytest.mark.filterwarnings("ignore:Glyph")  # the family asked for is made up: matplotlib falls back
def test_histogram_labels_follow_the_font_and_use_a_cjk_font_in_chinese(qtbot, make_view, monkeypatch):
    """Issue 13 item 2: matplotlib text grows with the zoom; Chinese labels use an installed CJK font."""
    from PySide6.QtGui import QFont

    from explorer.ui import figure_fonts
    from explorer.ui.i18n import install_language

    monkeypatch.setattr(figure_fonts, "cjk_family", lambda: "Some CJK Family")
    t = torch.arange(10.0)
    view, _ = make_view({"t": t})
    with qtbot.waitSignal(view.stats_shown, timeout=scaled_ms(10_000)):
        view.app_state.select(_var("t", t))
    assert view._axes.xaxis.label.get_fontfamily() == ["DejaVu Sans"]  # English needs no CJK font
    install_language("zh_CN")
    try:
        qtbot.waitUntil(lambda: view._axes.xaxis.label.get_text() != "value")  # LanguageChange redraws
        assert view._axes.xaxis.label.get_fontfamily() == ["DejaVu Sans", "Some CJK Family"]
    finally:
        install_language("en")
    qtbot.waitUntil(lambda: view._axes.xaxis.label.get_text() == "value")
    label = view._axes.xaxis.label
    before = label.get_fontsize()
    bigger = QFont(view.font())
    bigger.setPointSizeF(view.font().pointSizeF() * 1.8)
    view.setFont(bigger)  # what presentation mode does to every widget
    assert view._axes.xaxis.label.get_fontsize() == pytest.approx(before * 1.8)
    assert view._axes.yaxis.get_ticklabels()[0].get_fontsize() == pytest.approx(before * 1.8)
