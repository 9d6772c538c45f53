"""Where a watched autograd node keeps what backward() passed through it (see :mod:`explorer.core.graph.watch`)."""

from __future__ import annotations

from typing import Any

#: The key of our record in ``grad_fn.metadata``.
META_KEY = "tensor_explorer"


def record_of(fn: Any) -> dict | None:
    """The watch record of an autograd node (None when it was never watched)."""
    try:
        found = fn.metadata.get(META_KEY)
    except Exception:  # noqa: BLE001 - nodes without metadata (old torch, custom C++ nodes)
        return None
    return found if isinstance(found, dict) else None
