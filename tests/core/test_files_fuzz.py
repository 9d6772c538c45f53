"""Damaged copies of valid files: accepted (and then the snippet works) or refused in one sentence."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image
from safetensors.torch import save_file

from explorer.core.files.prepare import FileLoadError, prepare_load
from tests.core.files_helpers import assert_one_sentence, run_snippet

NOISE = np.random.default_rng(0).integers(0, 255, (12, 12, 3), dtype=np.uint8)
MAKERS: dict[str, Callable[[Path], None]] = {
    "a.npy": lambda p: np.save(p, np.arange(40.0).reshape(4, 10)),
    "b.npz": lambda p: np.savez(p, x=np.ones(20), y=np.arange(6).reshape(2, 3)),
    "c.npz": lambda p: np.savez_compressed(p, x=np.ones(20)),
    "d.pt": lambda p: torch.save({"w": torch.randn(4, 4), "b": [torch.ones(2)]}, p),
    "e.pth": lambda p: torch.save({"w": torch.ones(3)}, p, _use_new_zipfile_serialization=False),
    "f.safetensors": lambda p: save_file({"w": torch.ones(3, 3), "v": torch.zeros(2)}, str(p)),
    "g.png": lambda p: Image.fromarray(NOISE).save(p),
    "h.jpg": lambda p: Image.fromarray(NOISE).save(p),
    "i.gif": lambda p: Image.fromarray(NOISE[..., 0]).save(p),
}

mutations = st.tuples(
    st.floats(0.02, 1.0),  # keep this fraction of the file (1.0 = no cut)
    st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(0, 255)), max_size=6),  # byte overwrites
)


@pytest.fixture(scope="module")
def originals(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    folder = tmp_path_factory.mktemp("originals")
    for name, make in MAKERS.items():
        make(folder / name)
    return {name: (folder / name).read_bytes() for name in MAKERS}


@pytest.mark.parametrize("filename", list(MAKERS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutation=mutations)
def test_damaged_files(tmp_path: Path, originals: dict[str, bytes], filename: str,
                       mutation: tuple[float, list[tuple[float, int]]]) -> None:
    keep, overwrites = mutation
    data = bytearray(originals[filename])
    for where, byte in overwrites:
        data[int(where * len(data))] = byte
    path = tmp_path / filename
    path.write_bytes(bytes(data[: max(1, int(len(data) * keep))]))
    try:
        result = prepare_load(str(path))
    except FileLoadError as exc:
        assert_one_sentence(str(exc))
        assert "unexpected" not in str(exc), str(exc.__cause__)
        return
    run_snippet(result)  # accepted means the snippet works
