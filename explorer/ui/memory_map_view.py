"""The memory map: an allocation drawn as cells, and which cells each view of it reaches."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QHelpEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from explorer import protocol
from explorer.protocol.kinds import is_array
from explorer.protocol.positions import position_formula, unravel
from explorer.ui.app_state import AppState
from explorer.ui.palette import GROUP_COLORS  # one palette for inspector chips and map rows
from explorer.ui.selection_view import SelectionView

_MAX_TOOLTIP_VISITS = 4
_MAX_COUNT = 2**31 - 1  # the largest plural count Qt's translate() accepts (a C int)
_WRAP = Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap


def _text_color(fill: QColor) -> QColor:
    """Black or white, whichever reads better on *fill*."""
    luminance = 0.299 * fill.red() + 0.587 * fill.green() + 0.114 * fill.blue()
    return QColor("#000000") if luminance > 140 else QColor("#FFFFFF")


class MemoryMapView(SelectionView):
    """Draws the ``memory_map`` payload (:class:`explorer.protocol.MemoryMap`) of the selected variable."""

    map_loaded = Signal(object)

    def __init__(self, source: protocol.RequestSource, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(source, state, parent)
        self._payload: protocol.MemoryMapReply | None = None
        self._message = ""
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.follow_selection()

    # -- public API ------------------------------------------------------------
    def _on_state_selection_changed(self, var: protocol.Var | None) -> None:
        """Show the memory map of the selected VAR, fetching it now or when first shown."""
        self._payload = None
        self._fetcher.restart()  # any reply still on its way is now stale
        if var is None:
            self._message = self.tr("Select a tensor or array to see its memory.")
        elif not is_array(var["kind"]):
            self._message = self.tr("Only tensors and arrays have a memory map.")
        else:
            self._message = self.tr("Loading memory map…")
            self._fetcher.schedule()
        self._relayout()

    def payload(self) -> protocol.MemoryMapReply | None:
        """The payload drawn now (None while loading or without storage)."""
        return self._payload

    @property
    def _shown(self) -> protocol.MemoryMapReply:
        """The map being drawn: only the painting and hit-testing helpers ask, and only while one is."""
        if self._payload is None:
            raise RuntimeError("no memory map is shown")
        return self._payload

    def message(self) -> str:
        """The message shown instead of (or above) the map."""
        return self._message

    # -- fetching ----------------------------------------------------------------
    def _fetch(self) -> None:
        self._fetcher.ask(protocol.MemoryMap(name=self._name), self._on_source_replied)

    def _on_source_replied(self, reply: protocol.Reply[protocol.MemoryMapReply]) -> None:
        if not reply.ok or reply.result is None:
            self._message = self.tr("Could not draw the memory map: {error}").format(error=reply.message)
        else:
            payload = reply.result
            allocation = payload["allocation"]
            if allocation is None:
                self._message = self.tr("No storage to draw: {note}").format(
                    note=payload["note"] or "")
            else:
                self._payload = payload
                self._message = self._header(payload, allocation)
        self._relayout()
        if self._payload is not None:
            self.map_loaded.emit(self._payload)

    def _header(self, p: protocol.MemoryMapReply, allocation: protocol.Storage) -> str:
        # The inspector's label wins: it numbers groups over the whole snapshot.
        group = (self._var and self._var["memory_group"]) or p["memory_group"]
        shared = (self.tr("memory group {group}").format(group=group) if group
                  else self.tr("not shared with other variables"))
        # {nbytes}, not %n: Qt takes a 32-bit count and a tensor can hold more bytes.
        nbytes, cell_bytes, unit_bytes = allocation["nbytes"], p["cell_bytes"] or 1, p["unit_bytes"] or 1
        plural = min(nbytes, _MAX_COUNT)
        #: Size of the memory block the variable lives in; the count chooses the plural form.
        size = self.tr("allocation: {nbytes} byte(s)", "", plural).format(nbytes=nbytes)
        if p["bin"] > 1:
            plural = min(cell_bytes, _MAX_COUNT)
            #: Legend of the memory map: how many bytes one drawn cell (box) stands for.
            cell = self.tr("1 cell = {n} byte(s)", "", plural).format(n=cell_bytes)
        elif p["unit"] == "element":
            cell = self.tr("1 cell = 1 element (%n byte(s))", "", unit_bytes)
        else:
            cell = self.tr("1 cell = 1 byte")
        return f"{p['name']}: {shared} · {size} · {cell}"

    # -- geometry ------------------------------------------------------------------
    def _metrics(self) -> tuple[int, int, int, int]:
        """(cell width, cell height, label column width, line gap) from the current font."""
        fm = self.fontMetrics()
        p = self._payload
        if p is not None and p["bin"] > 1:  # binned cells carry no text: keep them narrow
            cell_w = fm.averageCharWidth() + 3
        else:
            widest = max((len(v) for v in (p["values"] if p else []) if v), default=3)
            cell_w = fm.horizontalAdvance("0" * max(3, min(widest, 8))) + fm.averageCharWidth()
        cell_h = fm.height() + fm.height() // 2
        #: Label of the row of storage cells at the top of the memory map.
        labels = [self.tr("memory")] + [r["name"] for r in (p["rows"] if p else [])]
        label_w = max(fm.horizontalAdvance(t) for t in labels) + fm.averageCharWidth() * 2
        return cell_w, cell_h, label_w, fm.height() // 3

    def _per_line(self) -> int:
        cell_w, _, label_w, _ = self._metrics()
        return max(1, (self.width() - label_w - 4) // cell_w)

    def cell_rect(self, row: int | None, cell: int) -> QRect:
        """Where cell *cell* of the strip (``row=None``) or of view row *row* is drawn."""
        cell_w, cell_h, label_w, gap = self._metrics()
        n_rows = len(self._shown["rows"])
        per_line = self._per_line()
        block = (n_rows + 1) * (cell_h + gap) + cell_h // 2
        top = self._top() + (cell // per_line) * block + (0 if row is None else (row + 1) * (cell_h + gap))
        return QRect(label_w + (cell % per_line) * cell_w, top, cell_w, cell_h)

    def _text_height(self, text: str, width: int) -> int:
        """Height of *text* word-wrapped to *width* (big presentation fonts wrap)."""
        bound = QRect(0, 0, max(1, width), 1 << 20)
        return self.fontMetrics().boundingRect(bound, _WRAP, text).height()

    def _top(self) -> int:
        fm = self.fontMetrics()
        return self._text_height(self._message, self.width() - fm.averageCharWidth()) + fm.height() // 2

    def _formula_text(self, row: protocol.MapRow) -> str:
        return f"{row['name']}: {row['formula']}"

    def _content_height(self, width: int) -> int:
        fm = self.fontMetrics()
        if self._payload is None:
            return self._top() + fm.height()
        cell_w, cell_h, label_w, gap = self._metrics()
        per_line = max(1, (width - label_w - 4) // cell_w)
        lines = max(1, -(-self._payload["cells"] // per_line))
        block = (len(self._payload["rows"]) + 1) * (cell_h + gap) + cell_h // 2
        text_w = width - fm.height() - 6
        formulas = sum(self._text_height(self._formula_text(r), text_w) for r in self._payload["rows"])
        return self._top() + lines * block + fm.height() + formulas

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._content_height(width)

    def sizeHint(self) -> QSize:
        return QSize(self.fontMetrics().averageCharWidth() * 60, self._content_height(self.width()))

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self.setMinimumHeight(self._content_height(self.width()))

    def _relayout(self) -> None:
        self.setMinimumHeight(self._content_height(self.width()))
        self.updateGeometry()
        self.update()

    # -- painting ----------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        fm = self.fontMetrics()
        painter.setPen(self.palette().text().color())
        painter.drawText(QRect(fm.averageCharWidth(), 0, self.width() - fm.averageCharWidth(), self._top()),
                         _WRAP | Qt.AlignmentFlag.AlignVCenter, self._message)
        if self._payload is not None:
            self._paint_strip(painter)
            for index, row in enumerate(self._payload["rows"]):
                self._paint_row(painter, index, row)
            self._paint_formulas(painter)
        painter.end()

    def _paint_label(self, painter: QPainter, rect: QRect, text: str, swatch: QColor | None) -> None:
        """Row name right-aligned left of the cells, in the text colour (yellow text is unreadable)."""
        label = QRect(0, rect.top(), rect.left() - 4, rect.height())
        if swatch is not None:
            painter.fillRect(QRect(2, rect.top() + 2, 6, rect.height() - 4), swatch)
        painter.setPen(self.palette().text().color())
        painter.drawText(label, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, text)

    def _paint_strip(self, painter: QPainter) -> None:
        values = self._shown["values"]
        base = self.palette().base().color()
        text = self.palette().text().color()
        per_line = self._per_line()
        for cell in range(self._shown["cells"]):
            rect = self.cell_rect(None, cell)
            if cell % per_line == 0:
                self._paint_label(painter, rect, self.tr("memory"), None)
            painter.fillRect(rect, base)
            painter.setPen(QPen(text, 1))
            painter.drawRect(rect.adjusted(0, 0, -1, -1))
            value = values[cell]
            if value is not None:
                shown = self.fontMetrics().elidedText(value, Qt.TextElideMode.ElideRight, rect.width() - 2)
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, shown)

    def _paint_row(self, painter: QPainter, index: int, row: protocol.MapRow) -> None:
        fill = QColor(GROUP_COLORS[row["color_index"] % len(GROUP_COLORS)])
        per_line = self._per_line()
        for line in range(-(-self._shown["cells"] // per_line)):
            self._paint_label(painter, self.cell_rect(index, line * per_line), row["name"], fill)
        first: dict[int, tuple[int, bool]] = {}  # cell -> (first visit, starts an element)
        for order, cell in enumerate(row["reached"]):
            for c in range(cell, min(cell + row["cell_span"], self._shown["cells"])):
                if c not in first or (c == cell and not first[c][1]):
                    first[c] = (order, c == cell)
        binned = self._shown["bin"] > 1
        for cell, (order, starts) in first.items():
            rect = self.cell_rect(index, cell)
            painter.fillRect(rect.adjusted(1, 1, -1, -1), fill)
            if binned or not starts:  # one label per element, on its first cell
                continue
            times = row["counts"].get(str(cell), 1)
            # a repeated cell has no single visit number: show how often it is reached
            label = f"×{times}" if times > 1 else str(order)
            painter.setPen(_text_color(fill))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter,
                             self.fontMetrics().elidedText(label, Qt.TextElideMode.ElideRight, rect.width() - 2))

    def _paint_formulas(self, painter: QPainter) -> None:
        fm = self.fontMetrics()
        last = self.cell_rect(len(self._shown["rows"]) - 1, max(0, self._shown["cells"] - 1))
        y = last.bottom() + fm.height()
        text_w = self.width() - fm.height() - 6
        painter.setPen(self.palette().text().color())
        for row in self._shown["rows"]:
            text = self._formula_text(row)
            height = self._text_height(text, text_w)
            painter.fillRect(QRect(0, y, fm.height(), fm.height()),
                             QColor(GROUP_COLORS[row["color_index"] % len(GROUP_COLORS)]))
            painter.drawText(QRect(fm.height() + 6, y, text_w, height), _WRAP, text)
            y += height

    # -- hover -------------------------------------------------------------------
    def hit(self, pos: QPoint) -> tuple[int | None, int] | None:
        """(row or None for the strip, cell) under *pos*, or None."""
        if self._payload is None:
            return None
        cell_w, cell_h, label_w, gap = self._metrics()
        per_line = self._per_line()
        n_rows = len(self._payload["rows"])
        block = (n_rows + 1) * (cell_h + gap) + cell_h // 2
        x, y = pos.x() - label_w, pos.y() - self._top()
        if x < 0 or y < 0 or x // cell_w >= per_line:
            return None
        line, inside = divmod(y, block)
        slot, within = divmod(inside, cell_h + gap)
        cell = line * per_line + x // cell_w
        if within >= cell_h or slot > n_rows or cell >= self._payload["cells"]:
            return None
        return (None if slot == 0 else slot - 1), cell

    def tooltip_for(self, row: int | None, cell: int) -> str:
        """Tooltip text of one cell: the value, or the view's index and position arithmetic."""
        p = self._shown
        if row is None:
            value = p["values"][cell]
            return self.tr("cell {cell}: {value}").format(cell=cell, value=value if value is not None else "…")
        r = p["rows"][row]
        visits = [k for k, c in enumerate(r["reached"]) if c <= cell < c + r["cell_span"]]
        if not visits:
            return self.tr("{name} does not reach this cell").format(name=r["name"])
        offset, strides = r["storage_offset"], r["strides"]
        if p["bin"] > 1 or strides is None or offset is None:
            return self.tr("{name} reaches this cell").format(name=r["name"])
        lines = [self._position_text(r, k, offset, strides) for k in visits[:_MAX_TOOLTIP_VISITS]]
        if len(visits) > 1:
            times = len(visits)
            lines.append(self.tr("reached %n time(s)", "", times))
        return "\n".join(lines)

    def _position_text(self, r: protocol.MapRow, k: int, offset: int, strides: list[int]) -> str:
        flat = r["flat"][k] if r["flat"] is not None else k
        index = unravel(flat, r["shape"])
        formula = position_formula(offset, strides, index)
        #: Tooltip: how the element {name}{index} (e.g. t[1, 2]) finds its storage position; {formula} is the arithmetic.
        return self.tr("{name}{index}: offset + Σ index × stride = {formula}").format(
            name=r["name"], index=index, formula=formula)

    def event(self, event: Any) -> bool:
        if isinstance(event, QHelpEvent) and self._payload is not None:
            found = self.hit(event.pos())
            if found is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(event.globalPos(), self.tooltip_for(*found), self)
            return True
        return super().event(event)
