"""The Graph tab: the autograd graph behind the selected tensor, read left to right."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QLineF, QObject, QPointF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QWheelEvent
from PySide6.QtWidgets import (
    QApplication,
    QGraphicsItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from explorer import protocol
from explorer.protocol.kinds import is_tensor
from explorer.ui.app_state import AppState
from explorer.ui.graph_drawing import (
    FILLS,
    arrow_head,
    column_centres,
    edge_text,
    fill_kind,
    gradient_lines,
    layered_positions,
)
from explorer.ui.selection_view import SelectionView

_ZOOM_STEP = 1.25
_MIN_SCALE, _MAX_SCALE = 0.02, 8.0
_READABLE_SCALE = 0.4
# In presentation mode (the application's "presentation" property, set by the window) the first view never
# shrinks the nodes' text below this: it grows with the zoom as the other panes' text does; "Fit" still fits.
PRESENTATION_READABLE_SCALE = 0.8


class GraphView(SelectionView):
    """Draws the backward graph (:class:`explorer.protocol.Graph`) of the selected variable in forward reading order."""

    graph_shown = Signal(object)

    def __init__(self, source: protocol.RequestSource, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(source, state, parent)
        self._result: protocol.GraphReply | None = None
        self._labels: list[str] = []
        self._texts: list[str] = []
        self._pairs: list[tuple[str, str]] = []
        self._items: list[QGraphicsItem] = []
        self._edge_labels: list[str] = []
        self._scene = QGraphicsScene(self)
        self._view = QGraphicsView(self._scene, self)
        self._view.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self._view.setRenderHint(QPainter.RenderHint.Antialiasing)
        self._view.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self._view.viewport().installEventFilter(self)
        self._banner = self._make_label("graphBanner", "background:#fff1a8;color:#222;padding:6px;")
        self._message = self._make_label("graphMessage", "padding:6px;")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self._build_toolbar())
        layout.addWidget(self._banner)
        layout.addWidget(self._message)
        layout.addWidget(self._view, 1)
        self.follow_selection()

    # -- construction --------------------------------------------------------
    def _make_label(self, name: str, style: str) -> QLabel:
        label = QLabel(self)
        label.setObjectName(name)
        label.setWordWrap(True)
        label.setStyleSheet(style)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.hide()
        return label

    def _button(self, slot: Callable[[], None]) -> QPushButton:
        button = QPushButton(self)
        button.clicked.connect(slot)
        return button

    def _build_toolbar(self) -> QHBoxLayout:
        bar = QHBoxLayout()
        self.zoom_out_button = self._button(self._on_zoom_out_clicked)
        self.zoom_in_button = self._button(self._on_zoom_in_clicked)
        self.fit_button = self._button(self._on_fit_clicked)
        for button in (self.zoom_out_button, self.zoom_in_button, self.fit_button):
            bar.addWidget(button)
        bar.addStretch(1)
        self._chips: dict[str, QLabel] = {}
        for kind in ("leaf", "parameter", "intermediate", "output", "op"):
            chip = QLabel(self)
            chip.setStyleSheet(f"background:{FILLS[kind]};color:#111;padding:2px 8px;border-radius:6px;")
            self._chips[kind] = chip
            bar.addWidget(chip)
        self._retranslate_toolbar()
        return bar

    def _retranslate_toolbar(self) -> None:
        self.zoom_out_button.setText("−")
        self.zoom_out_button.setToolTip(self.tr("Zoom out (Ctrl+wheel)"))
        self.zoom_in_button.setText("+")
        self.zoom_in_button.setToolTip(self.tr("Zoom in (Ctrl+wheel)"))
        #: Button: zoom the graph so all of it fits in the window.
        self.fit_button.setText(self.tr("Fit"))
        self.fit_button.setToolTip(self.tr("Show the whole graph"))
        legend = {
            #: Legend of the graph's colours: a leaf node (a tensor you created).
            "leaf": self.tr("leaf"),
            "parameter": self.tr("parameter"),
            "intermediate": self.tr("intermediate"),
            "output": self.tr("output"),
            #: Legend of the graph's colours: an operation node, such as MulBackward0.
            "op": self.tr("operation"),
        }
        for kind, text in legend.items():
            self._chips[kind].setText(text)

    # -- public API ------------------------------------------------------------
    def _on_state_selection_changed(self, var: protocol.Var | None) -> None:
        """Show the graph of the selected VAR, fetching it now if visible, else when shown."""
        self._fetcher.restart()  # any reply still in flight is now stale
        self._result = None
        self._clear()
        if var is None:
            self._show_message(self.tr("Select a tensor to see the autograd graph that produced it."))
        elif not is_tensor(var["kind"]):
            self._show_message(self.tr("Only torch tensors have an autograd graph."))
        else:
            self._fetcher.schedule()

    def refresh(self) -> None:
        """Fetch the graph of the current variable again (e.g. after backward())."""
        self._on_state_selection_changed(self.app_state.selection)

    def node_labels(self) -> list[str]:
        """Labels of the drawn nodes (variable names, op names or shapes)."""
        return list(self._labels)

    def node_texts(self) -> list[str]:
        """The full text drawn in each node, e.g. ``"x\\n.grad = 36."``."""
        return list(self._texts)

    def edge_pairs(self) -> list[tuple[str, str]]:
        """Drawn edges as (input label, consumer label), in forward direction."""
        return list(self._pairs)

    def node_centers(self) -> list[tuple[float, float]]:
        """Scene centre of each drawn node, in the order of :meth:`node_labels`."""
        centers = (item.sceneBoundingRect().center() for item in self._items)
        return [(c.x(), c.y()) for c in centers]

    def zoom(self) -> float:
        """The current zoom factor (1.0 = natural size)."""
        return float(self._view.transform().m11())

    # -- events -------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self._retranslate_toolbar()
            if self._result is not None:
                self._show_graph(self._result)  # tooltips and notes in the new language
            elif self._var is None or not is_tensor(self._var["kind"]):
                self._on_state_selection_changed(self.app_state.selection)  # only a message: nothing is requested
        elif event.type() == QEvent.Type.FontChange and self._result is not None:
            self._show_graph(self._result)  # presentation mode: boxes grow with the font
        super().changeEvent(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self._view.viewport()
            and isinstance(event, QWheelEvent)
            and event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            steps = event.angleDelta().y() / 120.0
            self._zoom_by(_ZOOM_STEP ** steps)
            return True
        return super().eventFilter(watched, event)

    def _on_zoom_in_clicked(self) -> None:
        self._zoom_by(_ZOOM_STEP)

    def _on_zoom_out_clicked(self) -> None:
        self._zoom_by(1.0 / _ZOOM_STEP)

    def _on_fit_clicked(self) -> None:
        self._fit(cap=_MAX_SCALE)

    def _zoom_by(self, factor: float) -> None:
        target = min(max(self.zoom() * factor, _MIN_SCALE), _MAX_SCALE)
        if self.zoom() > 0:
            ratio = target / self.zoom()
            self._view.scale(ratio, ratio)

    def _fit(self, cap: float) -> None:
        rect = self._scene.itemsBoundingRect()
        if rect.isEmpty():
            return
        self._view.fitInView(rect.adjusted(-10, -10, 10, 10), Qt.AspectRatioMode.KeepAspectRatio)
        if self.zoom() > cap:
            self._view.resetTransform()
            self._view.scale(cap, cap)

    # -- requests -------------------------------------------------------------------
    def _fetch(self) -> None:
        self._show_message(self.tr("Reading the graph…"))
        self._fetcher.ask(protocol.Graph(name=self._name), self._on_source_replied)

    def _on_source_replied(self, reply: protocol.Reply[protocol.GraphReply]) -> None:
        if not reply.ok:
            self._show_message(self.tr("Could not read the graph: {error}").format(error=reply.message))
            return
        self._result = reply.result or {}
        self._show_graph(self._result)

    # -- drawing ----------------------------------------------------------------------
    def _clear(self) -> None:
        self._scene.clear()
        self._view.resetTransform()
        self._labels, self._texts, self._pairs, self._items = [], [], [], []
        self._edge_labels = []
        self._banner.hide()
        self._message.hide()

    def _show_message(self, text: str) -> None:
        self._message.setText(text)
        self._message.setVisible(bool(text))

    def _show_graph(self, result: protocol.GraphReply) -> None:
        self._clear()
        name = self._name
        notes = [self._reason(result.get("message_key"), name, result.get("message"))]
        if result.get("truncated"):
            shown = len(result.get("nodes", []))
            #: The graph is too large to draw; %n is how many of its nodes are drawn.
            notes.append(self.tr("Only the first %n node(s) are shown.", "", shown))
        self._show_message("\n".join(n for n in notes if n))
        if result.get("freed"):
            self._banner.setText(self.tr(
                "backward() has already run on this graph, so the values it saved were freed. "
                "Calling backward() again raises an error: run the forward pass again "
                "(or pass retain_graph=True the first time)."
            ))
            self._banner.show()
        root_item = self._draw(result)
        self._fit(cap=1.0)
        app = QApplication.instance()
        presenting = bool(app is not None and app.property("presentation"))
        if root_item is not None and presenting and self.zoom() < PRESENTATION_READABLE_SCALE:
            # Readable from the back row: the output at a size close to the other panes' text; pan for the rest.
            self._view.resetTransform()
            self._view.scale(PRESENTATION_READABLE_SCALE, PRESENTATION_READABLE_SCALE)
            self._view.centerOn(root_item)
        elif root_item is not None and self.zoom() < _READABLE_SCALE:
            # A whole big graph would be unreadably small: start at natural size on the output.
            self._view.resetTransform()
            self._view.centerOn(root_item)
        self.graph_shown.emit(result)

    def _reason(self, key: str | None, name: str, fallback: str | None) -> str:
        """A translated explanation of why there is no graph, by the core's message key."""
        templates = {
            "leaf": self.tr(
                "{name} is a leaf tensor: you created it, no operation did, so no graph leads to it. "
                "backward() stores its gradient in {name}.grad."
            ),
            "no_grad": self.tr(
                "{name} does not require grad, so autograd recorded no graph for it "
                "(no input had requires_grad=True, or it was made under torch.no_grad() or by detach())."
            ),
            "not_tensor": self.tr("{name} is not a torch tensor: only tensors record an autograd graph."),
        }
        if key in templates:
            return templates[key].format(name=name)
        return fallback or ""

    def _draw(self, result: protocol.GraphReply) -> QGraphicsItem | None:
        """Lay out and draw the nodes and edges; returns the root's item."""
        nodes: list[dict] = result.get("nodes") or []
        if not nodes:
            return None
        edges = [(str(a), str(b)) for a, b in result.get("edges") or []]
        counts = list(result.get("edge_counts") or [1] * len(edges))
        root_label = next((str(n.get("label", "")) for n in nodes if n["id"] == result.get("root")), "")
        items = {n["id"]: self._make_node(n, n["id"] == result.get("root"), root_label) for n in nodes}
        em = self.fontMetrics().height()
        gap_y = max(item.boundingRect().height() for item in items.values()) + em
        positions = layered_positions(list(items), edges)
        # Edge labels (local derivatives) sit between two columns: make the gap wide enough for the widest.
        lines = [line for info in result.get("edge_info") or [] for line in edge_text(info).split("\n") if line]
        widest = max((self.fontMetrics().horizontalAdvance(line) for line in lines), default=0)
        columns = column_centres(positions, items, gap=max(3 * em, widest + em))
        for node_id, (layer, row) in positions.items():
            rect = items[node_id].boundingRect()
            items[node_id].setPos(columns[layer] - rect.center().x(), row * gap_y - rect.center().y())
        by_id = {n["id"]: n for n in nodes}
        infos = list(result.get("edge_info") or [None] * len(edges))
        for (src, dst), count, info in zip(edges, counts, infos):
            if src in items and dst in items:
                self._make_edge(items[src], items[dst], int(count))
                self._pairs.append((by_id[src]["label"], by_id[dst]["label"]))
                if info is not None and edge_text(info):
                    self._make_edge_label(items[src], items[dst], info, by_id[src], by_id[dst])
        return items.get(result.get("root"))

    def _make_node(self, node: dict, is_root: bool, root_label: str) -> QGraphicsItem:
        text = "\n".join([str(node.get("label", ""))] + gradient_lines(node, root_label, is_root))
        self._labels.append(str(node.get("label", "")))
        self._texts.append(text)
        label = QGraphicsSimpleTextItem(text)
        label.setFont(self.font())
        label.setBrush(QBrush(QColor("#111111")))
        box = label.boundingRect()
        em = self.fontMetrics().height()
        pad_x, pad_y = (em, em * 0.4) if node.get("kind") == "op" else (em * 0.6, em * 0.3)
        outline = box.adjusted(-pad_x, -pad_y, pad_x, pad_y)
        path = QPainterPath()
        if node.get("kind") == "op":
            path.addEllipse(outline)
        else:
            path.addRoundedRect(outline, em * 0.5, em * 0.5)
        shape = self._scene.addPath(path, QPen(QColor("#333333"), max(1.0, em / 12)),
                                    QBrush(QColor(FILLS[fill_kind(node, is_root)])))
        label.setParentItem(shape)
        self._items.append(shape)
        shape.setToolTip(self._tooltip(node, is_root))
        return shape

    def _make_edge(self, src: QGraphicsItem, dst: QGraphicsItem, count: int) -> None:
        a, b = src.sceneBoundingRect(), dst.sceneBoundingRect()
        start = QPointF(a.right(), a.center().y())
        end = QPointF(b.left(), b.center().y())
        color = self.palette().color(self.foregroundRole())
        pen = QPen(color, max(1.0, self.fontMetrics().height() / 14))
        self._scene.addLine(QLineF(start, end), pen).setZValue(-1)
        self._scene.addPolygon(arrow_head(start, end, self.fontMetrics().height() * 0.45), pen, QBrush(color))
        if count > 1:
            tag = self._scene.addSimpleText(f"×{count}", self.font())
            tag.setBrush(QBrush(color))
            tag.setPos((start + end) / 2 - QPointF(0, tag.boundingRect().height()))
            tag.setToolTip(self.tr("This input is used %n time(s) by the operation.", "", count))

    def _make_edge_label(self, src: QGraphicsItem, dst: QGraphicsItem, info: dict, source: dict, op: dict) -> None:
        """The local derivative under the edge's middle, with a tooltip that says what backward() does with it."""
        a, b = src.sceneBoundingRect(), dst.sceneBoundingRect()
        middle = (QPointF(a.right(), a.center().y()) + QPointF(b.left(), b.center().y())) / 2
        tag = self._scene.addSimpleText(edge_text(info), self.font())
        tag.setBrush(QBrush(QColor("#0b5394")))
        tag.setPos(middle + QPointF(-tag.boundingRect().width() / 2, self.fontMetrics().height() * 0.2))
        lines = []
        if info.get("local"):
            lines.append(self.tr("Local derivative of {op}'s output with respect to {input}: {formula}. "
                                 "backward() multiplies the gradient arriving at the output by it.").format(
                op=op.get("label"), input=source.get("label"), formula=edge_text(dict(info, flow=None, shape=None))))
        if info.get("shape"):
            lines.append(self.tr("Shapes: {rule} (the gradient has the input's shape).").format(rule=info["shape"]))
        if info.get("flow"):
            lines.append(self.tr("In the last backward(), {value} flowed back along this edge.").format(value=info["flow"]))
        tag.setToolTip("\n".join(lines))
        self._edge_labels.append(edge_text(info))

    def edge_labels(self) -> list[str]:
        """The texts drawn on the edges (local derivatives, shape rules, gradients that flowed)."""
        return list(self._edge_labels)

    def _tooltip(self, node: dict, is_root: bool) -> str:
        if node.get("kind") == "op":
            lines = [self.tr("Operation: {op}").format(op=node.get("op"))]
            if node.get("freed"):
                lines.append(self.tr("Its saved tensors were freed by backward()."))
            if node.get("grad_watched"):
                lines.append(self.tr("Gradient of its output in the last backward(): {value}").format(
                    value=node["grad_watched"]))
            return "\n".join(lines)
        role = {
            "output": self.tr("Selected tensor (the output)"),
            "parameter": self.tr("nn.Parameter (a leaf the optimizer updates)"),
            "leaf": self.tr("Leaf tensor: gradients accumulate in its .grad"),
            "intermediate": self.tr("Intermediate result held in a variable"),
        }[fill_kind(node, is_root)]
        shape = node.get("shape")
        grad = node.get("grad")
        lines = [
            role,
            self.tr("shape: {shape}").format(shape="?" if shape is None else list(shape)),
            self.tr("dtype: {dtype}").format(dtype=node.get("dtype")),
            self.tr("requires_grad: {value}").format(value=node.get("requires_grad")),
        ]
        if node.get("chain"):
            lines.append(self.tr("Chain rule: the local derivatives along the path to the output, multiplied."))
        if grad:
            lines.append(self.tr("grad: {preview}").format(preview=grad.get("preview")))
        elif node.get("kind") == "leaf":
            #: Tooltip of a leaf node whose .grad is still None.
            lines.append(self.tr("grad: None (backward() has not reached it yet)"))
        return "\n".join(lines)


__all__ = ["FILLS", "GraphView", "edge_text", "gradient_lines", "layered_positions"]
