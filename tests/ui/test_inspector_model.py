"""The inspector model: full snapshots, deltas that touch only what changed, the name filter."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt

from explorer.ui.inspector.inspector_model import FETCH_ROWS, InspectorModel
from tests.ui.fakes import var as fake_var


def _var(name: str, shape=(2,), children=None) -> dict:
    return fake_var(name, "tensor", shape=list(shape), children=children)


def _names(model: InspectorModel, parent: QModelIndex = QModelIndex()) -> list[str]:
    return [model.index(r, 0, parent).data() for r in range(model.rowCount(parent))]


def _fetch_all(model: InspectorModel) -> None:
    while model.canFetchMore(QModelIndex()):
        model.fetchMore(QModelIndex())


def _full(variables, seq=1, changes=None) -> dict:
    return {"full": True, "seq": seq, "variables": variables, "removed": [], "order": None, "changes": changes or {}}


def _shown(model: InspectorModel, snapshot: dict) -> int:
    """Apply *snapshot* and turn the event loop until its rows are shown (many new rows take several turns);
    returns the top-level rows the view was given at that moment (a view may ask for more right after)."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop, given = QEventLoop(), []
    model.modelReset.connect(loop.quit)
    model.modelReset.connect(lambda: given.append(model.rowCount()))
    model.apply_snapshot(snapshot)
    if not given:
        QTimer.singleShot(60_000, loop.quit)
        loop.exec()
    model.modelReset.disconnect(loop.quit)
    assert given, "the rows were never shown"
    return given[0]


def _delta(seq, variables=(), removed=(), order=None, changes=None) -> dict:
    return {"full": False, "seq": seq, "variables": list(variables), "removed": list(removed), "order": order,
            "changes": changes or {}}


class _Spy:
    """Counts resets and dataChanged signals, and the rows each dataChanged spans."""

    def __init__(self, model: InspectorModel) -> None:
        self.resets = self.changed = 0
        self.rows: set[int] = set()
        model.modelReset.connect(lambda: setattr(self, "resets", self.resets + 1))
        model.dataChanged.connect(self._on_changed)

    def _on_changed(self, top_left, bottom_right, *_roles) -> None:
        self.changed += 1
        self.rows.update(range(top_left.row(), bottom_right.row() + 1))


def test_a_delta_replaces_only_the_changed_row(qapp) -> None:
    model = InspectorModel()
    model.apply_snapshot(_full([_var(f"v{i}") for i in range(1000)]))
    spy = _Spy(model)
    changed = model.apply_snapshot(_delta(2, [_var("v500", (3,))], changes={"v500": {"status": "changed", "through": None}}))
    assert changed == {"v500"}
    assert spy.resets == 0 and spy.changed == 1 and spy.rows == {500}  # the row itself, not 1000 rows
    assert model.variable("v500")["shape"] == [3]
    assert model.index(500, model.column_of("change")).data() == "changed"


def test_names_that_come_and_go_follow_the_kernels_order(qapp) -> None:
    model = InspectorModel()
    model.apply_snapshot(_full([_var("a"), _var("b"), _var("c")]))
    model.apply_snapshot(_delta(2, [_var("d")], removed=["b"], order=["a", "c", "d"]))
    assert _names(model) == ["a", "c", "d"] and model.variable("b") is None


def test_a_gap_in_the_sequence_asks_for_everything(qapp) -> None:
    model = InspectorModel()
    model.apply_snapshot(_full([_var("a")], seq=4))
    asked = []
    model.out_of_step.connect(lambda: asked.append(1))
    assert model.apply_snapshot(_delta(6, [_var("a", (9,))])) == set()
    assert asked == [1] and model.variable("a")["shape"] == [2]


def test_container_children_are_replaced_with_their_parent(qapp) -> None:
    model = InspectorModel()
    model.apply_snapshot(_full([{**_var("sd"), "kind": "dict", "children": [_var("sd['w']")]}]))
    model.apply_snapshot(_delta(2, [{**_var("sd"), "kind": "dict", "children": [_var("sd['w']"), _var("sd['b']")]}]))
    parent = model.index_of("sd")
    assert _names(model, parent) == ["sd['w']", "sd['b']"] and model.variable("sd['b']") is not None


def test_filter_keeps_matches_and_the_containers_holding_them(qapp) -> None:
    model = InspectorModel()
    model.apply_snapshot(_full([_var("img"), _var("t"), {**_var("model"), "kind": "module",
                                                         "children": [_var("model.fc.weight"), _var("model.bias")]}]))
    model.set_filter("IMG")
    assert _names(model) == ["img"]
    model.set_filter("weight")
    assert _names(model) == ["model"] and _names(model, model.index_of("model")) == ["model.fc.weight"]
    model.set_filter("model")  # the container itself matches: all its children show
    assert _names(model, model.index_of("model")) == ["model.fc.weight", "model.bias"]
    model.set_filter("")
    assert _names(model) == ["img", "t", "model"]


def test_a_hidden_row_has_no_index_and_comes_back(qapp) -> None:
    model = InspectorModel()
    model.apply_snapshot(_full([_var("t"), _var("img")]))
    model.set_filter("i")
    assert not model.index_of("t").isValid() and model.index_of("img").row() == 0
    model.apply_snapshot(_delta(2, [_var("t", (5,))]))  # a change to a hidden row
    model.set_filter("")
    assert model.index_of("t").row() == 0 and model.variable("t")["shape"] == [5]


def test_filtering_100k_variables_touches_no_row_through_qt(qapp) -> None:
    """The filter is a plain substring test over names: Qt is told once (a reset), not 100,000 times."""
    model = InspectorModel()
    _shown(model, _full([_var(f"v{i}") for i in range(100_000)]))
    calls = []
    original = model.data
    model.data = lambda *a, **k: calls.append(1) or original(*a, **k)  # type: ignore[method-assign]
    model.set_filter("v99999")
    assert _names(model) == ["v99999"] and len(calls) == 1  # the one data() call is _names reading it


def test_highlight_repaints_only_the_rows_it_touches(qapp) -> None:
    model = InspectorModel()
    model.apply_snapshot(_full([_var(f"v{i}") for i in range(500)]))
    spy = _Spy(model)
    model.set_highlight({"v1": "selected", "v2": "overlap"})
    assert spy.changed == 1 and spy.rows == {1, 2}
    assert model.data(model.index_of("v2"), Qt.ItemDataRole.BackgroundRole) is not None
    model.set_highlight({"v1": "selected", "v2": "overlap"})
    assert spy.changed == 1  # nothing new: nothing repainted


def test_each_library_shows_strides_in_its_own_unit(qapp) -> None:
    model = InspectorModel()
    tensor = {**_var("t", (2, 4)), "strides": [4, 1], "byte_strides": [32, 8]}
    array = {**_var("n", (2, 4)), "kind": "ndarray", "strides": [4, 1], "byte_strides": [32, 8]}
    model.apply_snapshot(_full([tensor, array]))
    column = model.column_of("strides")
    assert model.index(0, column).data() == "(4, 1)"  # as t.stride() prints
    assert model.index(1, column).data() == "(32, 8) B"  # as n.strides prints


def test_grad_shows_its_value_when_small(qapp) -> None:
    model = InspectorModel()
    small = {**_var("x", ()), "grad": {"shape": [], "dtype": "torch.float32", "preview": "36."}}
    big = {**_var("w", (100, 100)), "grad": {"shape": [100, 100], "dtype": "torch.float32", "preview": None}}
    model.apply_snapshot(_full([small, big]))
    column = model.column_of("grad")
    assert model.index(0, column).data() == "36."
    assert model.index(1, column).data() == "[100, 100] torch.float32"


def test_ten_thousand_changed_rows_go_a_slice_per_turn(qtbot) -> None:
    """A 10,000-variable re-run is applied a slice per event-loop turn, one repaint per slice."""
    from explorer.ui.inspector.inspector_model import SWAP_ROWS

    model = InspectorModel()
    _shown(model, _full([_var(f"v{i}") for i in range(10_000)]))
    _fetch_all(model)  # a view scrolled to the end: every row is the view's
    spy = _Spy(model)
    changes = {f"v{i}": {"status": "changed", "through": None} for i in range(10_000)}
    model.apply_snapshot(_delta(2, [_var(f"v{i}", (3,)) for i in range(10_000)], changes=changes))
    assert spy.changed == 1 and len(spy.rows) == SWAP_ROWS  # the first slice now, the rest later
    assert model.variable("v9999")["shape"] == [3]  # the newest VAR is known at once all the same
    qtbot.waitUntil(lambda: len(spy.rows) == 10_000)
    assert spy.changed == -(-10_000 // SWAP_ROWS) and spy.resets == 0
    assert model.index(9999, model.column_of("shape")).data() == "[3]"


def test_a_newer_snapshot_finishes_the_slices_first(qapp) -> None:
    model = InspectorModel()
    _shown(model, _full([_var(f"v{i}") for i in range(5000)]))
    _fetch_all(model)
    model.apply_snapshot(_delta(2, [_var(f"v{i}", (3,)) for i in range(5000)]))
    model.apply_snapshot(_delta(3, [_var("v1", (7,))]))  # no event loop turned in between
    assert model.index(4999, model.column_of("shape")).data() == "[3]"
    assert model.variable("v1")["shape"] == [7]


def test_the_top_level_goes_to_the_view_in_batches(qapp) -> None:
    """Qt lays out every row it knows of after a reset: 100,000 names are given a batch at a time."""
    model = InspectorModel()
    _shown(model, _full([_var(f"v{i}") for i in range(100_000)]))
    assert model.rowCount() == FETCH_ROWS and model.canFetchMore(QModelIndex())
    assert not model.index(FETCH_ROWS, 0).isValid()
    model.fetchMore(QModelIndex())
    assert model.rowCount() == 2 * FETCH_ROWS and model.index(FETCH_ROWS, 0).data() == f"v{FETCH_ROWS}"
    inserted = []
    model.rowsInserted.connect(lambda _parent, first, last: inserted.append((first, last)))
    index = model.index_of("v54321")  # selecting a late row gives the view the rows up to it
    assert index.isValid() and index.data() == "v54321" and model.rowCount() > 54321
    assert inserted == [(2 * FETCH_ROWS, model.rowCount() - 1)]
    spy = _Spy(model)
    model.apply_snapshot(_delta(2, [_var("v99999", (3,))]))  # a row the view never got: no repaint, no error
    assert spy.changed == 0 and model.variable("v99999")["shape"] == [3]
    model.set_filter("v9999")  # v9999 and v99990-v99999: fewer than a batch
    assert _names(model) == ["v9999"] + [f"v9999{i}" for i in range(10)] and not model.canFetchMore(QModelIndex())
    model.set_filter("")
    assert model.rowCount() == FETCH_ROWS


def test_clearing_the_filter_shows_every_grandchild_again(qapp) -> None:
    model = InspectorModel()
    inner = {**_var("cfg['layer']"), "kind": "dict", "children": [_var("cfg['layer']['w']"), _var("cfg['layer']['x']")]}
    model.apply_snapshot(_full([{**_var("cfg"), "kind": "dict", "children": [inner]}]))
    model.set_filter("['x']")
    layer = model.index(0, 0, model.index(0, 0))
    assert _names(model, layer) == ["cfg['layer']['x']"]
    model.set_filter("")
    layer = model.index(0, 0, model.index(0, 0))
    assert _names(model, layer) == ["cfg['layer']['w']", "cfg['layer']['x']"]


def _shown_view(qtbot, width: int = 640, height: int = 480):
    """A model shown in a real InspectorView (its source answers in-process)."""
    from explorer.ui.app_state import AppState
    from explorer.ui.inspector.inspector_view import InspectorView
    from tests.ui.fakes import InProcessSource

    model = InspectorModel()
    view = InspectorView(model, InProcessSource({}), AppState())
    qtbot.addWidget(view)
    view.resize(width, height)
    view.show()
    return model, view


def test_scrolling_to_the_end_gives_the_view_the_next_batch(qtbot) -> None:
    model, view = _shown_view(qtbot, 600, 400)
    assert _shown(model, _full([_var(f"v{i}") for i in range(3 * FETCH_ROWS + 5)])) == FETCH_ROWS
    bar = view.tree.verticalScrollBar()
    for batches in (2, 3, 3):
        qtbot.waitUntil(lambda: bar.maximum() > 0)
        bar.setValue(bar.maximum())  # what dragging the bar to the end or pressing End does
        qtbot.waitUntil(lambda batches=batches: model.rowCount() >= min(batches * FETCH_ROWS, 3 * FETCH_ROWS + 5))
    last = f"v{3 * FETCH_ROWS + 4}"
    view.select(last)
    assert view.app_state.selected_name == last  # the details at once, the row on the next turn
    qtbot.waitUntil(lambda: view.tree.currentIndex().data() == last)
    assert model.rowCount() == 3 * FETCH_ROWS + 5


def test_selecting_a_row_far_down_updates_the_details_first(qtbot) -> None:
    model, view = _shown_view(qtbot)
    _shown(model, _full([_var(f"v{i}") for i in range(5 * FETCH_ROWS)]))
    view.select("v3")  # a row the view has: everything at once
    assert view.tree.currentIndex().data() == "v3" and view.app_state.selected_name == "v3"
    far = f"v{4 * FETCH_ROWS}"
    view.select(far)
    assert view.app_state.selected_name == far and not model.is_fetched(far)
    qtbot.waitUntil(lambda: view.tree.currentIndex().data() == far)
    assert model.rowCount() == 5 * FETCH_ROWS


def test_end_in_the_list_goes_to_the_real_last_row(qtbot) -> None:
    model, view = _shown_view(qtbot)
    _shown(model, _full([_var(f"v{i}") for i in range(3 * FETCH_ROWS)]))
    last = f"v{3 * FETCH_ROWS - 1}"  # not among the rows given to the view yet, and the longest name
    assert len(model.longest_name()) == len(last)
    assert view.tree.columnWidth(0) >= view.tree.fontMetrics().horizontalAdvance(last)
    view.tree.setFocus()
    view.select("v0")
    qtbot.keyClick(view.tree, Qt.Key.Key_End)
    assert view.tree.currentIndex().data() == last


def _count_rows_built(monkeypatch) -> list[int]:
    """A list that grows by one for every row (node) the model builds."""
    from explorer.ui.inspector import inspector_nodes

    built: list[int] = []
    build = inspector_nodes.Node.__init__

    def counting(node, var, parent) -> None:
        built.append(1)
        build(node, var, parent)

    monkeypatch.setattr(inspector_nodes.Node, "__init__", counting)
    return built


def _rows_built_per_turn(qapp, model: InspectorModel, built: list[int], snapshot: dict) -> list[int]:
    """Rows built by ``apply_snapshot`` itself, then by each event-loop turn until the rows are shown."""
    from PySide6.QtCore import QCoreApplication

    before = len(built)
    model.apply_snapshot(snapshot)
    turns = [len(built) - before]
    for _ in range(1000):
        if model.rowCount():
            break
        before = len(built)
        QCoreApplication.processEvents()
        turns.append(len(built) - before)
    return turns


def test_ten_thousand_new_names_are_built_a_slice_per_turn(qapp, monkeypatch) -> None:
    """A first run that makes 10,000 variables (new names: the rows are built, not swapped) costs one slice of
    rows per event-loop turn, like the re-run of the test above; the newest VARs are known at once."""
    from explorer.ui.inspector.inspector_model import CHUNK_ROWS

    built = _count_rows_built(monkeypatch)
    model = InspectorModel()
    model.apply_snapshot(_full([]))
    names = [f"v{i}" for i in range(10_000)]
    snapshot = _delta(2, [_var(name) for name in names], order=names)
    turns = _rows_built_per_turn(qapp, model, built, snapshot)
    assert sum(turns) == 10_000 and max(turns) <= CHUNK_ROWS, turns
    _fetch_all(model)
    assert _names(model) == names
    assert model.variable("v9999")["shape"] == [2]


def test_a_full_snapshot_of_ten_thousand_is_built_a_slice_per_turn(qapp, monkeypatch) -> None:
    from explorer.ui.inspector.inspector_model import CHUNK_ROWS

    built = _count_rows_built(monkeypatch)
    model = InspectorModel()
    names = [f"v{i}" for i in range(10_000)]
    turns = _rows_built_per_turn(qapp, model, built, _full([_var(name, children=[_var(name + ".a")]) for name in names]))
    assert sum(turns) == 20_000 and max(turns) <= 2 * CHUNK_ROWS, turns  # a row and its child
    assert model.variable("v5000")["name"] == "v5000" and model.index_of("v9999.a").isValid()


def test_a_newer_snapshot_finishes_the_rows_being_built_first(qapp) -> None:
    model = InspectorModel()
    model.apply_snapshot(_full([]))
    names = [f"v{i}" for i in range(5000)]
    model.apply_snapshot(_delta(2, [_var(name) for name in names], order=names))
    model.apply_snapshot(_delta(3, [_var("v1", (7,))]))  # no event loop turned in between
    _fetch_all(model)
    assert _names(model) == names and model.variable("v1")["shape"] == [7]


def test_a_delta_of_many_rows_leaves_the_children_question_alone_and_asks_the_views_to_repaint_names(qapp) -> None:
    from PySide6.QtWidgets import QTreeView

    model = InspectorModel()
    model.apply_snapshot(_full([_var(f"v{i}") for i in range(300)]))
    _fetch_all(model)
    view = QTreeView()
    view.setModel(model)
    asked: list[int] = []
    real_has_children = model.hasChildren
    model.hasChildren = lambda *a: asked.append(1) or real_has_children(*a)  # type: ignore[method-assign]
    firsts: list[int] = []
    model.dataChanged.connect(lambda top_left, _bottom_right, *_roles: firsts.append(top_left.column()))
    restyled: list[bool] = []
    model.names_restyled.connect(lambda: restyled.append(True))
    changes = {f"v{i}": {"status": "changed", "through": None} for i in range(300)}
    model.apply_snapshot(_delta(2, [_var(f"v{i}", (3,)) for i in range(300)], changes=changes))
    assert firsts == [1] and restyled == [True]  # the names' column is the views' to repaint
    assert asked == []  # a view asks every row of a span starting at the names whether it has children
    bold = model.data(model.index(7, 0), Qt.ItemDataRole.FontRole)
    assert bold is not None and bold.bold()  # what the repaint shows: the name of a changed variable
    one = {"v5": {"status": "changed", "through": None}}
    model.apply_snapshot(_delta(3, [_var("v5", (4,))], changes=one))  # the 300 bold names go back to plain
    model.apply_snapshot(_delta(4, [_var("v5", (5,))], changes=one))
    assert firsts == [1, 1, 0] and restyled == [True, True]  # one row: the whole row, as before
    view.deleteLater()
