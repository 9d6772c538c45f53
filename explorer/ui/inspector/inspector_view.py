"""The inspector: a filterable tree of variables, column chooser, and the memory-sharing line.

Clicking a row makes it the window's selection (:class:`~explorer.ui.app_state.AppState`).
Selection signals can arrive while the model is being reset (a new snapshot, the
filter hiding the selected row); those never re-enter the model: the view keeps
the selection by name and puts it back once the reset is over.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QItemSelection, QModelIndex, QObject, QPoint, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetrics, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QStyle,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from explorer import protocol
from explorer.protocol.kinds import is_array
from explorer.protocol.names import root_name
from explorer.ui.app_state import AppState
from explorer.ui.frames_widget import FramesWidget
from explorer.ui.inspector.frozen_column import FrozenColumnView
from explorer.ui.inspector.inspector_model import VAR_ROLE, InspectorModel
from explorer.ui.palette import HighlightRole
from explorer.ui.selection_fetch import SelectionFetch

# The Name column grows to fit names up to this many characters (of "M" width); longer ones are elided.
NAME_LIMIT = 32


class InspectorView(QWidget):
    """Shows the model; the row the user picks becomes ``state.selection``; a row's menu pins it to the Watch tab."""

    watch_toggled = Signal(str)  # a name path to watch while code runs, or to stop watching

    def __init__(self, model: InspectorModel, source: protocol.RequestSource, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.app_state = state
        self._fetcher = SelectionFetch(self, source, state)  # the selection's overlaps and relations
        self._offered: protocol.OverlapsReply | None = None  # overlaps a run's reply brought (offer_overlaps)
        self._quiet = False  # True while the model resets: selection signals are ours, not the user's
        self._sized = False  # columns fitted to their contents once, when the first rows arrived
        self._expanded: set[str] = set()
        # Whose variables are shown: the namespace, a frame of the last error, or the paused code's.
        self.frames = FramesWidget(source, self)
        self.frames.snapshot_arrived.connect(self.apply_snapshot)
        for signal, slot in (("paused", self.frames.on_paused), ("resumed", self.frames.on_resumed),
                             ("watch_sampled", self._on_source_watch_sampled)):
            if hasattr(source, signal):
                getattr(source, signal).connect(slot)
        self._filter = QLineEdit(self)
        self._filter.setClearButtonEnabled(True)
        self.tree = QTreeView(self)
        self.tree.setModel(model)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.tree.installEventFilter(self)  # End goes to the real last row, not the last one fetched
        # A name too long for its column loses its middle, not the end that tells fc.weight from fc.bias.
        self.tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        header = self.tree.header()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setFirstSectionMovable(False)  # the names stay first: the frozen column shows them
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._on_header_menu_requested)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._on_tree_menu_requested)
        self.relation = QLabel(self)
        self.relation.setWordWrap(True)
        self.relation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.frames)
        layout.addWidget(self._filter)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.relation)
        self._filter.textChanged.connect(self._on_filter_text_changed)
        self.tree.selectionModel().selectionChanged.connect(self._on_tree_selection_changed)
        self.tree.expanded.connect(self._on_tree_expanded)
        self.tree.collapsed.connect(self._on_tree_collapsed)
        # Scrolled sideways to Offset or Grad, the names stay beside them.
        self.frozen = FrozenColumnView(self.tree)
        model.modelAboutToBeReset.connect(self._on_model_about_to_be_reset)
        model.modelReset.connect(self._on_model_reset)
        model.rowsInserted.connect(self._on_model_rows_inserted)
        model.names_restyled.connect(self._on_model_names_restyled)
        self._restore_columns()
        self.retranslate()

    def _on_model_names_restyled(self) -> None:
        """The names' column of many rows changed (bold, highlight): repaint it where it shows."""
        self.tree.viewport().update()
        self.frozen.viewport().update()

    def retranslate(self) -> None:
        self._filter.setPlaceholderText(self.tr("Filter variables by name"))
        self._filter.setToolTip(self.tr("Show only variables whose name contains this text"))
        self.model.retranslate()
        if self.model.rowCount():  # the headers changed length: fit them again
            self._fit_columns()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.tree and isinstance(event, QKeyEvent) and event.type() == QEvent.Type.KeyPress \
                and event.key() == Qt.Key.Key_End:
            self.model.fetch_all()  # the view is given the top level in batches; End means the very end
        return super().eventFilter(watched, event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.FontChange and self.model.rowCount():
            # Zoom and presentation mode change the font: columns fitted to the old one would cut the text.
            QTimer.singleShot(0, self._fit_columns)
        super().changeEvent(event)

    # -- snapshots -------------------------------------------------------------------------
    def apply_snapshot(self, snapshot: protocol.SnapshotReply) -> None:
        """Show a snapshot reply; the selection follows its variable by name."""
        changed = self.model.apply_snapshot(snapshot)
        name = self.app_state.selected_name
        offered, self._offered = self._offered, None  # good for this snapshot only
        if name is None:
            return
        var = self.model.variable(name)
        if var is None:
            self.app_state.select(None)
            self.model.set_highlight({})
            self.relation.clear()
        elif name in changed or root_name(name) in changed:
            self._select_var(var, offered if offered is not None and offered["name"] == name else None)

    def _on_source_watch_sampled(self, sample: Any) -> None:
        """While code runs, the names it makes at the top level appear as rows (their facts come when it ends)."""
        if not isinstance(sample, dict) or sample.get("frame") != "<module>" or self.frames.is_paused:
            return
        names = [name for name in sample.get("names") or [] if isinstance(name, str)]
        self.model.show_running(names, self.tr("(running…)"),
                                self.tr("Made by the code that is running: its shape, values and memory come "
                                        "when the run ends."))

    def offer_overlaps(self, overlaps: protocol.OverlapsReply) -> None:
        """The selected variable's overlaps, carried by the run's reply: the next snapshot uses them unasked."""
        self._offered = overlaps

    def set_filter_text(self, text: str) -> None:
        self._filter.setText(text)

    def select(self, name: str) -> None:
        """Select *name* (its row, and the window's selection)."""
        if self.model.is_fetched(name):
            self._show_row(name)
        var = self.model.variable(name)
        if var is not None and name != self.app_state.selected_name:
            self._select_var(var)
        if not self.model.is_fetched(name):
            # A row far down: the tree lays out every row above it when it gets them. The details
            # update in this event-loop turn, the row in the next, so neither holds the window long.
            QTimer.singleShot(0, lambda: self._show_row(name))

    def _show_row(self, name: str) -> None:
        index = self.model.index_of(name)  # gives the view the rows up to it
        if index.isValid():
            self.tree.setCurrentIndex(index)
            self.tree.scrollTo(index)

    def selected_name(self) -> str | None:
        return self.app_state.selected_name

    # -- model resets ------------------------------------------------------------------------
    def _on_model_about_to_be_reset(self) -> None:
        self._quiet = True

    def _on_model_reset(self) -> None:
        """Put back what a reset loses: expanded rows and the selected row (by name)."""
        for name in list(self._expanded):
            index = self.model.index_of(name)
            if index.isValid():
                self.tree.expand(index)
        selected = self.app_state.selected_name
        index = self.model.index_of(selected) if selected else QModelIndex()
        if index.isValid():
            self.tree.selectionModel().setCurrentIndex(
                index, self.tree.selectionModel().SelectionFlag.ClearAndSelect | self.tree.selectionModel().SelectionFlag.Rows)
        if not self._sized and self.model.rowCount():
            self._sized = True
            self._fit_columns()
        elif self._sized:
            self._fit_columns(grow_only=True)  # a later step's longer names and values ('MulBackward0')
        self._quiet = False

    def _on_model_rows_inserted(self, parent: QModelIndex, _first: int, _last: int) -> None:
        if self._sized and parent.isValid():  # a container's new children: their names may be longer
            self._fit_name_column()

    def _fit_columns(self, sample: int = 64, grow_only: bool = False) -> None:
        """Widths from the header and the first rows' text (Qt's resizeColumnToContents reads every row).

        *grow_only*: after a later run, columns only widen (the Name column fits exactly), so the table does not
        jump under the teacher's pointer."""
        metrics = self.tree.fontMetrics()
        rows = min(self.model.rowCount(), sample)
        pad = metrics.horizontalAdvance("M") * 2
        # A colour chip (the memory group) is drawn before the text: it takes an icon's width and a gap.
        chip = self.tree.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize) + metrics.horizontalAdvance("M")
        for section, column in enumerate(self.model.columns()):
            if column.key == "name":
                self._fit_name_column()
                continue
            header = str(self.model.headerData(section, Qt.Orientation.Horizontal) or "")
            cells = [self.model.index(row, section) for row in range(rows)]
            width = max([metrics.horizontalAdvance(header)]
                        + [metrics.horizontalAdvance(str(cell.data() or ""))
                           + (chip if cell.data(Qt.ItemDataRole.DecorationRole) is not None else 0) for cell in cells])
            width = min(width + pad, metrics.horizontalAdvance("M") * 40)
            if not grow_only or width > self.tree.columnWidth(section):
                self.tree.setColumnWidth(section, width)

    def _fit_name_column(self) -> None:
        """The Name column as wide as the longest visible name (bold, as a changed name is drawn), up to
        NAME_LIMIT characters' width; a longer name is elided in the middle and whole in its tooltip."""
        if not self.model.rowCount():
            return
        bold = QFont(self.tree.font())
        bold.setBold(True)
        metrics = QFontMetrics(bold)
        indentation = self.tree.indentation()
        # Names further down (fetched later) can be longer than the first rows': the longest counts too.
        widths = [metrics.horizontalAdvance(self.model.longest_name())]
        for name in self._expanded:  # children are drawn with their full names, one indentation deeper each
            parent = self.model.index_of(name)
            if not parent.isValid() or not self.tree.isExpanded(parent):
                continue
            depth = 1
            above = parent.parent()
            while above.isValid():
                depth, above = depth + 1, above.parent()
            widths += [metrics.horizontalAdvance(str(self.model.index(row, 0, parent).data() or "")) + depth * indentation
                       for row in range(self.model.rowCount(parent))]
        header = str(self.model.headerData(0, Qt.Orientation.Horizontal) or "")
        widths.append(metrics.horizontalAdvance(header))
        pad = metrics.horizontalAdvance("M") * 2
        width = min(max(widths) + pad + indentation, self.tree.fontMetrics().horizontalAdvance("M") * NAME_LIMIT)
        if width != self.tree.columnWidth(0):
            self.tree.setColumnWidth(0, width)

    def _on_tree_expanded(self, index: QModelIndex) -> None:
        var: protocol.Var | None = index.data(VAR_ROLE)
        if var:
            self._expanded.add(var["name"])
            self._fit_name_column()  # its children's names may be longer

    def _on_tree_collapsed(self, index: QModelIndex) -> None:
        var: protocol.Var | None = index.data(VAR_ROLE)
        if var and not self._quiet:
            self._expanded.discard(var["name"])

    # -- selection -----------------------------------------------------------------------------
    def _on_tree_selection_changed(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        if self._quiet:
            return
        indexes = selected.indexes()
        var: protocol.Var | None = indexes[0].data(VAR_ROLE) if indexes else None
        if not var:
            return  # a row hidden by the filter stays the selection; the details keep showing it
        if var["name"] != self.app_state.selected_name or var is not self.app_state.selection:
            self._select_var(var)

    def _select_var(self, var: protocol.Var, overlaps: protocol.OverlapsReply | None = None) -> None:
        """Select *var*; its overlaps are asked for, unless the run's reply brought them (*overlaps*)."""
        self.app_state.select(var)
        self._fetcher.restart()
        name = var["name"]
        self.model.set_highlight({name: "selected"})
        if not is_array(var["kind"]):
            self.relation.clear()
            return
        if overlaps is not None:
            self._on_source_overlaps_replied(protocol.Reply(True, overlaps))
            return
        self.relation.setText(self.tr("Checking which elements {name} shares…").format(name=name))
        self._fetcher.ask(protocol.Overlaps(name=name), self._on_source_overlaps_replied)

    def _on_source_overlaps_replied(self, reply: protocol.Reply[protocol.OverlapsReply]) -> None:
        result = reply.result if reply.ok else None
        name = self.app_state.selected_name or ""
        if result is None:
            self.relation.setText(self.tr("Could not check the shared memory: {why}").format(why=reply.message))
            return
        roles: dict[str, HighlightRole] = {rel["other"]: rel["role"] for rel in result["relations"]}
        roles[name] = "selected"
        self.model.set_highlight(roles)
        stored = self.model.set_overlaps(name, result["overlaps"])
        if stored is not None:
            self.app_state.amend(stored)
        hint = stored["copy_hint"] if stored is not None else None
        text = result["sentence"]
        self.relation.setText(f"{text} · {hint}" if hint and not result["relations"] else text)

    def _on_filter_text_changed(self, text: str) -> None:
        self.model.set_filter(text)

    # -- columns -------------------------------------------------------------------------------
    def _on_tree_menu_requested(self, pos: QPoint) -> None:
        var = self.tree.indexAt(pos).data(VAR_ROLE)
        if not var:
            return
        menu = QMenu(self)
        self.add_watch_action(menu, var["name"])
        menu.exec(self.tree.viewport().mapToGlobal(pos))

    def add_watch_action(self, menu: QMenu, name: str) -> Any:
        """The row menu's pin: watch *name* while code runs (its curve in the Watch tab), or stop."""
        pinned = self.model.is_pinned(name)
        action = menu.addAction(self.tr("Stop Watching {name}").format(name=name) if pinned
                                else self.tr("Watch {name} While Running").format(name=name))
        action.setToolTip(self.tr("Draw this value in the Watch tab while the code runs, without changing the code"))
        action.triggered.connect(lambda _=False: self.watch_toggled.emit(name))
        return action

    def _on_header_menu_requested(self, pos: QPoint) -> None:
        menu = QMenu(self)
        for section, column in enumerate(self.model.columns()):
            if section == 0:
                continue
            action = menu.addAction(column.header)
            action.setCheckable(True)
            action.setChecked(not self.tree.isColumnHidden(section))
            action.setToolTip(column.tip)
            action.toggled.connect(lambda on, s=section: self.set_column_visible(s, on))
        menu.exec(self.tree.header().mapToGlobal(pos))

    def set_column_visible(self, section: int, visible: bool) -> None:
        self.tree.setColumnHidden(section, not visible)
        hidden = [c.key for i, c in enumerate(self.model.columns()) if self.tree.isColumnHidden(i)]
        QSettings().setValue("inspector/hidden_columns", hidden)

    def _restore_columns(self) -> None:
        saved = QSettings().value("inspector/hidden_columns")
        if isinstance(saved, str):
            saved = [saved]
        for section, column in enumerate(self.model.columns()):
            hidden = (column.key in saved) if isinstance(saved, list) else not column.visible
            self.tree.setColumnHidden(section, hidden)
