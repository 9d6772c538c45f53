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


def test_a_delta_drops_the_fields_null_in_every_row_on_the_wire_and_gets_them_back() -> None:
    rows = SNAPSHOTS["cli"]
    marker, buffers = protocol.pack_rows(list(rows), compact=True)
    assert marker["compact"] is True and marker["count"] == len(rows)
    on_the_wire = protocol.envelope.json.loads(buffers[0])
    # columnar: each field's name once, then its values row by row
    assert on_the_wire["count"] == len(rows) and len(on_the_wire["keys"]) == len(on_the_wire["columns"])
    assert all(len(column) == len(rows) for column in on_the_wire["columns"])
    assert all(column.count(None) < len(rows) for column in on_the_wire["columns"])
    assert set(on_the_wire["keys"]) < set(protocol.VAR_KEYS)  # some field is null for every kind here
    assert protocol.unpack_rows(buffers, compact=True) == rows


def test_packed_rows_keep_children_extra_keys_and_rows_with_no_field_at_all() -> None:
    child = dict.fromkeys(protocol.VAR_KEYS, None) | {"name": "d['k']", "kind": "tensor"}
    parent = dict.fromkeys(protocol.VAR_KEYS, None) | {"name": "d", "kind": "dict", "children": [child]}
    odd = {"name": "x", "extra": 1}  # a key Var does not declare, and fields missing
    empty: dict[str, Any] = {}
    many = [dict(parent, name=f"p{i}") for i in range(protocol.ROWS_PER_CHUNK + 1)]  # two chunks
    for compact in (True, False):
        _marker, buffers = protocol.pack_rows([parent, odd, empty], compact)
        back = protocol.unpack_rows(buffers, compact)
        # every row of a chunk gets the chunk's keys: a key only some rows have is null in the others
        assert back[0] == parent | {"extra": None} and back[0]["children"] == [child]
        assert back[1] == dict.fromkeys(protocol.VAR_KEYS, None) | odd
        assert back[2] == dict.fromkeys(protocol.VAR_KEYS, None) | {"extra": None}
        marker, buffers = protocol.pack_rows(many, compact)
        assert marker["$rows"] == 2 and protocol.unpack_rows(buffers, compact) == many
    _marker, buffers = protocol.pack_rows([empty, empty], compact=True)
    assert protocol.unpack_rows(buffers, compact=True) == [dict.fromkeys(protocol.VAR_KEYS, None)] * 2


def test_a_full_snapshot_travels_as_it_is() -> None:
    rows = SNAPSHOTS["cli"]
    marker, buffers = protocol.pack_rows(list(rows), compact=False)
    assert marker["compact"] is False
    assert protocol.unpack_rows(buffers) == rows


@pytest.mark.parametrize("writer_has_orjson", [True, False])
@pytest.mark.parametrize("reader_has_orjson", [True, False])
def test_packed_rows_read_back_the_same_whichever_json_library_each_side_has(
        writer_has_orjson: bool, reader_has_orjson: bool) -> None:
    """The window has orjson; a kernel-only install may not. Every pairing gives back exactly what was sent,
    an integer past 64 bits included (orjson refuses to write one, and would read it as a float)."""
    from explorer.client.channel import FAST_LOADS
    from explorer.core.agent.comm import FAST_DUMPS

    assert FAST_DUMPS is not None and FAST_LOADS is not None, "orjson is a dependency: both sides use it"
    rows = [*SNAPSHOTS["cli"], dict.fromkeys(protocol.VAR_KEYS, None) | {"name": "huge", "numel": 2**70 + 1}]
    _marker, buffers = protocol.pack_rows(list(rows), True, FAST_DUMPS if writer_has_orjson else None)
    back = protocol.unpack_rows(buffers, True, FAST_LOADS if reader_has_orjson else None)
    assert back == rows
    assert type(back[-1]["numel"]) is int and back[-1]["numel"] == 2**70 + 1


def test_orjson_writes_the_chunks_it_can_and_both_libraries_read_them_alike() -> None:
    import json

    from explorer.client.channel import FAST_LOADS
    from explorer.core.agent.comm import FAST_DUMPS

    rows = list(SNAPSHOTS["cli"])
    _marker, fast = protocol.pack_rows(rows, False, FAST_DUMPS)
    assert fast[0][:1] == b"{"  # orjson wrote it: a reader may use orjson
    _marker, plain = protocol.pack_rows(rows, False)
    assert plain[0][:1] == b" "  # the standard library wrote it: the reader uses it too
    assert [FAST_LOADS(b) for b in fast] == [json.loads(b) for b in plain] == [json.loads(b) for b in fast]


@pytest.mark.parametrize("has_orjson", [True, False])
def test_a_nan_in_a_chunk_is_null_whichever_library_writes_it(has_orjson: bool) -> None:
    from explorer.core.agent.comm import FAST_DUMPS

    row = dict.fromkeys(protocol.VAR_KEYS, None) | {"name": "odd", "extra": [float("nan"), float("inf"), 1.5]}
    _marker, buffers = protocol.pack_rows([row], False, FAST_DUMPS if has_orjson else None)
    assert protocol.unpack_rows(buffers)[0]["extra"] == [None, None, 1.5]


def test_the_kernel_sends_a_snapshot_written_by_orjson() -> None:
    """The comm endpoint passes orjson's encoder to the rows it packs (a tenth of json.dumps' time)."""
    from explorer.core.agent.comm import CommEndpoint
    from explorer.core.agent.handlers import Agent

    sent: list[tuple[dict, list]] = []
    endpoint = CommEndpoint(Agent(lambda: {"x": torch.zeros(3)}), lambda data, buffers: sent.append((data, buffers)))
    endpoint.on_message(protocol.request_message(1, protocol.Snapshot()))
    buffers = sent[-1][1]
    assert buffers and all(buffer[:1] == b"{" for buffer in buffers)
