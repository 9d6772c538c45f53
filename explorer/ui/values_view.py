"""The Values tab: the numbers of the selected tensor, two dims at a time.

The table model asks the kernel only for the blocks of cells that the view
paints (``values`` requests of ``BLOCK_ROWS`` x ``BLOCK_COLS``), keeps a few of
them, and forgets replies meant for an earlier variable or slice.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import shiboken6
from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QShowEvent
from PySide6.QtWidgets import (QCheckBox, QComboBox, QGridLayout, QHBoxLayout, QHeaderView, QLabel, QSlider,
                               QSpinBox, QTableView, QVBoxLayout, QWidget)

BLOCK_ROWS = 64
BLOCK_COLS = 32
MAX_CACHED_BLOCKS = 48
#: QHeaderView keeps per-section bookkeeping, so a 100M-row header is not free: list this many at most.
MAX_TABLE_ROWS = 1_000_000
MAX_TABLE_COLS = 10_000
VALUE_KINDS = ("tensor", "parameter", "ndarray")
NAN_BACKGROUND = QColor("#ff66ff")
POSINF_COLOR = QColor("#c00000")
NEGINF_COLOR = QColor("#0040c0")
# Light ends so dark text stays readable on a projector: low = blue, middle = pale yellow, high = orange.
_HEAT_STOPS = ((0.0, (171, 217, 233)), (0.5, (255, 255, 191)), (1.0, (253, 174, 97)))


def format_cell(cell: Any) -> str:
    """Text of one cell: 6 significant digits for floats, NaN/Inf as sent (strings)."""
    return f"{cell:.6g}" if isinstance(cell, float) else str(cell)


def heat_color(x: float, lo: float, hi: float) -> QColor:
    """Background for value *x* on a light three-stop scale over [lo, hi]."""
    f = 0.5 if hi <= lo else min(max((x - lo) / (hi - lo), 0.0), 1.0)
    (f0, c0), (f1, c1) = (_HEAT_STOPS[0], _HEAT_STOPS[1]) if f <= 0.5 else (_HEAT_STOPS[1], _HEAT_STOPS[2])
    t = (f - f0) / (f1 - f0)
    return QColor(*(round(a + (b - a) * t) for a, b in zip(c0, c1)))


def table_extent(shape: list[int], row_dim: int | None, col_dim: int | None) -> tuple[int, int]:
    """Rows and columns of the 2-d slice (0 x 0 when a fixed dim is empty), as the kernel computes them."""
    if any(s == 0 for d, s in enumerate(shape) if d not in (row_dim, col_dim)):
        return 0, 0
    rows = shape[row_dim] if row_dim is not None else 1
    cols = shape[col_dim] if col_dim is not None else 1
    return rows, cols


class ValuesTableModel(QAbstractTableModel):
    """Cells of one 2-d slice, fetched from the kernel block by block as they are painted."""

    window_loaded = Signal(dict)
    window_failed = Signal(str)

    def __init__(self, source: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._source = source
        self._token = 0
        self._name: str | None = None
        self._row_dim: int | None = None
        self._col_dim: int | None = None
        self._index: list[int | None] = []
        self._rows = self._cols = 0
        self._blocks: OrderedDict[tuple[int, int], dict] = OrderedDict()
        self._pending: set[tuple[int, int]] = set()
        self._range: tuple[float, float] | None = None
        self._failed = False
        self.heat = False

    # -- configuration ----------------------------------------------------------------
    def configure(self, name: str | None, shape: list[int], row_dim: int | None, col_dim: int | None,
                  index: list[int | None]) -> None:
        """Show another variable or slice; everything cached or in flight is dropped."""
        self.beginResetModel()
        self._token += 1
        self._name, self._row_dim, self._col_dim, self._index = name, row_dim, col_dim, list(index)
        rows, cols = table_extent(shape, row_dim, col_dim) if name else (0, 0)
        self._rows, self._cols = min(rows, MAX_TABLE_ROWS), min(cols, MAX_TABLE_COLS)
        self._blocks.clear()
        self._pending.clear()
        self._range = None
        self._failed = False
        self.endResetModel()

    def set_heat(self, on: bool) -> None:
        self.heat = on
        self._refresh_all()

    def prefetch(self) -> None:
        """Ask for the first block now (painting would ask too, but only once visible)."""
        if self._rows and self._cols:
            self._block(0, 0)

    # -- Qt model API ---------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else self._cols

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        dim = self._col_dim if orientation == Qt.Orientation.Horizontal else self._row_dim
        return str(section) if dim is not None else ""

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        r, c = index.row(), index.column()
        found = self._cell(r, c, fetch=role == Qt.ItemDataRole.DisplayRole)
        if found is None:
            return None
        cell, position, kind = found
        if role == Qt.ItemDataRole.DisplayRole:
            return format_cell(cell)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(r, c, position)
        return self._style(cell, kind, role)

    # -- cells ----------------------------------------------------------------------------------
    def _cell(self, r: int, c: int, fetch: bool) -> tuple[Any, Any, str] | None:
        key = (r // BLOCK_ROWS, c // BLOCK_COLS)
        block = self._blocks.get(key)
        if block is None:
            if fetch:
                self._block(*key)
            return None
        i, j = r - block.get("row0", 0), c - block.get("col0", 0)
        try:
            cell = block["rows"][i][j]
            position = block["positions"][i][j] if block.get("positions") else None
        except (IndexError, KeyError, TypeError):
            return None
        return cell, position, block.get("kind", "other")

    def _style(self, cell: Any, kind: str, role: int) -> Any:
        """Colours/fonts: NaN magenta, +/-Inf bold red/blue, else the heat map."""
        if role == Qt.ItemDataRole.TextAlignmentRole and kind in ("float", "int", "complex"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if cell == "nan" and kind in ("float", "complex"):
            return NAN_BACKGROUND if role == Qt.ItemDataRole.BackgroundRole else None
        if cell in ("inf", "-inf") and kind == "float":
            if role == Qt.ItemDataRole.FontRole:
                font = QFont()
                font.setBold(True)
                return font
            if role == Qt.ItemDataRole.ForegroundRole:
                return QBrush(POSINF_COLOR if cell == "inf" else NEGINF_COLOR)
            return None
        if not self.heat or self._range is None or isinstance(cell, str):
            return None
        if role == Qt.ItemDataRole.BackgroundRole:
            return heat_color(float(cell), *self._range)
        if role == Qt.ItemDataRole.ForegroundRole:
            return QBrush(QColor("black"))  # the heat colours are light in any theme
        return None

    def full_index_text(self, r: int, c: int) -> str:
        """The indexing expression of one cell, e.g. ``t[1, 2, 3]``."""
        idx = list(self._index)
        if self._row_dim is not None:
            idx[self._row_dim] = r
        if self._col_dim is not None:
            idx[self._col_dim] = c
        if not idx:
            return f"{self._name}.item()"
        return f"{self._name}[{', '.join(str(i) for i in idx)}]"

    def _tooltip(self, r: int, c: int, position: Any) -> str:
        text = self.full_index_text(r, c)
        if position is not None:
            text += "\n" + self.tr("storage position: {position}").format(position=position)
        return text

    # -- fetching -----------------------------------------------------------------------------------
    def _block(self, br: int, bc: int) -> None:
        key = (br, bc)
        if key in self._pending or key in self._blocks or self._name is None or self._failed:
            return
        self._pending.add(key)
        params = {
            "name": self._name, "row_dim": self._row_dim, "col_dim": self._col_dim, "index": self._index,
            "row0": br * BLOCK_ROWS, "col0": bc * BLOCK_COLS, "nrows": BLOCK_ROWS, "ncols": BLOCK_COLS,
        }
        token = self._token
        self._source.request("values", params, lambda reply: self._on_source_replied(token, key, reply))

    def _on_source_replied(self, token: int, key: tuple[int, int], reply: dict) -> None:
        if not shiboken6.isValid(self) or token != self._token:
            return  # the view was closed, or a reply for an earlier variable or slice
        self._pending.discard(key)
        if "error" in reply or not isinstance(reply.get("result"), dict):
            self._failed = True  # the same request would fail again on every repaint
            self.window_failed.emit(_clean_error(str(reply.get("error", ""))))
            return
        block = reply["result"]
        self._blocks[key] = block
        while len(self._blocks) > MAX_CACHED_BLOCKS:
            self._blocks.popitem(last=False)
        if self._widen_range(block.get("min"), block.get("max")) and self.heat:
            self._refresh_all()
        else:
            self._refresh_block(block)
        self.window_loaded.emit(block)

    def _widen_range(self, lo: Any, hi: Any) -> bool:
        """Grow the heat-map range with a block's finite min/max; True when it changed."""
        if not isinstance(lo, (int, float)) or not isinstance(hi, (int, float)):
            return False
        old = self._range
        self._range = (float(lo), float(hi)) if old is None else (min(old[0], lo), max(old[1], hi))
        return self._range != old

    def _refresh_block(self, block: dict) -> None:
        rows, cols = len(block.get("rows") or []), len((block.get("rows") or [[]])[0])
        r0, c0 = block.get("row0", 0), block.get("col0", 0)
        if rows and cols:
            self.dataChanged.emit(self.index(r0, c0), self.index(r0 + rows - 1, c0 + cols - 1))

    def _refresh_all(self) -> None:
        if self._rows and self._cols:
            self.dataChanged.emit(self.index(0, 0), self.index(self._rows - 1, self._cols - 1))


def _clean_error(text: str) -> str:
    """The kernel's message without a leading ``ValueError:``-style class name."""
    head, sep, rest = text.partition(": ")
    return rest if sep and head.isidentifier() and head.endswith(("Error", "Exception")) else text


class ValuesView(QWidget):
    """The values table with pickers for the displayed dims and sliders for the others.

    Parameters
    ----------
    source : object
        Has ``request(method, params, callback)``; answers ``values`` requests.
    parent : QWidget, optional
    """

    values_shown = Signal(dict)

    def __init__(self, source: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._var: dict | None = None
        self._shape: list[int] = []
        self._index: list[int | None] = []
        self._row_dim: int | None = None
        self._col_dim: int | None = None
        self._has_values = False
        self._spins: dict[int, QSpinBox] = {}
        self.model = ValuesTableModel(source, self)
        self.model.window_loaded.connect(self._on_model_window_loaded)
        self.model.window_failed.connect(self._on_model_window_failed)
        self._build_widgets()
        self.retranslate()
        self.set_variable(None)

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

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.FontChange:
            self._fit_columns()  # presentation mode: wider cells for the bigger font
        super().changeEvent(event)

    def _fit_columns(self) -> None:
        self.table.horizontalHeader().setDefaultSectionSize(self.fontMetrics().horizontalAdvance(" -0.00000e+00 "))
        self.table.verticalHeader().setDefaultSectionSize(round(self.fontMetrics().height() * 1.5))

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self.model.prefetch()

    # -- public API ---------------------------------------------------------------------
    def set_variable(self, var: dict | None) -> None:
        """Show the values of *var* (a VAR dict); fetching starts when the table is visible.

        Same name and shape (a re-run) keeps the dims and sliders but fetches fresh values.
        """
        old_name, old_shape = (self._var or {}).get("name"), self._shape
        self._var = var
        shape = var.get("shape") if isinstance(var, dict) else None
        self._has_values = isinstance(shape, list) and var.get("kind") in VALUE_KINDS
        self._shape = [int(s) for s in shape] if self._has_values else []
        if not (self._has_values and var.get("name") == old_name and self._shape == old_shape):
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
        name = self._var.get("name") if self._has_values else None
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
            if item.widget() is not None:
                item.widget().deleteLater()
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
        if not isinstance(var, dict):
            text = self.tr("Select a tensor or array to see its values.")
        elif var.get("kind") not in VALUE_KINDS or not isinstance(var.get("shape"), list):
            text = self.tr("This variable is not a tensor or array, so it has no values table.")
        elif 0 in self._shape:
            text = self.tr("This tensor has no elements (one of its dimensions has size 0).")
        rows, cols = table_extent(self._shape, self._row_dim, self._col_dim)
        if not text and (rows > MAX_TABLE_ROWS or cols > MAX_TABLE_COLS):
            text = self.tr("Only the first {rows} rows and {cols} columns are listed.").format(
                rows=min(rows, MAX_TABLE_ROWS), cols=min(cols, MAX_TABLE_COLS))
        self.message.setText(text)
        self.message.setVisible(bool(text))
