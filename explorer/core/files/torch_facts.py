"""Tensors described, not built: the rebuild functions of ``torch.save`` read as facts.

Each ``rebuild_*`` here takes the arguments the pickle passes to the function of
the same name in ``torch/_utils.py`` and returns a :class:`TensorFacts` (dtype,
shape, the storage it lives in), after checking what torch would check later,
and what torch would *allocate* before checking: a quantized tensor is
allocated at its full size before it is pointed at its storage, so its size
must fit the storage too.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from explorer.core.files.pickle_machine import PickleDamaged

MAX_INDEX = 2**63 - 1  # torch's sizes, strides and offsets are int64
SPARSE_LAYOUTS = ("sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc")


class Misuse(Exception):
    """An allowed function called with arguments torch.save never writes."""


class TensorsDamaged(PickleDamaged):
    """A tensor's sizes, strides or offset do not fit the data it points at."""


class UnreadableByTorch(PickleDamaged):
    """Well-formed, but torch.load cannot read it (a dtype the legacy format has no storage class for)."""


@dataclass(eq=False)
class Global:
    """A function or class the pickle names and we know how to follow."""

    dotted: str


@dataclass(eq=False)
class TorchValue:
    """A torch object that is a plain value: a dtype, layout, device, qscheme, ``torch.Size`` or storage type."""

    kind: str
    dotted: str
    value: Any = None


@dataclass(eq=False)
class StorageRef:
    """A storage the pickle points at (its bytes are in the archive, under *key*)."""

    key: str
    dtype: str | None  # None for an untyped (byte) storage
    itemsize: int
    numel: int

    @property
    def nbytes(self) -> int:
        return self.numel * self.itemsize


@dataclass(eq=False)
class TensorFacts:
    """What a rebuilt tensor would be, read from the pickle: nothing is allocated."""

    dtype: str
    shape: tuple[int, ...]
    layout: str = "strided"  # or one of SPARSE_LAYOUTS, or "nested"
    storage: StorageRef | None = None  # None: meta tensors, and sparse/nested ones (see parts)
    offset: int = 0
    stride: tuple[int, ...] = ()
    parts: tuple[TensorFacts, ...] = ()  # sparse: indices..., values; nested: buffer, sizes, strides, offsets
    parameter: bool = False
    coalesced: bool | None = None

    @property
    def numel(self) -> int:
        if self.layout == "nested":
            return self.parts[0].numel
        count = 1
        for dim in self.shape:
            count *= dim
        return count

    @property
    def storages(self) -> list[StorageRef]:
        """Every storage that holds this tensor's data: a sparse one's indices and values, a nested one's buffer."""
        if self.layout == "nested":
            return self.parts[0].storages
        if self.parts:
            return [s for part in self.parts for s in part.storages]
        return [self.storage] if self.storage is not None else []


# -- argument checks --------------------------------------------------------------------
def args_of(args: Any, least: int, most: int) -> tuple[Any, ...]:
    """*args* as a tuple of exactly *most* items (missing optional ones are None)."""
    if not isinstance(args, tuple) or not least <= len(args) <= most:
        raise Misuse
    return args + (None,) * (most - len(args))


def index(value: Any) -> int:
    """A size, stride or offset: an int64 that is not negative."""
    if type(value) is not int:
        raise Misuse
    if not 0 <= value <= MAX_INDEX:
        raise TensorsDamaged("a size, stride or offset is negative or too large")
    return value


def indices(value: Any) -> tuple[int, ...]:
    """A shape or strides: a tuple, list or ``torch.Size`` of indices."""
    if isinstance(value, TorchValue) and value.kind == "Size":
        value = value.value
    if not isinstance(value, (tuple, list)) or len(value) > 64:
        raise Misuse
    for v in value:  # a loop, not index() per item: a checkpoint has tens of thousands of these
        if type(v) is not int:
            raise Misuse
        if not 0 <= v <= MAX_INDEX:
            raise TensorsDamaged("a size or stride is negative or too large")
    return tuple(value)


def shape_of(value: Any) -> tuple[int, ...]:
    """A tensor's sizes, whose product torch computes in 64 bits: an overflow on the way is damage, even before a 0."""
    shape = indices(value)
    product, overflowed = 1, False
    for n in shape:
        product *= n
        overflowed |= product >= 2**64
    if overflowed or product > MAX_INDEX:
        raise TensorsDamaged("a tensor has more elements than torch can count")
    return shape


def check(condition: bool) -> None:
    if not condition:
        raise Misuse


def plain_state(state: Any) -> None:
    """Attribute state torch sets with setattr: a dict (or a dict and slots pair) of plain, non-dunder names."""
    parts = state if isinstance(state, tuple) and len(state) == 2 else (state,)
    for part in parts:
        check(part is None or (isinstance(part, dict) and all(
            isinstance(k, str) and not k.startswith("__") for k in part)))


def _hooks_and_flags(requires_grad: Any, hooks: Any) -> None:
    """``requires_grad`` is a bool; the backward hooks a dict (hooks themselves are functions, refused earlier)."""
    check(isinstance(requires_grad, bool) and isinstance(hooks, dict))


# -- the rebuild functions ---------------------------------------------------------------
def strided(storage: Any, offset: Any, size: Any, stride: Any, dtype: Any = None) -> TensorFacts:
    """A view of *storage*; its last element must lie inside the storage (torch's ``set_`` would refuse it)."""
    check(isinstance(storage, StorageRef))
    shape, strides, start = shape_of(size), indices(stride), index(offset)
    if len(shape) != len(strides):
        raise TensorsDamaged("a tensor has a different number of sizes and strides")
    if dtype is None:
        check(storage.dtype is not None)
        name, itemsize = storage.dtype, storage.itemsize
    else:
        check(isinstance(dtype, TorchValue) and dtype.kind == "dtype")
        name, itemsize = dtype.value
    if all(shape) and (start + sum((n - 1) * s for n, s in zip(shape, strides)) + 1) * itemsize > storage.nbytes:
        raise TensorsDamaged("a tensor reaches past the end of its storage")
    return TensorFacts(str(name), shape, storage=storage, offset=start, stride=strides)


def rebuild_tensor(args: Any) -> TensorFacts:
    storage, offset, size, stride = args_of(args, 4, 4)
    return strided(storage, offset, size, stride)


def rebuild_tensor_v2(args: Any) -> TensorFacts:
    storage, offset, size, stride, requires_grad, hooks, metadata = args_of(args, 6, 7)
    _hooks_and_flags(requires_grad, hooks)
    check(metadata is None or (isinstance(metadata, dict) and all(isinstance(v, bool) for v in metadata.values())))
    return strided(storage, offset, size, stride)


def rebuild_tensor_v3(args: Any) -> TensorFacts:
    storage, offset, size, stride, requires_grad, hooks, dtype, metadata = args_of(args, 7, 8)
    _hooks_and_flags(requires_grad, hooks)
    check(metadata is None or isinstance(metadata, dict))
    return strided(storage, offset, size, stride, dtype)


def rebuild_parameter(args: Any) -> TensorFacts:
    data, requires_grad, hooks = args_of(args, 3, 3)
    check(isinstance(data, TensorFacts))
    _hooks_and_flags(requires_grad, hooks)
    return dataclasses.replace(data, parameter=True)


def rebuild_parameter_with_state(args: Any) -> TensorFacts:
    data, requires_grad, hooks, state = args_of(args, 4, 4)
    plain_state(state)
    return rebuild_parameter((data, requires_grad, hooks))


def rebuild_meta(args: Any) -> TensorFacts:
    """A meta tensor: a shape and a dtype, no data."""
    dtype, size, stride, requires_grad = args_of(args, 3, 4)
    check(isinstance(dtype, TorchValue) and dtype.kind == "dtype" and requires_grad in (None, True, False))
    shape = shape_of(size)
    check(len(indices(stride)) == len(shape))
    return TensorFacts(str(dtype.value[0]), shape)


def rebuild_sparse(args: Any) -> TensorFacts:
    """COO: (indices, values, size[, coalesced]); compressed: (compressed, plain, values, size)."""
    layout, data = args_of(args, 2, 2)
    check(isinstance(layout, TorchValue) and layout.kind == "layout" and layout.value in SPARSE_LAYOUTS)
    check(isinstance(data, tuple) and len(data) in (3, 4))
    parts: tuple[Any, ...]
    if layout.value == "sparse_coo":
        index_part, values, size, coalesced = data + (None,) * (4 - len(data))
        parts = (index_part, values)
        check(coalesced in (None, True, False))
    else:
        check(len(data) == 4)
        compressed, plain, values, size = data
        parts, coalesced = (compressed, plain, values), None
    check(all(isinstance(p, TensorFacts) and p.layout == "strided" and p.storage is not None for p in parts))
    return TensorFacts(values.dtype, shape_of(size), layout=str(layout.value), parts=parts, coalesced=coalesced)


def rebuild_nested(args: Any) -> TensorFacts:
    """A nested tensor: a flat buffer and, per member, its sizes, strides and offset (torch checks they fit)."""
    parts = args_of(args, 4, 4)
    check(all(isinstance(p, TensorFacts) and p.layout == "strided" and p.storage is not None for p in parts))
    buffer, sizes = parts[0], parts[1]
    check(len(buffer.shape) == 1 and len(sizes.shape) == 2)
    return TensorFacts(buffer.dtype, (sizes.shape[0],), layout="nested", parts=tuple(parts))


def rebuild_qtensor(args: Any) -> TensorFacts:
    """A quantized tensor: torch allocates all of *size* before it maps the storage, so that must fit too."""
    storage, offset, size, stride, params, requires_grad, hooks = args_of(args, 7, 7)
    _hooks_and_flags(requires_grad, hooks)
    facts = strided(storage, offset, size, stride)
    check(isinstance(params, tuple) and len(params) > 0 and isinstance(params[0], TorchValue)
          and params[0].kind == "qscheme")
    scheme = params[0].value
    if scheme == "per_tensor_affine":
        check(len(params) == 3 and type(params[1]) in (int, float) and type(params[2]) is int)
    else:
        check(scheme in ("per_channel_affine", "per_channel_affine_float_qparams") and len(params) == 4)
        check(all(isinstance(p, (TensorFacts, list)) for p in params[1:3]) and type(params[3]) is int)
    if facts.numel * storage.itemsize > storage.nbytes:
        raise TensorsDamaged("a quantized tensor is larger than its storage")
    return facts


def rebuild_from_type(policy: Any, args: Any) -> Any:
    """``_rebuild_from_type_v2(func, new_type, args, state)``: a tensor (or Parameter) with attributes."""
    func, new_type, inner, state = args_of(args, 4, 4)
    if isinstance(func, Global) and not func.dotted.startswith("torch._utils._rebuild_"):
        return policy.refuse(func.dotted)  # e.g. bytearray, called through the rebuild: name what is called
    check(isinstance(func, Global))
    check(isinstance(new_type, TorchValue) and new_type.kind == "class" and isinstance(inner, tuple))
    plain_state(state)
    made = policy.call(func, inner)
    if isinstance(made, TensorFacts) and new_type.dotted == "torch.nn.parameter.Parameter":
        made.parameter = True
    return made
