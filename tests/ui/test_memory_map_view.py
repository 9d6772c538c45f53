"""MemoryMapView against the real agent in-process."""

from __future__ import annotations

import re

import numpy as np
import pytest
import torch
from PySide6.QtCore import QPoint
from PySide6.QtGui import QFont, QImage

from explorer import protocol
from explorer.ui.app_state import AppState
from explorer.ui.memory_map_view import GROUP_COLORS, MemoryMapView
from tests.ui.fakes import HeldSource, InProcessSource
from tests.ui.fakes import var as fake_var


def make_view(qtbot, ns: dict) -> tuple[MemoryMapView, InProcessSource]:
    source = InProcessSource(ns)
    view = MemoryMapView(source, AppState())
    qtbot.addWidget(view)
    view.resize(900, 400)
    view.show()
    qtbot.waitExposed(view)
    return view, source


def var(name: str, kind: str = "tensor", group: str | None = None) -> dict:
    return fake_var(name, kind, memory_group=group)


@pytest.fixture
def cols_ns() -> dict:
    t = torch.arange(10).reshape(2, 5)
    return {"t": t, "cols": t[:, 1:3]}


def test_column_view_map(qtbot, cols_ns: dict) -> None:
    view, source = make_view(qtbot, cols_ns)
    with qtbot.waitSignal(view.map_loaded) as blocker:
        view.app_state.select(var("cols", group="M1"))
    payload = blocker.args[0]
    assert source.requests == [protocol.MemoryMap(name="cols")]
    assert [r["name"] for r in payload["rows"]] == ["cols", "t"]
    row = payload["rows"][0]
    assert row["reached"] == [1, 2, 6, 7]
    start = cols_ns["t"].untyped_storage().data_ptr()
    assert row["formula"].endswith(f"= 0x{start:x} + 1 × 8 = 0x{start + 8:x}")  # hex, like the data_ptr column
    assert "M1" in view.message()


def test_hover_tooltip_gives_index_and_position(qtbot, cols_ns: dict) -> None:
    view, _ = make_view(qtbot, cols_ns)
    with qtbot.waitSignal(view.map_loaded):
        view.app_state.select(var("cols"))
    rect = view.cell_rect(0, 6)
    assert view.hit(rect.center()) == (0, 6)
    text = view.tooltip_for(*view.hit(rect.center()))
    assert "cols[1, 0]" in text and "1 + 1×5 + 0×1 = 6" in text
    assert "does not reach" in view.tooltip_for(0, 3)
    assert view.tooltip_for(None, 7) == "cell 7: 7"
    assert view.hit(QPoint(1, 1)) is None


def test_expand_tooltip_counts_visits(qtbot) -> None:
    base = torch.tensor([5.0, 6.0])
    view, _ = make_view(qtbot, {"base": base, "e": base[:1].expand(3)})
    with qtbot.waitSignal(view.map_loaded):
        view.app_state.select(var("e"))
    assert "reached 3 times" in view.tooltip_for(0, 0)


def test_stale_reply_is_dropped(qtbot, cols_ns: dict) -> None:
    view, source = make_view(qtbot, cols_ns)
    view.app_state.select(var("t"))
    with qtbot.waitSignal(view.map_loaded) as blocker:
        view.app_state.select(var("cols"))
    assert source.methods() == ["memory_map", "memory_map"]
    assert blocker.args[0]["name"] == "cols"
    assert view.payload()["name"] == "cols"


def test_late_reply_for_previous_variable_is_ignored(qtbot, cols_ns: dict) -> None:
    source = HeldSource(cols_ns)
    view = MemoryMapView(source, AppState())
    qtbot.addWidget(view)
    view.show()
    view.app_state.select(var("t"))
    view.app_state.select(var("cols"))
    qtbot.waitUntil(lambda: len(source.held) == 2)
    deliver_t, deliver_cols = source.held
    deliver_cols()
    deliver_t()  # arrives last but belongs to the old selection
    assert view.payload()["name"] == "cols"


def test_no_storage_message(qtbot) -> None:
    view, _ = make_view(qtbot, {"m": torch.empty(3, device="meta")})
    view.app_state.select(var("m"))
    qtbot.waitUntil(lambda: "No storage" in view.message())
    assert "meta" in view.message() and view.payload() is None


def test_non_array_and_none_do_not_request(qtbot) -> None:
    view, source = make_view(qtbot, {"k": 3})
    view.app_state.select(var("k", kind="other"))
    view.app_state.select(None)
    assert source.requests == []
    assert view.message()


def test_error_reply_is_shown(qtbot) -> None:
    view, _ = make_view(qtbot, {})
    view.app_state.select(var("missing"))
    qtbot.waitUntil(lambda: "Could not draw" in view.message())


def test_hidden_view_fetches_when_shown(qtbot, cols_ns: dict) -> None:
    source = InProcessSource(cols_ns)
    view = MemoryMapView(source, AppState())
    qtbot.addWidget(view)
    view.app_state.select(var("cols"))
    assert source.requests == []
    with qtbot.waitSignal(view.map_loaded):
        view.show()
    assert len(source.requests) == 1


@pytest.mark.parametrize("point_size", [9, 28])
def test_paints_with_big_and_small_fonts(qtbot, point_size: int) -> None:
    a = np.arange(300, dtype=np.float32)
    view, _ = make_view(qtbot, {"a": a, "rev": a[::-1], "b": a.view(np.int16)})
    font = QFont(view.font())
    font.setPointSize(point_size)
    view.setFont(font)
    with qtbot.waitSignal(view.map_loaded):
        view.app_state.select(var("rev", kind="ndarray"))
    image = QImage(view.size(), QImage.Format.Format_ARGB32)
    view.render(image)
    assert view.minimumHeight() >= view.cell_rect(2, view.payload()["cells"] - 1).bottom()
    cell = view.cell_rect(0, view.payload()["rows"][0]["reached"][0])
    assert image.pixelColor(cell.center() + QPoint(0, cell.height() // 3)).name().upper() == GROUP_COLORS[0]


def test_palette_is_hex_and_distinct() -> None:
    assert len(set(GROUP_COLORS)) == len(GROUP_COLORS) >= 8
    assert all(re.fullmatch(r"#[0-9A-F]{6}", c) for c in GROUP_COLORS)



def test_hover_tooltip_names_each_element_of_a_3d_strided_view(qtbot) -> None:
    """Every element of a 2x3x4 permuted slice: the tooltip's index and position are torch's own."""
    whole = torch.arange(60.0).reshape(3, 4, 5)
    view_t = whole.permute(2, 0, 1)[1:3]  # shape (2, 3, 4), strides (1, 20, 5), offset 1: not contiguous
    assert list(view_t.shape) == [2, 3, 4] and not view_t.is_contiguous() and view_t.storage_offset() == 1
    view, _ = make_view(qtbot, {"whole": whole, "v": view_t})
    view.resize(2400, 900)
    with qtbot.waitSignal(view.map_loaded):
        view.app_state.select(var("v"))
    reached = view.payload()["rows"][0]["reached"]
    for k, index in enumerate(np.ndindex(2, 3, 4)):
        position = (view_t[index].data_ptr() - whole.data_ptr()) // whole.itemsize
        assert reached[k] == position
        text = view.tooltip_for(*view.hit(view.cell_rect(0, position).center()))
        terms = " + ".join(f"{i}×{s}" for i, s in zip(index, (1, 20, 5)))
        assert f"v{list(index)}" in text and f"1 + {terms} = {position}" in text
