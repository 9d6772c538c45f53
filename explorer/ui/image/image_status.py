"""The line under the Image tab's picture: how the pixels were scaled, the layout, true size and zoom."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject


class ImageStatusMixin:
    """For :class:`~explorer.ui.image.image_view.ImageView`: the status text of a drawn payload.

    Uses the view's ``tr``, ``_axes``, ``_figure`` and ``_array_shape``.
    """

    tr: Any  # QObject.tr, from the view
    _axes: Any
    _figure: Any
    _array_shape: tuple[int, ...] | None

    def _status_text(self, payload: dict) -> str:
        """One line: scaling, layout (guessed?), true size and zoom, grid, notes."""
        parts = [self._scaling_text(payload)]
        layout = str(payload.get("layout"))
        parts.append(self.tr("layout {layout}, guessed").format(layout=layout) if payload.get("guessed")
                     else self.tr("layout {layout}").format(layout=layout))
        shape = payload.get("true_shape") or []
        height, width = shape[layout.index("H")], shape[layout.index("W")]
        parts.append(self.tr("true size {height} × {width}, zoom {zoom}×").format(
            height=height, width=width, zoom=f"{self._screen_zoom(payload):.3g}"))
        if payload.get("grid"):
            rows, cols = payload["grid"]
            parts.append(GridText().grid(payload.get("shown"), int(payload.get("count") or 0), rows, cols))
        if payload.get("channel") is not None:
            parts.append(self.tr("channel {index} alone").format(index=payload["channel"]))
        extra = [str(n) for n in payload.get("notes") or []]
        if payload.get("device_note"):
            extra.append(str(payload["device_note"]))
        return " · ".join(parts) + ("\n" + "; ".join(extra) if extra else "")

    def _scaling_text(self, payload: dict) -> str:
        scaling = payload.get("scaling")
        if scaling == "min-max" and payload.get("range"):
            lo, hi = payload["range"]
            text = self.tr("min-max normalised from {lo} to {hi}").format(lo=_num(lo), hi=_num(hi))
            if payload.get("range_note"):
                text += " " + self.tr("(range of the drawn pixels)")
            return text
        if scaling == "clip":
            return self.tr("integers shown as 0–255 (clipped)")
        #: How the pixels were scaled: not at all, the values are shown as they are.
        return self.tr("as is")

    def _screen_zoom(self, payload: dict) -> float:
        """Screen pixels per pixel of the tensor: the kernel's sampling times the canvas's scaling."""
        zoom = float(payload.get("zoom") or 1)
        if self._array_shape is None:
            return zoom
        rows, cols = self._array_shape[:2]
        box = self._axes.get_position()  # figure fraction; the figure's bbox is in device pixels
        scale = min(self._figure.bbox.width * box.width / cols, self._figure.bbox.height * box.height / rows)
        return zoom * scale


class GridText(QObject):
    """The grid sentence, whose plural form Qt looks up by the calling object's own class (never a mixin's)."""

    def grid(self, shown: Any, count: int, rows: int, cols: int) -> str:
        return self.tr("{shown} of %n image(s) in a {rows} × {cols} grid", "", count).format(shown=shown, rows=rows, cols=cols)


def _num(value: Any) -> str:
    """A range end as a short number (the GUI may receive 'nan'/'inf' strings)."""
    try:
        return f"{float(value):.3g}"
    except (TypeError, ValueError):
        return str(value)
