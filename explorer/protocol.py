"""Every message between the window (or the CLI) and the kernel, in one place.

The kernel side is an IPython extension (``%load_ext explorer``) that registers
the Jupyter comm target :data:`COMM_TARGET`. A client opens one comm and sends
requests on it; the kernel answers each on the same comm. Both sides import
this module, which needs neither Qt nor torch nor numpy.

Wire format (the ``data`` of a comm message)::

    request  {"type": "request", "id": 7, "method": "image", "params": {...}}
    reply    {"type": "reply", "id": 7, "ok": true, "result": {...}}
             {"type": "reply", "id": 7, "ok": false, "error": {"type": "ValueError", "message": "..."}}

The kernel also sends **events** on the comm, unasked: ``{"type": "event", "event":
"paused" | "resumed", "data": {...}}`` (:func:`parse_event`). While user code is
paused in ``breakpoint()`` the kernel's shell channel is blocked, so the client
that ran the code sends its requests as the answers to the kernel's input
requests whose prompt is :data:`PAUSE_PROMPT` (stdin channel); the replies still
come on the comm.

Binary data (pixels, value blocks, histogram counts) travels in the comm
message's ``buffers``; inside ``result`` it is replaced by ``{"$buffer": i}``
(:func:`split_buffers` / :func:`join_buffers`). The first request of every
client is :class:`Hello`; its reply carries the kernel's protocol and package
versions so a mismatch is one clear sentence instead of garbage.

Each request is a frozen dataclass whose fields are its parameters and whose
``method`` names the handler; the reply of each is the TypedDict named in its
docstring. A reader follows a request from a widget (``client.ask(Image(...))``)
to its handler (``HANDLERS[Image]`` in ``explorer.core.agent.handlers``) by name.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, TypedDict, TypeVar

#: Bumped whenever a message or a field changes meaning.
PROTOCOL_VERSION = 2
#: The Jupyter comm target the kernel extension registers.
COMM_TARGET = "tensor_explorer"
#: The import name of the IPython extension (``%load_ext explorer``).
EXTENSION = "explorer"
#: The prompt of the kernel's input request that reads one request while code is paused.
#: Record separators around a name no program prints, so a user's ``input()`` prompt cannot pass for it.
PAUSE_PROMPT = "\x1etensor-explorer:paused\x1e"

R = TypeVar("R")


# -- replies ---------------------------------------------------------------------------
class Var(TypedDict, total=False):
    """One variable (the CLI contract's VAR, DESIGN.md): every key present, null where it does not apply."""

    name: str
    kind: str  # "tensor" | "parameter" | "ndarray" | "list" | "tuple" | "dict" | "module" | "other"
    type: str
    shape: list[int] | None
    dtype: str | None
    device: str | None
    strides: list[int] | None  # in elements
    byte_strides: list[int] | None
    storage_offset: int | None
    data_ptr: int | None
    itemsize: int | None
    numel: int | None
    nbytes: int | None
    is_contiguous: bool | None
    requires_grad: bool | None
    is_leaf: bool | None
    grad_fn: str | None
    grad: dict | None  # {"shape", "dtype", "preview"}
    storage: dict | None  # {"data_ptr", "nbytes"}
    memory_group: str | None
    overlaps: list[str] | None
    note: str | None
    children: list[Var] | None
    repr: str | None


class Change(TypedDict, total=False):
    """How a variable changed in the last run.

    ``grad`` is True when (also) the tensor's ``.grad`` changed: filled by
    backward(), accumulated by another, zeroed or set to None.
    """

    status: Literal["new", "changed", "changed_through"]
    through: str | None  # the alias written when status is "changed_through"
    grad: bool


class SnapshotReply(TypedDict):
    """The namespace after a run: everything (``full``) or only what changed since the last reply.

    A delta lists new and changed VARs in ``variables`` and the names gone in
    ``removed``; ``order`` is every name in definition order when the set of
    names or their order changed, else null. ``seq`` numbers the snapshots sent
    on this comm: a delta applies to the snapshot ``seq - 1``.
    """

    seq: int
    full: bool
    variables: list[Var]
    removed: list[str]
    order: list[str] | None
    changes: dict[str, Change]
    memory_error: str | None
    torch_version: str | None
    grad_enabled: bool


class Card(TypedDict, total=False):
    """An explained error, warning or hint (the error card)."""

    severity: Literal["error", "warning", "hint"]
    type: str
    message: str
    line: int | None  # the line in the submitted code (1-based)
    title: str
    explanation: str
    fix: str | None
    variables: list[dict]
    frames: list[FrameInfo]


class FrameInfo(TypedDict, total=False):
    """One frame of the user's code: of an error's traceback (outermost first) or of a paused run.

    ``file`` is the script's path for the code that ran (when the window or the CLI named one),
    a module's path for other files, null for code typed without a file; ``line`` counts in
    ``file`` (in the submitted code when ``in_code``, as the card's ``line``). ``variables``
    (the frame's locals as VARs) only when asked (``AfterRun.frame_variables``).
    """

    index: int
    file: str | None
    function: str
    line: int | None
    in_code: bool
    variables: list[Var]


class FrameReply(TypedDict):
    """The scope a client now inspects: a frame (``frame``) or the namespace (``frame`` null), as a full snapshot."""

    frame: FrameInfo | None
    frames: list[FrameInfo]
    snapshot: SnapshotReply


class PausedEvent(TypedDict):
    """Sent when ``breakpoint()`` paused the code: the stack (outermost first) and the index of the caller's frame."""

    frames: list[FrameInfo]
    selected: int


class ResumedEvent(TypedDict):
    """Sent when paused code goes on: ``stop`` (it was asked to stop), ``interrupted`` (its prompt was abandoned)."""

    stop: bool
    interrupted: bool


class AfterRunReply(TypedDict):
    """Everything the window needs after one execution, in one round trip."""

    snapshot: SnapshotReply
    error: Card | None
    hints: list[Card]
    warnings: list[Card]


class HelloReply(TypedDict):
    """Who answers: versions, the kernel's process and what it has imported."""

    protocol: int
    package: str
    python: str
    pid: int
    language: str


class Relation(TypedDict):
    """How the selected variable relates to one other member of its memory group."""

    other: str
    role: Literal["overlap", "same_allocation"]
    text: str


class OverlapsReply(TypedDict):
    """Exact byte overlaps of one variable, and the sentence that says how it shares memory."""

    name: str
    memory_group: str | None
    overlaps: list[str]
    same_allocation: list[str]
    disjoint: list[str]
    relations: list[Relation]
    sentence: str


class ImageReply(TypedDict, total=False):
    """Downsampled pixels (``pixels``: a buffer, uint8 H x W x C) and what the canvas says about them."""

    pixels: bytes
    width: int
    height: int
    channels: int
    source_channels: int
    channels_by_layout: dict[str, int | None]  # how many channels each layout would give this value
    layout: str
    guessed: bool
    permute: str | None
    display_shape: list[int]
    true_shape: list[int]
    scaling: str
    value_range: list[float] | None
    range: list[float] | None
    range_note: str | None
    grid: list[int] | None
    step: int
    zoom: float
    hint: str | None
    notes: list[str]
    device_note: str | None
    dtype: str
    library: str
    channel: int | None
    count: int
    shown: int
    tiles: list
    reason: str | None


class ValuesReply(TypedDict):
    """One 2-d window of values; ``block`` is a buffer of ``block_dtype`` (numpy name), row-major."""

    shape: list[int]
    dtype: str
    kind: str  # "float" | "int" | "bool" | "complex" | "text"
    row_dim: int | None
    col_dim: int | None
    index: list[int | None]
    row0: int
    col0: int
    block: bytes | None
    block_dtype: str | None
    block_shape: list[int]
    rows: list[list[Any]] | None  # only for kind "text" (object arrays)
    row_labels: list[str]
    col_labels: list[str]
    total_rows: int
    total_cols: int
    positions: Any
    min: float | None
    max: float | None


class Preview(TypedDict):
    """How one value looked at one moment (``explorer.core.step.previews.value_preview``).

    ``text`` holds every element when ``full``, else the first ones; large
    values also give ``min``/``max``/``mean``; ``grad`` describes a tensor's
    ``.grad`` the same way (None without one).
    """

    kind: Literal["tensor", "ndarray", "other"]
    type: str
    text: str
    full: bool
    shape: list[int] | None
    dtype: str | None
    device: str | None
    min: float | None
    max: float | None
    mean: float | None
    requires_grad: bool | None
    grad: dict | None


class BeforeAfter(TypedDict):
    """One variable before and after a step: ``before`` None when it is new (or was not remembered: ``captured`` False)."""

    name: str
    before: Preview | None
    after: Preview | None
    captured: bool


class StatsStatus(TypedDict):
    """A statistics job: ``state`` is running / done / cancelled / failed / unknown."""

    state: str
    progress: float
    result: dict | None  # min, max, mean, std, counts, notes, histogram {"counts" (buffer), ...}
    error: str | None


# -- requests --------------------------------------------------------------------------
@dataclass(frozen=True)
class Request(Generic[R]):
    """Base of every request; ``method`` names its handler in the kernel."""

    method: ClassVar[str] = ""

    def params(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Hello(Request[HelloReply]):
    """Handshake, first on every comm; also sets the language. Reply: :class:`HelloReply`.

    ``pause`` says the client answers :data:`PAUSE_PROMPT` input requests for the code it runs
    (with ``allow_stdin``): ``breakpoint()`` in that code then pauses for it. Without it the
    kernel's own ``breakpoint()`` (pdb) runs for that code when it allows stdin, else nothing.
    """

    method: ClassVar[str] = "hello"
    protocol: int = PROTOCOL_VERSION
    package: str = ""
    language: str = "en"
    pause: bool = False


@dataclass(frozen=True)
class AfterRun(Request[AfterRunReply]):
    """After code ran: the snapshot (a delta when ``delta``), the error card or the hints. Reply: :class:`AfterRunReply`.

    ``code`` is the code that ran (to tell which names it wrote); ``failed``
    whether it raised; ``overlaps`` False leaves each VAR's ``overlaps`` null
    (memory groups only, the window asks per selection); ``exact_overlaps``
    checks every pair exactly (the CLI). A failed run's card lists the user frames of the
    traceback (``frames``, see :class:`FrameInfo`); ``frame_variables`` adds each frame's
    locals as VARs (the CLI's ``error.frames``; the window asks per frame with :class:`SelectFrame`).
    """

    method: ClassVar[str] = "after_run"
    code: str = ""
    failed: bool = False
    overlaps: bool = True
    exact_overlaps: bool = False
    delta: bool = False
    frame_variables: bool = False


@dataclass(frozen=True)
class Snapshot(Request[SnapshotReply]):
    """The namespace now (always full). Reply: :class:`SnapshotReply`."""

    method: ClassVar[str] = "snapshot"
    code: str = ""
    overlaps: bool = True
    exact_overlaps: bool = False


@dataclass(frozen=True)
class SelectFrame(Request[FrameReply]):
    """Inspect frame ``index`` of the last error's traceback or of the paused run (None: the namespace). Reply: :class:`FrameReply`.

    The choice is this client's: every later name-based request on the comm (``Image``,
    ``Values``, ``Overlaps``, ``MemoryMap``, ``Graph``, ``StatsStart``, ``Render``,
    ``Snapshot``) reads that frame's locals. The frames live until the next run starts (or
    the paused code goes on); then the client is back on the namespace.
    """

    method: ClassVar[str] = "select_frame"
    index: int | None = None
    overlaps: bool = True
    exact_overlaps: bool = False


@dataclass(frozen=True)
class Resume(Request[dict]):
    """Let paused code go on (``stop``: raise KeyboardInterrupt where it paused). Reply: ``{"stop"}``.

    Only meaningful as the answer to a :data:`PAUSE_PROMPT` input request; on the comm it is an error.
    """

    method: ClassVar[str] = "resume"
    stop: bool = False


@dataclass(frozen=True)
class Overlaps(Request[OverlapsReply]):
    """Exact overlaps and memory relations of one variable. Reply: :class:`OverlapsReply`."""

    method: ClassVar[str] = "overlaps"
    name: str = ""


@dataclass(frozen=True)
class SetLanguage(Request[dict]):
    """Write the kernel's sentences in ``lang`` ("en", "zh_CN"). Reply: ``{"lang"}``."""

    method: ClassVar[str] = "set_language"
    lang: str = "en"


@dataclass(frozen=True)
class ScriptContext(Request[dict]):
    """Run later code as the script at ``path`` (``__file__``, its folder importable), or none. Reply: ``{"path"}``."""

    method: ClassVar[str] = "script_context"
    path: str | None = None


@dataclass(frozen=True)
class Image(Request[ImageReply]):
    """Pixels of one variable, sampled to fit ``max_width`` x ``max_height``. Reply: :class:`ImageReply`."""

    method: ClassVar[str] = "image"
    name: str = ""
    layout: str | None = None
    channel: int | None = None
    max_width: int = 800
    max_height: int = 600


@dataclass(frozen=True)
class Render(Request[dict]):
    """Write the canvas's picture of one variable to a PNG (the CLI's ``render``). Reply: layout facts."""

    method: ClassVar[str] = "render"
    name: str = ""
    out: str = ""
    layout: str | None = None


@dataclass(frozen=True)
class Values(Request[ValuesReply]):
    """A window of values: ``nrows`` x ``ncols`` from (``row0``, ``col0``) of dims ``row_dim``/``col_dim``. Reply: :class:`ValuesReply`."""

    method: ClassVar[str] = "values"
    name: str = ""
    row_dim: int | None = None
    col_dim: int | None = None
    index: list[int] | None = None
    row0: int = 0
    col0: int = 0
    nrows: int = 40
    ncols: int = 20


@dataclass(frozen=True)
class MemoryMap(Request[dict]):
    """Cells of one variable's allocation and which ones each group member reaches. Reply: the map's dict."""

    method: ClassVar[str] = "memory_map"
    name: str = ""
    max_cells: int = 256


@dataclass(frozen=True)
class Graph(Request[dict]):
    """The autograd graph behind one tensor (nodes, edges, leaves named, gradients on edges). Reply: the graph's dict."""

    method: ClassVar[str] = "graph"
    name: str = ""
    max_nodes: int = 2000


@dataclass(frozen=True)
class StatsStart(Request[dict]):
    """Start statistics of one variable in a kernel thread. Reply: ``{"job"}``."""

    method: ClassVar[str] = "stats_start"
    name: str = ""
    bins: int = 64
    chunk_elements: int = 1 << 24


@dataclass(frozen=True)
class StatsPoll(Request[StatsStatus]):
    """Progress or result of a statistics job. Reply: :class:`StatsStatus`."""

    method: ClassVar[str] = "stats_poll"
    job: int = 0


@dataclass(frozen=True)
class StatsCancel(Request[dict]):
    """Stop a statistics job. Reply: ``{"job"}``."""

    method: ClassVar[str] = "stats_cancel"
    job: int = 0


@dataclass(frozen=True)
class PrepareLoad(Request[dict]):
    """Check a data file and write the code that loads it. Reply: ``{"code", "name", ...}`` or ``{"error", "needs_pickle"}``."""

    method: ClassVar[str] = "prepare_load"
    path: str = ""
    name: str | None = None
    allow_pickle: bool = False


@dataclass(frozen=True)
class ClearError(Request[dict]):
    """Forget the last exception (so a later card does not explain an old error). Reply: ``{}``."""

    method: ClassVar[str] = "clear_error"


@dataclass(frozen=True)
class StepCapture(Request[dict]):
    """Remember how the variables look now, just before one step runs ``code``. Reply: ``{"captured"}`` (how many).

    The statement's own names are remembered first; :class:`StepCompare` answers from this.
    """

    method: ClassVar[str] = "step_capture"
    code: str = ""


@dataclass(frozen=True)
class StepCompare(Request[dict]):
    """Each named variable as remembered by the last :class:`StepCapture` and as it is now. Reply: ``{"items": [BeforeAfter]}``."""

    method: ClassVar[str] = "step_compare"
    names: list[str] | None = None


@dataclass(frozen=True)
class SeedRandom(Request[dict]):
    """Seed ``random``, NumPy and torch (a replay draws the same numbers as the first run). Reply: ``{"seeded"}``."""

    method: ClassVar[str] = "seed_random"
    seed: int = 0


@dataclass(frozen=True)
class WatchGradients(Request[dict]):
    """Record the gradients the next backward() passes through the autograd nodes of the user's tensors. Reply: ``{"nodes"}``.

    The graph then shows each node's gradient (``grad_watched``) and what
    flowed along each edge; nothing is retained on the tensors themselves.
    """

    method: ClassVar[str] = "watch_gradients"
    max_nodes: int = 5000


#: Every request type by its method name.
REQUESTS: dict[str, type[Request[Any]]] = {
    cls.method: cls for cls in (
        Hello, AfterRun, Snapshot, Overlaps, SetLanguage, ScriptContext, Image, Render, Values,
        MemoryMap, Graph, StatsStart, StatsPoll, StatsCancel, PrepareLoad, ClearError, SelectFrame, Resume,
        StepCapture, StepCompare, SeedRandom, WatchGradients,
    )
}


# -- envelope ---------------------------------------------------------------------------
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
    facts = err.get("data") if isinstance(err.get("data"), dict) else {}
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


def pack_rows(rows: list[dict[str, Any]], compact: bool) -> tuple[dict[str, Any], list[bytes]]:
    """A snapshot's VARs as JSON buffers of :data:`ROWS_PER_CHUNK` each, and the marker that replaces them.

    In buffers the rows skip the comm's JSON decoding (a console sharing the kernel
    never parses them) and the window can decode them one chunk per event-loop turn.
    ``compact`` drops null fields (a reader uses ``.get``): a third of the bytes.
    """
    buffers = []
    for start in range(0, len(rows), ROWS_PER_CHUNK):
        chunk = rows[start:start + ROWS_PER_CHUNK]
        if compact:
            chunk = [_without_nulls(row) for row in chunk]
        buffers.append(json.dumps(chunk, separators=(",", ":"), allow_nan=False).encode())
    return {"$rows": len(buffers), "count": len(rows)}, buffers


def _without_nulls(row: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in row.items() if v is not None}
    children = out.get("children")
    if children:
        out["children"] = [_without_nulls(child) for child in children]
    return out


def is_packed(value: Any) -> bool:
    return isinstance(value, dict) and "$rows" in value


def unpack_chunk(buffer: bytes) -> list[dict[str, Any]]:
    """The VARs of one buffer made by :func:`pack_rows`."""
    return json.loads(buffer)


def unpack_rows(buffers: list[bytes]) -> list[dict[str, Any]]:
    """Every VAR of a packed snapshot, at once (the CLI; the window goes chunk by chunk)."""
    rows: list[dict[str, Any]] = []
    for buffer in buffers:
        rows.extend(unpack_chunk(buffer))
    return rows


def packed_snapshot(reply: Reply[Any]) -> dict[str, Any] | None:
    """The snapshot dict inside *reply* whose ``variables`` are still packed, else None."""
    result = reply.result
    if not reply.ok or not isinstance(result, dict):
        return None
    snapshot = result.get("snapshot") if isinstance(result.get("snapshot"), dict) else result
    return snapshot if is_packed(snapshot.get("variables")) else None


def unpacked(reply: Reply[R]) -> Reply[R]:
    """*reply* with a packed snapshot's VARs decoded in place, all at once."""
    snapshot = packed_snapshot(reply)
    if snapshot is not None:
        snapshot["variables"] = unpack_rows(reply.buffers)
    return reply


def version_mismatch(reply: HelloReply, package: str) -> bool:
    """True when the kernel speaks another protocol or runs another release than *package*."""
    return reply.get("protocol") != PROTOCOL_VERSION or bool(package and reply.get("package") != package)
