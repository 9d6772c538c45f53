"""Tests for the Values tab (explorer.ui.values.values_view) driven by the real agent in-process."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from PySide6.QtCore import Qt

from explorer import protocol
from explorer.ui.app_state import AppState
from explorer.ui.values.values_table_model import BLOCK_ROWS, NAN_BACKGROUND, POSINF_COLOR, heat_color
from explorer.ui.values.values_view import ValuesView
from tests.ui.fakes import HeldSource, InProcessSource
from tests.ui.fakes import var as fake_var
from tests.waits import scaled_ms


def _var(name: str, value: object, kind: str = "tensor") -> dict:
    return fake_var(name, kind, shape=list(value.shape), type=type(value).__name__)


@pytest.fixture
def make_view(qtbot):
    def make(namespace: dict, show: bool = True) -> tuple[ValuesView, InProcessSource]:
        source = InProcessSource(namespace)
        view = ValuesView(source, AppState())
        qtbot.addWidget(view)
        view.resize(700, 500)
        if show:
            view.show()
            qtbot.waitExposed(view)
        return view, source

    return make


def _show(qtbot, view: ValuesView, var: dict | None) -> dict:
    with qtbot.waitSignal(view.values_shown, timeout=scaled_ms(5000)) as blocker:
        view.app_state.select(var)
    return blocker.args[0]


def _texts(view: ValuesView, rows: int, cols: int) -> list[list[str | None]]:
    return [[view.cell_text(r, c) for c in range(cols)] for r in range(rows)]


def test_cells_of_a_known_tensor_and_the_request(qtbot, make_view):
    t = torch.arange(24.0).reshape(2, 3, 4) / 4
    view, source = make_view({"t": t})
    _show(qtbot, view, _var("t", t))
    assert view.model.rowCount() == 3 and view.model.columnCount() == 4
    assert _texts(view, 2, 4) == [["0", "0.25", "0.5", "0.75"], ["1", "1.25", "1.5", "1.75"]]
    request = source.requests[0]
    assert request == protocol.Values(name="t", row_dim=1, col_dim=2, index=[0, None, None], row0=0, col0=0,
                                      nrows=request.nrows, ncols=request.ncols)


def test_slider_moves_to_another_slice(qtbot, make_view):
    t = torch.arange(24).reshape(2, 3, 4)
    view, source = make_view({"t": t})
    _show(qtbot, view, _var("t", t))
    slider_spin = view.index_spin(0)
    assert slider_spin is not None and slider_spin.maximum() == 1
    with qtbot.waitSignal(view.values_shown, timeout=scaled_ms(5000)):
        slider_spin.setValue(1)
    assert view.cell_text(2, 3) == "23"
    assert source.requests[-1].index == [1, None, None]


def test_same_variable_again_keeps_the_slice_and_refreshes(qtbot, make_view):
    ns = {"t": torch.arange(24).reshape(2, 3, 4)}
    view, _ = make_view(ns)
    _show(qtbot, view, _var("t", ns["t"]))
    with qtbot.waitSignal(view.values_shown, timeout=scaled_ms(5000)):
        view.index_spin(0).setValue(1)
    ns["t"] = ns["t"] * 10  # the user re-ran the code: same name, same shape, new values
    _show(qtbot, view, _var("t", ns["t"]))
    assert view.index_spin(0).value() == 1
    assert view.cell_text(2, 3) == "230"
    other = torch.zeros(5, 5)
    ns["t"] = other
    _show(qtbot, view, _var("t", other))  # another shape: back to the defaults
    assert view.index_spin(0) is None and view.model.rowCount() == 5


def test_picking_dims_swaps_and_shows_the_transposed_slice(qtbot, make_view):
    t = torch.arange(2 * 3 * 4).reshape(2, 3, 4)
    view, _ = make_view({"t": t})
    _show(qtbot, view, _var("t", t))
    with qtbot.waitSignal(view.values_shown, timeout=scaled_ms(5000)):
        view.row_combo.setCurrentIndex(view.row_combo.findData(2))  # rows: dim 2; columns stay dim 2 -> swap
    assert (view.model.rowCount(), view.model.columnCount()) == (4, 3)
    assert view.col_combo.currentData() == 1
    assert view.cell_text(3, 2) == str(t[0, 2, 3].item())
    assert view.index_spin(0) is not None and view.index_spin(1) is None


def test_tooltip_has_full_index_and_storage_position(qtbot, make_view):
    base = torch.arange(60.0).reshape(3, 4, 5)
    t = base.permute(2, 0, 1)[1:, :, ::2]  # non-contiguous, offset 1
    view, _ = make_view({"t": t})
    view.app_state.select(_var("t", t))
    spin = view.index_spin(0)
    with qtbot.waitSignal(view.values_shown, timeout=scaled_ms(5000)):
        spin.setValue(2)
    tip = view.model.data(view.model.index(1, 1), Qt.ItemDataRole.ToolTipRole)
    pos = t.storage_offset() + 2 * t.stride(0) + 1 * t.stride(1) + 1 * t.stride(2)
    assert tip.splitlines() == ["t[2, 1, 1]", f"storage position: {pos}"]
    assert view.cell_text(1, 1) == f"{t[2, 1, 1].item():g}"


def test_nan_and_inf_are_drawn_distinctly(qtbot, make_view):
    t = torch.tensor([[1.0, float("nan")], [float("inf"), -float("inf")]])
    view, _ = make_view({"t": t})
    _show(qtbot, view, _var("t", t))
    model = view.model
    assert _texts(view, 2, 2) == [["1", "nan"], ["inf", "-inf"]]
    assert model.data(model.index(0, 1), Qt.ItemDataRole.BackgroundRole) == NAN_BACKGROUND
    assert model.data(model.index(1, 0), Qt.ItemDataRole.FontRole).bold()
    assert model.data(model.index(1, 0), Qt.ItemDataRole.ForegroundRole).color() == POSINF_COLOR
    assert model.data(model.index(0, 0), Qt.ItemDataRole.BackgroundRole) is None  # no heat map yet


def test_heat_map_colours_by_value(qtbot, make_view):
    t = torch.tensor([[0.0, 5.0, 10.0]])
    view, _ = make_view({"t": t})
    _show(qtbot, view, _var("t", t))
    view.heat_check.setChecked(True)
    colours = [view.model.data(view.model.index(0, c), Qt.ItemDataRole.BackgroundRole) for c in range(3)]
    assert colours == [heat_color(0, 0, 10), heat_color(5, 0, 10), heat_color(10, 0, 10)]
    assert len({c.name() for c in colours}) == 3


def test_zero_d_and_one_d(qtbot, make_view):
    s, v = torch.tensor(2.5), torch.arange(5)
    view, _ = make_view({"s": s, "v": v})
    _show(qtbot, view, _var("s", s))
    assert (view.model.rowCount(), view.model.columnCount(), view.cell_text(0, 0)) == (1, 1, "2.5")
    assert view.model.data(view.model.index(0, 0), Qt.ItemDataRole.ToolTipRole).startswith("s.item()")
    _show(qtbot, view, _var("v", v))
    assert (view.model.rowCount(), view.model.columnCount()) == (5, 1)
    assert [view.cell_text(r, 0) for r in range(5)] == ["0", "1", "2", "3", "4"]
    assert not view.row_combo.isEnabled()


def test_numpy_negative_strides(qtbot, make_view):
    a = np.arange(12).reshape(3, 4)[::-1, ::-2]
    view, _ = make_view({"a": a})
    _show(qtbot, view, _var("a", a, "ndarray"))
    assert _texts(view, 3, 2) == [[str(x) for x in row] for row in a.tolist()]


def test_big_tensor_fetches_only_visible_blocks(qtbot, make_view):
    t = torch.arange(10_000.0).expand(10_000, 10_000)
    view, source = make_view({"t": t})
    _show(qtbot, view, _var("t", t))
    assert view.model.rowCount() == 10_000
    assert all(p.nrows <= BLOCK_ROWS and p.row0 == 0 for p in source.requests)
    before = len(source.requests)
    view.table.scrollToBottom()
    qtbot.waitUntil(lambda: view.cell_text(9_999, 3) == "3")
    later = source.requests[before:]
    assert later and len(later) <= 4  # only the blocks now on screen
    assert all(p.row0 >= 10_000 - 3 * BLOCK_ROWS for p in later)


def test_stale_replies_are_dropped(qtbot, make_view):
    a, b = torch.zeros(3, 3), torch.ones(2, 2)
    view, _ = make_view({"a": a, "b": b})
    shown: list[dict] = []
    view.values_shown.connect(shown.append)
    view.app_state.select(_var("a", a))
    with qtbot.waitSignal(view.values_shown, timeout=scaled_ms(5000)):
        view.app_state.select(_var("b", b))  # a's reply is still in flight
    qtbot.waitUntil(lambda: view.cell_text(1, 1) == "1")
    assert shown and all(block["shape"] == [2, 2] for block in shown)


def test_hidden_view_fetches_when_shown(qtbot, make_view):
    t = torch.arange(4.0)
    view, source = make_view({"t": t}, show=False)
    view.app_state.select(_var("t", t))
    assert source.requests == []
    with qtbot.waitSignal(view.values_shown, timeout=scaled_ms(5000)):
        view.show()
    assert view.cell_text(3, 0) == "3"


def test_messages_for_non_arrays_and_meta(qtbot, make_view):
    meta = torch.empty(2, 3, device="meta")
    view, source = make_view({"m": meta, "x": 3})
    view.app_state.select(fake_var("x", "other", type="int"))
    assert view.message.isVisible() and "not a tensor" in view.message.text()
    assert view.model.rowCount() == 0
    view.app_state.select(_var("m", meta))
    qtbot.waitUntil(lambda: "meta tensor" in view.message.text())
    assert not view.message.text().startswith("ValueError")
    asked = len(source.requests)
    view.table.viewport().repaint()  # repainting must not ask again for a window that failed
    assert len(source.requests) == asked == 1


def test_language_switch_retranslates(qtbot, make_view):
    from explorer.ui.i18n import install_language

    t = torch.zeros(2, 2, 2)
    view, _ = make_view({"t": t})
    _show(qtbot, view, _var("t", t))
    install_language("zh_CN")
    try:
        qtbot.waitUntil(lambda: view.heat_check.text() == "热力图")
        assert view.row_combo.currentText() == "第 1 维（长度 2）"
    finally:
        install_language("en")
    qtbot.waitUntil(lambda: view.heat_check.text() == "Heat map")


def test_bigger_font_widens_cells(qtbot, make_view):
    view, _ = make_view({})
    before = view.table.horizontalHeader().defaultSectionSize()
    font = view.font()
    font.setPointSizeF(font.pointSizeF() * 2)
    view.setFont(font)
    qtbot.waitUntil(lambda: view.table.horizontalHeader().defaultSectionSize() > before * 1.5)


def test_reply_after_the_view_is_gone(qtbot):
    import shiboken6

    t = torch.arange(6.0).reshape(2, 3)
    source = HeldSource({"t": t})
    view = ValuesView(source, AppState())
    view.show()
    qtbot.waitExposed(view)
    view.app_state.select(_var("t", t))
    qtbot.waitUntil(lambda: len(source.held) >= 1)
    shiboken6.delete(view)
    for deliver in source.held:
        deliver()  # must be ignored, not raise "C++ object already deleted"
