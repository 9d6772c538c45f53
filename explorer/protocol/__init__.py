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

from explorer.protocol.constants import (  # noqa: F401
    AFTER_RUN_EVENT,
    COMM_TARGET,
    EXTENSION,
    PAUSE_PROMPT,
    PROTOCOL_VERSION,
    REPLACED_EVENT,
    REPLAY_MAGIC,
    WATCH_CONTROL,
    WATCH_CONTROL_REPLY,
    WATCH_EVENT,
    WATCH_RATE,
    R,
)
from explorer.protocol.envelope import (  # noqa: F401
    ROWS_PER_CHUNK,
    Dumps,
    ErrorInfo,
    Loads,
    ProtocolError,
    Reply,
    event_message,
    is_compact,
    is_packed,
    join_buffers,
    pack_rows,
    packed_snapshot,
    parse_event,
    parse_reply,
    parse_request,
    reply_message,
    request_message,
    split_buffers,
    unpack_chunk,
    unpack_rows,
    unpacked,
    version_mismatch,
)
from explorer.protocol.replies import (  # noqa: F401
    VAR_KEYS,
    AfterRunReply,
    BeforeAfter,
    Card,
    CardVariable,
    Change,
    Cleared,
    FrameInfo,
    FrameReply,
    GradientsWatched,
    GradSummary,
    HelloReply,
    LanguageReply,
    LoadPlan,
    OverlapsReply,
    PatchedScript,
    PausedEvent,
    Preview,
    PushSet,
    Relation,
    Relations,
    Rendered,
    Resumed,
    ResumedEvent,
    ScriptContextReply,
    Seeded,
    SnapshotReply,
    StatsJob,
    StatsStatus,
    StepCaptured,
    StepCompared,
    Storage,
    Var,
    WatchSample,
    WatchSet,
    empty_snapshot,
    null_var,
)
from explorer.protocol.requests import (  # noqa: F401
    REQUESTS,
    AfterRun,
    ApplyFix,
    ClearError,
    Graph,
    Hello,
    Image,
    MemoryMap,
    Overlaps,
    PrepareLoad,
    PushAfterRun,
    Render,
    Request,
    Resume,
    ScriptContext,
    SeedRandom,
    SelectFrame,
    SetLanguage,
    Snapshot,
    StatsCancel,
    StatsPoll,
    StatsStart,
    StepCapture,
    StepCompare,
    Values,
    Watch,
    WatchGradients,
)
from explorer.protocol.source import RequestSource  # noqa: F401
from explorer.protocol.view_replies import (  # noqa: F401
    GraphReply,
    ImageReply,
    MapRow,
    MemoryMapReply,
    ValuesReply,
)
