"""The Values tab: the numbers of the selected tensor, two dims at a time.

The table itself lives in :mod:`explorer.ui.values.values_table_model`, which asks
the kernel only for the blocks of cells the view paints.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSlider,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from explorer import protocol
from explorer.protocol.kinds import is_array
from explorer.ui.app_state import AppState
from explorer.ui.selection_view import SelectionView
from explorer.ui.values.values_table_model import (
    MAX_TABLE_COLS,
    MAX_TABLE_ROWS,
    ValuesTableModel,
    table_extent,
)


class ValuesView(SelectionView):
    """The values table (:class:`explorer.protocol.Values`) with pickers for the displayed dims and sliders for the others."""

    values_shown = Signal(object)

    def __init__(self, source: protocol.RequestSource, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(source, state, parent)
        self._shown_name: str | None = None
        self._shape: list[int] = []
        self._index: list[int | None] = []
        self._row_dim: int | None = None
        self._col_dim: int | None = None
        self._has_values = False
        self._spins: dict[int, QSpinBox] = {}
        self.model = ValuesTableModel(self._fetcher, self)  # it asks for the blocks it paints
        self.model.window_loaded.connect(self._on_model_window_loaded)
        self.model.window_failed.connect(self._on_model_window_failed)
        self._build_widgets()
        self.retranslate()
        self.follow_selection()

    def _build_widgets(self) -> None:
        self.rows_label, self.cols_label = QLabel(self), QLabel(self)
        self.row_combo, self.col_combo = QComboBox(self), QComboBox(self)
        self.row_combo.currentIndexChanged.connect(self._on_row_combo_current_index_changed)
        self.col_combo.currentIndexChanged.connect(self._on_col_combo_current_index_changed)
        self.heat_check = QCheckBox(self)
        self.heat_check.toggled.connect(self._on_heat_check_toggled)
        bar = QHBoxLayout()
        for w in (self.rows_label, self.row_combo, self.cols_label, self.col_combo, self.heat_check):
            bar.addWidget(w)
        bar.addStretch(1)
        self._index_box = QWidget(self)
        self._index_grid = QGridLayout(self._index_box)
        self._index_grid.setContentsMargins(0, 0, 0, 0)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        for header in (self.table.horizontalHeader(), self.table.verticalHeader()):
            header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # never measure every section
        self._fit_columns()
        root = QVBoxLayout(self)
        root.setContentsMargins(0, 0, 0, 0)
        root.addLayout(bar)
        root.addWidget(self._index_box)
        root.addWidget(self.message)
        root.addWidget(self.table, 1)

    def retranslate(self) -> None:
        """Set every static text in the current language."""
        self.rows_label.setText(self.tr("Rows:"))
        self.cols_label.setText(self.tr("Columns:"))
        self.heat_check.setText(self.tr("Heat map"))
        self.heat_check.setToolTip(self.tr("Colour each cell by its value (blue low, orange high)"))
        self.row_combo.setToolTip(self.tr("The dimension listed down the rows"))
        self.col_combo.setToolTip(self.tr("The dimension listed across the columns"))
        self._fill_dim_combos()
        self._build_index_controls()
        self._show_problem()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.FontChange:
            self._fit_columns()  # presentation mode: wider cells for the bigger font
        super().changeEvent(event)

    def _fit_columns(self) -> None:
        self.table.horizontalHeader().setDefaultSectionSize(self.fontMetrics().horizontalAdvance(" -0.00000e+00 "))
        self.table.verticalHeader().setDefaultSectionSize(round(self.fontMetrics().height() * 1.5))

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.model.prefetch()

    # -- public API ---------------------------------------------------------------------
    def _on_state_selection_changed(self, var: protocol.Var | None) -> None:
        """Show the values of the selected VAR; fetching starts when the table is visible.

        Same name and shape (a re-run) keeps the dims and sliders but fetches fresh values.
        """
        old_name, old_shape = self._shown_name, self._shape
        self._shown_name = var["name"] if var else None
        shape = var["shape"] if var else None
        table = var if var is not None and shape is not None and is_array(var["kind"]) else None
        self._has_values = table is not None
        self._shape = list(shape) if table is not None and shape is not None else []
        if not (table is not None and table["name"] == old_name and self._shape == old_shape):
            n = len(self._shape)
            self._row_dim, self._col_dim = (n - 2, n - 1) if n >= 2 else ((0, None) if n == 1 else (None, None))
            self._index = [None if d in (self._row_dim, self._col_dim) else 0 for d in range(n)]
        self._fill_dim_combos()
        self._build_index_controls()
        self._show_problem()
        self._apply()

    def cell_text(self, row: int, col: int) -> str | None:
        """The text shown in one cell (None while it is not loaded)."""
        return self.model.data(self.model.index(row, col), Qt.ItemDataRole.DisplayRole)

    def index_spin(self, dim: int) -> QSpinBox | None:
        """The spin box that fixes *dim* (None for a displayed dim)."""
        return self._spins.get(dim)

    # -- slots --------------------------------------------------------------------------------
    def _on_row_combo_current_index_changed(self, _i: int) -> None:
        self._on_dim_picked(self.row_combo.currentData(), is_row=True)

    def _on_col_combo_current_index_changed(self, _i: int) -> None:
        self._on_dim_picked(self.col_combo.currentData(), is_row=False)

    def _on_heat_check_toggled(self, on: bool) -> None:
        self.model.set_heat(on)

    def _on_spin_value_changed(self, dim: int, value: int) -> None:
        if dim < len(self._index) and self._index[dim] != value:
            self._index[dim] = value
            self._apply()

    def _on_model_window_loaded(self, block: dict) -> None:
        self._show_problem()  # replaces an earlier error message
        self.values_shown.emit(block)

    def _on_model_window_failed(self, text: str) -> None:
        self.message.setText(text or self.tr("The values could not be read."))
        self.message.setVisible(True)

    # -- helpers ---------------------------------------------------------------------------------
    def _on_dim_picked(self, dim: Any, is_row: bool) -> None:
        """Change a displayed dim; picking the other one's dim swaps them."""
        if not isinstance(dim, int):
            return
        old_row, old_col = self._row_dim, self._col_dim
        if is_row:
            self._row_dim, self._col_dim = dim, (old_row if dim == old_col else old_col)
        else:
            self._col_dim, self._row_dim = dim, (old_col if dim == old_row else old_row)
        self._index = [None if d in (self._row_dim, self._col_dim) else (i or 0) for d, i in enumerate(self._index)]
        self._fill_dim_combos()
        self._build_index_controls()
        self._apply()

    def _apply(self) -> None:
        name = self._var["name"] if self._has_values and self._var is not None else None
        self.model.configure(name, self._shape, self._row_dim, self._col_dim, self._index)
        if self.isVisible():
            self.model.prefetch()

    def _fill_dim_combos(self) -> None:
        n = len(self._shape)
        for combo, current in ((self.row_combo, self._row_dim), (self.col_combo, self._col_dim)):
            combo.blockSignals(True)
            combo.clear()
            for d in range(n):
                combo.addItem(self.tr("dim {dim} (size {size})").format(dim=d, size=self._shape[d]), d)
            if current is None:
                combo.addItem("—", None)
            combo.setCurrentIndex(combo.findData(current) if current is not None else combo.count() - 1)
            combo.setEnabled(n >= 2)
            combo.blockSignals(False)

    def _build_index_controls(self) -> None:
        """One label + slider + spin box per dim that is not displayed."""
        while self._index_grid.count():
            item = self._index_grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self._spins = {}
        for row, (d, i) in enumerate((d, i) for d, i in enumerate(self._index) if i is not None):
            self._add_index_row(row, d, i)
        self._index_box.setVisible(bool(self._spins))

    def _add_index_row(self, row: int, dim: int, value: int) -> None:
        size = self._shape[dim]
        label = QLabel(self.tr("index of dim {dim}:").format(dim=dim), self._index_box)
        slider = QSlider(Qt.Orientation.Horizontal, self._index_box)
        spin = QSpinBox(self._index_box)
        for w in (slider, spin):
            w.setRange(0, max(size - 1, 0))
            w.setValue(value)
            w.setEnabled(size > 1)
        slider.valueChanged.connect(spin.setValue)
        spin.valueChanged.connect(slider.setValue)
        spin.valueChanged.connect(lambda v, d=dim: self._on_spin_value_changed(d, v))
        spin.setToolTip(self.tr("Which index of dim {dim} is shown (size {size})").format(dim=dim, size=size))
        self._index_grid.addWidget(label, row, 0)
        self._index_grid.addWidget(slider, row, 1)
        self._index_grid.addWidget(spin, row, 2)
        self._spins[dim] = spin

    def _show_problem(self) -> None:
        """Explain an empty table (nothing selected, not an array, nothing to list)."""
        var = self._var
        text = ""
        if var is None:
            text = self.tr("Select a tensor or array to see its values.")
        elif not is_array(var["kind"]) or var["shape"] is None:
            text = self.tr("This variable is not a tensor or array, so it has no values table.")
        elif 0 in self._shape:
            text = self.tr("This variable has no elements (one of its dimensions has size 0).")
        rows, cols = table_extent(self._shape, self._row_dim, self._col_dim)
        # Each sentence names only the limits, so its numbers are never 1 ("1 rows").
        if not text and rows > MAX_TABLE_ROWS and cols > MAX_TABLE_COLS:
            text = self.tr("Only the first {rows} rows and {cols} columns are listed.").format(rows=MAX_TABLE_ROWS, cols=MAX_TABLE_COLS)
        elif not text and rows > MAX_TABLE_ROWS:
            text = self.tr("Only the first {rows} rows are listed.").format(rows=MAX_TABLE_ROWS)
        elif not text and cols > MAX_TABLE_COLS:
            text = self.tr("Only the first {cols} columns are listed.").format(cols=MAX_TABLE_COLS)
        self.message.setText(text)
        self.message.setVisible(bool(text))
