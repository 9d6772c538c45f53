"""Tests for explorer.core.image.payload: layout detection, sampling, scaling, hints and render_png."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from explorer.core.image.payload import build_image, detect_layout, image_payload, render_png
from explorer.core.image.sample import MAX_TILES, TILE_GAP
from tests.agent_calls import call

settings.register_profile("image", max_examples=25, deadline=None)


def pixels_of(payload: dict) -> np.ndarray:
    """The payload's pixel bytes as an (H, W, C) array."""
    shape = (payload["height"], payload["width"], payload["channels"])
    return np.frombuffer(payload["pixels"], dtype=np.uint8).reshape(shape)


def as_is(values: np.ndarray) -> np.ndarray:
    """What [0, 1] floats become on the canvas."""
    return np.rint(values.astype(np.float64) * 255).astype(np.uint8)


# -- detect_layout ------------------------------------------------------------

DETECT_CASES = [
    # shape, dtype, library, layout, guessed
    ((28, 28), "torch.float32", "torch", "HW", False),
    ((1, 28, 28), "torch.float32", "torch", "CHW", False),
    ((1, 28, 28), "float32", "numpy", "CHW", False),
    ((28, 28, 1), "float32", "numpy", "HWC", False),
    ((28, 28, 1), "torch.float32", "torch", "HWC", False),
    ((3, 32, 48), "torch.float32", "torch", "CHW", False),
    ((32, 48, 3), "uint8", "numpy", "HWC", False),
    ((32, 48, 4), "uint8", "numpy", "HWC", False),
    ((4, 32, 48), "torch.float32", "torch", "CHW", False),
    ((3, 3, 3), "torch.float32", "torch", "CHW", True),
    ((3, 3, 3), "float64", "numpy", "HWC", True),
    ((3, 3, 3), "float64", "matplotlib", "HWC", True),
    ((4, 4, 3), "torch.float32", "torch", "CHW", True),
    ((4, 4, 3), "uint8", "numpy", "HWC", True),
    ((1, 3, 8, 8), "torch.float32", "torch", "NCHW", False),
    ((1, 8, 8, 3), "uint8", "numpy", "NHWC", False),
    ((16, 8, 8, 1), "torch.float32", "torch", "NHWC", False),
    ((16, 3, 4, 3), "torch.float32", "torch", "NCHW", True),
    ((10, 10), "torch.bool", "torch", "HW", False),
    ((10, 10), "torch.int64", "torch", "HW", False),
    ((10, 10), "torch.complex64", "torch", "HW", False),
    ((10, 10), "torch.bfloat16", "torch", "HW", False),
    ((10, 10), "torch.float8_e4m3fn", "torch", "HW", False),
    ((10, 10), "float16", "numpy", "HW", False),
]


@pytest.mark.parametrize("shape, dtype, library, layout, guessed", DETECT_CASES)
def test_detect_layout_table(shape, dtype, library, layout, guessed):
    found = detect_layout(shape, dtype, library)
    assert found["layout"] == layout
    assert found["guessed"] is guessed
    assert found["reason"]


@pytest.mark.parametrize(
    "shape, dtype",
    [((), "float32"), ((5,), "float32"), ((2, 28, 28), "float32"), ((1, 2, 3, 4, 5), "float32"),
     ((0, 5), "float32"), ((3, 0, 4), "float32"), ((4, 4), "object"), ((4, 4), "<U3"),
     ((4, 4), "datetime64[ns]")],
)
def test_detect_layout_not_images(shape, dtype):
    found = detect_layout(shape, dtype, "numpy")
    assert found["layout"] is None
    assert found["reason"]


def test_ambiguous_guess_is_explained():
    torch_guess = detect_layout((3, 3, 3), "torch.float32", "torch")
    numpy_guess = detect_layout((3, 3, 3), "float32", "numpy")
    assert "torch" in torch_guess["reason"] and "numpy" in numpy_guess["reason"]


# -- pixels and scaling ---------------------------------------------------------


def test_chw_tensor_is_permuted_to_hwc():
    x = torch.rand(3, 32, 48)
    p = image_payload(x, name="img")
    assert (p["layout"], p["guessed"], p["channels"]) == ("CHW", False, 3)
    assert p["display_shape"] == [32, 48, 3]
    assert p["permute"] == "img.permute(1, 2, 0)"
    assert p["hint"] == "plt.imshow(img.permute(1, 2, 0).numpy())"
    assert p["scaling"] == "none" and p["range"] is None
    np.testing.assert_array_equal(pixels_of(p), as_is(x.permute(1, 2, 0).numpy()))


def test_numpy_chw_hint_uses_transpose():
    p = image_payload(np.random.rand(3, 5, 6), name="a")
    assert p["permute"] == "a.transpose(1, 2, 0)"
    assert "a.transpose(1, 2, 0)" in p["hint"]


@pytest.mark.parametrize("value", [torch.rand(1, 6, 7), np.random.rand(6, 7, 1), torch.rand(6, 7)])
def test_grayscale_has_one_channel(value):
    p = image_payload(value, name="g")
    assert p["channels"] == 1 and p["display_shape"] == [6, 7, 1]
    plane = np.asarray(value).reshape(6, 7)
    np.testing.assert_array_equal(pixels_of(p)[..., 0], as_is(plane))
    assert 'cmap="gray"' in p["hint"]


def test_rgba_uint8_as_is():
    a = np.random.randint(0, 256, (5, 9, 4), dtype=np.uint8)
    p = image_payload(a)
    assert (p["layout"], p["channels"], p["scaling"]) == ("HWC", 4, "none")
    np.testing.assert_array_equal(pixels_of(p), a)


def test_bool_mask_is_black_and_white():
    mask = torch.zeros(4, 5, dtype=torch.bool)
    mask[1, 2] = True
    p = image_payload(mask, name="mask")
    assert p["scaling"] == "none"
    expected = np.zeros((4, 5, 1), np.uint8)
    expected[1, 2] = 255
    np.testing.assert_array_equal(pixels_of(p), expected)


def test_negative_floats_are_min_max_normalised():
    x = torch.tensor([[-1.5, 0.0], [1.0, 2.5]])
    p = image_payload(x)
    assert p["scaling"] == "min-max"
    assert p["range"] == [-1.5, 2.5]
    np.testing.assert_array_equal(pixels_of(p)[..., 0], [[0, 96], [159, 255]])


def test_int64_labels_min_max():
    labels = torch.arange(10).reshape(2, 5)
    p = image_payload(labels, name="labels")
    assert (p["layout"], p["scaling"], p["range"]) == ("HW", "min-max", [0.0, 9.0])
    assert pixels_of(p).min() == 0 and pixels_of(p).max() == 255


def test_int_rgb_in_byte_range_is_clipped_not_stretched():
    a = np.full((3, 4, 3), 100, dtype=np.int32)
    p = image_payload(a)
    assert p["scaling"] == "clip"
    assert (pixels_of(p) == 100).all()


def test_uint8_torch_as_is():
    x = torch.randint(0, 256, (3, 6, 6), dtype=torch.uint8)
    p = image_payload(x)
    assert p["scaling"] == "none"
    np.testing.assert_array_equal(pixels_of(p), x.permute(1, 2, 0).numpy())


def test_ambiguous_cube_follows_library_convention():
    data = np.arange(27, dtype=np.float64).reshape(3, 3, 3) / 26
    from_torch = image_payload(torch.from_numpy(data))
    from_numpy = image_payload(data)
    assert (from_torch["layout"], from_numpy["layout"]) == ("CHW", "HWC")
    assert from_torch["guessed"] and from_numpy["guessed"]
    np.testing.assert_array_equal(pixels_of(from_torch), as_is(data.transpose(1, 2, 0)))
    np.testing.assert_array_equal(pixels_of(from_numpy), as_is(data))


def test_nan_and_inf():
    x = torch.tensor([[0.0, float("nan")], [2.0, float("inf")]])
    p = image_payload(x)
    assert p["scaling"] == "min-max" and p["range"] == [0.0, 2.0]
    px = pixels_of(p)[..., 0]
    assert px[0, 1] == 0 and px[1, 1] == 255 and px[1, 0] == 255
    assert any("NaN" in note for note in p["notes"])


def test_all_nan_is_black_with_a_note():
    p = image_payload(np.full((3, 3), np.nan))
    assert (pixels_of(p) == 0).all() and p["notes"]


def test_huge_floats_do_not_overflow():
    a = np.array([[-1e308, 1e308]])
    px = pixels_of(image_payload(a))[..., 0]
    assert px.tolist() == [[0, 255]]


@pytest.mark.parametrize(
    "dtype", [torch.float16, torch.bfloat16, torch.float8_e4m3fn, torch.float64, torch.int16, torch.uint16]
)
def test_torch_dtypes(dtype):
    x = (torch.rand(3, 8, 10) * 0.5).to(dtype)
    p = image_payload(x, name="t")
    assert p["display_shape"] == [8, 10, 3]
    assert len(p["pixels"]) == 8 * 10 * 3
    if dtype in (torch.float16, torch.bfloat16, torch.float8_e4m3fn):
        assert ".float().numpy()" in p["hint"]
        np.testing.assert_array_equal(pixels_of(p), as_is(x.float().permute(1, 2, 0).numpy()))


def test_complex_draws_magnitude():
    z = torch.tensor([[3 + 4j, 0j]], dtype=torch.complex64)
    p = image_payload(z, name="z")
    assert p["range"] == [0.0, 5.0] and ".abs()" in p["hint"]
    assert pixels_of(p)[..., 0].tolist() == [[255, 0]]
    assert any("magnitude" in n for n in p["notes"])


# -- views, strides, autograd ----------------------------------------------------


def test_non_contiguous_view():
    base = torch.rand(48, 32, 3)
    view = base.permute(2, 1, 0)[:, ::2]  # (3, 16, 48), strided and permuted
    assert not view.is_contiguous()
    p = image_payload(view)
    np.testing.assert_array_equal(pixels_of(p), as_is(view.permute(1, 2, 0).contiguous().numpy()))


def test_expanded_stride_zero():
    color = torch.tensor([0.0, 0.5, 1.0]).reshape(3, 1, 1).expand(3, 5, 6)
    assert color.stride() == (1, 0, 0)
    px = pixels_of(image_payload(color))
    assert (px == np.array([0, 128, 255], np.uint8)).all()


def test_numpy_negative_strides():
    a = np.random.rand(7, 9, 3)
    flipped = a[::-1, ::-2]
    p = image_payload(flipped)
    np.testing.assert_array_equal(pixels_of(p), as_is(flipped))


def test_requires_grad_is_detached_and_untouched():
    w = torch.rand(3, 4, 5, requires_grad=True)
    y = w * 1.0
    p = image_payload(y, name="y")
    assert ".detach().cpu()" in p["hint"] and "permute(1, 2, 0)" in p["hint"]
    assert p["device_note"] and "detached" in p["device_note"]
    assert y.grad_fn is not None and w.grad is None
    np.testing.assert_array_equal(pixels_of(p), as_is(y.detach().permute(1, 2, 0).numpy()))


def test_parameter_and_sparse_and_pil():
    param = torch.nn.Parameter(torch.rand(1, 4, 4))
    assert ".detach().cpu()" in image_payload(param, name="w")["hint"]
    sparse = torch.eye(4).to_sparse()
    np.testing.assert_array_equal(pixels_of(image_payload(sparse))[..., 0], np.eye(4) * 255)
    pil = Image.new("RGB", (5, 4), (10, 20, 30))
    p = image_payload(pil)
    assert p["layout"] == "HWC" and (pixels_of(p) == [10, 20, 30]).all()


# -- errors ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, words",
    [
        (torch.zeros(0, 5), "empty"),
        (np.zeros((3, 0, 4)), "empty"),
        (torch.rand(2, 3, 4, 5, 6), "not an image"),
        (torch.rand(5), "not an image"),
        (torch.tensor(1.0), "empty"),
        (np.array([["a", "b"]], dtype=object), "not an image"),
        (torch.empty(3, 4, 4, device="meta"), "meta"),
        ([1, 2, 3], "not a tensor"),
    ],
)
def test_errors_are_one_clear_sentence(value, words):
    with pytest.raises(ValueError) as info:
        image_payload(value, name="v")
    message = str(info.value)
    assert words in message and message.endswith(".") and "\n" not in message


def test_layout_override_and_channel_choice():
    x = torch.rand(10, 6, 7)
    with pytest.raises(ValueError, match="choose one channel"):
        image_payload(x, layout="CHW")
    p = image_payload(x, layout="CHW", channel=7)
    assert p["channels"] == 1 and p["source_channels"] == 10 and not p["guessed"]
    np.testing.assert_array_equal(pixels_of(p)[..., 0], as_is(x[7].numpy()))
    with pytest.raises(ValueError, match="no channel 10"):
        image_payload(x, layout="CHW", channel=10)
    with pytest.raises(ValueError, match="3-D"):
        image_payload(torch.rand(4, 4), layout="CHW")


def test_override_reads_ambiguous_cube_the_other_way():
    data = torch.rand(3, 3, 3)
    p = image_payload(data, layout="HWC")
    np.testing.assert_array_equal(pixels_of(p), as_is(data.numpy()))


# -- downsampling and batches ------------------------------------------------------


def test_downsampling_is_strided_sampling_of_a_known_pattern():
    rows, cols = np.indices((1000, 1500))
    pattern = ((rows * 7 + cols * 13) % 256).astype(np.uint8)
    p = image_payload(pattern, max_width=100, max_height=100)
    assert p["step"] == 15 and p["width"] <= 100 and p["height"] <= 100
    np.testing.assert_array_equal(pixels_of(p)[..., 0], pattern[::15, ::15])
    assert p["display_shape"] == [1000, 1500, 1]
    assert p["zoom"] == pytest.approx(100 / 1500)


def test_min_max_range_on_sample_is_stated():
    x = torch.randn(3, 900, 900)
    p = image_payload(x, max_width=100, max_height=100)
    assert p["scaling"] == "min-max" and p["range_note"]
    assert p["range"][0] >= float(x.min()) and p["range"][1] <= float(x.max())


@settings(settings.get_profile("image"))
@given(
    h=st.integers(1, 300), w=st.integers(1, 300),
    max_w=st.integers(1, 120), max_h=st.integers(1, 120),
)
def test_sample_always_fits_and_matches_stride(h, w, max_w, max_h):
    a = np.random.default_rng(h * 1000 + w).random((h, w))
    p = build_image(a, max_width=max_w, max_height=max_h)
    assert p["width"] <= max_w and p["height"] <= max_h
    step = p["step"]
    np.testing.assert_array_equal(p["pixels"][..., 0], as_is(a[::step, ::step]))


def test_batch_grid_tiles():
    batch = torch.rand(5, 3, 4, 6)
    p = image_payload(batch, name="b")
    assert (p["layout"], p["grid"]) == ("NCHW", [2, 3])
    assert p["display_shape"] == [2 * 4 + TILE_GAP, 3 * 6 + 2 * TILE_GAP, 3]
    px = pixels_of(p)
    assert [t["index"] for t in p["tiles"]] == list(range(5))
    for tile in p["tiles"]:
        x, y, w, h = tile["x"], tile["y"], tile["w"], tile["h"]
        expected = as_is(batch[tile["index"]].permute(1, 2, 0).numpy())
        np.testing.assert_array_equal(px[y:y + h, x:x + w], expected)
    assert "b[0].permute(1, 2, 0)" in p["hint"]


def test_batch_of_one_and_big_batches():
    one = image_payload(np.random.rand(1, 8, 8, 3))
    assert one["grid"] == [1, 1] and one["display_shape"] == [8, 8, 3]
    many = image_payload(torch.rand(300, 1, 28, 28), max_width=800, max_height=600)
    assert many["shown"] == MAX_TILES and many["count"] == 300
    assert many["width"] <= 800 and many["height"] <= 600
    assert any("256 of 300" in note for note in many["notes"])


# -- transport and render -----------------------------------------------------------


def test_payload_travels_through_the_agent():
    x = torch.randn(3, 10, 12)
    ns = {"img": x}
    reply = call(ns, "image", name="img", layout=None, channel=None, max_width=50, max_height=50)
    result = reply["result"]
    assert isinstance(result["pixels"], bytes)
    assert result["display_shape"] == [10, 12, 3]
    assert len(result["pixels"]) == result["width"] * result["height"] * 3
    bad = call(ns, "image", name="img", layout="HW")
    assert "error" in bad


def test_payload_is_strict_json():
    reply = call({"x": torch.tensor([[float("nan"), 1.0], [2.0, float("-inf")]])}, "image", name="x")
    assert "result" in reply  # the wire check in tests.agent_calls refuses NaN/Inf in JSON


@pytest.mark.parametrize(
    "value, mode",
    [(torch.rand(3, 20, 30), "RGB"), (np.random.rand(20, 30), "L"),
     (np.random.randint(0, 256, (20, 30, 4), dtype=np.uint8), "RGBA")],
)
def test_render_png_matches_canvas(tmp_path, value, mode):
    out = tmp_path / "img.png"
    info = render_png(value, str(out), name="img")
    assert set(info) >= {"layout", "permute", "display_shape", "scaling", "grid"}
    json.dumps(info)
    with Image.open(out) as png:
        assert png.mode == mode and png.size == (30, 20)
        written = np.asarray(png)
    drawn = build_image(value, max_width=8192, max_height=8192)["pixels"]
    np.testing.assert_array_equal(written.reshape(drawn.shape), drawn)
    assert info["display_shape"][:2] == [20, 30]


def test_render_png_batch_grid(tmp_path):
    out = tmp_path / "grid.png"
    info = render_png(torch.rand(4, 3, 10, 10), str(out), name="b")
    assert info["grid"] == [2, 2] and info["permute"] == "b.permute(0, 2, 3, 1)"
    with Image.open(out) as png:
        assert png.size == (info["display_shape"][1], info["display_shape"][0])


def test_render_png_refuses_non_images(tmp_path):
    out = tmp_path / "nope.png"
    with pytest.raises(ValueError, match="not an image"):
        render_png(torch.rand(7), str(out))
    assert not out.exists()


# -- the hint line is real code ------------------------------------------------------


class _RecordingPlt:
    """Stands in for matplotlib.pyplot: keeps what imshow received."""

    def __init__(self) -> None:
        self.calls: list[tuple[np.ndarray, dict]] = []

    def imshow(self, array, **kwargs) -> None:
        self.calls.append((np.asarray(array), kwargs))


@pytest.mark.parametrize(
    "value, options, shape",
    [
        (torch.rand(3, 4, 5), {}, (4, 5, 3)),
        (torch.rand(3, 4, 5, requires_grad=True), {}, (4, 5, 3)),
        (torch.rand(3, 4, 5).to(torch.bfloat16), {}, (4, 5, 3)),
        (torch.rand(4, 5, dtype=torch.complex64), {}, (4, 5)),
        (torch.rand(3, 4, 5), {"channel": 2}, (4, 5)),
        (torch.rand(2, 1, 4, 5), {}, (4, 5)),
        (torch.rand(6, 3, 4, 5), {}, (4, 5, 3)),
        (np.random.rand(3, 4, 5), {}, (4, 5, 3)),
        (np.random.rand(2, 4, 5, 3), {"channel": 1}, (4, 5)),
        (np.random.rand(4, 5, 1).astype(np.float16), {}, (4, 5)),
        (np.random.rand(4, 5) + 1j, {}, (4, 5)),
        (torch.rand(4, 5) > 0.5, {}, (4, 5)),
    ],
)
def test_hint_runs_and_draws_the_same_image(value, options, shape):
    p = image_payload(value, name="img", **options)
    plt = _RecordingPlt()
    exec(p["hint"], {"plt": plt, "np": np, "img": value})
    (array, kwargs), = plt.calls
    assert array.shape == shape
    if array.ndim == 2:
        assert kwargs.get("cmap") == "gray"
    if options.get("channel") is not None:
        assert p["permute"] is None
