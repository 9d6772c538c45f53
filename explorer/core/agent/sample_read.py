"""What one watched value is, read from the sampling thread while the user's code runs.

The rules of every inspection hold (docs/architecture.md, "Inspection never runs user code"),
with one difference: the main thread is running the user's code, so the process-wide guard
(:class:`~explorer.core.summary.guard.inspecting`, which puts the builtins back) must not be
used here; this module calls only the builtins copied at start (``PRISTINE_BUILTINS``), and
torch-function dispatch is switched off for this thread only (torch keeps that flag per thread).

* ``None`` is null (``w.grad`` before the first backward()); a number (``int``, ``float``, ``bool``,
  a NumPy scalar) is itself; a non-finite float is the
  string ``"nan"``, ``"inf"`` or ``"-inf"`` (JSON has no such numbers).
* A tensor or array is its facts (:func:`tensor_facts`). A local reference to it is held for
  the whole read, so its storage cannot be freed by the loop rebinding the name. The loop may be
  writing it meanwhile: the statistics may mix old and new elements (a *torn* value); that is
  accepted and documented.
* Anything else, and any tensor whose reading would run its class's code (``__torch_dispatch__``),
  is skipped with one sentence; so are sparse, nested and quantized tensors, and a tensor whose
  storage is smaller than its shape and strides need (it is being resized).
"""

from __future__ import annotations

import math
from typing import Any

from explorer.core.i18n import _
from explorer.core.summary.static import PRISTINE_BUILTINS, has_python_dispatch, is_sub, library, tcall, tget

globals()["__builtins__"] = PRISTINE_BUILTINS

_NUMBERS = (int, float, bool)
#: Bins of a watched histogram (``Watch.histograms``), between the finite values' min and max.
HIST_BINS = 24


class Unreadable(ValueError):
    """A watched value that cannot be read safely now; the text says why, in one sentence."""


def number(value: float) -> float | str:
    """*value* for JSON: a non-finite float as ``"nan"``, ``"inf"`` or ``"-inf"``."""
    if math.isfinite(value):
        return value
    return "nan" if value != value else ("inf" if value > 0 else "-inf")


def _finite_or_none(value: float) -> float | None:
    return value if math.isfinite(value) else None


def read_value(value: Any, histogram: bool = False) -> Any:
    """A number, or a tensor's or array's facts (with *histogram*, ``hist`` too); :class:`Unreadable` for what
    cannot be read safely."""
    cls = type(value)
    if value is None:  # a gradient not computed yet, an optional not set: null
        return None
    if cls in _NUMBERS:
        return number(float(value)) if cls is float else value
    numpy, torch = library("numpy"), library("torch")
    if numpy is not None and is_sub(value, numpy.generic):
        if is_sub(value, (numpy.floating, numpy.integer, numpy.bool_)):
            return number(float(value.item())) if is_sub(value, numpy.floating) else value.item()
        raise Unreadable(_("a NumPy value of type {dtype} is not a number").format(dtype=str(value.dtype)))
    if torch is not None and is_sub(value, torch.Tensor):
        return tensor_facts(torch, value, histogram)
    if numpy is not None and is_sub(value, numpy.ndarray):
        return array_facts(numpy, numpy.ndarray.view(value, numpy.ndarray), histogram)
    raise Unreadable(_("a {type} is neither a number nor a tensor").format(type=cls.__name__))


def _empty_facts(shape: list[int], dtype: str, device: str, numel: int, requires_grad: bool) -> dict[str, Any]:
    return {"shape": shape, "dtype": dtype, "device": device, "numel": numel, "requires_grad": requires_grad,
            "value": None, "norm": None, "min": None, "max": None, "mean": None, "nan": None, "inf": None,
            "grad_norm": None, "note": None, "hist": None}


def tensor_facts(torch: Any, t: Any, histogram: bool = False) -> dict[str, Any]:
    """Shape, dtype, device, norm, min/max/mean, NaN/Inf counts and the gradient's norm of a tensor."""
    disable = torch._C.DisableTorchFunction  # thread-local: the loop's own torch functions are untouched
    with disable(), torch.no_grad():
        if is_sub(t, torch.Tensor) and type(t) is not torch.Tensor and type(t) is not torch.nn.Parameter:
            if has_python_dispatch(t):
                raise Unreadable(_("reading this tensor would run the code of its class"))
            t = tcall(t, "detach")
        shape = [int(n) for n in tget(t, "shape")]
        facts = _empty_facts(shape, str(tget(t, "dtype")), str(tget(t, "device")), int(tcall(t, "numel")),
                             bool(tget(t, "requires_grad")))
        layout = tget(t, "layout")
        if layout != torch.strided:
            raise Unreadable(_("a sparse tensor is not sampled (its parts may be changing)"))
        if tget(t, "is_nested") or tget(t, "is_quantized"):
            raise Unreadable(_("nested and quantized tensors are not sampled"))
        if tget(t, "is_meta"):
            facts["note"] = _("a meta tensor has no values")
            return facts
        _check_storage(t, shape)
        data = tcall(t, "detach")  # an alias without autograd (same storage), held for the whole read
        _statistics(torch, data, facts, histogram)
        # A non-leaf's .grad is always None and reading it warns on the user's console: read leaves only.
        grad = tget(t, "grad") if tget(t, "is_leaf") or tget(t, "retains_grad") else None
        if grad is not None and is_sub(grad, torch.Tensor) and tget(grad, "layout") == torch.strided:
            grad_data = tcall(grad, "detach")
            _check_storage(grad_data, [int(n) for n in tget(grad_data, "shape")])
            facts["grad_norm"] = _finite_or_none(_norm(torch, grad_data))
    return facts


def _check_storage(t: Any, shape: list[int]) -> None:
    """:class:`Unreadable` when the storage is smaller than the elements the shape and strides reach."""
    if 0 in shape:
        return
    strides = tcall(t, "stride")
    last = tcall(t, "storage_offset") + sum((n - 1) * abs(s) for n, s in zip(shape, strides))
    needed = (last + 1) * tcall(t, "element_size")
    if tcall(t, "untyped_storage").nbytes() < needed:
        raise Unreadable(_("its storage is being resized"))


def _host_array(torch: Any, data: Any) -> Any:
    """A NumPy view of a CPU tensor's elements (no copy), or None when NumPy cannot hold its dtype.

    NumPy's reductions run on this thread alone, without the intra-op thread pool the loop's
    own torch calls use, so a sample competes with the loop for at most one core.
    """
    if tget(data, "device").type != "cpu" or tcall(data, "is_conj") or tcall(data, "is_neg"):
        return None
    if tget(data, "dtype") in (torch.bfloat16, torch.complex32) or tget(data, "dtype").is_complex:
        return None
    try:
        return tcall(data, "numpy")
    except (TypeError, RuntimeError):
        return None


def _statistics(torch: Any, data: Any, facts: dict[str, Any], histogram: bool = False) -> None:
    """Fill value, norm, min, max, mean, nan and inf of *data* (a detached alias), and ``hist`` with *histogram*."""
    n = facts["numel"]
    if n == 0:
        facts["nan"] = facts["inf"] = 0
        return
    array = _host_array(torch, data)
    if array is not None:
        _array_statistics(array, facts, histogram)
        return
    if tget(data, "dtype").is_complex:
        data = torch.abs(data)
    if not (tget(data, "dtype").is_floating_point):
        data = tcall(data, "double")
    total = float(torch.sum(data))
    if math.isfinite(total):
        nan = inf = 0
        finite = data
    else:
        nan, inf = int(torch.isnan(data).sum()), int(torch.isinf(data).sum())
        finite = data[torch.isfinite(data)] if nan + inf else data
    facts["nan"], facts["inf"] = nan, inf
    count = int(tcall(finite, "numel"))
    if n == 1:
        facts["value"] = number(float(tcall(data.reshape(-1)[0], "item")))
    if count:
        low, high = torch.aminmax(finite)
        facts["min"], facts["max"] = _finite_or_none(float(low)), _finite_or_none(float(high))
        facts["mean"] = _finite_or_none(float(torch.sum(finite)) / count if nan + inf else total / count)
        facts["norm"] = _finite_or_none(_norm(torch, finite))
        if histogram and n > 1 and facts["min"] is not None and facts["max"] is not None:
            lo, hi = _bin_range(facts["min"], facts["max"])
            counts = torch.histc(tcall(finite, "double"), bins=HIST_BINS, min=lo, max=hi)
            facts["hist"] = {"lo": lo, "hi": hi, "counts": [int(c) for c in tcall(counts, "tolist")]}


def _array_statistics(array: Any, facts: dict[str, Any], histogram: bool = False) -> None:
    """The same facts from a NumPy view: three passes (sum, min/max, the sum of squares), a fourth for ``hist``."""
    numpy = library("numpy")
    if array.dtype.kind == "b":
        array = array.view(numpy.uint8)
    flat = array.reshape(-1) if array.flags.c_contiguous else array
    if array.dtype.kind in "iu":  # exact and overflow-free: int64 sums
        total = float(numpy.add.reduce(flat, axis=None, dtype=numpy.float64))
        squares = float(numpy.einsum("i,i->", flat.reshape(-1).astype(numpy.float64), flat.reshape(-1).astype(numpy.float64)))
        finite, nan, inf = flat, 0, 0
    else:
        total = float(numpy.add.reduce(flat, axis=None, dtype=numpy.float64))
        if math.isfinite(total):
            finite, nan, inf = flat, 0, 0
        else:
            nan, inf = int(numpy.isnan(flat).sum()), int(numpy.isinf(flat).sum())
            finite = flat[numpy.isfinite(flat)] if nan + inf else flat
            total = float(numpy.add.reduce(finite, axis=None, dtype=numpy.float64))
        line = finite.reshape(-1)
        squares = float(numpy.einsum("i,i->", line, line, dtype=numpy.float64))
    facts["nan"], facts["inf"] = nan, inf
    if facts["numel"] == 1:
        facts["value"] = number(float(array.reshape(-1)[0]))
    count = int(finite.size)
    if count:
        facts["min"] = _finite_or_none(float(numpy.minimum.reduce(finite, axis=None)))
        facts["max"] = _finite_or_none(float(numpy.maximum.reduce(finite, axis=None)))
        facts["mean"] = _finite_or_none(total / count)
        facts["norm"] = _finite_or_none(math.sqrt(squares)) if squares >= 0 else None
        if histogram and facts["numel"] > 1 and facts["min"] is not None and facts["max"] is not None:
            lo, hi = _bin_range(facts["min"], facts["max"])
            counts = numpy.histogram(finite, bins=HIST_BINS, range=(lo, hi))[0]
            facts["hist"] = {"lo": lo, "hi": hi, "counts": [int(c) for c in counts.tolist()]}


def _bin_range(low: float, high: float) -> tuple[float, float]:
    """The histogram's range: the finite values' own, widened by one half when they are all equal."""
    return (low, high) if high > low else (low - 0.5, high + 0.5)


def _norm(torch: Any, data: Any) -> float:
    array = _host_array(torch, data)
    if array is not None and array.dtype.kind == "f":
        line = array.reshape(-1)
        return math.sqrt(float(library("numpy").einsum("i,i->", line, line, dtype="float64")))
    if not tget(data, "dtype").is_floating_point:
        data = tcall(data, "double")
    return float(torch.linalg.vector_norm(data))


def array_facts(numpy: Any, array: Any, histogram: bool = False) -> dict[str, Any]:
    """The facts of a NumPy array (device "cpu", no gradient)."""
    if array.dtype.kind not in "biuf":
        raise Unreadable(_("an array of {dtype} holds no numbers to sample").format(dtype=str(array.dtype)))
    facts = _empty_facts([int(n) for n in array.shape], str(array.dtype), "cpu", int(array.size), False)
    if array.size == 0:
        facts["nan"] = facts["inf"] = 0
        return facts
    _array_statistics(array, facts, histogram)
    return facts
