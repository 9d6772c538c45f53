"""Tests for the Graph tab (explorer.ui.graph_view) driven by the real agent in-process."""

from __future__ import annotations

import networkx as nx
import pytest
import torch
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QLabel

from explorer.ui.app_state import AppState
from explorer.ui.graph_view import GraphView, layered_positions
from tests.ui.fakes import InProcessSource
from tests.ui.fakes import var as fake_var
from tests.waits import scaled_ms

SEED = "x = torch.tensor(2.0, requires_grad=True)\ny = x * 3\nz = y * y\n"


def _namespace(code: str) -> dict:
    ns: dict = {"torch": torch}
    exec(code, ns)
    ns.pop("__builtins__", None)
    return ns


def _var(name: str, kind: str = "tensor") -> dict:
    return fake_var(name, kind)


@pytest.fixture
def make_view(qtbot):
    def make(code: str) -> tuple[GraphView, InProcessSource]:
        source = InProcessSource(_namespace(code))
        view = GraphView(source, AppState())
        qtbot.addWidget(view)
        view.resize(900, 500)
        view.show()
        qtbot.waitExposed(view)
        return view, source

    return make


def _show(qtbot, view: GraphView, var: dict | None) -> dict:
    with qtbot.waitSignal(view.graph_shown, timeout=scaled_ms(5000)) as blocker:
        view.app_state.select(var)
    return blocker.args[0]


def _chain(result: dict) -> list[str]:
    """Labels along the forward path from the only source to the root of a graph reply."""
    labels = {n["id"]: n["label"] for n in result["nodes"]}
    graph = nx.DiGraph([tuple(e) for e in result["edges"]])
    (source,) = [n for n in graph if graph.in_degree(n) == 0]
    return [labels[n] for n in nx.shortest_path(graph, source, result["root"])]


def test_seed_example_reads_x_mul_y_mul_z(qtbot, make_view) -> None:
    view, _ = make_view(SEED + "z.backward()\n")
    result = _show(qtbot, view, _var("z"))
    assert {"x", "y", "z", "MulBackward0"} <= set(view.node_labels())
    assert view.node_labels().count("MulBackward0") == 2
    assert _chain(result) == ["x", "MulBackward0", "y", "MulBackward0", "z"]
    assert sorted(view.edge_pairs()) == sorted(
        [("x", "MulBackward0"), ("MulBackward0", "y"), ("y", "MulBackward0"), ("MulBackward0", "z")]
    )
    x_text = view.node_texts()[view.node_labels().index("x")]
    assert x_text.split("\n")[1] in (".grad = 36.", ".grad = 36.0")
    assert result["freed"] is True
    banner = view.findChild(QLabel, "graphBanner")
    assert banner.isVisible() and "backward()" in banner.text()


def test_layout_reads_left_to_right(qtbot, make_view) -> None:
    view, _ = make_view(SEED)
    _show(qtbot, view, _var("z"))
    banner = view.findChild(QLabel, "graphBanner")
    assert not banner.isVisible()  # no backward yet: nothing freed
    xs: dict[str, list[float]] = {}
    for label, (x, _) in zip(view.node_labels(), view.node_centers()):
        xs.setdefault(label, []).append(x)
    assert max(xs["x"]) < min(xs["MulBackward0"]) < max(xs["y"]) < max(xs["MulBackward0"]) < min(xs["z"])


def test_stale_reply_is_dropped(qtbot, make_view) -> None:
    view, source = make_view(SEED + "w = torch.ones(3, requires_grad=True)\n")
    view.app_state.select(_var("z"))  # its reply is queued for a later event-loop turn
    result = _show(qtbot, view, _var("w"))
    assert result["message_key"] == "leaf"
    assert view.node_labels() == ["w"]
    qtbot.wait(0)  # flush any remaining queued replies; z's must not replace w's
    QApplication.processEvents()
    assert view.node_labels() == ["w"]
    assert source.methods() == ["graph", "graph"]


@pytest.mark.parametrize(
    "code, name, key",
    [
        ("t = torch.ones(2, requires_grad=True)\n", "t", "leaf"),
        ("t = torch.ones(2)\n", "t", "no_grad"),
        ("t = torch.ones(2, requires_grad=True).detach()\n", "t", "no_grad"),
    ],
)
def test_no_graph_shows_message(qtbot, make_view, code: str, name: str, key: str) -> None:
    view, _ = make_view(code)
    result = _show(qtbot, view, _var(name))
    assert result["message_key"] == key
    message = view.findChild(QLabel, "graphMessage")
    assert message.isVisible() and name in message.text()
    assert view.node_labels() == [name] and view.edge_pairs() == []


def test_non_tensor_kinds_and_none_do_not_request(qtbot, make_view) -> None:
    view, source = make_view("import numpy as np\na = np.ones(3)\n")
    view.app_state.select(_var("a", kind="ndarray"))
    message = view.findChild(QLabel, "graphMessage")
    assert message.isVisible() and message.text()
    view.app_state.select(None)
    assert message.isVisible() and view.node_labels() == []
    assert source.requests == []


def test_error_reply_is_shown(qtbot, make_view) -> None:
    view, _ = make_view(SEED)
    view.app_state.select(_var("missing"))
    message = view.findChild(QLabel, "graphMessage")
    qtbot.waitUntil(lambda: "missing" in message.text(), timeout=scaled_ms(5000))
    assert view.node_labels() == []


def test_hidden_view_fetches_when_shown(qtbot) -> None:
    source = InProcessSource(_namespace(SEED))
    view = GraphView(source, AppState())
    qtbot.addWidget(view)
    view.app_state.select(_var("z"))
    assert source.requests == []
    with qtbot.waitSignal(view.graph_shown, timeout=scaled_ms(5000)):
        view.show()
    assert len(view.node_labels()) == 5


def test_parameters_and_truncation_note(qtbot, make_view) -> None:
    code = "model = torch.nn.Linear(3, 2)\nout = model(torch.ones(4, 3)).sum()\n"
    view, _ = make_view(code)
    _show(qtbot, view, _var("out"))
    assert {"model.weight", "model.bias", "out"} <= set(view.node_labels())
    assert "model.weight" in view.node_texts()


def test_zoom_buttons_wheel_and_fit(qtbot, make_view) -> None:
    view, _ = make_view(SEED)
    _show(qtbot, view, _var("z"))
    start = view.zoom()
    qtbot.mouseClick(view.zoom_in_button, Qt.MouseButton.LeftButton)
    assert view.zoom() == pytest.approx(start * 1.25)
    qtbot.mouseClick(view.zoom_out_button, Qt.MouseButton.LeftButton)
    assert view.zoom() == pytest.approx(start)
    viewport = view._view.viewport()
    pos = QPointF(viewport.rect().center())
    wheel = QWheelEvent(pos, viewport.mapToGlobal(pos), QPoint(), QPoint(0, 120), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.ControlModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(viewport, wheel)
    assert view.zoom() == pytest.approx(start * 1.25)
    qtbot.mouseClick(view.fit_button, Qt.MouseButton.LeftButton)
    visible = view._view.mapToScene(viewport.rect()).boundingRect()
    assert visible.contains(view._scene.itemsBoundingRect())


def test_big_font_makes_bigger_nodes(qtbot, make_view) -> None:
    view, source = make_view(SEED)
    _show(qtbot, view, _var("z"))
    small = view._scene.itemsBoundingRect()
    font = view.font()
    font.setPointSizeF(font.pointSizeF() * 2.5)
    with qtbot.waitSignal(view.graph_shown, timeout=scaled_ms(5000)):
        view.setFont(font)  # redrawn from the last reply, without a new request
    big = view._scene.itemsBoundingRect()
    assert len(source.requests) == 1
    assert big.width() > small.width() * 1.5 and big.height() > small.height() * 1.5


@pytest.mark.parametrize("n", [1, 2, 7])
def test_layered_positions_forward_order(n: int) -> None:
    ids = [f"n{i}" for i in range(n + 1)]
    edges = [(ids[i + 1], ids[i]) for i in range(n)]  # n0 is the output, as the core sends it
    pos = layered_positions(ids, edges)
    assert [pos[i][0] for i in reversed(ids)] == list(range(n + 1))


def test_layered_positions_every_edge_goes_right() -> None:
    graph = nx.gn_graph(60, seed=3)  # a random tree, edges point towards node 0
    ids = [str(i) for i in graph.nodes]
    edges = [(str(a), str(b)) for a, b in graph.edges]
    pos = layered_positions(ids, edges)
    assert all(pos[a][0] < pos[b][0] for a, b in edges)
    cells = {(layer, round(row, 6)) for layer, row in pos.values()}
    assert len(cells) == len(ids)  # no two nodes drawn on top of each other


def test_switching_to_chinese_retranslates_shown_graph(qtbot, make_view) -> None:
    from explorer.ui.i18n import install_language

    view, source = make_view("t = torch.ones(2)\n")
    _show(qtbot, view, _var("t"))
    message = view.findChild(QLabel, "graphMessage")
    assert view.fit_button.text() == "Fit" and "does not require grad" in message.text()
    install_language("zh_CN")
    try:
        qtbot.waitUntil(lambda: view.fit_button.text() == "适应窗口", timeout=scaled_ms(5000))
        qtbot.waitUntil(lambda: "不需要梯度" in message.text(), timeout=scaled_ms(5000))
        assert view.node_labels() == ["t"] and len(source.requests) == 1  # redrawn, not refetched
    finally:
        install_language("en")
    qtbot.waitUntil(lambda: view.fit_button.text() == "Fit", timeout=scaled_ms(5000))


def test_large_graph_draws_every_node_and_starts_readable(qtbot, make_view) -> None:
    code = "a = torch.ones(2, requires_grad=True)\nb = a\nfor _ in range(400):\n    b = (b * 1.5).sin()\n"
    view, _ = make_view(code)
    result = _show(qtbot, view, _var("b"))
    assert len(view.node_labels()) == len(result["nodes"]) == 802
    assert len(view.edge_pairs()) == len(result["edges"]) == 801
    assert view.zoom() >= 0.4  # centred on the output at a readable size, not shrunk to fit
    qtbot.mouseClick(view.fit_button, Qt.MouseButton.LeftButton)
    assert view.zoom() < 0.4


def test_gradients_read_as_the_chain_rule_on_the_picture(qtbot, make_view) -> None:
    """Issue 13 item 4: x.grad = 36 reads as 2·y × 3 = 36; each edge shows its local derivative."""
    view, source = make_view(SEED)
    from explorer import protocol

    assert source.endpoint.answer(protocol.WatchGradients())[0] == {"nodes": 2}
    exec("z.backward()", source.namespace)
    _show(qtbot, view, _var("z"))
    texts = dict(zip(view.node_labels(), view.node_texts()))
    assert texts["x"].split("\n")[1:] == [".grad = 36.", "∂z/∂x = 2·y × 3 = 12 × 3 = 36"]
    assert texts["y"].split("\n")[1:] == ["∂z/∂y = 2·y = 12"]
    assert "2·y = 12" in view.edge_labels() and "3\n← 36." in view.edge_labels()


def test_a_leaf_is_leaf_coloured_in_its_own_graph(qtbot, make_view) -> None:
    """Issue 10: x was output-pink when selected itself and leaf-green in z's graph."""
    from PySide6.QtWidgets import QGraphicsPathItem

    from explorer.ui.graph_view import FILLS

    view, _ = make_view(SEED + "z.backward()\n")
    _show(qtbot, view, _var("x"))
    (shape,) = [i for i in view._scene.items() if isinstance(i, QGraphicsPathItem)]
    assert shape.brush().color().name() == FILLS["leaf"]
    assert view.node_texts() == ["x\n.grad = 36."]


def test_presentation_mode_keeps_the_node_text_as_big_as_the_other_panes(qtbot, make_view) -> None:
    """Issue 24 item 6: at 1024x768 the first view fitted the graph and its text came out at about 12 px."""
    code = "x = torch.tensor(2.0, requires_grad=True)\n" + "".join(
        f"h{i} = {'x' if i == 0 else f'h{i - 1}'} * 3\n" for i in range(6)) + "z = h5 * h5\n"
    view, _source = make_view(code)
    font = view.font()
    font.setPointSizeF(font.pointSizeF() * 1.8)  # what presentation mode does to every pane
    view.setFont(font)
    QApplication.instance().setProperty("presentation", True)
    try:
        _show(qtbot, view, _var("z"))
        scene = view._scene.itemsBoundingRect()
        # A pane where fitting the whole graph takes about 0.6 of its size (1024x768: about 12 px text)
        view.resize(int(scene.width() * 0.6) + view.width() - view._view.viewport().width(), 900)
        qtbot.waitUntil(lambda: view._view.viewport().width() < scene.width() * 0.65)
        font.setPointSizeF(font.pointSizeF() * 1.01)
        with qtbot.waitSignal(view.graph_shown, timeout=scaled_ms(5000)):
            view.setFont(font)  # redrawn and fitted again
        assert view.zoom() >= 0.8
        assert view.fontMetrics().height() * view.zoom() >= 0.8 * view.fontMetrics().height()
    finally:
        QApplication.instance().setProperty("presentation", False)
