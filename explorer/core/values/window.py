"""A small window of a tensor's or array's values, for the values slicer.

Only the requested rows and columns are ever read: the window is taken as a
view first and converted afterwards, so a 100M-element tensor (or a CUDA or
``requires_grad`` one) costs no more than the few hundred cells on screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from explorer.core.i18n import N_, _, ngettext
from explorer.core.summary.sparse import check_sparse

#: Hard caps on one window, so a hostile request cannot make the kernel build a huge reply.
MAX_ROWS = 1000
MAX_COLS = 1000
MAX_CELLS = 100_000
#: Sparse tensors are windowed through COO ops whose cost grows with the stored values.
MAX_SPARSE_NNZ = 20_000_000
_TEXT_LIMIT = 80


@dataclass
class _Layout:
    """Which dims are shown, the fixed index of the others, and the clamped window."""

    row_dim: int | None
    col_dim: int | None
    index: list[int | None]
    total_rows: int
    total_cols: int
    row0: int = 0
    col0: int = 0
    row1: int = 0
    col1: int = 0


def value_window(
    value: Any,
    *,
    row_dim: int | None = None,
    col_dim: int | None = None,
    index: list[int] | None = None,
    row0: int = 0,
    col0: int = 0,
    nrows: int = 40,
    ncols: int = 20,
    binary: bool = False,
) -> dict:
    """Return one 2-d window of *value*'s elements as JSON-able cells.

    Parameters
    ----------
    value : torch.Tensor or numpy.ndarray
        Any rank. 0-d shows one cell; 1-d shows a column (or a row when only
        ``col_dim=0`` is given); n-d shows two dims at a fixed index of the others.
    row_dim, col_dim : int, optional
        The displayed dims (negative allowed). Invalid or equal dims fall back
        to the last two dims.
    index : list of int, optional
        Index of every dim; entries at the displayed dims are ignored. Missing or
        out-of-range entries are clamped.
    row0, col0, nrows, ncols : int
        The window, clamped to the data and to ``MAX_ROWS``/``MAX_COLS``/``MAX_CELLS``.
    binary : bool, default False
        True: numeric cells come as ``block`` (bytes of ``block_dtype``, shape
        ``block_shape``) and ``rows`` is None; text cells always come as ``rows``.

    Returns
    -------
    dict
        ``shape, dtype, row_dim, col_dim, index, row0, col0, rows, row_labels,
        col_labels, total_rows, total_cols, positions, min, max, kind``.
        Non-finite floats are the strings ``"nan"``, ``"inf"``, ``"-inf"``.

    Raises
    ------
    ValueError
        For values without readable data (meta tensors, huge sparse tensors,
        nested tensors) or objects that are not tensors/arrays; the message is
        one sentence meant for the user.
    """
    torch = _torch_if_tensor(value)
    if torch is None:
        value = _as_array(value)
    elif getattr(value, "is_nested", False):  # before .shape, which a nested tensor cannot give
        raise ValueError(_(_NESTED))
    shape = [int(s) for s in value.shape]
    lay = _layout(shape, row_dim, col_dim, index)
    _clamp_window(lay, row0, col0, nrows, ncols)
    if torch is not None:
        win, positions = _torch_window(torch, value, lay)
    else:
        win, positions = _numpy_window(value, lay)
    rows, kind, lo, hi = _cells(win)
    block = _binary_block(win, kind) if binary else None
    return {
        "shape": shape,
        "dtype": str(value.dtype),
        "row_dim": lay.row_dim,
        "col_dim": lay.col_dim,
        "index": lay.index,
        "row0": lay.row0,
        "col0": lay.col0,
        "rows": None if block is not None else rows,
        "block": None if block is None else block.tobytes(),
        "block_dtype": None if block is None else block.dtype.str,
        "block_shape": [int(win.shape[0]), int(win.shape[1])] if win.ndim == 2 else [len(rows), len(rows[0]) if rows else 0],
        "row_labels": _labels(lay.row_dim, lay.row0, lay.row1),
        "col_labels": _labels(lay.col_dim, lay.col0, lay.col1),
        "total_rows": lay.total_rows,
        "total_cols": lay.total_cols,
        "positions": positions,
        "min": lo,
        "max": hi,
        "kind": kind,
    }


_NESTED = N_("Nested tensors have rows of different lengths; the values table cannot show them.")


# -- layout ---------------------------------------------------------------------
def _torch_if_tensor(value: Any) -> Any:
    """The torch module when *value* is a tensor (torch is only imported if already loaded)."""
    import sys

    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        return torch
    return None


def _as_array(value: Any) -> np.ndarray:
    """View *value* as an ndarray without copying; refuse things that are not arrays."""
    if isinstance(value, (np.ndarray, np.generic)):
        return np.asarray(value)  # drops np.matrix's "always 2-d" indexing
    raise ValueError(_("A value of type {type} is not a tensor or an array, so it has no values table.").format(
        type=type(value).__name__))


def _norm_dim(dim: Any, ndim: int) -> int | None:
    """A valid non-negative dim, or None for missing/invalid input."""
    if isinstance(dim, bool) or not isinstance(dim, int):
        return None
    if -ndim <= dim < ndim:
        return dim % ndim
    return None


def _pick_dims(ndim: int, row_dim: Any, col_dim: Any) -> tuple[int | None, int | None]:
    """Choose the displayed dims: the requested ones when valid, else the last two."""
    r, c = _norm_dim(row_dim, ndim), _norm_dim(col_dim, ndim)
    if ndim == 0:
        return None, None
    if ndim == 1:
        # A 1-d value is a column unless the caller asked for it as a row.
        return (None, 0) if (c == 0 and r is None) else (0, None)
    if r is not None and r == c:
        c = None
    if r is None:
        r = next(d for d in (ndim - 2, ndim - 1, 0) if d != c)
    if c is None:
        c = next(d for d in (ndim - 1, ndim - 2) if d != r)
    return r, c


def _layout(shape: list[int], row_dim: Any, col_dim: Any, index: Any) -> _Layout:
    """Normalize dims and the fixed index; a fixed dim of size 0 leaves nothing to show."""
    ndim = len(shape)
    r, c = _pick_dims(ndim, row_dim, col_dim)
    given = list(index) if isinstance(index, (list, tuple)) else []
    full: list[int | None] = []
    empty = False
    for d, size in enumerate(shape):
        if d in (r, c):
            full.append(None)
            continue
        raw = given[d] if d < len(given) else 0
        i = raw if isinstance(raw, int) and not isinstance(raw, bool) else 0
        if i < 0:
            i += size  # Python-style negative index
        full.append(min(max(i, 0), max(size - 1, 0)))
        empty = empty or size == 0
    total_rows = 0 if empty else (shape[r] if r is not None else 1)
    total_cols = 0 if empty else (shape[c] if c is not None else 1)
    return _Layout(r, c, full, total_rows, total_cols)


def _clamp_int(x: Any, lo: int, hi: int) -> int:
    """Clamp an untrusted number into [lo, hi]."""
    x = x if isinstance(x, int) and not isinstance(x, bool) else lo
    return min(max(x, lo), hi)


def _clamp_window(lay: _Layout, row0: Any, col0: Any, nrows: Any, ncols: Any) -> None:
    """Clamp the requested window into the data and the size caps."""
    nr = _clamp_int(nrows, 0, MAX_ROWS)
    nc = _clamp_int(ncols, 0, MAX_COLS)
    if nr * nc > MAX_CELLS:
        nr = max(1, MAX_CELLS // max(nc, 1))
    lay.row0 = _clamp_int(row0, 0, max(lay.total_rows - 1, 0))
    lay.col0 = _clamp_int(col0, 0, max(lay.total_cols - 1, 0))
    lay.row1 = min(lay.total_rows, lay.row0 + nr)
    lay.col1 = min(lay.total_cols, lay.col0 + nc)


def _key(lay: _Layout) -> tuple:
    """The indexing tuple that selects the window as a view."""
    key: list[Any] = []
    for d, i in enumerate(lay.index):
        if d == lay.row_dim:
            key.append(slice(lay.row0, lay.row1))
        elif d == lay.col_dim:
            key.append(slice(lay.col0, lay.col1))
        else:
            key.append(i)
    key.append(Ellipsis)  # keeps 0-d results arrays, not scalars
    return tuple(key)


def _to_2d(win: Any, lay: _Layout) -> Any:
    """Arrange the indexed view as (rows, cols) whatever the displayed dims' order."""
    nr, nc = lay.row1 - lay.row0, lay.col1 - lay.col0
    if lay.row_dim is not None and lay.col_dim is not None and lay.row_dim > lay.col_dim:
        win = win.T if isinstance(win, np.ndarray) else win.transpose(0, 1)
    return win.reshape(nr, nc)


def _labels(dim: int | None, start: int, stop: int) -> list[str]:
    """Header labels: the indices along a displayed dim, or one blank label."""
    return [str(i) for i in range(start, stop)] if dim is not None else [""]


def _positions(offset: int | None, strides: list[int] | None, lay: _Layout) -> list | None:
    """Storage position of each cell: ``offset + sum(i_k * stride_k)``."""
    if offset is None or strides is None:
        return None
    base = offset + sum(i * s for i, s in zip(lay.index, strides) if i is not None)
    sr = strides[lay.row_dim] if lay.row_dim is not None else 0
    sc = strides[lay.col_dim] if lay.col_dim is not None else 0
    # object dtype: Python ints, so huge offsets/strides cannot overflow int64
    rows = np.arange(lay.row0, lay.row1, dtype=object)[:, None] * sr
    cols = np.arange(lay.col0, lay.col1, dtype=object)[None, :] * sc
    return (rows + cols + base).tolist()


# -- torch ----------------------------------------------------------------------
def _torch_window(torch: Any, t: Any, lay: _Layout) -> tuple[np.ndarray, list | None]:
    """Slice first (a view), then detach/copy to CPU only the window."""
    if t.is_meta or t.device.type == "meta":
        raise ValueError(_("This is a meta tensor: it has a shape and dtype but no data to show."))
    if getattr(t, "is_nested", False):
        raise ValueError(_(_NESTED))
    if lay.row1 <= lay.row0 or lay.col1 <= lay.col0:
        return _torch_to_numpy(torch, torch.empty((0, 0), dtype=t.dtype)), []
    if t.layout != torch.strided:
        check_sparse(t)  # indices that do not fit the shape would make the reads below crash Python
        return _sparse_window(torch, t, lay), None
    win = _to_2d(t.detach()[_key(lay)], lay)
    positions = _positions(int(t.storage_offset()), [int(s) for s in t.stride()], lay)
    return _torch_to_numpy(torch, win.cpu()), positions


def _sparse_window(torch: Any, t: Any, lay: _Layout) -> np.ndarray:
    """Cut a sparse tensor down with select/narrow, then densify only the window."""
    nnz = int(t._nnz()) if t.layout == torch.sparse_coo else int(t.values().numel())
    if nnz > MAX_SPARSE_NNZ:
        raise ValueError(ngettext("This sparse tensor stores {n} value; cutting a window out of it would be too slow.",
                                  "This sparse tensor stores {n} values; cutting a window out of it would be too slow.",
                                  nnz).format(n=nnz))
    sub = t.detach().cpu()
    if sub.layout != torch.sparse_coo:
        sub = sub.to_sparse()
    # Walk dims from the last so earlier dim numbers stay valid after select().
    for d in reversed(range(sub.dim())):
        if d == lay.row_dim:
            sub = sub.narrow_copy(d, lay.row0, lay.row1 - lay.row0)
        elif d == lay.col_dim:
            sub = sub.narrow_copy(d, lay.col0, lay.col1 - lay.col0)
        else:
            sub = sub.select(d, lay.index[d])
    return _torch_to_numpy(torch, _to_2d(sub.to_dense(), lay))


def _torch_to_numpy(torch: Any, win: Any) -> np.ndarray:
    """Convert a small CPU window to a numpy dtype that displays faithfully."""
    if win.is_quantized:
        win = win.dequantize()
    win = win.resolve_conj().resolve_neg()  # .numpy() refuses lazy conj/neg views
    if win.is_complex():
        return win.to(torch.complex128).numpy()
    if win.is_floating_point():
        return win.to(torch.float64).numpy()  # bf16/fp16/fp8 have no numpy twin
    try:
        return win.numpy()
    except (TypeError, RuntimeError):
        return np.array(win.tolist(), dtype=object).reshape(tuple(win.shape))


# -- numpy ----------------------------------------------------------------------
def _numpy_window(a: np.ndarray, lay: _Layout) -> tuple[np.ndarray, list | None]:
    """Index the window as a view and compute element positions in its base buffer."""
    if lay.row1 <= lay.row0 or lay.col1 <= lay.col0:
        return np.empty((0, 0), dtype=a.dtype), []
    win = _to_2d(a[_key(lay)], lay)
    offset, strides = _numpy_layout(a)
    return win, _positions(offset, strides, lay)


def _numpy_layout(a: np.ndarray) -> tuple[int | None, list[int] | None]:
    """Element offset into the outermost base array and element strides (None if not whole)."""
    item = a.itemsize
    if item == 0 or any(s % item for s in a.strides):
        return None, None
    base = a
    while isinstance(base.base, np.ndarray):
        base = base.base
    start = np.lib.array_utils.byte_bounds(base)[0] if base is not a else None
    here = a.__array_interface__["data"][0]
    delta = 0 if start is None else here - start
    if delta % item:
        return None, None
    return delta // item, [s // item for s in a.strides]


# -- cells ----------------------------------------------------------------------
def value_block(value: Any, **window: Any) -> dict:
    """:func:`value_window` with numeric cells as one binary ``block`` (what the window's table reads)."""
    return value_window(value, binary=True, **window)


#: Window cells travel as these numpy dtypes (the GUI formats them; NaN/Inf stay numbers).
_BLOCK_DTYPES = {"float": np.float64, "int": np.int64, "bool": np.bool_, "complex": np.complex128}


def _binary_block(win: np.ndarray, kind: str) -> np.ndarray | None:
    """The window as a C-contiguous array the GUI decodes with ``np.frombuffer``, or None for text cells."""
    target = _BLOCK_DTYPES.get(kind)
    if target is None or win.ndim != 2 or (win.dtype.kind == "O"):
        return None
    if kind == "int" and win.dtype.kind == "u" and win.dtype.itemsize == 8:
        return None  # uint64 above 2**63 does not fit int64: keep the exact numbers as cells
    return np.ascontiguousarray(win.astype(target, copy=False))


def _cells(win: np.ndarray) -> tuple[list, str, Any, Any]:
    """JSON-able cells, the value kind and the finite min/max of the window."""
    k = win.dtype.kind
    if k == "f":
        return _float_cells(win.astype(np.float64, copy=False))
    if k in "iu":
        lo, hi = (int(win.min()), int(win.max())) if win.size else (None, None)
        return win.tolist(), "int", lo, hi
    if k == "b":
        lo, hi = (int(win.min()), int(win.max())) if win.size else (None, None)
        return win.tolist(), "bool", lo, hi
    if k == "c":
        return [[_complex_text(z) for z in row] for row in win.tolist()], "complex", None, None
    if k == "O" and win.size and all(isinstance(x, int) for x in win.flat):
        return win.tolist(), "int", min(win.flat), max(win.flat)  # e.g. uint64 via tolist
    return [[_safe_text(x) for x in row] for row in win.tolist()], "other", None, None


def _float_cells(win: np.ndarray) -> tuple[list, str, Any, Any]:
    """Floats as numbers; NaN/Inf as the strings ``nan``/``inf``/``-inf``."""
    rows = win.tolist()
    finite = np.isfinite(win)
    if not finite.all():
        for r, c in zip(*np.nonzero(~finite)):
            rows[r][c] = _nonfinite_text(float(win[r, c]))
    vals = win[finite]
    if vals.size == 0:
        return rows, "float", None, None
    return rows, "float", float(vals.min()), float(vals.max())


def _nonfinite_text(x: float) -> str:
    """The agreed spelling of a non-finite float."""
    if x != x:
        return "nan"
    return "inf" if x > 0 else "-inf"


def _complex_text(z: complex) -> str:
    """Short text such as ``1.5-2j`` (6 significant digits per part)."""
    return f"{z.real:.6g}{z.imag:+.6g}j"


def _safe_text(x: Any) -> str:
    """``str(x)`` clipped to a table cell; a failing ``__str__`` never breaks the window."""
    try:
        text = str(x)
    except Exception as exc:  # user objects may raise anything  # noqa: BLE001
        # TRANSLATORS: a table cell whose value could not be turned into text; {error} is an exception's name.
        text = _("<{type}: str() failed: {error}>").format(type=type(x).__name__, error=type(exc).__name__)
    return text if len(text) <= _TEXT_LIMIT else text[: _TEXT_LIMIT - 1] + "…"
