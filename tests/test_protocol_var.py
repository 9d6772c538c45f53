"""``protocol.Var`` declares exactly what the kernel sends: every key, of the declared type, for every kind of value.

The VARs are read the way a client reads them: through the real comm endpoint, as a
full snapshot and as a delta (whose packed rows drop their nulls on the wire).
"""

from __future__ import annotations

from typing import Any, get_args, get_type_hints

import numpy as np
import pytest
import torch

from explorer import protocol
from explorer.protocol import replies
from tests.agent_calls import Caller
from tests.typed_check import conforms


class _Slots:
    __slots__ = ("a",)


def _values() -> dict[str, Any]:
    """One namespace holding every kind of value, views and groups included."""
    base = torch.arange(24.0).reshape(2, 3, 4)
    weight = torch.nn.Parameter(torch.ones(3))
    (weight * 2).sum().backward()  # a .grad of its own
    return {
        "t": base, "view": base.transpose(0, 2), "made": weight * 3,
        "p": weight, "meta": torch.zeros(2, 3, device="meta"), "sparse": torch.eye(3).to_sparse(),
        "csr": torch.eye(3).to_sparse_csr(), "lazy": torch.nn.LazyLinear(2),
        "nested": torch.nested.nested_tensor([torch.zeros(2), torch.zeros(3)]),
        "a": np.arange(6).reshape(2, 3), "a_view": None, "rec": np.zeros(2, dtype=[("x", "<i4")]),
        "items": [torch.zeros(2), 3, [np.ones(2)]], "pair": (torch.ones(1), "x"),
        "sd": {"fc.weight": torch.zeros(2), "n": 1}, "model": torch.nn.Sequential(torch.nn.Linear(2, 1)),
        "n": 3, "text": "hello", "none": None, "obj": _Slots(), "empty": [],
    }


def _namespace() -> dict[str, Any]:
    ns = _values()
    ns["a_view"] = ns["a"][:, 1:]
    return ns


def _walk(variables: list[protocol.Var]) -> list[protocol.Var]:
    out = []
    for var in variables:
        out.append(var)
        out += _walk(var["children"] or [])
    return out


def _snapshots() -> dict[str, list[protocol.Var]]:
    """The namespace's VARs as the window (a delta, overlaps left to the selection) and the CLI (full) get them."""
    caller = Caller(_namespace())
    window = caller.ask(protocol.AfterRun(code="", delta=True, overlaps=False))
    cli = caller.ask(protocol.Snapshot(exact_overlaps=True))
    assert window.ok and cli.ok
    return {"window": window.result["snapshot"]["variables"], "cli": cli.result["variables"]}


SNAPSHOTS = _snapshots()
KINDS = {name: var["kind"] for name, var in ((v["name"], v) for v in SNAPSHOTS["cli"])}


def test_the_namespace_holds_every_kind() -> None:
    assert set(KINDS.values()) == set(get_args(protocol.kinds.VarKind))


@pytest.mark.parametrize("reader", sorted(SNAPSHOTS))
@pytest.mark.parametrize("name", sorted(KINDS), ids=lambda n: f"{n}-{KINDS[n]}")
def test_every_var_has_exactly_the_declared_keys_and_types(reader: str, name: str) -> None:
    top = next(var for var in SNAPSHOTS[reader] if var["name"] == name)
    hints = get_type_hints(replies.Var)
    for var in _walk([top]):
        assert list(var) == list(protocol.VAR_KEYS) == list(hints), var["name"]
        wrong = {key: var[key] for key in hints if not conforms(var[key], hints[key])}
        assert wrong == {}, var["name"]


def test_the_declared_keys_are_those_the_kernel_makes() -> None:
    from explorer.core.summary.dispatch import summarize

    assert list(summarize("x", object())) == list(protocol.VAR_KEYS)
    assert set(protocol.VAR_KEYS) == replies.Var.__required_keys__


def test_a_delta_row_drops_its_nulls_on_the_wire_and_gets_them_back() -> None:
    rows = SNAPSHOTS["cli"]
    marker, buffers = protocol.pack_rows(list(rows), compact=True)
    assert marker["compact"] is True
    on_the_wire = protocol.envelope.json.loads(buffers[0])
    assert all(value is not None for row in on_the_wire for value in row.values())
    assert protocol.unpack_rows(buffers, compact=True) == rows


def test_a_full_snapshot_travels_as_it_is() -> None:
    rows = SNAPSHOTS["cli"]
    marker, buffers = protocol.pack_rows(list(rows), compact=False)
    assert marker["compact"] is False
    assert protocol.unpack_rows(buffers) == rows
