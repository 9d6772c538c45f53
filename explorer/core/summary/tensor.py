"""VAR records for torch tensors and parameters, from metadata only.

A plain strided tensor goes through :func:`_fast_var`, one straight run of cheap
attribute reads with no per-field error handling (about 4 us). Anything exotic
(sparse, meta, nested, subclasses) or any tensor on which the fast run raises is
summarised again by :func:`_safe_var`, where every field is read on its own so
that one failing field becomes null with a note instead of a failing snapshot.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from explorer.core.i18n import _, ngettext
from explorer.core.summary.fields import add_note, blank_var, error_text
from explorer.core.summary.format import tensor_preview
from explorer.core.summary.sparse import sparse_problem
from explorer.core.summary.static import PRISTINE_BUILTINS, has_python_dispatch, tcall, tget

globals()["__builtins__"] = PRISTINE_BUILTINS

PREVIEW_MAX_NUMEL = 16

# dtype/device/layout objects are few and hashable; str() of a device costs ~1 us.
_TEXT_CACHE: dict[Any, str] = {}


def _text(obj: Any) -> str:
    """``str`` of a dtype/device, memoised."""
    text = _TEXT_CACHE.get(obj)
    if text is None:
        text = str(obj)
        if len(_TEXT_CACHE) < 512:
            _TEXT_CACHE[obj] = text
    return text


def _layout_text(layout: Any) -> str:
    """``torch.sparse_coo`` -> ``sparse_coo``."""
    return _text(layout).removeprefix("torch.")


def grad_summary(grad: Any) -> dict[str, Any]:
    """The ``grad`` field: shape, dtype and (for at most 16 elements on CPU) a value preview."""
    numel = tcall(grad, "numel")
    small = numel <= PREVIEW_MAX_NUMEL and tget(grad, "is_cpu")
    return {
        "shape": [int(d) for d in tget(grad, "shape")],
        "dtype": _text(tget(grad, "dtype")),
        "preview": tensor_preview(grad) if small else None,
    }


def tensor_var(name: str, t: Any, torch: Any) -> dict[str, Any]:
    """Summarise a tensor; never raises (fields that cannot be read become null with a note)."""
    cls = type(t)
    plain = _PLAIN.get(torch) or _plain_classes(torch)
    if cls is plain[0] or cls is plain[1]:
        try:
            is_cpu = t.is_cpu
            if t.layout is plain[2] and not t.is_nested and (is_cpu or not t.is_meta):
                return _fast_var(name, t, cls, is_cpu, cls is plain[1])
        except Exception:  # e.g. a functorch wrapper without storage: redo field by field  # noqa: BLE001
            pass
    return _safe_var(name, t, torch)


# torch module -> (Tensor, Parameter, strided): three attribute lookups saved per tensor.
_PLAIN: dict[Any, tuple[type, type, Any]] = {}


def _plain_classes(torch: Any) -> tuple[type, type, Any]:
    found = _PLAIN[torch] = (torch.Tensor, torch.nn.Parameter, torch.strided)
    return found


# (class, dtype, device or None for the CPU, shape, strides) -> the fields those decide.
# Thousands of variables share a handful of layouts, so most tensors copy a template
# and read only what is their own (addresses, autograd state). The templates' lists
# are shared between VARs: VARs are read-only records.
_TEMPLATES: dict[tuple, dict[str, Any]] = {}
_TEMPLATE_LIMIT = 4096


def _fast_var(name: str, t: Any, cls: type, is_cpu: bool, is_param: bool) -> dict[str, Any]:
    """Every field of an ordinary strided tensor in one pass (raises on anything unusual)."""
    key = (cls, t.dtype, None if is_cpu else t.device, t.shape, t.stride())
    template = _TEMPLATES.get(key) or _template(t, key, is_param)
    var = template.copy()
    offset = t.storage_offset()
    ptr = t.data_ptr()
    storage = t.untyped_storage()
    var["name"] = name
    var["storage_offset"] = offset
    var["data_ptr"] = ptr
    # Element 0 is offset elements into the storage (an empty tensor reports address 0: ask the storage).
    var["storage"] = {"data_ptr": ptr - offset * template["itemsize"] if ptr else storage.data_ptr(),
                      "nbytes": storage.nbytes()}
    var["is_view"] = t._is_view()
    var["overlaps"] = []
    if t.requires_grad:
        is_leaf = var["is_leaf"] = t.is_leaf
        retains = var["retains_grad"] = t.retains_grad
        grad_fn = t.grad_fn
        var["requires_grad"] = True
        var["grad_fn"] = None if grad_fn is None else type(grad_fn).__name__
        # Reading .grad of a non-leaf that does not retain it only produces a warning.
        grad = t.grad if (is_leaf or retains) else None
    else:
        # Without requires_grad a tensor is a leaf with no grad_fn and cannot retain grad,
        # but a .grad assigned earlier survives requires_grad_(False).
        grad = t.grad
    if grad is not None:
        var["grad"] = grad_summary(grad)
    if var["numel"] <= PREVIEW_MAX_NUMEL and is_cpu:
        var["preview"] = tensor_preview(t)
    return var


def _template(t: Any, key: tuple, is_param: bool) -> dict[str, Any]:
    """The fields of :func:`_fast_var` that the template key decides, read from *t* once."""
    cls, dtype, device, shape, strides = key
    item = t.itemsize
    numel = t.numel()
    var = blank_var("", "parameter" if is_param else "tensor", cls.__name__)
    var.update({
        "shape": list(shape), "dtype": _text(dtype), "device": "cpu" if device is None else _text(device),
        "strides": list(strides), "byte_strides": [s * item for s in strides],
        "itemsize": item, "numel": numel, "nbytes": numel * item, "is_contiguous": t.is_contiguous(),
        "requires_grad": False, "is_leaf": True, "retains_grad": False, "is_parameter": is_param,
        "layout": "strided",
    })
    if len(_TEMPLATES) >= _TEMPLATE_LIMIT:
        _TEMPLATES.clear()  # a session of ever-new shapes: start over rather than grow
    _TEMPLATES[key] = var
    return var


# -- the careful path: one step per group of fields ---------------------------

def _safe_var(name: str, t: Any, torch: Any) -> dict[str, Any]:
    """Summarise any tensor, reading each group of fields under its own guard."""
    cls = type(t)
    is_param = issubclass(cls, torch.nn.Parameter)
    var = blank_var(name, "parameter" if is_param else "tensor", cls.__name__)
    var["overlaps"] = []
    var["is_parameter"] = is_param
    state: dict[str, Any] = {"lazy": _is_lazy(cls, torch)}
    if state["lazy"]:
        add_note(var, _("uninitialized (lazy) parameter: no shape or data until the first forward call"))
    for field, step in _STEPS:
        try:
            step(t, var, torch, state)
        except Exception as exc:  # noqa: BLE001 - one bad field must not sink the VAR
            add_note(var, error_text(field, exc))
    return var


def _is_lazy(cls: type, torch: Any) -> bool:
    """True for nn.LazyLinear & co.'s placeholders, which raise on almost every read."""
    try:
        return issubclass(cls, torch.nn.parameter.UninitializedTensorMixin)
    except Exception:  # the mixin is not public API  # noqa: BLE001
        return False


def _step_layout(t: Any, var: dict[str, Any], torch: Any, state: dict[str, Any]) -> None:
    layout = tget(t, "layout")
    state["strided"] = layout is torch.strided
    var["layout"] = _layout_text(layout)
    state["nested"] = bool(tget(t, "is_nested"))


def _step_shape(t: Any, var: dict[str, Any], torch: Any, state: dict[str, Any]) -> None:
    if state["lazy"]:
        return
    if state.get("nested"):
        add_note(var, _("nested tensor: its parts have different shapes, so there is no single shape"))
    else:
        var["shape"] = [int(d) for d in tget(t, "shape")]
    numel = int(tcall(t, "numel"))
    var["numel"] = numel
    state["numel"] = numel


def _step_dtype(t: Any, var: dict[str, Any], torch: Any, state: dict[str, Any]) -> None:
    dtype = tget(t, "dtype")
    var["dtype"] = _text(dtype)
    var["itemsize"] = int(dtype.itemsize)


def _step_device(t: Any, var: dict[str, Any], torch: Any, state: dict[str, Any]) -> None:
    device = tget(t, "device")
    var["device"] = _text(device)
    state["device_type"] = device.type


def _step_strides(t: Any, var: dict[str, Any], torch: Any, state: dict[str, Any]) -> None:
    if state["lazy"] or "strided" not in state:
        return  # already explained by the lazy note or the failed layout read
    if state.get("nested") or not state["strided"]:
        _note_no_strides(t, var, state)
        return
    strides = [int(s) for s in tcall(t, "stride")]
    var["strides"] = strides
    item = var["itemsize"]
    var["byte_strides"] = None if item is None else [s * item for s in strides]
    var["storage_offset"] = int(tcall(t, "storage_offset"))
    var["is_contiguous"] = bool(tcall(t, "is_contiguous"))


def _note_no_strides(t: Any, var: dict[str, Any], state: dict[str, Any]) -> None:
    """Say why strides are null; for sparse tensors mention how many values are stored."""
    if state.get("nested"):
        add_note(var, _("nested tensor: no strides"))
        return
    layout = var["layout"] or "non-strided"
    stored = None
    if str(layout).startswith("sparse"):
        try:
            stored = int(tcall(t, "_nnz"))
        except Exception:  # _nnz is private and layout-specific  # noqa: BLE001
            stored = None
    if stored is None:
        add_note(var, _("{layout} tensor: no strides").format(layout=layout))
    else:
        add_note(var, ngettext("{layout} tensor: no strides (stores {n} non-zero value)",
                               "{layout} tensor: no strides (stores {n} non-zero values)", stored)
                 .format(layout=layout, n=stored))


def _step_memory(t: Any, var: dict[str, Any], torch: Any, state: dict[str, Any]) -> None:
    if state["lazy"]:
        var["data_ptr"] = 0
        return
    if state.get("device_type") == "meta":
        var["data_ptr"] = 0
        add_note(var, _("meta tensor: shape and dtype only, no data or storage"))
        return
    try:
        var["data_ptr"] = int(tcall(t, "data_ptr"))
    except Exception as exc:  # noqa: BLE001
        var["data_ptr"] = 0
        add_note(var, _no_storage_reason(t, exc, torch))
        return
    storage = tcall(t, "untyped_storage")
    var["storage"] = {"data_ptr": int(storage.data_ptr()), "nbytes": int(storage.nbytes())}


def _no_storage_reason(t: Any, exc: BaseException, torch: Any) -> str:
    """Why a tensor has no data pointer, in words a learner can use."""
    try:
        if torch._C._functorch.is_functorch_wrapped_tensor(t):
            return _("functorch-wrapped tensor (leaked from vmap/grad): no storage of its own")
    except Exception:  # private API; fall back to the raw error text  # noqa: BLE001
        pass
    layout = str(tget(t, "layout"))
    if "sparse" in layout:
        return _("{layout} tensor: no single storage").format(layout=layout.removeprefix("torch."))
    return error_text("storage", exc)


def _step_nbytes(t: Any, var: dict[str, Any], torch: Any, state: dict[str, Any]) -> None:
    # A sparse tensor's "nbytes" would be its dense size (or raise): not memory it uses.
    if not state["lazy"] and not str(var["layout"]).startswith("sparse"):
        var["nbytes"] = int(tget(t, "nbytes"))


def _step_autograd(t: Any, var: dict[str, Any], torch: Any, state: dict[str, Any]) -> None:
    var["requires_grad"] = bool(tget(t, "requires_grad"))
    is_leaf = bool(tget(t, "is_leaf"))
    var["is_leaf"] = is_leaf
    retains = bool(tget(t, "retains_grad"))
    var["retains_grad"] = retains
    grad_fn = tget(t, "grad_fn")
    var["grad_fn"] = None if grad_fn is None else type(grad_fn).__name__
    if is_leaf or retains:
        grad = tget(t, "grad")
        var["grad"] = None if grad is None else grad_summary(grad)


def _step_view(t: Any, var: dict[str, Any], torch: Any, state: dict[str, Any]) -> None:
    if not state["lazy"]:
        var["is_view"] = bool(tcall(t, "_is_view"))


def _step_preview(t: Any, var: dict[str, Any], torch: Any, state: dict[str, Any]) -> None:
    if not state.get("strided", True):
        problem = sparse_problem(t)  # the values of a sparse tensor are never previewed; say if they are unsafe
        if problem is not None:
            add_note(var, problem)
        return
    numel = state.get("numel")
    if numel is not None and numel <= PREVIEW_MAX_NUMEL and state.get("device_type") == "cpu" \
            and not has_python_dispatch(t):  # tolist() on such a subclass runs its __torch_dispatch__
        var["preview"] = tensor_preview(t)


_Step = Callable[[Any, dict, Any, dict], None]
_STEPS: tuple[tuple[str, _Step], ...] = (
    ("layout", _step_layout),
    ("shape/numel", _step_shape),
    ("dtype/itemsize", _step_dtype),
    ("device", _step_device),
    ("strides", _step_strides),
    ("storage", _step_memory),
    ("nbytes", _step_nbytes),
    ("autograd", _step_autograd),
    ("is_view", _step_view),
    ("preview", _step_preview),
)
