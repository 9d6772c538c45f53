"""A re-run refreshes the detail tabs of the selected variable, also when it is a container's child."""

from __future__ import annotations

from typing import Any

import pytest
import torch

from explorer import protocol
from explorer.core.summary.dispatch import summarize
from explorer.ui.app_state import AppState
from explorer.ui.inspector.inspector_model import InspectorModel
from explorer.ui.inspector.inspector_view import InspectorView
from explorer.ui.values.values_view import ValuesView
from tests.ui.fakes import InProcessSource


def _after_run(qtbot, source: InProcessSource) -> protocol.SnapshotReply:
    """The snapshot the window gets after a run (a delta, overlaps left to the selection)."""
    replies: list[protocol.Reply[Any]] = []
    source.ask(protocol.AfterRun(code="", delta=True, overlaps=False), replies.append)
    qtbot.waitUntil(lambda: bool(replies))
    return replies[0].result["snapshot"]


@pytest.mark.parametrize(("namespace", "child"), [
    (lambda w: {"sd": {"fc.weight": w}}, "sd['fc.weight']"),
    (lambda w: {"items": [w]}, "items[0]"),
    (lambda w: {"model": torch.nn.Module()}, None),
], ids=["dict child", "list child", "module child"])
def test_a_rerun_refreshes_the_selected_child(qtbot, namespace, child) -> None:
    if child is None:  # a module's parameter: model.w
        ns = namespace(None)
        ns["model"].w = torch.nn.Parameter(torch.zeros(2, 3))
        child = "model.w"
    else:
        ns = namespace(torch.zeros(2, 3))
    source, state = InProcessSource(ns), AppState()
    inspector = InspectorView(InspectorModel(), source, state)
    values = ValuesView(source, state)
    for widget in (inspector, values):
        qtbot.addWidget(widget)
        widget.show()
    inspector.apply_snapshot(_after_run(qtbot, source))
    with qtbot.waitSignal(values.values_shown):
        inspector.select(child)
    assert values.model.rowCount() == 2 and values.cell_text(0, 0) == "0"
    # The re-run rebinds the container: the kernel's delta names it, not its child.
    if child == "model.w":
        ns["model"] = torch.nn.Module()
        ns["model"].w = torch.nn.Parameter(torch.ones(4, 5))
    else:
        ns.update(namespace(torch.ones(4, 5)))
    delta = _after_run(qtbot, source)
    assert [var["name"] for var in delta["variables"]] == [next(iter(ns))]
    with qtbot.waitSignal(values.values_shown):
        inspector.apply_snapshot(delta)
    assert state.selection is not None and state.selection["shape"] == [4, 5]
    assert values.model.rowCount() == 4 and values.cell_text(0, 0) == "1"


def test_every_detail_view_follows_the_selection_through_one_base(qtbot) -> None:
    from explorer.ui.graph_view import GraphView
    from explorer.ui.image.image_view import ImageView
    from explorer.ui.memory_map_view import MemoryMapView
    from explorer.ui.selection_view import SelectionView
    from explorer.ui.stats_view import StatsView

    source, state = InProcessSource({"t": torch.ones(2, 3, requires_grad=True)}), AppState()
    views = [cls(source, state) for cls in (ImageView, ValuesView, StatsView, MemoryMapView, GraphView)]
    for view in views:
        qtbot.addWidget(view)
        view.show()
        assert isinstance(view, SelectionView) and view._var is None
    state.select(summarize("t", source.namespace["t"]))
    assert all(view._name == "t" for view in views)
    asked = {"graph", "image", "memory_map", "stats_start", "values"}  # each view its own request, for "t"
    qtbot.waitUntil(lambda: asked <= set(source.methods()))
    assert all(getattr(r, "name", "t") == "t" for r in source.requests)


def test_the_selections_overlaps_are_the_models_and_the_selections_alike(qtbot) -> None:
    t = torch.arange(6.0)
    source, state = InProcessSource({"t": t, "head": t[:3], "other": torch.ones(2)}), AppState()
    model = InspectorModel()
    inspector = InspectorView(model, source, state)
    qtbot.addWidget(inspector)
    inspector.apply_snapshot(_after_run(qtbot, source))
    assert model.variable("head")["overlaps"] is None  # a run's snapshot leaves them to the selection
    repainted: list[int] = []
    model.dataChanged.connect(lambda top_left, _bottom_right, *_roles: repainted.append(top_left.row()))
    generation = state.generation
    inspector.select("head")
    qtbot.waitUntil(lambda: model.variable("head")["overlaps"] is not None)
    assert model.variable("head")["overlaps"] == ["t"]
    assert state.selection is not None and state.selection["overlaps"] == ["t"]  # one owner: the copy agrees
    assert state.generation == generation + 1  # the overlaps amended the selection, they did not select again
    assert model.index_of("head").row() in repainted
