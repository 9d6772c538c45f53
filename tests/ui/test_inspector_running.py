"""Names that appear while code runs (issue 26): rows for what a watch sample lists, gone when the run's snapshot comes.

The kernel's deltas are relative to the rows it sent, so the rows added from samples must be
removed before any snapshot applies; Qt's model tester checks every insert and removal signal.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QTreeView

from explorer.ui.inspector.inspector_model import InspectorModel
from tests.ui.test_inspector_model import _delta, _full, _names, _shown, _var

RUNNING, NOTE = "(running…)", "made by the code that is running"


def _model(qtbot, qtmodeltester) -> tuple[InspectorModel, QTreeView]:
    model = InspectorModel()
    qtmodeltester.check(model)  # keeps checking every signal the model emits from here on
    view = QTreeView()
    qtbot.addWidget(view)
    view.setModel(model)
    _shown(model, _full([_var("a"), _var("b")]))
    return model, view


def test_running_names_become_grey_rows_at_the_end(qtbot, qtmodeltester) -> None:
    model, _view = _model(qtbot, qtmodeltester)
    assert model.show_running(["a", "loss", "w", "loss"], RUNNING, NOTE) == 2  # a is known, loss listed twice
    assert _names(model) == ["a", "b", "loss", "w"]
    assert model.show_running(["a", "loss", "w"], RUNNING, NOTE) == 0  # the next sample adds nothing again
    index = model.index_of("loss")
    assert index.siblingAtColumn(model.column_of("type")).data() == RUNNING
    assert index.data(Qt.ItemDataRole.ForegroundRole) is not None
    assert model.index_of("a").data(Qt.ItemDataRole.ForegroundRole) is None
    assert NOTE in index.data(Qt.ItemDataRole.ToolTipRole)


def test_the_runs_delta_replaces_them_with_the_kernels_rows(qtbot, qtmodeltester) -> None:
    model, _view = _model(qtbot, qtmodeltester)
    model.show_running(["loss", "tmp"], RUNNING, NOTE)
    # The run ended: loss exists (tmp was deleted again), a changed; the delta follows the kernel's rows.
    _shown(model, _delta(2, [_var("a", (3,)), _var("loss", (1,))], order=["a", "b", "loss"]))
    assert _names(model) == ["a", "b", "loss"]
    assert model.variable("loss")["shape"] == [1] and model.variable("a")["shape"] == [3]
    assert model.index_of("loss").data(Qt.ItemDataRole.ForegroundRole) is None
    assert model.variable("tmp") is None


def test_a_delta_without_new_names_drops_them_in_place(qtbot, qtmodeltester) -> None:
    model, _view = _model(qtbot, qtmodeltester)
    model.show_running(["tmp"], RUNNING, NOTE)
    assert model.apply_snapshot(_delta(2, [_var("b", (5,))])) == {"b"}  # swapped in place, no reset
    assert _names(model) == ["a", "b"] and model.variable("b")["shape"] == [5]
    model.show_running(["tmp2"], RUNNING, NOTE)
    model.apply_snapshot(_full([_var("z")], seq=7))  # a full snapshot too
    qtbot.waitUntil(lambda: _names(model) == ["z"])


def test_a_filter_shows_only_the_running_names_it_matches(qtbot, qtmodeltester) -> None:
    model, _view = _model(qtbot, qtmodeltester)
    model.set_filter("o")
    model.show_running(["loss", "w", "opt"], RUNNING, NOTE)
    assert _names(model) == ["loss", "opt"]
    model.set_filter("")
    assert _names(model) == ["a", "b", "loss", "w", "opt"]
    model.apply_snapshot(_delta(2))
    assert _names(model) == ["a", "b"] and model.rowCount(QModelIndex()) == 2
