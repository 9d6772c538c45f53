"""Good files of every kind, whose summary and hint the loader writes in English or Chinese (no tests here)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from PIL import Image
from safetensors.torch import save_file

from explorer.core.files import numpy_format, safetensors_format
from tests.core.i18n_cases_files import Case, file, load, loaded, npy_bytes
from tests.core.i18n_cases_formats import Payload


# -- files that load: their summary and hint -----------------------------------------------
@loaded
def _npy(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "a.npy", npy_bytes(np.ones((2, 3))))), ("[2, 3]", "48 B", "float64")


@loaded
def _npy_mapped(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    mp.setattr(numpy_format, "LARGE_BYTES", 10)
    return load(file(tmp, "big.npy", npy_bytes(np.ones(4)))), ("[4]", "32 B", "np.array(big)")


@loaded
def _npy_objects_allowed(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    return load(file(tmp, "objs.npy", npy_bytes(np.array([{}, []], dtype=object))), allow_pickle=True), ("[2]",)


@loaded
def _npz_one(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    np.savez(tmp / "one.npz", w=np.ones(1))
    return load(tmp / "one.npz"), ("1", "8 B", "one['w']")


@loaded
def _npz_compressed(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    np.savez_compressed(tmp / "packed.npz", a=np.zeros(3), b=np.zeros(12_000))
    return load(tmp / "packed.npz"), ("2", "12.0 k", "93.8 KiB", "packed['a']")


@loaded
def _npz_mapped(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    mp.setattr(numpy_format, "LARGE_BYTES", 10)
    np.savez(tmp / "maps.npz", a=np.zeros(3), b=np.zeros(2))
    return load(tmp / "maps.npz"), ("maps['a']",)


@loaded
def _npz_objects_allowed(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    np.savez(tmp / "objs.npz", a=np.array([{}], dtype=object))
    return load(tmp / "objs.npz", allow_pickle=True), ("objs['a']",)


@loaded
def _safetensors_lazy(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    mp.setattr(safetensors_format, "maps_lazily", lambda: True)
    save_file({"w": torch.zeros(2, 3)}, str(tmp / "w.safetensors"))
    return load(tmp / "w.safetensors"), ("6", "24 B")


@loaded
def _safetensors_eager(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    mp.setattr(safetensors_format, "maps_lazily", lambda: False)
    save_file({"w": torch.zeros(1), "b": torch.zeros(1)}, str(tmp / "w.safetensors"))
    return load(tmp / "w.safetensors"), ("2", "8 B")


@loaded
def _pt_state_dict(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    torch.save({"fc.weight": torch.ones(3, 5), "fc.bias": torch.ones(3)}, tmp / "sd.pt")
    return load(tmp / "sd.pt"), ("18", "72 B", "model.load_state_dict(sd)")


@loaded
def _pt_dict_legacy(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    torch.save({"step": 3, "w": torch.ones(1)}, tmp / "ckpt.pt", _use_new_zipfile_serialization=False)
    return load(tmp / "ckpt.pt"), ("dict", "2", "ckpt['step']")


@loaded
def _pt_list(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    torch.save([torch.ones(2)], tmp / "items.pt")
    return load(tmp / "items.pt"), ("list", "1", "8 B")


@loaded
def _pt_tensor(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    torch.save(torch.ones(2, 2, dtype=torch.float16), tmp / "t.pt")
    return load(tmp / "t.pt"), ("float16", "[2, 2]", "8 B")


@loaded
def _pt_no_tensors(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    torch.save(5, tmp / "five.pt")
    return load(tmp / "five.pt"), ("int",)


@loaded
def _pt_pickle_allowed(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
    torch.save({"model": Payload()}, tmp / "model.pt")
    return load(tmp / "model.pt", allow_pickle=True), ()


def _image(name: str, mode: str, values: tuple[str, ...], **info: Any) -> None:
    def make(tmp: Path, mp: pytest.MonkeyPatch) -> Case:
        Image.new(mode, (5, 4)).save(tmp / name, **info)
        return load(tmp / name), ("4 × 5", *values)

    make.__name__ = f"_image_{name.replace('.', '_')}"
    loaded(make)


_image("gray.png", "L", ("L", "unsqueeze(0)"))
_image("rgb.png", "RGB", ("× 3", "RGB", "permute(2, 0, 1)"))
_image("rgba.png", "RGBA", ("× 4", "RGBA"))
_image("deep.png", "I;16", ("I;16", "65535"))
_image("anim.gif", "RGB", ("P", "2"), save_all=True, append_images=[Image.new("RGB", (5, 4), (0, 0, 255))])
