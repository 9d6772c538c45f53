"""PyTorch checkpoints (``.pt``/``.pth``): checked by reading their pickle, never by running or loading it.

:mod:`explorer.core.files.torch_archive` reads the pickle's opcodes and the
archive's layout without unpickling anything, and refuses a file that is more
than tensors and plain containers (``needs_pickle``), or whose tensors claim
more data than the file holds. The console then loads the file once, with
``torch.load(..., weights_only=True)`` as a second guard: memory-mapped for the
zip format (``torch.save`` since 1.6), so a multi-gigabyte checkpoint opens at
once; read whole for the legacy format, or for a zip whose records are
compressed (mapping those would read compressed bytes as tensor data), after
checking that it fits in memory.
"""

from __future__ import annotations

import os
import zipfile
from typing import Any

from explorer.core.files.common import FileLoadError, check_fits_in_memory, human_bytes, plan, show
from explorer.core.files.torch_archive import scan
from explorer.core.files.torch_indices import check_indices
from explorer.core.files.torch_pickle import TorchPolicy
from explorer.core.files.torch_summary import describe, hint, walk_tensors
from explorer.core.i18n import _, ngettext

MAX_LISTED = 160  # characters of class names a refusal lists in full; beyond, it names the libraries
MAX_LIBRARIES = 10
# Libraries every console has: a class from any other one says what must be installed to load the file.
_EVERYWHERE = frozenset({"torch", "builtins", "collections", "numpy"})


def _load_code(path: str, name: str, *, mmap: bool, weights_only: bool) -> str:
    """The ``torch.load`` line the learner sees."""
    args = f"{path!r}, map_location='cpu', weights_only={weights_only}"
    if mmap:
        args += ", mmap=True"
    return f"import torch\n{name} = torch.load({args})"


def _class_list(names: list[str]) -> str:
    """The refused names, sorted: all of them when they fit, else every library and a few examples."""
    listed = ", ".join(names)
    if len(listed) <= MAX_LISTED:
        return listed
    libraries = sorted({n.split(".")[0] for n in names}, key=lambda lib: (lib in _EVERYWHERE, lib))
    shown = ", ".join(libraries[:MAX_LIBRARIES]) + (", ..." if len(libraries) > MAX_LIBRARIES else "")
    examples = [next(n for n in names if n.split(".")[0] == lib) for lib in libraries[:3]]
    # TRANSLATORS: {libraries} lists Python packages ("ultralytics, torch"); {examples} a few class names.
    return ngettext("{n} class or function from {libraries}, among them {examples}",
                    "{n} classes and functions from {libraries}, among them {examples}", len(names)).format(
        n=len(names), libraries=shown, examples=", ".join(examples))


def _pickle_refusal(policy: TorchPolicy, label: str) -> FileLoadError:
    """The needs-pickle error, naming every class and function the pickle uses beyond plain tensors."""
    names = sorted(policy.refused)
    if names:
        # TRANSLATORS: {classes} lists Python classes, such as "collections.deque, __main__.MyModel".
        return FileLoadError(_("{file} holds pickled Python objects ({classes}), not just tensors, so loading it "
                               "would run code from the file; load it only if you trust where it came from.").format(
            file=label, classes=_class_list(names)), needs_pickle=True)
    if policy.foreign_opcodes and not policy.anonymous:
        # TRANSLATORS: {code} is a line of Python, kept as it is.
        return FileLoadError(_("{file} was saved with a pickle protocol that {code} cannot read, so loading it "
                               "means unpickling it in full, which could run code from the file; load it only if "
                               "you trust where it came from.").format(
            file=label, code="torch.load(weights_only=True)"), needs_pickle=True)
    return FileLoadError(_("{file} holds pickled Python objects, not just tensors, so loading it would run code "
                           "from the file; load it only if you trust where it came from.").format(file=label),
                         needs_pickle=True)


def _is_refused(policy: TorchPolicy) -> bool:
    return bool(policy.refused or policy.anonymous or policy.foreign_opcodes)


def plan_pt(path: str, name: str, allow_pickle: bool) -> dict[str, Any]:
    """Check a PyTorch checkpoint by reading its pickle and layout (nothing is loaded) and return the snippet."""
    is_zip = zipfile.is_zipfile(path)
    label = show(os.path.basename(path))
    if not is_zip:
        # TRANSLATORS: {code} is the name of a PyTorch function, kept as it is.
        advice = _("re-save it with {code} so it can be memory-mapped").format(code="torch.save")
        check_fits_in_memory(os.path.getsize(path), label, advice)
    checkpoint = scan(path, label, is_zip)
    mapped = is_zip and checkpoint.mappable
    if _is_refused(checkpoint.policy):
        if not allow_pickle:
            raise _pickle_refusal(checkpoint.policy, label)
        code = _load_code(path, name, mmap=mapped, weights_only=False)
        summary = _("PyTorch checkpoint with pickled Python objects, {size}").format(
            size=human_bytes(os.path.getsize(path)))
        note = _("This runs code stored in the file; the classes it uses must be importable in the console.")
        return plan("pt", code, summary, note)
    check_indices(path, checkpoint, label)
    code = _load_code(path, name, mmap=mapped, weights_only=True)
    return plan("pt", code, describe(checkpoint.root), hint(checkpoint.root, name, mapped and bool(
        walk_tensors(checkpoint.root))))
