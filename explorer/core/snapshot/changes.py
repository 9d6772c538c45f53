"""What changed since the previous run, and through which alias.

:class:`ChangeTracker` keeps a small fingerprint of every variable and, after
each run, reports the variables that appeared or changed. A variable that
changed although the code never wrote it by name, while the code did write
another variable sharing its memory, is reported as ``"changed_through"`` that
alias (``n[0] = 100.0`` changes ``t`` when ``n = t.numpy()``).

What the fingerprint covers:

* identity and metadata: ``id``, type, dtype, shape, strides, storage offset,
  ``data_ptr`` and device; for torch tensors also ``requires_grad``;
* for torch tensors above ``EXACT_BYTES`` only: the ``_version`` counter, which
  every in-place torch op bumps. Views share their base's counter, so an
  in-place write through one view of a big tensor also marks its disjoint
  sibling views as changed (conservative); small tensors skip the counter
  because their exact hash already decides;
* content, exactly, when the elements reach at most ``EXACT_BYTES`` bytes: a
  BLAKE2 hash of all of them;
* content, sampled, above that: the hash of ``SAMPLE_CHUNKS`` runs of
  ``CHUNK_ELEMENTS`` consecutive elements (C order) spread evenly over the view,
  so a write elsewhere (through numpy, which has no version counter) can go
  unnoticed;
* other values: identity, type and the summary's ``repr``.
"""

from __future__ import annotations

import ast
import hashlib
from typing import Any, Iterator

import numpy as np

from explorer.core.memory.groups import allocation_key, is_tensor, reach, shares_bytes
from explorer.core.resolve import resolve

EXACT_BYTES = 64 * 1024
SAMPLE_CHUNKS = 16
CHUNK_ELEMENTS = 64

# Python/numpy methods that mutate their object (torch's in-place ones end in "_").
_MUTATING_METHODS = frozenset({
    "append", "extend", "insert", "remove", "pop", "clear", "update", "setdefault",
    "popitem", "sort", "reverse", "fill", "put", "itemset", "resize", "setfield",
    "partition", "byteswap", "__setitem__", "__iadd__", "__delitem__",
})


# -- what the code wrote ------------------------------------------------------
def _root(node: ast.AST) -> str | None:
    """The variable at the root of ``a.b[0].c`` (``a``), if any."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _target_roots(node: ast.AST) -> Iterator[str]:
    """Root names of an assignment target (tuples unpacked)."""
    if isinstance(node, (ast.Tuple, ast.List)):
        for elt in node.elts:
            yield from _target_roots(elt)
    else:
        root = _root(node)
        if root is not None:
            yield root


def _node_writes(node: ast.AST) -> tuple[set[str], set[str]]:
    """(names written or mutated, names passed to a call) by one AST node."""
    strong: set[str] = set()
    weak: set[str] = set()
    targets: list[ast.AST] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
        targets = [node.target]
    elif isinstance(node, ast.withitem) and node.optional_vars is not None:
        targets = [node.optional_vars]
    elif isinstance(node, ast.Delete):
        targets = list(node.targets)
    elif isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and _is_mutator(func.attr):
            strong.update(r for r in [_root(func.value)] if r)
        for arg in list(node.args) + [kw.value for kw in node.keywords]:
            weak.update(r for r in [_root(arg)] if r)
    for target in targets:
        strong.update(_target_roots(target))
    return strong, weak


def _is_mutator(method: str) -> bool:
    return method in _MUTATING_METHODS or (method.endswith("_") and not method.startswith("_"))


def written_names(code: str) -> tuple[set[str], set[str]]:
    """Names the code writes (assign, store, in-place method) and names it passes to calls.

    Never raises: code that does not parse as a whole (IPython magics, a typo)
    is parsed line by line, skipping the lines that fail.
    """
    try:
        trees = [ast.parse(code)]
    except (SyntaxError, ValueError, RecursionError):
        trees = []
        for line in code.splitlines():
            try:
                trees.append(ast.parse(line.strip()))
            except (SyntaxError, ValueError, RecursionError):
                continue
    strong: set[str] = set()
    weak: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            s, w = _node_writes(node)
            strong |= s
            weak |= w
    return strong, weak


# -- fingerprints -------------------------------------------------------------
def _content_bytes(value: Any) -> Iterator[bytes]:
    """The bytes the fingerprint hashes: every element, or the sampled chunks."""
    if is_tensor(value):
        yield from _tensor_bytes(value)
    elif isinstance(value, np.ndarray):
        yield from _array_bytes(value)


def _sample_flat(numel: int) -> np.ndarray:
    """Flat (C-order) indices of the sampled chunks."""
    starts = np.linspace(0, max(numel - CHUNK_ELEMENTS, 0), SAMPLE_CHUNKS).astype(np.int64)
    flat = (starts[:, None] + np.arange(CHUNK_ELEMENTS)[None, :]).ravel()
    return np.unique(flat[flat < numel])


def _array_bytes(arr: np.ndarray) -> Iterator[bytes]:
    if arr.dtype.hasobject:
        yield repr(arr.ravel()[:SAMPLE_CHUNKS * CHUNK_ELEMENTS].tolist()).encode()
    elif arr.size * arr.itemsize <= EXACT_BYTES:
        yield np.ascontiguousarray(arr).tobytes()
    else:
        yield arr[np.unravel_index(_sample_flat(arr.size), arr.shape)].tobytes()


def _tensor_bytes(t: Any) -> Iterator[bytes]:
    import torch

    if t.layout != torch.strided or t.is_meta or t.is_nested:
        return
    t = t.detach()
    small = t.numel() * t.element_size() <= EXACT_BYTES
    if small and t.is_cpu and not (t.is_conj() or t.is_neg() or t.is_quantized):
        try:  # fast path: numpy reads the strided CPU memory without torch dispatch
            yield np.ascontiguousarray(t.numpy()).tobytes()
            return
        except TypeError:  # bf16, fp8 and other dtypes numpy lacks
            pass
    if t.is_quantized:
        t = t.int_repr()
    t = t.resolve_conj().resolve_neg()
    if not small:
        idx = np.unravel_index(_sample_flat(t.numel()), tuple(t.shape))
        t = t[tuple(torch.from_numpy(np.ascontiguousarray(i)) for i in idx)]
    flat = t.reshape(-1).contiguous().cpu()
    yield flat.view(torch.uint8).numpy().tobytes() if flat.numel() else b""


def _metadata(value: Any) -> tuple:
    if is_tensor(value):
        storage_ok = allocation_key(value) is not None
        return ("tensor", str(value.dtype), tuple(value.shape), str(value.device),
                tuple(value.stride()) if storage_ok else None,
                value.storage_offset() if storage_ok else None,
                value.data_ptr() if storage_ok else None,
                bool(value.requires_grad),
                _version(value) if value.numel() * value.element_size() > EXACT_BYTES else None)
    if isinstance(value, np.ndarray):
        return ("ndarray", str(value.dtype), value.shape, value.strides,
                value.__array_interface__["data"][0])
    return ()


def fingerprint(value: Any, var: dict) -> tuple:
    """A comparable summary of a value (see the module docstring for what is exact)."""
    try:
        digest = hashlib.blake2b(digest_size=16)
        for chunk in _content_bytes(value):
            digest.update(chunk)
        return (id(value), type(value).__qualname__, _metadata(value), digest.hexdigest(),
                var.get("repr"), len(var.get("children") or ()))
    except Exception:  # a value we cannot read: fall back to identity
        return (id(value), type(value).__qualname__, var.get("repr"))


def _flatten(variables: list[dict]) -> Iterator[dict]:
    """Top-level VARs and their container children."""
    for var in variables:
        yield var
        children = var.get("children")
        if isinstance(children, list):
            yield from _flatten(children)


class ChangeTracker:
    """Remembers fingerprints between runs and names what changed and how."""

    def __init__(self) -> None:
        self._prints: dict[str, tuple] = {}

    def update(self, namespace: dict[str, Any], variables: list[dict], code: str) -> dict:
        """Report the variables that appeared or changed since the previous call.

        Parameters
        ----------
        namespace : dict
            The user namespace (values are looked up by VAR name).
        variables : list of dict
            The snapshot's VARs (children included through ``children``).
        code : str
            The code that just ran (used to tell a direct write from a write through an alias).

        Returns
        -------
        dict
            ``{name: {"status": "new" | "changed" | "changed_through", "through": str | None}}``.
        """
        try:
            return self._update(namespace, variables, code)
        except Exception:  # the tracker must never break a snapshot
            return {}

    def _update(self, namespace: dict[str, Any], variables: list[dict], code: str) -> dict:
        strong, weak = written_names(code or "")
        prints: dict[str, tuple] = {}
        values: dict[str, Any] = {}
        for var in _flatten(variables):
            name = var.get("name")
            if not isinstance(name, str):
                continue
            values[name] = self._value(namespace, name)
            prints[name] = fingerprint(values[name], var)
        report: dict[str, dict] = {}
        for name, fp in prints.items():
            old = self._prints.get(name)
            if old is None:
                report[name] = {"status": "new", "through": None}
            elif old != fp:
                report[name] = self._changed(name, values, namespace, strong, weak)
        self._prints = prints
        return report

    @staticmethod
    def _value(namespace: dict[str, Any], name: str) -> Any:
        if name.isidentifier():  # the common case: skip parsing the name
            return namespace.get(name)
        try:
            return resolve(namespace, name)
        except Exception:
            return None

    @staticmethod
    def _changed(name: str, values: dict[str, Any], namespace: dict[str, Any],
                 strong: set[str], weak: set[str]) -> dict:
        root = _name_root(name)
        if root in strong or root in weak:
            return {"status": "changed", "through": None}
        for written in (strong, weak):
            # Candidates: written top-level names and the children under them (sd['w']).
            names = sorted(written) + [n for n in values if n not in written and _name_root(n) in written]
            alias = _alias_for(values.get(name), names, {**values, **namespace})
            if alias is not None:
                return {"status": "changed_through", "through": alias}
        return {"status": "changed", "through": None}


def _name_root(name: str) -> str:
    """``sd`` for ``sd['w']``, ``model`` for ``model.fc.weight``."""
    try:
        return _root(ast.parse(name, mode="eval").body) or name
    except (SyntaxError, ValueError, RecursionError):
        return name


def _version(t: Any) -> int | None:
    """Torch's in-place counter (inference tensors have none)."""
    try:
        return int(t._version)
    except Exception:
        return None


def _alias_for(value: Any, written: list[str], values: dict[str, Any]) -> str | None:
    """The first written name that shares memory with *value* (exact byte overlap preferred)."""
    key = allocation_key(value)
    if key is None:
        return None
    mine = reach(value)
    same_alloc: list[str] = []
    for cand in written:
        other = values.get(cand)
        other_key = allocation_key(other)
        if other_key is None or other_key[0] != key[0]:
            continue
        if other_key[1] < key[2] and key[1] < other_key[2]:
            theirs = reach(other)
            if mine is not None and theirs is not None and shares_bytes(mine, theirs, None):
                return cand
            same_alloc.append(cand)
    return same_alloc[0] if same_alloc else None
