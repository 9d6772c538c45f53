"""A checkpoint's layout read without loading it: the zip archive of ``torch.save`` or the legacy stream.

:func:`scan` reads the pickle with the :class:`~explorer.core.files.torch_pickle.TorchPolicy`
and checks every storage it names against the bytes the file holds (a zip
record, see :mod:`explorer.core.files.torch_zip`, or the legacy format's
size-prefixed blocks), so that ``torch.load`` afterwards allocates no more
than the file backs. Nothing is unpickled and no tensor is made.
"""

from __future__ import annotations

import zipfile
import zlib
from typing import IO, Any

from explorer.core.files.common import FileLoadError
from explorer.core.files.pickle_machine import OPAQUE, ClampedReader, PickleDamaged, PickleMachine
from explorer.core.files.torch_facts import StorageRef, TensorsDamaged, UnreadableByTorch
from explorer.core.files.torch_pickle import Checkpoint, TorchPolicy
from explorer.core.files.torch_zip import record, scan_zip
from explorer.core.i18n import _

MAGIC_NUMBER = 0x1950A86A20F9469CFC6C  # torch.serialization's, first pickle of a legacy file
PROTOCOL_VERSION = 1001


def scan(path: str, label: str, is_zip: bool) -> Checkpoint:
    """Read *path*'s pickle and layout; damage is a :class:`FileLoadError`, refusals stay in ``policy``."""
    try:
        with open(path, "rb") as fh:
            return scan_zip(path, fh, label) if is_zip else _scan_legacy(fh, label)
    except UnreadableByTorch:
        raise FileLoadError(_("{file} could not be read as a PyTorch checkpoint.").format(file=label)) from None
    except TensorsDamaged:
        raise FileLoadError(_("{file} is damaged or truncated: the data of some tensors is missing.").format(
            file=label)) from None
    except PickleDamaged:
        raise FileLoadError(_("{file} is damaged or truncated: its pickled index cannot be read.").format(
            file=label)) from None
    except (zipfile.BadZipFile, zlib.error, NotImplementedError, EOFError, OSError, ValueError, RuntimeError):
        # RuntimeError: torch's archive reader (miniz) found the zip damaged
        raise FileLoadError(_("{file} is damaged or truncated: its zip archive cannot be read.").format(
            file=label)) from None


def storage_array(path: str, checkpoint: Checkpoint, ref: StorageRef, dtype: Any) -> Any:
    """One storage as a flat NumPy array of *dtype*: mapped from the file, or decompressed when it must be."""
    import numpy as np

    dtype = np.dtype(dtype).newbyteorder(">" if checkpoint.big_endian else "<")
    count = ref.nbytes // dtype.itemsize
    place = checkpoint.places[ref.key]
    if isinstance(place, int):
        array = np.memmap(path, dtype=dtype, mode="r", offset=place, shape=(count,)) if count else np.empty(0, dtype)
    else:
        array = np.frombuffer(record(path, place)[: count * dtype.itemsize], dtype=dtype)
    return array.astype(dtype.newbyteorder("="), copy=False)


# -- the legacy format (torch.save(..., _use_new_zipfile_serialization=False)) --------------
def _scan_legacy(fh: IO[bytes], label: str) -> Checkpoint:
    """Five pickles (magic number, protocol, system info, the object, storage keys), then each storage's bytes."""
    size = fh.seek(0, 2)
    fh.seek(0)
    reader = ClampedReader(fh, size)
    policy = TorchPolicy(legacy=True)
    # torch.load reads each of the five with a fresh unpickler, so each has its own memo
    for expected in (MAGIC_NUMBER, PROTOCOL_VERSION):
        if PickleMachine(policy).load(reader) != expected:
            if policy.refused or policy.anonymous or policy.foreign_opcodes:
                # A bare pickle of objects: torch.load(weights_only=False) would run it before it saw the mismatch.
                return Checkpoint(OPAQUE, policy, is_zip=False, mappable=False)
            raise FileLoadError(_("{file} is not a PyTorch checkpoint (its first bytes are a different pickle).").format(
                file=label))
    info = PickleMachine(policy).load(reader)
    root = PickleMachine(policy).load(reader)
    keys = PickleMachine(policy).load(reader)
    checkpoint = Checkpoint(root, policy, is_zip=False, mappable=False,
                            big_endian=isinstance(info, dict) and info.get("little_endian") is False)
    if not (isinstance(keys, list) and all(isinstance(k, str) for k in keys)
            and len(keys) == len(set(keys)) and set(keys) == set(policy.storages)):
        # A storage the keys leave out would be allocated at its claimed size and never filled.
        raise FileLoadError(_("{file} is damaged: its list of tensor data does not match its tensors.").format(
            file=label))
    position = fh.tell()
    for key in keys:
        ref = policy.storages[key]
        fh.seek(position)
        head = fh.read(8)
        if len(head) < 8 or position + 8 + ref.nbytes > size:
            raise FileLoadError(_("{file} is truncated: its data ends past the end of the file.").format(file=label))
        if int.from_bytes(head, "big" if checkpoint.big_endian else "little") != ref.numel:
            raise FileLoadError(_("{file} is damaged: its list of tensor data does not match its tensors.").format(
                file=label))
        checkpoint.places[key] = position + 8
        position += 8 + ref.nbytes
    return checkpoint
