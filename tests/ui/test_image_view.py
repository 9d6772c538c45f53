"""Tests for the Image tab (explorer.ui.image.image_view) driven by the real agent in-process."""

from __future__ import annotations

import re

import numpy as np
import pytest
import torch
from PySide6.QtGui import QGuiApplication

from explorer import protocol
from explorer.ui.app_state import AppState
from explorer.ui.image.image_view import ImageView
from tests.ui.fakes import InProcessSource
from tests.ui.fakes import var as fake_var
from tests.waits import scaled_ms


def _var(name: str, value, kind: str = "tensor") -> dict:
    return fake_var(name, kind, shape=list(value.shape), type=type(value).__name__)


@pytest.fixture
def make_view(qtbot):
    def make(namespace: dict) -> tuple[ImageView, InProcessSource]:
        source = InProcessSource(namespace)
        view = ImageView(source, AppState())
        qtbot.addWidget(view)
        view.resize(700, 600)
        view.show()
        qtbot.waitExposed(view)
        return view, source

    return make


def _show(qtbot, view: ImageView, var: dict | None) -> dict:
    with qtbot.waitSignal(view.image_shown, timeout=scaled_ms(5000)) as blocker:
        view.app_state.select(var)
    return blocker.args[0]


def test_chw_tensor_is_drawn_as_hwc(qtbot, make_view):
    img = torch.rand(3, 32, 48)
    view, source = make_view({"img": img})
    payload = _show(qtbot, view, _var("img", img))
    assert view.displayed_array_shape() == (32, 48, 3)
    assert "permute(1, 2, 0)" in view.hint_text()
    assert "pixels" not in payload
    request = source.requests[-1]
    assert request.method == "image" and request.name == "img"
    assert request.layout is None and request.channel is None
    assert request.max_width >= 64 and request.max_height >= 64
    status = view._status.text()
    assert "CHW" in status and "32 × 48" in status and "as is" in status


def test_min_max_status_and_guess(qtbot, make_view):
    cube = torch.linspace(-1.3, 2.7, 27).reshape(3, 3, 3)
    view, _ = make_view({"cube": cube})
    payload = _show(qtbot, view, _var("cube", cube))
    assert payload["guessed"] and payload["layout"] == "CHW"
    status = view._status.text()
    assert "min-max normalised from -1.3 to 2.7" in status and "guessed" in status


def test_grayscale_uses_two_d_array_and_colorbar(qtbot, make_view):
    gray = np.random.rand(20, 30, 1)
    view, _ = make_view({"gray": gray})
    _show(qtbot, view, _var("gray", gray, kind="ndarray"))
    assert view.displayed_array_shape() == (20, 30)
    assert view._cbar_axes.get_visible()
    assert 'cmap="gray"' in view.hint_text()


def test_layout_override_and_channel_choice(qtbot, make_view):
    stack = torch.rand(10, 12, 16)  # not an image until a layout and channel are chosen
    view, source = make_view({"stack": stack})
    view.app_state.select(_var("stack", stack))
    qtbot.waitUntil(lambda: view._message.isVisible() and "stack" in view._message.text())
    assert view.displayed_array_shape() is None
    view.layout_combo.setCurrentIndex(view.layout_combo.findData("CHW"))
    qtbot.waitUntil(lambda: "choose one channel" in view._message.text())
    assert view.channel_combo.count() == 11  # All + 10 channels
    with qtbot.waitSignal(view.image_shown, timeout=scaled_ms(5000)) as blocker:
        view.channel_combo.setCurrentIndex(view.channel_combo.findData(4))
    assert blocker.args[0]["channel"] == 4
    assert source.requests[-1].layout == "CHW" and source.requests[-1].channel == 4
    assert view.displayed_array_shape() == (12, 16)
    assert "stack[4]" in view.hint_text()


def test_batch_grid_labels_each_tile(qtbot, make_view):
    batch = torch.rand(6, 3, 8, 8)
    view, _ = make_view({"batch": batch})
    payload = _show(qtbot, view, _var("batch", batch))
    assert payload["grid"] == [2, 3]
    assert [t.get_text() for t in view._tile_texts] == [str(i) for i in range(6)]
    assert "6 of 6 images" in view._status.text()


#: float32 values whose product with 255 is just under k + 0.5 in exact arithmetic but rounds to k + 0.5 in
#: float32 (then to the even neighbour): the pixel is the lower one, k.
_HALF_WAY = (0.6098039, 0.53137255, 0.76666665)


def test_same_shape_reuses_the_image_artist(qtbot, make_view):
    generator = torch.Generator().manual_seed(20)
    a, b = torch.rand(3, 16, 16, generator=generator), torch.rand(3, 16, 16, generator=generator)
    b[:, 0, :3] = torch.tensor(_HALF_WAY)
    view, _ = make_view({"a": a, "b": b})
    _show(qtbot, view, _var("a", a))
    artist = view._image
    _show(qtbot, view, _var("b", b))
    assert view._image is artist
    # The canvas scales in float64, as exact as the values allow (float32 arithmetic would round 155.49999833 up).
    expected = np.rint(b.permute(1, 2, 0).numpy().astype(np.float64) * 255).astype(np.uint8)
    assert expected[0, :3, 0].tolist() == [155, 135, 195]
    np.testing.assert_array_equal(np.asarray(artist.get_array()), expected)


def test_stale_reply_is_dropped(qtbot, make_view):
    a, b = torch.rand(3, 10, 20), torch.rand(1, 40, 50)
    view, _ = make_view({"a": a, "b": b})
    with qtbot.waitSignal(view.image_shown, timeout=scaled_ms(5000)) as blocker:
        view.app_state.select(_var("a", a))  # its reply is still queued when b is selected
        view.app_state.select(_var("b", b))
    assert blocker.args[0]["true_shape"] == [1, 40, 50]
    # a's reply came first (replies keep their order) and was dropped: the first drawing is b
    assert view.displayed_array_shape() == (40, 50)


@pytest.mark.parametrize(
    "var, words",
    [
        (None, "Select a tensor"),
        (fake_var("items", "list"), "not a tensor"),
        (fake_var("v", "tensor", shape=[5]), "1 dimension"),
    ],
)
def test_non_images_get_a_friendly_message(qtbot, make_view, var, words):
    view, source = make_view({"v": torch.rand(5), "items": [1, 2]})
    view.app_state.select(var)
    assert words in view._message.text()
    assert view._message.isVisible() and not view._canvas.isVisible()
    assert source.requests == []  # decided from the VAR fields alone
    assert view.hint_text() == ""


def test_core_error_is_shown(qtbot, make_view):
    empty = torch.zeros(3, 0, 4)
    view, _ = make_view({"empty": empty})
    view.app_state.select(_var("empty", empty))
    qtbot.waitUntil(lambda: "empty" in view._message.text() and "no pixels" in view._message.text())


def test_hidden_view_fetches_when_shown(qtbot):
    img = torch.rand(3, 8, 8)
    source = InProcessSource({"img": img})
    view = ImageView(source, AppState())
    qtbot.addWidget(view)
    view.app_state.select(_var("img", img))
    assert source.requests == []
    with qtbot.waitSignal(view.image_shown, timeout=scaled_ms(5000)):
        view.show()
    assert view.displayed_array_shape() == (8, 8, 3)


def test_copy_button_puts_hint_on_clipboard(qtbot, make_view):
    img = torch.rand(3, 8, 8, requires_grad=True)
    view, _ = make_view({"img": img})
    _show(qtbot, view, _var("img", img))
    view.copy_button.click()
    assert QGuiApplication.clipboard().text() == view.hint_text()
    assert ".detach().cpu()" in view.hint_text()


def test_colormap_change_redraws_without_a_request(qtbot, make_view):
    plane = torch.rand(1, 10, 12)
    view, source = make_view({"plane": plane})
    _show(qtbot, view, _var("plane", plane))
    count = len(source.requests)
    with qtbot.waitSignal(view.image_shown, timeout=scaled_ms(5000)):
        view.colormap_combo.setCurrentIndex(view.colormap_combo.findData("viridis"))
    assert view._image.get_cmap().name == "viridis"
    assert len(source.requests) == count


def test_growing_canvas_asks_for_sharper_pixels(qtbot, make_view):
    big = torch.randint(0, 256, (3, 2000, 2000), dtype=torch.uint8)
    view, source = make_view({"big": big})
    payload = _show(qtbot, view, _var("big", big))
    assert payload["step"] > 1
    first_width = view.displayed_array_shape()[1]
    view.resize(view.width() * 2, view.height() * 2)
    qtbot.waitUntil(lambda: view.displayed_array_shape()[1] > first_width, timeout=scaled_ms(5000))
    assert len(source.requests) == 2


def test_language_switch_retranslates(qtbot, make_view):
    from explorer.ui.i18n import install_language

    img = torch.rand(3, 8, 8)
    view, _ = make_view({"img": img})
    _show(qtbot, view, _var("img", img))
    install_language("zh_CN")
    try:
        qtbot.waitUntil(lambda: view.copy_button.text() == "复制")
        assert "原样显示" in view._status.text()
    finally:
        install_language("en")
    qtbot.waitUntil(lambda: view.copy_button.text() == "Copy")


def test_redrawing_a_gray_image_keeps_the_colour_bar_consistent(qtbot, make_view):
    """Regression: re-selecting a same-shape one-channel image reused the image artist while the
    old colour bar still listened to it, and matplotlib printed "cannot remove artist"."""
    raised: list[BaseException] = []
    first, second = torch.arange(12.0).reshape(3, 4), torch.arange(12.0).reshape(3, 4) * -5
    view, _ = make_view({"first": first, "second": second})
    _show(qtbot, view, _var("first", first))
    # matplotlib prints callback errors by default; collect them instead
    view._image.callbacks.exception_handler = raised.append
    _show(qtbot, view, _var("second", second))
    _show(qtbot, view, _var("first", first))
    assert raised == []
    assert view.displayed_array_shape() == (3, 4)


def _status_zoom(view: ImageView) -> float:
    match = re.search(r"zoom ([0-9.e+-]+)×", view._status.text())
    assert match, view._status.text()
    return float(match.group(1))


def test_zoom_is_screen_pixels_per_tensor_pixel(qtbot, make_view):
    """A small image is drawn enlarged, a big one sampled down: the status says by how much."""
    small, big = torch.rand(3, 8, 10), torch.rand(3, 3000, 2000)
    view, _ = make_view({"small": small, "big": big})
    _show(qtbot, view, _var("small", small))
    canvas_w = view._canvas.width() * view._canvas.devicePixelRatioF()
    canvas_h = view._canvas.height() * view._canvas.devicePixelRatioF()
    expected = min(canvas_w / 10, canvas_h / 8)
    assert _status_zoom(view) == pytest.approx(expected, rel=0.02) and expected > 10
    _show(qtbot, view, _var("big", big))
    expected = min(canvas_w / 2000, canvas_h / 3000)
    assert _status_zoom(view) == pytest.approx(expected, rel=0.02) and expected < 0.5


def test_first_request_asks_for_the_whole_canvas_area(qtbot, make_view):
    """Before any picture the canvas is hidden behind the message; the request must use the real area."""
    big = torch.rand(3, 3000, 3000)
    view, source = make_view({"big": big})
    _show(qtbot, view, _var("big", big))
    request = source.requests[-1]
    ratio = view._canvas.devicePixelRatioF()
    assert request.max_width == int(view._canvas.width() * ratio)
    assert request.max_height == int(view._canvas.height() * ratio)


def test_kernel_notes_follow_a_language_switch(qtbot, make_view):
    """Notes written by the kernel are fetched again, in Chinese, when the language changes."""
    from PySide6.QtCore import QCoreApplication, QEvent

    img = torch.rand(3, 16, 16)
    img[0, 0, 0] = float("nan")
    view, source = make_view({"img": img})
    _show(qtbot, view, _var("img", img))
    assert "NaN value drawn as 0" in view._status.text()
    from explorer.core import i18n

    source.ask(protocol.SetLanguage(lang="zh_CN"), lambda _reply: None)  # what the session sends
    try:
        with qtbot.waitSignal(view.image_shown, timeout=scaled_ms(5000)):
            QCoreApplication.sendEvent(view, QEvent(QEvent.Type.LanguageChange))
        assert "NaN 值画成 0" in view._status.text()
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("hwc_axis", [2, 0])
def test_channel_choices_follow_the_kernels_rule(qtbot, make_view, monkeypatch, hwc_axis):
    """The view keeps no copy of the channel-axis table: change the core's rule and the choices change."""
    from explorer.core.image import layout

    monkeypatch.setitem(layout._CHANNEL_AXIS, "HWC", hwc_axis)
    stack = torch.rand(10, 12, 16)
    view, _ = make_view({"stack": stack})
    view.app_state.select(_var("stack", stack))
    qtbot.waitUntil(lambda: "stack" in view._message.text())
    view.layout_combo.setCurrentIndex(view.layout_combo.findData("HWC"))
    expected = 1 + stack.shape[hwc_axis]  # "All channels" + one per channel on that axis
    qtbot.waitUntil(lambda: view.channel_combo.count() == expected)
