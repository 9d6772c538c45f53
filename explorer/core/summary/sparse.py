"""Sparse tensors whose indices do not fit their shape: found before any of their data is read.

``torch.load(..., weights_only=True)`` accepts a sparse tensor with out-of-range
indices (torch skips the invariant check by default), and densifying, slicing or
summing it then writes or reads out of bounds: the kernel dies with SIGSEGV.
Every reader of sparse data (values, image, stats, previews) asks
:func:`sparse_problem` first; an invalid tensor gets one sentence and is never read.
"""

from __future__ import annotations

import warnings
from typing import Any

from explorer.core.i18n import _
from explorer.core.summary.static import PRISTINE_BUILTINS, library, tcall, tget

globals()["__builtins__"] = PRISTINE_BUILTINS

# layout name -> (compressed indices, plain indices) accessors of torch's compressed layouts
_COMPRESSED = {
    "sparse_csr": ("crow_indices", "col_indices"),
    "sparse_bsr": ("crow_indices", "col_indices"),
    "sparse_csc": ("ccol_indices", "row_indices"),
    "sparse_bsc": ("ccol_indices", "row_indices"),
}


def invalid_sparse_text() -> str:
    """The one sentence shown instead of an invalid sparse tensor's values."""
    return _("This sparse tensor's indices do not fit its shape, so its values are not read "
             "(reading them could crash Python).")


def sparse_problem(t: Any) -> str | None:
    """None for a strided tensor or a consistent sparse one; else the sentence saying why it is not read.

    Parameters
    ----------
    t : torch.Tensor
        Any tensor (read through the base class: a subclass's code is not run).

    Returns
    -------
    str or None
        :func:`invalid_sparse_text` when torch's own invariant check fails.
    """
    torch = library("torch")
    layout = tget(t, "layout")
    if layout is torch.strided:
        return None
    name = str(layout).removeprefix("torch.")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if name == "sparse_coo":
                torch._validate_sparse_coo_tensor_args(
                    tcall(t, "_indices"), tcall(t, "_values"), tuple(tget(t, "shape")), tcall(t, "is_coalesced"))
            elif name in _COMPRESSED:
                compressed, plain = _COMPRESSED[name]
                torch._validate_sparse_compressed_tensor_args(
                    tcall(t, compressed), tcall(t, plain), tcall(t, "values"), tuple(tget(t, "shape")), layout)
    except RuntimeError:
        return invalid_sparse_text()
    return None


def check_sparse(t: Any) -> None:
    """Raise ``ValueError`` with the sentence of :func:`sparse_problem` for an invalid sparse tensor."""
    problem = sparse_problem(t)
    if problem is not None:
        raise ValueError(problem)
