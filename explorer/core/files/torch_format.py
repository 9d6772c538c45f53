"""PyTorch checkpoints (``.pt``/``.pth``): validated by a ``weights_only`` load, which never runs code.

``torch.load(..., weights_only=True)`` only rebuilds tensors, containers and a
short allow-list of types, so trying it is a safe check. For the zip format
(``torch.save`` since 1.6) it is done with ``mmap=True``: the storages stay in
the file, so checking and then loading a multi-gigabyte checkpoint is instant.
The legacy (pre-zip) format cannot be mapped and is read whole, after checking
that it fits in memory.
"""

from __future__ import annotations

import os
import pickletools
import re
import warnings
import zipfile
from typing import Any

from explorer.core.files.common import (
    FileLoadError,
    check_fits_in_memory,
    human_bytes,
    human_count,
    plan,
    shape_text,
    show,
)
from explorer.core.i18n import _, ngettext

MAX_WALK = 100_000  # containers/tensors visited when summarising (a hostile file may hold millions)
# Phrases of torch's weights-only unpickler (compared in lower case) that mean "this pickle imports or
# calls something beyond plain tensors" - a class, or a function such as os.system - not damage.
_PICKLE_MARKERS = ("unsupported global", "not an allowed global", "unsupported class", "unsupported operand",
                   "call reduce for", "can only ")


_VALID_OPCODES = frozenset(ord(op.code) for op in pickletools.opcodes)


def _is_pickled_code(message: str) -> bool:
    """Whether the weights-only unpickler refused a real pickle of objects (not random bytes).

    "Unsupported operand N" names an opcode it will not run: a genuine one (GLOBAL, REDUCE ...)
    means pickled code; a byte that is no pickle opcode at all means a damaged file.
    """
    lowered = message.lower()
    if not any(marker in lowered for marker in _PICKLE_MARKERS):
        return False
    found = re.search(r"unsupported operand (\d+)", lowered)
    return found is None or int(found.group(1)) in _VALID_OPCODES


def _load_code(path: str, name: str, *, mmap: bool, weights_only: bool) -> str:
    """The ``torch.load`` line the learner sees."""
    args = f"{path!r}, map_location='cpu', weights_only={weights_only}"
    if mmap:
        args += ", mmap=True"
    return f"import torch\n{name} = torch.load({args})"


def _unsafe_globals(path: str, is_zip: bool) -> list[str]:
    """Names of the classes/functions the pickle would import (zip format only; read, not run)."""
    if not is_zip:
        return []
    import torch

    try:
        return list(torch.serialization.get_unsafe_globals_in_checkpoint(path))
    except Exception:  # noqa: BLE001 - only used to make the message more specific
        return []


def _pickle_refusal(path: str, is_zip: bool) -> FileLoadError:
    """The needs-pickle error, naming a few of the objects inside when we can."""
    names = _unsafe_globals(path, is_zip)
    label = show(os.path.basename(path))
    if not names:
        return FileLoadError(_("{file} holds pickled Python objects, not just tensors, so loading it would run code "
                               "from the file; load it only if you trust where it came from.").format(file=label),
                             needs_pickle=True)
    # TRANSLATORS: {classes} lists a few Python classes, such as "collections.OrderedDict, MyModel".
    return FileLoadError(_("{file} holds pickled Python objects ({classes}), not just tensors, so loading it would "
                           "run code from the file; load it only if you trust where it came from.").format(
        file=label, classes=", ".join(names[:3]) + (", ..." if len(names) > 3 else "")), needs_pickle=True)


def _safe_load(path: str, is_zip: bool) -> Any:
    """``torch.load`` with ``weights_only=True`` and sparse invariants checked; every failure is one sentence."""
    import pickle

    import torch

    label = show(os.path.basename(path))
    try:
        return _load_checked(torch, path, is_zip)
    except pickle.UnpicklingError as exc:
        if _is_pickled_code(str(exc)):
            raise _pickle_refusal(path, is_zip) from None
        raise FileLoadError(_("{file} is damaged or truncated: its pickled index cannot be read.").format(
            file=label)) from None
    except RuntimeError as exc:
        if "zip archive" in str(exc) or "central directory" in str(exc):
            raise FileLoadError(_("{file} is damaged or truncated: its zip archive cannot be read.").format(
                file=label)) from None
        if _loads_unchecked(torch, path, is_zip):
            # Only the invariant check failed: reading such a tensor later would crash the kernel.
            raise FileLoadError(_("{file} holds a sparse tensor whose indices do not fit its shape; "
                                  "loading it could crash Python, so it is not loaded.").format(file=label)) from None
        raise FileLoadError(_("{file} could not be read as a PyTorch checkpoint.").format(file=label)) from None
    except (MemoryError, RecursionError):
        raise
    except Exception:  # noqa: BLE001 - EOFError, ValueError, KeyError ... all mean a bad file
        raise FileLoadError(_("{file} is damaged or is not a PyTorch checkpoint.").format(file=label)) from None


def _load_checked(torch: Any, path: str, is_zip: bool) -> Any:
    """The weights-only load with torch's sparse invariant check on (off by default in torch)."""
    with warnings.catch_warnings(), torch.sparse.check_sparse_tensor_invariants(enable=True):
        warnings.simplefilter("ignore")
        return torch.load(path, map_location="cpu", weights_only=True, mmap=is_zip)


def _loads_unchecked(torch: Any, path: str, is_zip: bool) -> bool:
    """True when the weights-only load succeeds without the sparse check (so the check was what failed)."""
    try:
        with warnings.catch_warnings(), torch.sparse.check_sparse_tensor_invariants(enable=False):
            warnings.simplefilter("ignore")
            torch.load(path, map_location="cpu", weights_only=True, mmap=is_zip)
    except Exception:  # noqa: BLE001 - any other failure keeps the generic sentence
        return False
    return True


def _walk_tensors(obj: Any) -> list[Any]:
    """Every tensor reachable through dicts, lists and tuples (bounded, cycle-safe)."""
    import torch

    found: list[Any] = []
    stack, seen, steps = [obj], set(), 0
    while stack and steps < MAX_WALK:
        item = stack.pop()
        steps += 1
        if isinstance(item, torch.Tensor):
            found.append(item)
        elif isinstance(item, (dict, list, tuple, set)) and id(item) not in seen:
            seen.add(id(item))
            stack.extend(item.values() if isinstance(item, dict) else item)
    return found


def _storage_bytes(tensors: list[Any]) -> int:
    """Bytes of the distinct storages (tied weights share one and are counted once)."""
    storages: dict[tuple[int, int], int] = {}
    for t in tensors:
        if t.is_meta:  # a meta tensor has a shape but no data
            continue
        try:
            storage = t.untyped_storage()
            storages[(storage.data_ptr(), storage.nbytes())] = storage.nbytes()
        except Exception:  # noqa: BLE001 - sparse and other layouts have no plain storage
            storages[(id(t), 0)] = t.numel() * t.element_size()
    return sum(storages.values())


def describe(obj: Any) -> str:
    """One-line summary: ``state_dict with 12 tensors, 1.2 M parameters, 4.6 MB``."""
    import torch

    if isinstance(obj, torch.Tensor):
        return _("{dtype} tensor of shape {shape}, {size}").format(
            dtype=str(obj.dtype).replace("torch.", ""), shape=shape_text(obj.shape),
            size=human_bytes(_storage_bytes([obj])))
    tensors = _walk_tensors(obj)
    if _is_state_dict(obj):
        kind = "state_dict"
    elif isinstance(obj, dict):
        # TRANSLATORS: {type} is a Python type name such as "dict" or "OrderedDict".
        kind = ngettext("{type} of {n} key", "{type} of {n} keys", len(obj)).format(type=type(obj).__name__, n=len(obj))
    elif isinstance(obj, (list, tuple)):
        kind = ngettext("{type} of {n} item", "{type} of {n} items", len(obj)).format(
            type=type(obj).__name__, n=len(obj))
    else:
        return _("{type} (no tensors)").format(type=type(obj).__name__) if not tensors else type(obj).__name__
    params = sum(t.numel() for t in tensors)
    # TRANSLATORS: {what} is "state_dict" or e.g. "list of 3 items"; {tensors} "2 tensors"; {parameters} "1.2 M parameters".
    return _("{what} with {tensors}, {parameters}, {size}").format(
        what=kind, tensors=ngettext("{n} tensor", "{n} tensors", len(tensors)).format(n=len(tensors)),
        parameters=ngettext("{n} parameter", "{n} parameters", params).format(n=human_count(params)),
        size=human_bytes(_storage_bytes(tensors)))


def _is_state_dict(obj: Any) -> bool:
    """A non-empty mapping of str keys to tensors (what ``model.state_dict()`` gives)."""
    import torch

    return isinstance(obj, dict) and bool(obj) and all(
        isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in obj.items()
    )


def _hint(obj: Any, name: str, mapped: bool) -> str | None:
    """A teaching note about what was loaded."""
    first = None
    if _is_state_dict(obj):
        first = _("{name} maps parameter names to tensors; {code} copies them into a model.").format(
            name=name, code=f"model.load_state_dict({name})")
    elif isinstance(obj, dict) and obj:
        first = _("{name} is a dict; {item} is its first entry.").format(name=name, item=f"{name}[{next(iter(obj))!r}]")
    if not mapped:
        return first
    if first is None:
        return _("The tensors are memory-mapped from the file, so opening it is instant.")
    # TRANSLATORS: {hint} is one of the sentences above about what the file holds.
    return _("{hint} The tensors are memory-mapped from the file, so opening it is instant.").format(hint=first)


def plan_pt(path: str, name: str, allow_pickle: bool) -> dict[str, Any]:
    """Validate a PyTorch checkpoint with a weights-only load and return the snippet."""
    is_zip = zipfile.is_zipfile(path)
    label = show(os.path.basename(path))
    if not is_zip:
        # TRANSLATORS: {code} is the name of a PyTorch function, kept as it is.
        advice = _("re-save it with {code} so it can be memory-mapped").format(code="torch.save")
        check_fits_in_memory(os.path.getsize(path), label, advice)
    try:
        obj = _safe_load(path, is_zip)
    except FileLoadError as exc:
        if not (exc.needs_pickle and allow_pickle):
            raise
        code = _load_code(path, name, mmap=is_zip, weights_only=False)
        summary = _("PyTorch checkpoint with pickled Python objects, {size}").format(
            size=human_bytes(os.path.getsize(path)))
        hint = _("This runs code stored in the file; the classes it uses must be importable in the console.")
        return plan("pt", code, summary, hint)
    code = _load_code(path, name, mmap=is_zip, weights_only=True)
    return plan("pt", code, describe(obj), _hint(obj, name, is_zip and bool(_walk_tensors(obj))))
