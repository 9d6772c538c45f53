"""What a VAR's ``kind`` can be, and the groups of kinds every layer asks about.

The kernel decides a value's kind once (``explorer.core.summary.dispatch.classify``);
the window, the CLI and the kernel's own later steps only ask these questions of it.
"""

from __future__ import annotations

from typing import Literal

VarKind = Literal["tensor", "parameter", "ndarray", "list", "tuple", "dict", "module", "other"]

#: Values with elements, strides and memory: images, values, statistics and the memory map apply.
ARRAY_KINDS: frozenset[str] = frozenset({"tensor", "parameter", "ndarray"})
#: torch tensors (an ``nn.Parameter`` is one): the only values that record an autograd graph.
TENSOR_KINDS: frozenset[str] = frozenset({"tensor", "parameter"})
#: Values whose VAR lists ``children``.
CONTAINER_KINDS: frozenset[str] = frozenset({"list", "tuple", "dict", "module"})


def is_array(kind: str | None) -> bool:
    """True for a tensor, a parameter or a NumPy array."""
    return kind in ARRAY_KINDS


def is_tensor(kind: str | None) -> bool:
    """True for a torch tensor or parameter (NumPy arrays have no autograd graph)."""
    return kind in TENSOR_KINDS
