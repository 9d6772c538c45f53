"""A ``.grad`` that was filled, accumulated, zeroed or cleared counts as a change of its tensor.

The change tracker fingerprints a tensor's own elements and metadata; backward()
changes neither for a leaf, only its ``.grad``. :class:`GradChanges` keeps a
fingerprint of every gradient between snapshots and adds the tensors whose
gradient changed to the snapshot's ``changes`` (status "changed", ``grad``
True), so ``z.backward()``, a second backward() (36 becomes 72),
``x.grad.zero_()`` and ``optimizer.zero_grad()`` all mark the leaf in the
inspector. Cost: one fingerprint per tensor that requires grad or has one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from explorer.core.resolve import resolve
from explorer.core.snapshot.changes import fingerprint
from explorer.core.summary.static import tget
from explorer.protocol.kinds import TENSOR_KINDS

_MISSING = object()


def _tensor_vars(variables: list[dict]) -> Iterator[dict]:
    """Tensor VARs that take part in autograd, children of containers and modules included."""
    stack = list(reversed(variables))
    while stack:
        var = stack.pop()
        if var.get("kind") in TENSOR_KINDS and (var.get("requires_grad") or var.get("grad") is not None):
            yield var
        stack.extend(reversed(var.get("children") or []))


def _grad_print(namespace: dict[str, Any], var: dict) -> Any:
    """A fingerprint of the variable's ``.grad`` (None when it has none)."""
    if not (var.get("is_leaf") or var.get("retains_grad")):
        return None  # reading .grad of such a tensor only warns
    name = var["name"]
    value = namespace.get(name) if name in namespace else resolve(namespace, name)
    grad = tget(value, "grad")
    return None if grad is None else fingerprint(grad, {})


class GradChanges:
    """Remembers gradients between snapshots (one per client, beside the change tracker)."""

    def __init__(self) -> None:
        self._prints: dict[str, Any] = {}

    def update(self, namespace: dict[str, Any], variables: list[dict], changes: dict[str, dict]) -> None:
        """Add to *changes* every tensor whose ``.grad`` differs from the previous call's."""
        prints: dict[str, Any] = {}
        for var in _tensor_vars(variables):
            try:
                prints[var["name"]] = _grad_print(namespace, var)
            except Exception:  # noqa: BLE001 - an unreadable gradient is not a change
                continue
        for name, now in prints.items():
            before = self._prints.get(name, _MISSING)
            if before is _MISSING or before == now:
                continue
            entry = changes.get(name)
            if entry is None:
                changes[name] = {"status": "changed", "through": None, "grad": True}
            else:
                entry["grad"] = True
        self._prints = prints
