"""Local derivatives of the common autograd operations: what each input's gradient is multiplied by.

For an operation ``out = f(a, b)``, backward() multiplies the gradient arriving
at ``out`` by ``∂out/∂a`` to get ``a``'s share. :func:`local_rules` describes
that factor for each input slot of an autograd node (``grad_fn.next_functions``)
as data: a formula that names the *other* input by its slot (the graph puts
the variable's name in), and the factor's value when it is a single number the
node saved. The rules cover mul (by a constant or a tensor), add, sub, div,
pow, sum, mean and the matrix-product shape rule; other operations get None.
Formulas are mathematics, not sentences, so they need no translation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from explorer.protocol.units import shape_text

#: In a formula, the other input's label (or the constant the node saved).
OTHER = "{other}"
_PREVIEW_LIMIT = 1


def _saved(fn: Any, attr: str) -> Any:
    """A saved value of the node, or None when it was freed by backward() or never saved."""
    try:
        return getattr(fn, attr)
    except Exception:  # noqa: BLE001 - RuntimeError once freed; exotic nodes
        return None


def number(value: Any) -> float | None:
    """*value* as a float when it is a Python number or a one-element tensor, else None."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    try:
        if value is not None and int(value.numel()) == _PREVIEW_LIMIT and not value.is_complex():
            return float(value.detach().reshape(-1)[0].item())
    except Exception:  # noqa: BLE001 - meta tensors, sparse, functorch wrappers
        return None
    return None


def _rule(formula: str, value: float | None = None, other_slot: int | None = None, shape: str | None = None) -> dict:
    return {"formula": formula, "value": value, "other_slot": other_slot, "shape": shape}


def _mul(fn: Any, slots: int) -> Sequence[dict | None]:
    self_value, other_value = _saved(fn, "_saved_self"), _saved(fn, "_saved_other")
    # x * 3: the constant has no slot of its own in next_functions, but the node saved it as "other".
    return [_rule(OTHER, number(other_value), other_slot=1), _rule(OTHER, number(self_value), other_slot=0)][:slots]


def _add(fn: Any, slots: int, sign: float) -> Sequence[dict | None]:
    alpha = number(_saved(fn, "_saved_alpha"))
    alpha = 1.0 if alpha is None else alpha
    second = sign * alpha
    return [_rule("1", 1.0), _rule(_plain(second), second)][:slots]


def _div(fn: Any, slots: int) -> Sequence[dict | None]:
    a, b = number(_saved(fn, "_saved_self")), number(_saved(fn, "_saved_other"))
    first = _rule("1/" + OTHER, None if b in (None, 0.0) else 1.0 / b, other_slot=1)
    second = _rule("−" + OTHER + "/{self}²", None if a is None or b in (None, 0.0) else -a / (b * b), other_slot=0)
    return [first, second][:slots]


def _pow(fn: Any, slots: int) -> list[dict | None]:
    n = number(_saved(fn, "_saved_exponent"))
    x = number(_saved(fn, "_saved_self"))
    if n is None:
        return [None] * slots
    value = None if x is None else n * x ** (n - 1) if not (x == 0 and n < 1) else None
    formula = f"{_plain(n)}·{{self}}" if n == 2 else f"{_plain(n)}·{{self}}^{_plain(n - 1)}"
    return [_rule(formula, value)][:slots] + [None] * (slots - 1)


def _sum(fn: Any, slots: int) -> list[dict | None]:
    return [_rule("1", 1.0)] + [None] * (slots - 1)


def _mean(fn: Any, slots: int) -> list[dict | None]:
    count = _saved(fn, "_saved_self_sym_numel")
    try:
        count = int(count)
    except (TypeError, ValueError):
        return [None] * slots
    return [_rule(f"1/{count}", 1.0 / count if count else None)] + [None] * (slots - 1)


def _matmul(fn: Any, slots: int) -> Sequence[dict | None]:
    """a @ b: ∂ for a is grad @ bᵀ, for b aᵀ @ grad; the shapes say why they fit."""
    a = _shape(_saved(fn, "_saved_self_sym_sizes"))
    b = _shape(_saved(fn, "_saved_mat2_sym_sizes"))
    if a is None or b is None or len(a) < 2 or len(b) < 2:
        return [_rule("grad @ {other}ᵀ", other_slot=1), _rule("{self}ᵀ @ grad", other_slot=0)][:slots]
    out = a[:-1] + b[-1:]
    first = _rule("grad @ {other}ᵀ", other_slot=1,
                  shape=f"{shape_text(out)} @ {shape_text(b[:-2] + [b[-1], b[-2]])} → {shape_text(a)}")
    second = _rule("{self}ᵀ @ grad", other_slot=0,
                   shape=f"{shape_text(a[:-2] + [a[-1], a[-2]])} @ {shape_text(out)} → {shape_text(b)}")
    return [first, second][:slots]


def _shape(value: Any) -> list[int] | None:
    try:
        return [int(s) for s in value]
    except (TypeError, ValueError):
        return None


def _plain(value: float) -> str:
    """3.0 -> "3", 0.5 -> "0.5", -1.0 -> "−1"."""
    text = f"{value:g}"
    return text.replace("-", "−")


_RULES: dict[str, Callable[[Any, int], Sequence[dict | None]]] = {
    "MulBackward0": _mul,
    "AddBackward0": lambda fn, n: _add(fn, n, 1.0),
    "SubBackward0": lambda fn, n: _add(fn, n, -1.0),
    "DivBackward0": _div,
    "PowBackward0": _pow,
    "SumBackward0": _sum,
    "MeanBackward0": _mean,
    "MmBackward0": _matmul,
    "BmmBackward0": _matmul,
}


def local_rules(fn: Any) -> list[dict | None]:
    """One entry per ``fn.next_functions`` slot: ``{"formula", "value", "other_slot", "shape"}`` or None.

    In ``formula``, ``{other}`` stands for the input in slot ``other_slot`` and
    ``{self}`` for the input of this slot; ``value`` is the factor when it is
    one number the node still holds (None once backward() freed it).
    """
    try:
        slots = len(fn.next_functions)
    except Exception:  # noqa: BLE001 - not an autograd node
        return []
    rule = _RULES.get(type(fn).__name__)
    if rule is None:
        return [None] * slots
    try:
        found = rule(fn, slots)
    except Exception:  # noqa: BLE001 - a node of another torch release: no rule rather than no graph
        return [None] * slots
    return [*found, *[None] * slots][:slots]
