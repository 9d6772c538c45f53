"""Each supported format loads: the returned snippet, run in a fresh namespace, gives the right value."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest
import torch
from PIL import Image
from safetensors.torch import save_file

from explorer.core.files import numpy_format as files_numpy
from explorer.core.files.prepare import prepare_load
from explorer.protocol.units import shape_text
from tests.core.files_helpers import run_snippet, write_npy_header

ARRAYS = {
    "0-d": np.array(3.5),
    "empty": np.zeros((0, 4), np.float32),
    "bool": np.array([True, False]),
    "complex": np.arange(6).reshape(2, 3) * (1 + 2j),
    "fortran": np.asfortranarray(np.arange(12, dtype=np.int16).reshape(3, 4)),
    "negative-strides": np.arange(10, dtype=np.uint8)[::-2],
    "structured": np.array([(1, 2.0)], dtype=[("a", "<i4"), ("b", "<f8")]),
    "big-endian": np.arange(5, dtype=">i4"),
    "float16": np.linspace(0, 1, 7, dtype=np.float16),
}


@pytest.mark.parametrize("key", list(ARRAYS))
def test_npy_round_trips(tmp_path: Path, key: str) -> None:
    path = tmp_path / "batch.npy"
    np.save(path, ARRAYS[key])
    result = prepare_load(str(path))
    assert result["format"] == "npy" and result["name"] == "batch"
    assert "np.load(" in result["code"] and "mmap_mode" not in result["code"]
    value = run_snippet(result)
    assert value.dtype == ARRAYS[key].dtype and value.shape == ARRAYS[key].shape
    np.testing.assert_array_equal(value, ARRAYS[key])
    assert shape_text(ARRAYS[key].shape) in result["summary"]  # [2, 3], as every message writes a shape


def test_large_npy_is_memory_mapped(tmp_path: Path) -> None:
    path = tmp_path / "huge.npy"
    write_npy_header(path, (30_000_000,), "<f4")  # 120 MB, sparse on disk
    result = prepare_load(str(path))
    assert "mmap_mode='r'" in result["code"]
    assert "memory-mapped" in result["summary"] and result["hint"]
    value = run_snippet(result)
    assert isinstance(value, np.memmap) and not value.flags.writeable
    assert value.shape == (30_000_000,) and value[-1] == 0


def test_npz_small_gives_dict_of_arrays(tmp_path: Path) -> None:
    path = tmp_path / "pair.npz"
    np.savez(path, x=ARRAYS["complex"], y=ARRAYS["0-d"], z=ARRAYS["empty"])
    result = prepare_load(str(path))
    assert result["format"] == "npz" and "3 arrays" in result["summary"]
    value = run_snippet(result)
    assert isinstance(value, dict) and sorted(value) == ["x", "y", "z"]
    np.testing.assert_array_equal(value["x"], ARRAYS["complex"])
    assert value["z"].shape == (0, 4)


def test_npz_compressed_loads_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "packed.npz"
    np.savez_compressed(path, a=np.zeros((100, 100)))
    result = prepare_load(str(path))
    assert "compressed" in result["summary"]
    np.testing.assert_array_equal(run_snippet(result)["a"], np.zeros((100, 100)))


def test_large_stored_npz_maps_each_member(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A real archive above 64 MiB would be slow to write; lower the threshold instead.
    monkeypatch.setattr(files_numpy, "LARGE_BYTES", 16)
    members = {k: ARRAYS[k] for k in ("0-d", "empty", "fortran", "structured", "big-endian", "complex")}
    path = tmp_path / "many.npz"
    np.savez(path, **members)
    result = prepare_load(str(path))
    assert "np.memmap(" in result["code"] and "memory-mapped" in result["summary"]
    value = run_snippet(result)
    assert sorted(value) == sorted(members)
    for key, expected in members.items():
        assert isinstance(value[key], np.memmap)
        assert value[key].dtype == expected.dtype and value[key].shape == expected.shape
        np.testing.assert_array_equal(value[key], expected)
    assert value["fortran"].flags.f_contiguous


def test_large_compressed_npz_is_not_mapped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files_numpy, "LARGE_BYTES", 16)
    path = tmp_path / "packed.npz"
    np.savez_compressed(path, a=np.arange(100))
    result = prepare_load(str(path))
    assert "np.memmap" not in result["code"]
    np.testing.assert_array_equal(run_snippet(result)["a"], np.arange(100))


def test_npz_member_in_folder_keeps_numpy_key(tmp_path: Path) -> None:
    path = tmp_path / "nested.npz"
    with zipfile.ZipFile(path, "w") as zf, zf.open("group/a.npy", "w") as fh:
        np.lib.format.write_array(fh, np.arange(3))
    value = run_snippet(prepare_load(str(path)))
    np.testing.assert_array_equal(value["group/a"], np.arange(3))


def test_state_dict_pt(tmp_path: Path) -> None:
    sd = torch.nn.Linear(4, 3).state_dict()
    path = tmp_path / "weights.pt"
    torch.save(sd, path)
    result = prepare_load(str(path))
    assert result["format"] == "pt"
    assert "weights_only=True" in result["code"] and "mmap=True" in result["code"]
    assert result["summary"] == "state_dict with 2 tensors, 15 parameters, 60 B"
    value = run_snippet(result)
    assert list(value) == ["weight", "bias"]
    assert torch.equal(value["weight"], sd["weight"])


@pytest.mark.parametrize(
    "obj",
    [
        {"epoch": 3, "model": {"w": torch.ones(2, 2)}, "history": [torch.zeros(3), (torch.ones(1),)]},
        [torch.arange(4), {"x": torch.eye(2)}],
        torch.ones(2, 3, dtype=torch.bfloat16).t(),
        torch.zeros(0, 5),
        torch.tensor(2.0),
        torch.ones(3, dtype=torch.complex64),
        torch.ones(2, 2).to_sparse(),
        {"p": torch.nn.Parameter(torch.ones(2)), "expanded": torch.ones(3, 1).expand(3, 4)},
    ],
    ids=["checkpoint", "list", "bf16-transposed", "empty", "0-d", "complex", "sparse", "parameter-expand"],
)
def test_pt_containers_and_awkward_tensors(tmp_path: Path, obj: object) -> None:
    path = tmp_path / "ckpt.pth"
    torch.save(obj, path)
    value = run_snippet(prepare_load(str(path)))
    flat_in, flat_out = _flatten(obj), _flatten(value)
    assert len(flat_in) == len(flat_out) > 0
    for a, b in zip(flat_in, flat_out):
        assert (a.dtype, a.shape, a.layout) == (b.dtype, b.shape, b.layout)
        if a.layout == torch.strided:
            assert a.stride() == b.stride()
        assert torch.equal(a.to_dense(), b.to_dense())


def _flatten(obj: object) -> list[torch.Tensor]:
    if isinstance(obj, torch.Tensor):
        return [obj]
    if isinstance(obj, dict):
        return [t for v in obj.values() for t in _flatten(v)]
    if isinstance(obj, (list, tuple)):
        return [t for v in obj for t in _flatten(v)]
    return []


def test_meta_tensor_counts_no_bytes(tmp_path: Path) -> None:
    torch.save({"m": torch.empty(2, 3, device="meta"), "w": torch.ones(2)}, tmp_path / "meta.pt")
    result = prepare_load(tmp_path / "meta.pt")  # a Path object is accepted too
    assert result["summary"] == "state_dict with 2 tensors, 8 parameters, 8 B"
    assert run_snippet(result)["m"].is_meta


def test_tied_weights_counted_once(tmp_path: Path) -> None:
    shared = torch.ones(10)
    torch.save({"a": shared, "b": shared}, tmp_path / "tied.pt")
    assert prepare_load(str(tmp_path / "tied.pt"))["summary"].endswith("20 parameters, 40 B")


def test_legacy_pt_loads_without_mmap(tmp_path: Path) -> None:
    path = tmp_path / "old.pt"
    torch.save({"w": torch.arange(3.0)}, path, _use_new_zipfile_serialization=False)
    result = prepare_load(str(path))
    assert "mmap" not in result["code"] and "weights_only=True" in result["code"]
    assert torch.equal(run_snippet(result)["w"], torch.arange(3.0))


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.bool, torch.int64, torch.complex64])
def test_safetensors(tmp_path: Path, dtype: torch.dtype) -> None:
    tensors = {
        "embed": torch.ones(4, 3).to(dtype),
        "empty": torch.zeros(0, 2).to(dtype),
        "scalar": torch.tensor(1).to(dtype),
    }
    path = tmp_path / "model.safetensors"
    save_file(tensors, str(path), metadata={"format": "pt"})
    result = prepare_load(str(path))
    assert result["format"] == "safetensors" and "3 tensors" in result["summary"]
    value = run_snippet(result)
    assert sorted(value) == sorted(tensors)
    for key, tensor in tensors.items():
        assert value[key].dtype == dtype and torch.equal(value[key], tensor)


def _image(mode: str, size: tuple[int, int] = (7, 5)) -> Image.Image:
    """A deterministic image in *mode* (a gradient, so a wrong layout shows up)."""
    base = Image.linear_gradient("L").resize(size)
    return base.convert(mode)


@pytest.mark.parametrize(
    ("filename", "mode", "shape"),
    [
        ("cat.png", "RGB", (5, 7, 3)),
        ("cat.jpg", "RGB", (5, 7, 3)),
        ("gray.png", "L", (5, 7)),
        ("gray.jpeg", "L", (5, 7)),
        ("alpha.png", "RGBA", (5, 7, 4)),
        ("logo.gif", "P", (5, 7, 3)),
        ("scan.tiff", "RGB", (5, 7, 3)),
        ("pic.bmp", "RGB", (5, 7, 3)),
        ("pic.webp", "RGB", (5, 7, 3)),
        ("bits.png", "1", (5, 7)),
        ("depth.png", "I;16", (5, 7)),
        ("print.jpg", "CMYK", (5, 7, 3)),
        ("float.tif", "F", (5, 7)),
        ("gray-alpha.png", "LA", (5, 7, 4)),
    ],
)
def test_images(tmp_path: Path, filename: str, mode: str, shape: tuple[int, ...]) -> None:
    path = tmp_path / filename
    _image(mode).save(path)
    result = prepare_load(str(path))
    assert result["format"] == "image" and "from PIL import Image" in result["code"]
    value = run_snippet(result)
    assert isinstance(value, np.ndarray) and value.shape == shape and value.flags.writeable
    assert value.dtype == {"I;16": np.uint16, "F": np.float32}.get(mode, np.uint8)
    if len(shape) == 3:
        assert "permute(2, 0, 1)" in result["hint"]
    if filename == "cat.png":  # lossless: pixels must match exactly
        np.testing.assert_array_equal(value, np.asarray(_image("RGB")))


def test_palette_with_transparency_keeps_alpha(tmp_path: Path) -> None:
    image = _image("P")
    image.info["transparency"] = 0
    image.save(tmp_path / "sprite.png", transparency=0)
    assert run_snippet(prepare_load(str(tmp_path / "sprite.png"))).shape == (5, 7, 4)


def test_image_hint_gives_model_layout(tmp_path: Path) -> None:
    path = tmp_path / "photo.png"
    _image("RGB").save(path)
    result = prepare_load(str(path))
    img = run_snippet(result)
    # The hint's expression must really give C x H x W floats in [0, 1].
    expr = result["hint"].split(": ", 1)[1]
    tensor = eval(expr, {"torch": torch, result["name"]: img})
    assert tensor.shape == (3, 5, 7) and tensor.dtype == torch.float32 and float(tensor.max()) <= 1.0


def test_animated_gif_uses_first_frame(tmp_path: Path) -> None:
    frames = [_image("RGB"), _image("RGB").transpose(Image.Transpose.FLIP_TOP_BOTTOM)]
    path = tmp_path / "anim.gif"
    frames[0].save(path, save_all=True, append_images=frames[1:])
    result = prepare_load(str(path))
    assert "first of 2 frames" in result["summary"]
    assert run_snippet(result).shape == (5, 7, 3)


@pytest.mark.parametrize("filename", ["a.npy", "b.npz", "c.pt", "d.safetensors", "e.png"])
def test_snippet_leaves_only_the_variable_and_imports(tmp_path: Path, filename: str) -> None:
    path = tmp_path / filename
    if filename.endswith(".npy"):
        np.save(path, np.ones(2))
    elif filename.endswith(".npz"):
        np.savez(path, a=np.ones(2))
    elif filename.endswith(".pt"):
        torch.save({"w": torch.ones(2)}, path)
    elif filename.endswith(".safetensors"):
        save_file({"w": torch.ones(2)}, str(path))
    else:
        _image("RGB").save(path)
    result = prepare_load(str(path))
    namespace: dict[str, object] = {}
    exec(result["code"], namespace)
    # Helper names (a loop variable, an open archive) would appear as stray variables in the inspector.
    assert set(namespace) - {"__builtins__"} <= {result["name"], "np", "torch", "Image", "load_file"}
    assert result["name"] in namespace


@pytest.mark.parametrize(("fmt", "decoded"), [("PNG", []), ("JPEG", [(10, 8)]), ("BMP", [(80, 64)])])
def test_big_images_are_not_decoded_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str,
                                          decoded: list[tuple[int, int]]) -> None:
    """The console decodes the image; the check does not decode a big PNG again, and a big JPEG only at 1/8."""
    from PIL import ImageFile

    from explorer.core.files import image_format

    monkeypatch.setattr(image_format, "LARGE_BYTES", 1000)  # 80 x 64 x 3 counts as big
    path = tmp_path / f"photo.{fmt.lower()}"
    Image.effect_noise((80, 64), 50).convert("RGB").save(path, format=fmt)
    sizes: list[tuple[int, int]] = []
    real = ImageFile.ImageFile.load
    monkeypatch.setattr(ImageFile.ImageFile, "load", lambda im: sizes.append(im.size) or real(im))
    result = prepare_load(str(path))
    assert sizes == decoded
    assert run_snippet(result).shape == (64, 80, 3)


def test_a_big_damaged_png_is_still_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from explorer.core.files import image_format
    from tests.core.files_helpers import refused

    monkeypatch.setattr(image_format, "LARGE_BYTES", 1000)
    path = tmp_path / "photo.png"
    Image.effect_noise((80, 64), 50).convert("RGB").save(path)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF  # inside the pixel data: its chunk's CRC no longer matches
    path.write_bytes(bytes(data))
    assert "damaged" in str(refused(path))
    path.write_bytes(bytes(data[: len(data) // 2]))
    assert "damaged" in str(refused(path))
