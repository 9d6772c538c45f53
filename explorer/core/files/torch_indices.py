"""Sparse and nested tensors in a checkpoint: the indices stored as data must fit, before anything reads them.

For a sparse tensor ``torch.load`` does not check (torch skips sparse invariants
by default), and densifying or slicing one whose indices point outside its
shape reads or writes out of bounds and can crash the kernel. A nested tensor
whose members reach past its buffer is refused by ``torch.load`` itself, but
only in the console. Only the index tensors are read here (mapped from the file
when it is uncompressed); a sparse tensor's values are stood in for by one
broadcast element, so checking costs no more than the indices.
"""

from __future__ import annotations

import warnings
from typing import Any

from explorer.core.files.common import FileLoadError
from explorer.core.files.torch_archive import Checkpoint, storage_array
from explorer.core.files.torch_facts import SPARSE_LAYOUTS, TensorFacts
from explorer.core.i18n import _

_INDEX_DTYPES = {"int64": "i8", "int32": "i4"}


def check_indices(path: str, checkpoint: Checkpoint, label: str) -> None:
    """Refuse the file when a sparse tensor's indices lie outside its shape, or a nested one outside its buffer."""
    tensors = [t for t in checkpoint.policy.tensors if t.layout in SPARSE_LAYOUTS or t.layout == "nested"]
    if not tensors:
        return
    import torch

    for facts in tensors:
        if facts.layout == "nested":
            _check_nested(torch, path, checkpoint, facts, label)
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # a read-only mapped array warns when torch wraps it
                _validate(torch, path, checkpoint, facts)
        except (RuntimeError, ValueError, IndexError, TypeError, OverflowError):
            raise FileLoadError(_("{file} holds a sparse tensor whose indices do not fit its shape; "
                                  "loading it could crash Python, so it is not loaded.").format(file=label)) from None


def _validate(torch: Any, path: str, checkpoint: Checkpoint, facts: TensorFacts) -> None:
    """Build the sparse tensor from its real indices and a stand-in for its values, with torch's own checks on."""
    *index_parts, values = facts.parts
    index_tensors = [_index_tensor(torch, path, checkpoint, part) for part in index_parts]
    try:
        value_dtype = getattr(torch, values.dtype)
        stand_in = torch.empty((), dtype=value_dtype).expand(values.shape)
    except (AttributeError, RuntimeError, TypeError):
        stand_in = torch.empty(()).expand(values.shape)
    if facts.layout == "sparse_coo":
        torch.sparse_coo_tensor(index_tensors[0], stand_in, facts.shape, is_coalesced=facts.coalesced,
                                check_invariants=True)
    else:
        torch.sparse_compressed_tensor(*index_tensors, stand_in, facts.shape, layout=getattr(torch, facts.layout),
                                       check_invariants=True)


def _index_tensor(torch: Any, path: str, checkpoint: Checkpoint, part: TensorFacts) -> Any:
    """One index tensor as the file holds it (its own offset and strides into its storage)."""
    code = _INDEX_DTYPES.get(part.dtype)
    if code is None or part.storage is None:
        raise ValueError("sparse indices must be int32 or int64")
    flat = torch.from_numpy(storage_array(path, checkpoint, part.storage, code))
    return flat.as_strided(part.shape, part.stride, part.offset)


def _check_nested(torch: Any, path: str, checkpoint: Checkpoint, facts: TensorFacts, label: str) -> None:
    """Each member (its sizes, strides and offset) lies inside the buffer, as torch.load will require."""
    buffer, *index_parts = facts.parts
    try:
        sizes, strides, offsets = (_index_tensor(torch, path, checkpoint, p).tolist() for p in index_parts)
        fits = len(sizes) == len(strides) == len(offsets) and all(
            len(size) == len(stride) and min([*size, *stride, offset], default=0) >= 0
            and (0 in size or offset + sum((n - 1) * s for n, s in zip(size, stride)) < buffer.numel)
            for size, stride, offset in zip(sizes, strides, offsets))
    except (RuntimeError, ValueError, TypeError):
        fits = False
    if not fits:
        raise FileLoadError(_("{file} is damaged or truncated: the data of some tensors is missing.").format(
            file=label))
