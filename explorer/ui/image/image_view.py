"""The Image tab: the selected tensor drawn with its channels in the right place.

Pixels arrive already sampled down to the canvas size by the kernel
(``explorer.core.image.payload``); this widget only shows them, explains how they were
made (layout, scaling, zoom) and offers the line of matplotlib that draws the
same picture.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure
from matplotlib.image import AxesImage
from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase, QGuiApplication, QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from explorer import protocol
from explorer.protocol.kinds import is_array
from explorer.protocol.pixels import PIXEL_MAX, pixel_step, value_limits
from explorer.ui.app_state import AppState
from explorer.ui.canvas import Canvas
from explorer.ui.figure_fonts import points
from explorer.ui.image.image_status import ImageStatusMixin
from explorer.ui.selection_view import SelectionView

LAYOUT_CHOICES = (None, "HW", "CHW", "HWC", "NCHW", "NHWC")
COLORMAPS = ("gray", "viridis", "magma", "coolwarm")
MAX_LABELLED_TILES = 64  # beyond this the tile numbers would cover the images
_REFETCH_GROWTH = 1.25  # ask for sharper pixels once the canvas is this much larger


class ImageView(ImageStatusMixin, SelectionView):
    """Draws the selected variable as an image (:class:`explorer.protocol.Image`: automatic CHW -> HWC, batch grids)."""

    image_shown = Signal(object)

    def __init__(self, source: protocol.RequestSource, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(source, state, parent)
        self._payload: dict | None = None
        self._facts: dict = {}  # what an error reply still told (channels per layout)
        self._pixels: np.ndarray | None = None
        self._requested_size = (0, 0)
        self._array_shape: tuple[int, ...] | None = None
        self._build_figure()
        self._build_widgets()
        self._resize_timer = QTimer(self)
        self._resize_timer.setSingleShot(True)
        self._resize_timer.setInterval(250)
        self._resize_timer.timeout.connect(self._on_resize_timer_timeout)
        self.retranslate()
        self.follow_selection()

    # -- construction ------------------------------------------------------------
    def _build_figure(self) -> None:
        self._figure = Figure(figsize=(4, 3))
        self._figure.set_facecolor(self.palette().window().color().name())  # blend into the theme
        self._canvas = Canvas(self._figure)
        self._canvas.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        # image_shown is emitted once the picture is really drawn: drawing goes through
        # draw_idle, so the resize that showing the canvas causes and our own request
        # coalesce into one draw instead of two or three.
        self._shown_pending = False
        self._canvas.mpl_connect("draw_event", self._on_canvas_drawn)
        self._axes = self._figure.add_axes((0.0, 0.0, 1.0, 1.0))
        self._axes.set_axis_off()
        self._cbar_axes = self._figure.add_axes((0.9, 0.05, 0.03, 0.9))
        self._cbar_axes.set_visible(False)
        self._image: AxesImage | None = None
        self._tile_texts: list[Any] = []

    def _build_widgets(self) -> None:
        self.layout_label, self.channel_label, self.colormap_label = QLabel(self), QLabel(self), QLabel(self)
        self.layout_combo = self._combo(LAYOUT_CHOICES, self._on_layout_combo_current_index_changed)
        self.channel_combo = self._combo((), self._on_channel_combo_current_index_changed)
        self.colormap_combo = self._combo(COLORMAPS, self._on_colormap_combo_current_index_changed)
        self._message = _wrapping_label(self)
        self._status = _wrapping_label(self)
        self.hint_edit = QLineEdit(self)
        self.hint_edit.setReadOnly(True)
        self.copy_button = QPushButton(self)
        self.copy_button.clicked.connect(self._on_copy_button_clicked)
        self._apply_mono_font()
        bar = QHBoxLayout()
        for label, combo in ((self.layout_label, self.layout_combo), (self.channel_label, self.channel_combo),
                             (self.colormap_label, self.colormap_combo)):
            bar.addWidget(label)
            bar.addWidget(combo)
        bar.addStretch(1)
        hint_row = QHBoxLayout()
        hint_row.addWidget(self.hint_edit, 1)
        hint_row.addWidget(self.copy_button)
        root = QVBoxLayout(self)
        root.setContentsMargins(0, 0, 0, 0)
        root.addLayout(bar)
        # Message and canvas share one place: switching between them never resizes the
        # canvas (a resize costs matplotlib a full redraw, even while hidden).
        self._message.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self._stack = QStackedWidget(self)
        self._stack.addWidget(self._canvas)
        self._stack.addWidget(self._message)
        root.addWidget(self._stack, 1)
        root.addWidget(self._status)
        root.addLayout(hint_row)

    def _combo(self, choices: tuple, slot: Any) -> QComboBox:
        """A combo box whose items carry *choices* as data (None shows as an empty text)."""
        combo = QComboBox(self)
        for choice in choices:
            combo.addItem(choice or "", choice)
        combo.currentIndexChanged.connect(slot)
        return combo

    def _apply_mono_font(self) -> None:
        """Monospace family for the hint, at the widget's own (maybe presentation-sized) size."""
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        if self.font().pointSizeF() > 0:
            mono.setPointSizeF(self.font().pointSizeF())
        else:  # a font sized in pixels (e.g. by a presentation style sheet)
            mono.setPixelSize(self.font().pixelSize())
        self.hint_edit.setFont(mono)

    def retranslate(self) -> None:
        """Set every static text in the current language."""
        self.layout_label.setText(self.tr("Layout:"))
        #: Layout choice: let the app guess which axes are channels, height and width.
        self.layout_combo.setItemText(0, self.tr("Auto"))
        self.layout_combo.setToolTip(self.tr("How the axes are read: C channels, H height, W width, N batch"))
        self.channel_label.setText(self.tr("Channel:"))
        self.colormap_label.setText(self.tr("Colormap:"))
        #: Colour map choice for a one-channel image.
        self.colormap_combo.setItemText(0, self.tr("grayscale"))
        self.colormap_combo.setToolTip(self.tr("Colours for a one-channel image"))
        self.copy_button.setText(self.tr("Copy"))
        self.copy_button.setToolTip(self.tr("Copy this line to the clipboard"))
        self.hint_edit.setToolTip(self.tr("The line that draws this picture yourself with matplotlib"))
        self._fill_channels(self._channel_count())
        if self._payload is not None:
            self._status.setText(self._status_text(self._payload))

    # -- public API ------------------------------------------------------------------
    def _on_state_selection_changed(self, var: protocol.Var | None) -> None:
        """Show the selected VAR, fetching its pixels now if visible, else when shown."""
        self._fetcher.restart()  # replies still in flight are now stale
        self._payload = None
        self._facts = {}
        for combo in (self.layout_combo, self.channel_combo):
            _select_quietly(combo, 0)
        self._fill_channels(None)
        problem = self._problem(var)
        if problem is not None:
            self._show_message(problem)
        else:
            self._fetcher.schedule()

    def hint_text(self) -> str:
        """The matplotlib line under the image."""
        return self.hint_edit.text()

    def displayed_array_shape(self) -> tuple[int, ...] | None:
        """Shape of the array handed to imshow, or None when nothing is drawn."""
        return self._array_shape

    def payload(self) -> dict | None:
        """The last reply drawn (without pixels)."""
        return self._payload

    # -- events ------------------------------------------------------------------------
    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._payload is not None and self._payload.get("step", 1) > 1:
            self._resize_timer.start()  # debounce: one sharper request after the drag ends

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
            if self._var is not None and self._problem(self._var) is None:
                self._refetch()  # the kernel's notes and reasons come in the new language
        elif event.type() == QEvent.Type.FontChange:
            self._apply_mono_font()
            if self._pixels is not None and self._payload is not None:
                self._draw(self._pixels, self._payload)  # tile numbers and colour bar follow the font
        super().changeEvent(event)

    def _on_resize_timer_timeout(self) -> None:
        width, height = self._canvas_size()
        old_w, old_h = self._requested_size
        if width > old_w * _REFETCH_GROWTH or height > old_h * _REFETCH_GROWTH:
            self._fetch()

    def _on_layout_combo_current_index_changed(self, _index: int) -> None:
        _select_quietly(self.channel_combo, 0)
        self._fill_channels(self._channel_count())
        self._refetch()

    def _on_channel_combo_current_index_changed(self, _index: int) -> None:
        self._refetch()

    def _on_colormap_combo_current_index_changed(self, _index: int) -> None:
        if self._pixels is not None and self._payload is not None:
            self._draw(self._pixels, self._payload)

    def _on_copy_button_clicked(self) -> None:
        QGuiApplication.clipboard().setText(self.hint_edit.text())

    # -- requests ----------------------------------------------------------------------
    def _problem(self, var: protocol.Var | None) -> str | None:
        """Why *var* cannot be an image, judged from its VAR fields alone; None if it may be."""
        if var is None:
            return self.tr("Select a tensor or an array to draw it as an image.")
        name = var["name"]
        if not is_array(var["kind"]):
            return self.tr("{name} ({type}) is not a tensor or an array, so there is no image to draw.").format(
                name=name, type=var["type"] or var["kind"])
        shape = var["shape"]
        if isinstance(shape, list) and not 2 <= len(shape) <= 4:
            dims = len(shape)
            return self.tr(
                "{name} has %n dimension(s); an image needs 2 (H, W), 3 (C, H, W or H, W, C) or 4 (a batch).", "", dims
            ).format(name=name)
        return None

    def _refetch(self) -> None:
        if self._var is not None and self._problem(self._var) is None:
            self._fetcher.restart()
            self._fetch()

    def _canvas_size(self) -> tuple[int, int]:
        """Canvas size in device pixels (what the kernel should sample down to)."""
        # The stack, not the canvas: while a message is shown the canvas keeps an old size.
        ratio = self._canvas.devicePixelRatioF()
        return max(64, int(self._stack.width() * ratio)), max(64, int(self._stack.height() * ratio))

    def _fetch(self) -> None:
        width, height = self._canvas_size()
        self._requested_size = (width, height)
        request = protocol.Image(name=self._name, layout=self.layout_combo.currentData(),
                                 channel=self.channel_combo.currentData(), max_width=width, max_height=height)
        self._fetcher.ask(request, self._on_source_replied)

    def _on_source_replied(self, reply: protocol.Reply[protocol.ImageReply]) -> None:
        if not reply.ok or reply.result is None:
            name = self._name
            self._show_message(self.tr("{name} cannot be drawn as an image: {reason}").format(
                name=name, reason=reply.message))
            if reply.error is not None and reply.error.data.get("channels_by_layout"):
                # not drawable as asked, but the kernel says which channels each layout has
                self._facts = {"channels_by_layout": reply.error.data["channels_by_layout"]}
                self._fill_channels(self._channel_count())
            return
        result: dict = dict(reply.result)
        raw = result.pop("pixels", b"")
        shape = (int(result["height"]), int(result["width"]), int(result["channels"]))
        pixels = np.frombuffer(raw, dtype=np.uint8).reshape(shape)
        self._fill_channels(int(result.get("source_channels") or 1))
        self._draw(pixels, result)

    # -- drawing -------------------------------------------------------------------------
    def _show_message(self, text: str) -> None:
        self._payload, self._pixels, self._array_shape = None, None, None
        self._shown_pending = False
        self._message.setText(text)
        self._stack.setCurrentWidget(self._message)
        self._status.clear()
        self.hint_edit.clear()
        self._fill_channels(self._channel_count())

    def _draw(self, pixels: np.ndarray, payload: dict) -> None:
        self._payload, self._pixels = payload, pixels
        self._detach_colorbar()
        array, limits, cmap = self._display_array(pixels, payload)
        shown = self._image.get_array() if self._image is not None else None
        if self._image is not None and shown is not None and shown.shape == array.shape:
            self._image.set_data(array)  # same geometry: skip rebuilding the artist
        else:
            if self._image is not None:
                self._image.remove()
            self._image = self._axes.imshow(array, interpolation="nearest")
            # the axes may still hold the old picture's limits: fit exactly this one
            self._axes.set_xlim(-0.5, array.shape[1] - 0.5)
            self._axes.set_ylim(array.shape[0] - 0.5, -0.5)
        image = self._image
        image.set_cmap(cmap)
        image.set_clim(*limits)
        self._array_shape = tuple(array.shape)
        self._draw_colorbar(array.ndim == 2)
        self._draw_tile_labels(payload)
        self._stack.setCurrentWidget(self._canvas)
        self._status.setText(self._status_text(payload))
        self.hint_edit.setText(str(payload.get("hint") or ""))
        self.hint_edit.setCursorPosition(0)
        self._shown_pending = True
        self._canvas.draw_idle()

    def _on_canvas_drawn(self, _event: Any) -> None:
        if self._payload is None:
            return
        status = self._status_text(self._payload)  # the zoom follows the canvas size
        if status != self._status.text():
            self._status.setText(status)
        if self._shown_pending:
            self._shown_pending = False
            self.image_shown.emit(self._payload)

    def _display_array(self, pixels: np.ndarray, payload: dict) -> tuple[np.ndarray, tuple[float, float], Any]:
        """The array for imshow, its colour limits and colormap.

        One channel is turned back into data values so the colour bar reads in
        the tensor's own units; RGB(A) pixels go to imshow untouched.
        """
        if pixels.shape[2] != 1:
            return pixels, (0.0, float(PIXEL_MAX)), None
        lo, hi = value_limits(payload.get("value_range"))
        # pixel_value(), for every pixel at once
        values = pixels[:, :, 0].astype(np.float32) * np.float32(pixel_step(lo, hi)) + np.float32(lo)
        return values, (lo, hi if hi > lo else lo + 1.0), self.colormap_combo.currentData()

    def _detach_colorbar(self) -> None:
        """Unhook the old colour bar from the reused image (it would redraw artists cax.clear() removed)."""
        image = self._image
        if image is not None and image.colorbar is not None:
            image.callbacks.disconnect(image.colorbar_cid)  # type: ignore[attr-defined]  # Colorbar sets it; not in the stubs
            image.colorbar = None

    def _draw_colorbar(self, show: bool) -> None:
        """A colour bar beside one-channel images (its ticks are data values)."""
        if not show and not self._cbar_axes.get_visible():
            return  # clearing axes costs tens of ms: skip it when there is nothing to remove
        self._cbar_axes.clear()
        self._cbar_axes.set_visible(show)
        self._axes.set_position((0.0, 0.0, 0.86 if show else 1.0, 1.0))
        if not show or self._image is None:
            return
        self._figure.colorbar(self._image, cax=self._cbar_axes)
        text = self.palette().color(self.foregroundRole()).name()
        self._cbar_axes.tick_params(labelsize=self._font_points(), colors=text)

    def _font_points(self) -> float:
        """The widget font's size in points, so matplotlib text grows with the zoom and presentation mode."""
        return points(self)

    def _draw_tile_labels(self, payload: dict) -> None:
        """Number each tile of a batch grid at its foot, while they stay readable."""
        for text in self._tile_texts:
            text.remove()
        self._tile_texts = []
        tiles = payload.get("tiles") or []
        if len(tiles) > MAX_LABELLED_TILES:
            return
        for tile in tiles:
            x, y, h = tile["x"] - 0.5, tile["y"] - 0.5, tile["h"]
            label = self._axes.text(
                x, y + h, str(tile["index"]), va="bottom", ha="left",
                fontsize=self._font_points() * 0.8, color="#111111",
                bbox={"boxstyle": "square,pad=0.15", "facecolor": "white", "alpha": 0.75, "linewidth": 0},
            )
            self._tile_texts.append(label)

    # -- channel choice --------------------------------------------------------------------
    def _channel_count(self) -> int | None:
        """Channels of the current variable under the chosen (or detected) layout."""
        payload = self._payload or self._facts
        layout = self.layout_combo.currentData() or payload.get("layout")
        counts = payload.get("channels_by_layout") or {}  # the kernel's rule, not a copy of it
        count = counts.get(layout) if isinstance(counts, dict) else None
        return int(count) if count is not None else None

    def _fill_channels(self, count: int | None) -> None:
        """Offer All plus each channel; keep the current choice when it still exists."""
        current = self.channel_combo.currentData()
        self.channel_combo.blockSignals(True)
        self.channel_combo.clear()
        self.channel_combo.addItem(self.tr("All channels"), None)
        #: Names of the channels of an RGB(A) image, used in "Channel {index} ({color})".
        colors = (self.tr("red"), self.tr("green"), self.tr("blue"), self.tr("alpha"))
        for i in range(min(count or 0, 4096) if (count or 0) > 1 else 0):
            text = (self.tr("Channel {index} ({color})").format(index=i, color=colors[i])
                    if count in (3, 4) else self.tr("Channel {index}").format(index=i))
            self.channel_combo.addItem(text, i)
        index = self.channel_combo.findData(current) if current is not None else 0
        self.channel_combo.setCurrentIndex(max(index, 0))
        self.channel_combo.blockSignals(False)
        self.channel_combo.setEnabled(self.channel_combo.count() > 1)


def _select_quietly(combo: QComboBox, index: int) -> None:
    """Change the current item without triggering a request."""
    combo.blockSignals(True)
    combo.setCurrentIndex(index)
    combo.blockSignals(False)


def _wrapping_label(parent: QWidget) -> QLabel:
    """A selectable, word-wrapped label."""
    label = QLabel(parent)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label
