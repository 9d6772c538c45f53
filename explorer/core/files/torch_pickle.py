"""What a PyTorch checkpoint's pickle may do: rebuild tensors and plain containers, nothing else.

The policy that :class:`~explorer.core.files.pickle_machine.PickleMachine` consults
for ``.pt`` files. It accepts the names ``torch.save`` writes for tensors,
parameters, sparse, nested, quantized and meta tensors, and plain values
(``OrderedDict``, ``set``, ``bytes``, ``complex``, ``torch.Size``, dtypes...),
and only with the arguments ``torch.save`` gives them: ``bytearray(b"...")``
is a value, ``bytearray(2**31)`` asks for 2 GiB and is refused. A tensor is
not built, only described (:class:`TensorFacts`); its geometry must fit the
storage it names, and the storages' sizes are checked against the file by
:mod:`explorer.core.files.torch_archive`.
"""

from __future__ import annotations

import _compat_pickle
import dataclasses
import functools
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from explorer.core.files import torch_facts as facts
from explorer.core.files.pickle_machine import OPAQUE, Opaque, PickleDamaged, is_plain_key
from explorer.core.files.torch_facts import (
    MAX_INDEX,
    Global,
    Misuse,
    StorageRef,
    TensorFacts,
    TensorsDamaged,
    TorchValue,
    UnreadableByTorch,
    args_of,
    check,
    indices,
)

_CODECS = frozenset({"latin1", "latin-1", "utf-8", "utf8", "ascii"})
_TENSOR_CLASSES = ("torch.Tensor", "torch.nn.parameter.Parameter")


@functools.lru_cache(maxsize=1)
def _values() -> dict[str, TorchValue]:
    """dtype, storage-type, qscheme and tensor-class names (taken from torch, so new dtypes follow)."""
    import torch

    found: dict[str, TorchValue] = {}
    dtypes = [*torch.storage._dtype_to_storage_type_map(), *torch.storage._new_dtypes()]
    dtypes += [getattr(torch, f"{kind}{bits}") for kind in ("uint", "int") for bits in range(1, 8)]
    for dtype in dtypes:
        found[str(dtype)] = TorchValue("dtype", str(dtype), (str(dtype).removeprefix("torch."), dtype.itemsize))
    for dtype, name in torch.storage._dtype_to_storage_type_map().items():
        found[f"torch.{name}"] = TorchValue("storage", f"torch.{name}",
                                            (str(dtype).removeprefix("torch."), dtype.itemsize))
    found["torch.storage.UntypedStorage"] = TorchValue("storage", "torch.storage.UntypedStorage", (None, 1))
    for scheme in ("per_tensor_affine", "per_tensor_symmetric", "per_channel_affine", "per_channel_symmetric",
                   "per_channel_affine_float_qparams"):
        found[f"torch.{scheme}"] = TorchValue("qscheme", f"torch.{scheme}", scheme)
    for dotted in _TENSOR_CLASSES:
        found[dotted] = TorchValue("class", dotted)
    return found


def _name(value: Any) -> str | None:
    """The dotted name of a Global or torch value, for a refusal."""
    return value.dotted if isinstance(value, (Global, TorchValue)) else None


def _holds_opaque(value: Any, depth: int = 3) -> bool:
    """Whether an already-refused value sits in *value* (then the call is not refused a second time)."""
    if isinstance(value, Opaque):
        return True
    if depth and isinstance(value, (tuple, list)):
        return any(_holds_opaque(v, depth - 1) for v in value[:64])
    if depth and isinstance(value, dict):
        return any(_holds_opaque(v, depth - 1) for v in list(value.values())[:64])
    return False


class TorchPolicy:
    """Follows a checkpoint's pickle; collects what it refused and the storages and tensors it names."""

    def __init__(self, legacy: bool = False) -> None:
        self.legacy = legacy  # the legacy format's persistent ids have a sixth item (a view, always None)
        self.refused: set[str] = set()
        self.anonymous = False  # something was refused that has no class name
        self.foreign_opcodes: set[str] = set()
        self.storages: dict[str, StorageRef] = {}
        self.tensors: list[TensorFacts] = []
        self._calls: dict[str, Callable[[Any], Any]] = {**_plain_calls(), **_tensor_calls(self)}

    # -- the Policy protocol ---------------------------------------------------------
    def refuse(self, name: str | None = None) -> Opaque:
        if name is None:
            self.anonymous = True
        else:
            self.refused.add(_printable(name))
        return OPAQUE

    def note_opcode(self, name: str) -> None:
        self.foreign_opcodes.add(name)

    def resolve(self, module: str, name: str) -> Any:
        if (module, name) in _compat_pickle.NAME_MAPPING:  # Python 2 names, as torch maps them
            module, name = _compat_pickle.NAME_MAPPING[(module, name)]
        elif module in _compat_pickle.IMPORT_MAPPING:
            module = _compat_pickle.IMPORT_MAPPING[module]
        dotted = f"{module}.{name}"
        if dotted in self._calls:
            return Global(dotted)
        found = _values().get(dotted)
        return found if found is not None else self.refuse(dotted)

    def call(self, func: Any, args: Any) -> Any:
        if isinstance(func, Opaque) or isinstance(args, Opaque):
            return OPAQUE
        handler = self._calls.get(func.dotted) if isinstance(func, Global) else None
        if handler is None:  # calling a dtype, a tensor class (torch.FloatTensor(2**31)), a tensor...
            return self.refuse(_name(func))
        try:
            return handler(args)
        except Misuse:
            return OPAQUE if _holds_opaque(args) else self.refuse(func.dotted)

    def new(self, cls: Any, args: Any) -> Any:
        """NEWOBJ: ``cls.__new__(cls, *args)``; only a Parameter or an empty container makes sense."""
        if isinstance(cls, Opaque) or isinstance(args, Opaque):
            return OPAQUE
        if isinstance(cls, TorchValue) and cls.dotted == "torch.nn.parameter.Parameter" and isinstance(args, tuple) \
                and 1 <= len(args) <= 2 and isinstance(args[0], TensorFacts):
            return self._tensor(dataclasses.replace(args[0], parameter=True))
        if isinstance(cls, Global) and cls.dotted in ("collections.OrderedDict", "builtins.set") and args == ():
            return OrderedDict() if cls.dotted == "collections.OrderedDict" else set()
        return OPAQUE if _holds_opaque(args) else self.refuse(_name(cls))

    def build(self, inst: Any, state: Any) -> None:
        """BUILD: torch.save uses it to give a state_dict its ``_metadata``; anything else is refused."""
        if isinstance(inst, Opaque) or isinstance(state, Opaque):
            return
        if isinstance(inst, OrderedDict) and (state is None or isinstance(state, dict)):
            return
        self.refuse(_name(inst) or ("torch.Tensor" if isinstance(inst, TensorFacts) else None))

    def persistent(self, pid: Any) -> Any:
        """``('storage', storage_type, key, location, numel[, view_metadata])``; the first use of a key wins."""
        if isinstance(pid, Opaque):
            return OPAQUE
        if not isinstance(pid, tuple) or not pid:
            raise PickleDamaged("a persistent id is not a tuple")
        kind = pid[0].decode("ascii", "replace") if isinstance(pid[0], bytes) else pid[0]
        if kind != "storage":
            return self.refuse()  # "module": a whole module's source (legacy files), or an id torch never writes
        if len(pid) != (6 if self.legacy else 5):
            raise PickleDamaged("a storage's persistent id has the wrong length")
        storage_type, key, _location, numel = pid[1:5]
        if not (isinstance(storage_type, TorchValue) and storage_type.kind == "storage" and isinstance(key, str)
                and type(numel) is int and (not self.legacy or pid[5] is None)):
            return OPAQUE if _holds_opaque(pid) else self.refuse()
        if not 0 <= numel <= MAX_INDEX:
            raise TensorsDamaged("a storage has a negative or impossible size")
        dtype, itemsize = storage_type.value
        if dtype is None and self.legacy:  # torch's legacy loader asks an untyped storage for its dtype and fails
            raise UnreadableByTorch("an untyped storage in a legacy checkpoint")
        return self.storages.setdefault(key, StorageRef(key, dtype, itemsize, numel))

    # -- helpers for the tensor calls ---------------------------------------------------
    def _tensor(self, facts: TensorFacts) -> TensorFacts:
        self.tensors.append(facts)
        return facts


@dataclass
class Checkpoint:
    """What a checkpoint holds, as far as its pickle and layout say."""

    root: Any
    policy: TorchPolicy
    is_zip: bool
    mappable: bool = True  # every storage record stored uncompressed, so torch.load(mmap=True) reads the right bytes
    big_endian: bool = False
    # storage key -> where its bytes start in the file, or the zip record's name when it is compressed
    places: dict[str, int | str] = field(default_factory=dict)


def _printable(name: str) -> str:
    """A class name from the file, safe to put in a sentence (one line, bounded)."""
    text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in name[:200])
    return text if len(text) <= 100 else text[:99] + "…"


def _plain_calls() -> dict[str, Callable[[Any], Any]]:
    """Calls that make plain Python values, with the arguments pickle writes for them."""
    return {
        "collections.OrderedDict": _ordered_dict,
        "collections.Counter": _counter,
        "builtins.set": _set,
        "builtins.complex": _complex,
        "builtins.bytearray": _bytearray,
        "_codecs.encode": _encode,
        "torch.Size": lambda args: TorchValue("Size", "torch.Size", indices(args_of(args, 1, 1)[0])),
        "torch.device": _device,
        "torch.serialization._get_layout": _layout,
    }


def _ordered_dict(args: Any) -> OrderedDict[Any, Any]:
    (pairs,) = args_of(args, 0, 1)
    check(pairs is None or (isinstance(pairs, list) and all(
        isinstance(p, tuple) and len(p) == 2 and is_plain_key(p[0]) for p in pairs)))
    return OrderedDict(pairs or ())


def _counter(args: Any) -> Counter[Any]:
    (counts,) = args_of(args, 0, 1)
    check(counts is None or isinstance(counts, dict))
    return Counter(counts or {})


def _set(args: Any) -> set[Any]:
    (items,) = args_of(args, 0, 1)
    check(items is None or (isinstance(items, (list, tuple, set, frozenset)) and all(map(is_plain_key, items))))
    return set(items or ())


def _complex(args: Any) -> complex:
    real, imag = args_of(args, 1, 2)
    check(all(type(v) in (int, float) or v is None for v in (real, imag)) and real is not None)
    return complex(real, imag or 0)


def _bytearray(args: Any) -> bytearray:
    """``bytearray(b"...")`` is a value; ``bytearray(2**31)`` would ask for 2 GiB and is refused."""
    source, encoding = args_of(args, 0, 2)
    if source is None:
        return bytearray()
    if isinstance(source, (bytes, bytearray)) and encoding is None:
        return bytearray(source)
    check(isinstance(source, str) and encoding in _CODECS)
    return bytearray(_encode((source, encoding)))


def _encode(args: Any) -> bytes:
    """``_codecs.encode(text, 'latin1')``: how protocol 2 writes ``bytes``."""
    text, encoding = args_of(args, 1, 2)
    check(isinstance(text, str) and (encoding or "utf-8") in _CODECS)
    try:
        return text.encode(encoding or "utf-8")
    except UnicodeEncodeError:
        raise Misuse from None


def _device(args: Any) -> TorchValue:
    kind, index = args_of(args, 1, 2)
    check(isinstance(kind, str) and len(kind) <= 64 and (index is None or type(index) is int))
    return TorchValue("device", "torch.device", (kind, index))


def _layout(args: Any) -> TorchValue:
    (name,) = args_of(args, 1, 1)
    check(name in ("torch.strided", "torch.sparse_coo", "torch.sparse_csr", "torch.sparse_csc",
                    "torch.sparse_bsr", "torch.sparse_bsc"))
    return TorchValue("layout", "torch.layout", str(name).removeprefix("torch."))


def _tensor_calls(policy: TorchPolicy) -> dict[str, Callable[[Any], Any]]:
    """The rebuild functions of torch.save (see torch/_utils.py), each described instead of run."""
    t = facts

    def keep(make: Callable[[Any], TensorFacts]) -> Callable[[Any], TensorFacts]:
        return lambda args: policy._tensor(make(args))

    return {
        "torch._utils._rebuild_tensor": keep(t.rebuild_tensor),
        "torch._utils._rebuild_tensor_v2": keep(t.rebuild_tensor_v2),
        "torch._utils._rebuild_tensor_v3": keep(t.rebuild_tensor_v3),
        "torch._utils._rebuild_parameter": keep(t.rebuild_parameter),
        "torch._utils._rebuild_parameter_with_state": keep(t.rebuild_parameter_with_state),
        "torch._utils._rebuild_sparse_tensor": keep(t.rebuild_sparse),
        "torch._utils._rebuild_nested_tensor": keep(t.rebuild_nested),
        "torch._utils._rebuild_meta_tensor_no_storage": keep(t.rebuild_meta),
        "torch._utils._rebuild_qtensor": keep(t.rebuild_qtensor),
        "torch._tensor._rebuild_from_type_v2": lambda args: t.rebuild_from_type(policy, args),
    }
