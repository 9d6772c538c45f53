"""How messages travel: the request/reply/event envelope, binary buffers, packed snapshot rows."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Generic, cast

from explorer.protocol.constants import PROTOCOL_VERSION, R
from explorer.protocol.replies import VAR_KEYS, Var
from explorer.protocol.requests import REQUESTS, Hello, Request

#: A faster JSON encoder a side may pass to :func:`pack_rows` (the kernel passes orjson's where it is
#: installed): it returns compact UTF-8 JSON bytes, writes NaN/Inf as null, and raises TypeError for what it
#: cannot write exactly. The protocol itself needs only the standard library.
Dumps = Callable[[Any], bytes]
#: A faster JSON decoder a side may pass to :func:`unpack_chunk` (the window passes orjson's).
Loads = Callable[[bytes], Any]


@dataclass
class ErrorInfo:
    """Why a request failed, as data: the exception type, one sentence, and facts the view may still use."""

    type: str
    message: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Reply(Generic[R]):
    """What a client's callback receives: ``result`` when ``ok``, else ``error``."""

    ok: bool
    result: R | None = None
    error: ErrorInfo | None = None
    buffers: list[bytes] = field(default_factory=list)

    @property
    def message(self) -> str:
        """The error's sentence ('' when ok)."""
        return self.error.message if self.error else ""


class ProtocolError(ValueError):
    """A message that does not follow this module's format."""


def request_message(request_id: int, request: Request[Any]) -> dict[str, Any]:
    """The comm data of a request."""
    return {"type": "request", "id": request_id, "method": request.method, "params": request.params()}


def parse_request(data: Any) -> tuple[int, Request[Any]]:
    """``(id, typed request)`` from comm data; :class:`ProtocolError` says what is wrong."""
    if not isinstance(data, dict) or data.get("type") != "request":
        raise ProtocolError("not a request")
    request_id = data.get("id")
    cls = REQUESTS.get(str(data.get("method")))
    if not isinstance(request_id, int) or cls is None:
        raise ProtocolError(f"unknown request {data.get('method')!r}")
    params = data.get("params") or {}
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(params) - names)
    if unknown and cls is Hello:  # a newer client's handshake still learns this kernel's versions
        params = {k: v for k, v in params.items() if k in names}
    elif unknown:
        raise ProtocolError(f"{cls.method} has no parameter {', '.join(unknown)}")
    return request_id, cls(**params)


def reply_message(request_id: int, result: Any = None, error: ErrorInfo | None = None,
                  encoded: bool = True) -> dict[str, Any]:
    """The comm data of a reply (``result`` may still hold bytes: split them with :func:`split_buffers`).

    ``encoded=False`` says the result holds no ``$buffer``/``$float`` markers (a snapshot of
    thousands of VARs), so the receiver does not walk it looking for them.
    """
    if error is not None:
        return {"type": "reply", "id": request_id, "ok": False, "error": dataclasses.asdict(error)}
    return {"type": "reply", "id": request_id, "ok": True, "result": result, "encoded": encoded}


def event_message(event: str, data: dict[str, Any]) -> dict[str, Any]:
    """The comm data of an event the kernel sends unasked ("paused", "resumed")."""
    return {"type": "event", "event": event, "data": data}


def parse_event(data: Any) -> tuple[str, dict[str, Any]] | None:
    """``(event, data)`` when comm *data* is an event, else None."""
    if not isinstance(data, dict) or data.get("type") != "event" or not isinstance(data.get("event"), str):
        return None
    facts = data.get("data")
    return data["event"], facts if isinstance(facts, dict) else {}


def parse_reply(data: Any, buffers: list[bytes] | None = None) -> tuple[int, Reply[Any]]:
    """``(id, Reply)`` from comm data and its buffers."""
    if not isinstance(data, dict) or data.get("type") != "reply" or not isinstance(data.get("id"), int):
        raise ProtocolError("not a reply")
    buffers = [bytes(b) for b in buffers or []]
    if data.get("ok"):
        result = join_buffers(data.get("result"), buffers) if data.get("encoded", True) else data.get("result")
        return data["id"], Reply(True, result, None, buffers)
    err = data.get("error") or {}
    facts = err.get("data")
    facts = facts if isinstance(facts, dict) else {}
    return data["id"], Reply(False, None, ErrorInfo(str(err.get("type", "Error")), str(err.get("message", "")), facts))


def split_buffers(obj: Any, buffers: list[Any] | None = None) -> tuple[Any, list[Any]]:
    """Move every bytes-like value out of *obj* into a buffer list, leaving ``{"$buffer": i}``; also makes NaN/Inf JSON-safe."""
    buffers = [] if buffers is None else buffers
    if isinstance(obj, dict):
        return {str(k): split_buffers(v, buffers)[0] for k, v in obj.items()}, buffers
    if isinstance(obj, (list, tuple)):
        return [split_buffers(v, buffers)[0] for v in obj], buffers
    if isinstance(obj, (bytes, bytearray, memoryview)):
        buffers.append(obj)
        return {"$buffer": len(buffers) - 1}, buffers
    if isinstance(obj, float) and (obj != obj or obj in (float("inf"), float("-inf"))):
        return {"$float": repr(obj)}, buffers
    return obj, buffers


def join_buffers(obj: Any, buffers: list[bytes]) -> Any:
    """The inverse of :func:`split_buffers`."""
    if isinstance(obj, dict):
        if len(obj) == 1 and "$buffer" in obj:
            return buffers[int(obj["$buffer"])]
        if len(obj) == 1 and "$float" in obj:
            return float(obj["$float"])
        return {k: join_buffers(v, buffers) for k, v in obj.items()}
    if isinstance(obj, list):
        return [join_buffers(v, buffers) for v in obj]
    return obj


#: VARs per binary chunk of a snapshot: decoding one chunk takes the GUI thread a few milliseconds.
ROWS_PER_CHUNK = 500


def pack_rows(rows: list[dict[str, Any]], compact: bool,
              dumps: Dumps | None = None) -> tuple[dict[str, Any], list[bytes]]:
    """A snapshot's VARs as JSON buffers of :data:`ROWS_PER_CHUNK` each, and the marker that replaces them.

    In buffers the rows skip the comm's JSON decoding (a console sharing the kernel
    never parses them) and the window can decode them a few chunks per event-loop turn.
    A chunk is columnar (:func:`_columns`): each field's name once, then its values
    row by row, so 3,000 VARs do not spell their 33 field names 3,000 times (less
    than half the bytes, and both sides encode and decode it in about half the time).
    ``compact`` drops the fields that are null in every row of a chunk; the marker
    says so, and :func:`unpack_chunk` puts them back, so a reader finds every key of a VAR.
    *dumps* writes the chunks where it can (see :data:`Dumps` and :func:`dumps_chunk`).
    """
    buffers = []
    for start in range(0, len(rows), ROWS_PER_CHUNK):
        chunk = _columns(rows[start:start + ROWS_PER_CHUNK], compact)
        buffers.append(dumps_chunk(chunk, dumps))
    return {"$rows": len(buffers), "count": len(rows), "compact": compact}, buffers


#: The first byte of a chunk the standard library wrote (whitespace, so still plain JSON): orjson would read
#: an integer past 64 bits in it as a float, so such a chunk is read back with the standard library too.
_STDLIB = b" "


def dumps_chunk(chunk: Any, dumps: Dumps | None = None) -> bytes:
    """Compact JSON bytes of one chunk: *dumps* where given (orjson's takes a tenth of ``json.dumps``' time
    on 3,000 VARs), else the standard library, which also writes what *dumps* refuses (an integer past 64
    bits) and marks its chunks with :data:`_STDLIB`. A NaN or infinite float (no VAR field is one) is null
    either way."""
    if dumps is not None:
        try:
            return dumps(chunk)
        except TypeError:  # orjson.JSONEncodeError is a TypeError
            pass
    try:
        return _STDLIB + json.dumps(chunk, separators=(",", ":"), allow_nan=False).encode()
    except ValueError:  # NaN/Inf somewhere: null, as orjson writes it
        return _STDLIB + json.dumps(_finite_only(chunk), separators=(",", ":"), allow_nan=False).encode()


def loads_chunk(buffer: bytes, loads: Loads | None = None) -> Any:
    """The inverse of :func:`dumps_chunk`: *loads* where given (orjson's takes half of ``json.loads``' time),
    except for a chunk the standard library wrote, which it reads back itself."""
    if loads is not None and buffer[:1] != _STDLIB:
        return loads(buffer)
    return json.loads(buffer)


def _finite_only(obj: Any) -> Any:
    """*obj* with every NaN/Inf float replaced by None (dict keys as they are)."""
    if isinstance(obj, float):
        return obj if obj - obj == 0 else None
    if isinstance(obj, dict):
        return {key: _finite_only(value) for key, value in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite_only(value) for value in obj]
    return obj


def _columns(rows: list[dict[str, Any]], compact: bool) -> dict[str, Any]:
    """``{"count": n, "keys": [...], "columns": [[value of row 0, row 1, ...], ...]}`` for *rows*.

    The keys are every key of the rows (VAR_KEYS' order first); a row without one
    gets null there. Children are columnar in their turn.
    """
    seen = set().union(*rows)
    keys = [key for key in VAR_KEYS if key in seen] + sorted(seen.difference(VAR_KEYS))
    count = len(rows)
    try:  # every row has every key (a VAR always does): one C call per row, then a transposition
        table: list[Any] = list(zip(*map(itemgetter(*keys), rows))) if len(keys) > 1 else [[row.get(key) for row in rows] for key in keys]
    except KeyError:
        table = [[row.get(key) for row in rows] for key in keys]
    names, columns = [], []
    for key, column in zip(keys, table):
        if compact and column.count(None) == count:
            continue
        if key == "children":
            column = [_columns(children, compact) if children else children for children in column]
        names.append(key)
        columns.append(column)
    return {"count": count, "keys": names, "columns": columns}


_NULLS: dict[str, Any] = dict.fromkeys(VAR_KEYS)


def _rows(chunk: dict[str, Any]) -> list[Var]:
    """The inverse of :func:`_columns`: one VAR per row, every VAR key there (null where the chunk has none)."""
    keys, columns = chunk["keys"], chunk["columns"]
    if "children" in keys:
        at = keys.index("children")
        columns[at] = [_rows(children) if children else children for children in columns[at]]
    nulls = _NULLS
    if not keys:
        return [cast(Var, nulls.copy()) for _ in range(chunk["count"])]
    rows: list[Var] = []
    append = rows.append
    for values in zip(*columns):
        row = nulls.copy()
        row.update(zip(keys, values))
        append(cast(Var, row))
    return rows


def is_packed(value: Any) -> bool:
    return isinstance(value, dict) and "$rows" in value


def unpack_chunk(buffer: bytes, compact: bool = False, loads: Loads | None = None) -> list[Var]:
    """The VARs of one buffer made by :func:`pack_rows` (*compact* is what its marker says; every key comes back
    either way; *loads*: see :func:`loads_chunk`)."""
    return _rows(loads_chunk(buffer, loads))


def unpack_rows(buffers: list[bytes], compact: bool = False, loads: Loads | None = None) -> list[Var]:
    """Every VAR of a packed snapshot, at once (the CLI; the window goes chunk by chunk)."""
    rows: list[Var] = []
    for buffer in buffers:
        rows.extend(unpack_chunk(buffer, compact, loads))
    return rows


def is_compact(snapshot: dict[str, Any]) -> bool:
    """Whether the packed ``variables`` of *snapshot* (see :func:`packed_snapshot`) dropped their nulls."""
    return bool(snapshot["variables"].get("compact"))


def packed_snapshot(reply: Reply[Any]) -> dict[str, Any] | None:
    """The snapshot dict inside *reply* whose ``variables`` are still packed, else None."""
    result = reply.result
    if not reply.ok or not isinstance(result, dict):
        return None
    snapshot = result.get("snapshot")
    snapshot = snapshot if isinstance(snapshot, dict) else result
    return snapshot if is_packed(snapshot.get("variables")) else None


def unpacked(reply: Reply[R], loads: Loads | None = None) -> Reply[R]:
    """*reply* with a packed snapshot's VARs decoded in place, all at once."""
    snapshot = packed_snapshot(reply)
    if snapshot is not None:
        snapshot["variables"] = unpack_rows(reply.buffers, is_compact(snapshot), loads)
    return reply


def version_mismatch(reply: Mapping[str, object], package: str) -> bool:
    """True when the kernel (its hello reply) speaks another protocol or runs another release than *package*."""
    return reply.get("protocol") != PROTOCOL_VERSION or bool(package and reply.get("package") != package)
