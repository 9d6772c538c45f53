"""The Values tab's table model: fetches only the blocks of cells the view paints.

It asks the kernel for :class:`explorer.protocol.Values` windows of ``BLOCK_ROWS``
x ``BLOCK_COLS`` (numbers arrive as one binary block per window), keeps a few of
them, and forgets replies meant for an earlier variable or slice.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont

from explorer import protocol

BLOCK_ROWS = 64
BLOCK_COLS = 32
MAX_CACHED_BLOCKS = 48
# QHeaderView keeps per-section bookkeeping, so a 100M-row header is not free: list this many at most.
MAX_TABLE_ROWS = 1_000_000
MAX_TABLE_COLS = 10_000
NAN_BACKGROUND = QColor("#ff66ff")
POSINF_COLOR = QColor("#c00000")
NEGINF_COLOR = QColor("#0040c0")
# Light ends so dark text stays readable on a projector: low = blue, middle = pale yellow, high = orange.
_HEAT_STOPS = ((0.0, (171, 217, 233)), (0.5, (255, 255, 191)), (1.0, (253, 174, 97)))


def format_cell(cell: Any) -> str:
    """Text of one cell: 6 significant digits for floats and complex numbers (nan, inf, -inf as such)."""
    if isinstance(cell, (bool, np.bool_)):
        return str(bool(cell))
    if isinstance(cell, (complex, np.complexfloating)):
        return f"{cell.real:.6g}{cell.imag:+.6g}j"
    if isinstance(cell, (float, np.floating)):
        return f"{float(cell):.6g}"
    return str(cell)


def _nonfinite(cell: Any) -> str | None:
    """"nan", "inf" or "-inf" for such a float, else None."""
    if not isinstance(cell, (float, np.floating)) or np.isfinite(cell):
        return None
    return "nan" if cell != cell else ("inf" if cell > 0 else "-inf")


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

    window_loaded = Signal(object)
    window_failed = Signal(str)

    def __init__(self, fetcher: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._fetcher = fetcher  # a SelectionFetch: replies for another variable or slice never arrive
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
        self._fetcher.restart()
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
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else self._cols

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        dim = self._col_dim if orientation == Qt.Orientation.Horizontal else self._row_dim
        return str(section) if dim is not None else ""

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
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
            cell = block["cells"][i][j]
            position = block["positions"][i][j] if block.get("positions") else None
        except (IndexError, KeyError, TypeError):
            return None
        return cell, position, block.get("kind", "other")

    def _style(self, cell: Any, kind: str, role: int) -> Any:
        """Colours/fonts: NaN magenta, +/-Inf bold red/blue, else the heat map."""
        if role == Qt.ItemDataRole.TextAlignmentRole and kind in ("float", "int", "complex"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        special = _nonfinite(cell)
        if special == "nan":
            return NAN_BACKGROUND if role == Qt.ItemDataRole.BackgroundRole else None
        if special is not None:
            if role == Qt.ItemDataRole.FontRole:
                font = QFont()
                font.setBold(True)
                return font
            if role == Qt.ItemDataRole.ForegroundRole:
                return QBrush(POSINF_COLOR if special == "inf" else NEGINF_COLOR)
            return None
        if not self.heat or self._range is None or kind not in ("float", "int", "bool"):
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
        request = protocol.Values(name=self._name, row_dim=self._row_dim, col_dim=self._col_dim,
                                  index=list(self._index), row0=br * BLOCK_ROWS, col0=bc * BLOCK_COLS,
                                  nrows=BLOCK_ROWS, ncols=BLOCK_COLS)
        self._fetcher.ask(request, lambda reply: self._on_source_replied(key, reply))

    def _on_source_replied(self, key: tuple[int, int], reply: protocol.Reply[protocol.ValuesReply]) -> None:
        self._pending.discard(key)
        if not reply.ok or reply.result is None:
            self._failed = True  # the same request would fail again on every repaint
            self.window_failed.emit(reply.message)
            return
        block: dict = dict(reply.result)
        block["cells"] = _cells(block)
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
        rows, cols = (block.get("block_shape") or [0, 0])[:2]
        r0, c0 = block.get("row0", 0), block.get("col0", 0)
        if rows and cols:
            self.dataChanged.emit(self.index(r0, c0), self.index(r0 + rows - 1, c0 + cols - 1))

    def _refresh_all(self) -> None:
        if self._rows and self._cols:
            self.dataChanged.emit(self.index(0, 0), self.index(self._rows - 1, self._cols - 1))


def _cells(block: dict) -> Any:
    """The window's cells: the binary block as a 2-d array, or the text rows as sent."""
    raw = block.get("block")
    if isinstance(raw, bytes) and block.get("block_dtype"):
        shape = tuple(int(s) for s in block.get("block_shape") or (0, 0))
        return np.frombuffer(raw, dtype=np.dtype(block["block_dtype"])).reshape(shape)
    return block.get("rows") or []
