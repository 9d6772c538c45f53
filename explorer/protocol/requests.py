"""What a client asks: one frozen dataclass per request, its fields the parameters."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Generic

from explorer.protocol.constants import PROTOCOL_VERSION, R
from explorer.protocol.replies import (
    AfterRunReply,
    Cleared,
    FrameReply,
    GradientsWatched,
    HelloReply,
    LanguageReply,
    LoadPlan,
    OverlapsReply,
    PatchedScript,
    PushSet,
    Rendered,
    Resumed,
    ScriptContextReply,
    Seeded,
    SnapshotReply,
    StatsJob,
    StatsStatus,
    StepCaptured,
    StepCompared,
    WatchSet,
)
from explorer.protocol.view_replies import (
    GraphReply,
    ImageReply,
    MemoryMapReply,
    ValuesReply,
)


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
    ``selected`` is the window's selected name: when the run changed it, the reply carries its
    overlaps too (``selected``, as :class:`Overlaps` would answer), saving that round trip.
    """

    method: ClassVar[str] = "after_run"
    code: str = ""
    failed: bool = False
    overlaps: bool = True
    exact_overlaps: bool = False
    delta: bool = False
    frame_variables: bool = False
    selected: str = ""


@dataclass(frozen=True)
class PushAfterRun(Request[PushSet]):
    """Send this comm every run's :class:`AfterRunReply` as soon as the run ends, unasked. Reply: :class:`PushSet`.

    The fields are the :class:`AfterRun` the client would ask after each run (``code`` and
    ``failed`` are the run's own); the kernel computes that reply in IPython's ``post_run_cell``,
    before the kernel goes idle, for every execution (any client's, the console's too) and sends
    it as the :data:`AFTER_RUN_EVENT` of that execution. ``selected`` is the window's selection,
    sent again whenever it changes; ``enabled=False`` stops the pushes (the client asks again).
    """

    method: ClassVar[str] = "push_after_run"
    enabled: bool = True
    overlaps: bool = False
    exact_overlaps: bool = False
    delta: bool = True
    frame_variables: bool = False
    selected: str = ""

    def after_run(self, code: str, failed: bool) -> AfterRun:
        """The request this push answers for one run."""
        return AfterRun(code=code, failed=failed, overlaps=self.overlaps, exact_overlaps=self.exact_overlaps,
                        delta=self.delta, frame_variables=self.frame_variables, selected=self.selected)


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
class Resume(Request[Resumed]):
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
class SetLanguage(Request[LanguageReply]):
    """Write the kernel's sentences in ``lang`` ("en", "zh_CN"). Reply: ``{"lang"}``."""

    method: ClassVar[str] = "set_language"
    lang: str = "en"


@dataclass(frozen=True)
class ScriptContext(Request[ScriptContextReply]):
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
class Render(Request[Rendered]):
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
    index: list[int | None] | None = None  # a fixed index per dim; None where the dim is shown
    row0: int = 0
    col0: int = 0
    nrows: int = 40
    ncols: int = 20


@dataclass(frozen=True)
class MemoryMap(Request[MemoryMapReply]):
    """Cells of one variable's allocation and which ones each group member reaches. Reply: the map's dict."""

    method: ClassVar[str] = "memory_map"
    name: str = ""
    max_cells: int = 256


@dataclass(frozen=True)
class Graph(Request[GraphReply]):
    """The autograd graph behind one tensor (nodes, edges, leaves named, gradients on edges). Reply: the graph's dict."""

    method: ClassVar[str] = "graph"
    name: str = ""
    max_nodes: int = 2000


@dataclass(frozen=True)
class StatsStart(Request[StatsJob]):
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
class StatsCancel(Request[StatsJob]):
    """Stop a statistics job. Reply: ``{"job"}``."""

    method: ClassVar[str] = "stats_cancel"
    job: int = 0


@dataclass(frozen=True)
class PrepareLoad(Request[LoadPlan]):
    """Check a data file and write the code that loads it. Reply: ``{"code", "name", ...}`` or ``{"error", "needs_pickle"}``."""

    method: ClassVar[str] = "prepare_load"
    path: str = ""
    name: str | None = None
    allow_pickle: bool = False


@dataclass(frozen=True)
class ClearError(Request[Cleared]):
    """Forget the last exception (so a later card does not explain an old error). Reply: ``{}``."""

    method: ClassVar[str] = "clear_error"


@dataclass(frozen=True)
class StepCapture(Request[StepCaptured]):
    """Remember how the variables look now, just before one step runs ``code``. Reply: ``{"captured"}`` (how many).

    The statement's own names are remembered first; :class:`StepCompare` answers from this.
    """

    method: ClassVar[str] = "step_capture"
    code: str = ""


@dataclass(frozen=True)
class StepCompare(Request[StepCompared]):
    """Each named variable as remembered by the last :class:`StepCapture` and as it is now. Reply: ``{"items": [BeforeAfter]}``."""

    method: ClassVar[str] = "step_compare"
    names: list[str] | None = None


@dataclass(frozen=True)
class SeedRandom(Request[Seeded]):
    """Seed ``random``, NumPy and torch (a replay draws the same numbers as the first run). Reply: ``{"seeded"}``."""

    method: ClassVar[str] = "seed_random"
    seed: int = 0


@dataclass(frozen=True)
class WatchGradients(Request[GradientsWatched]):
    """Record the gradients the next backward() passes through the autograd nodes of the user's tensors. Reply: ``{"nodes"}``.

    The graph then shows each node's gradient (``grad_watched``) and what
    flowed along each edge; nothing is retained on the tensors themselves.
    """

    method: ClassVar[str] = "watch_gradients"
    max_nodes: int = 5000


@dataclass(frozen=True)
class Watch(Request[WatchSet]):
    """Sample the running program for this client while code runs. Reply: :class:`WatchSet`.

    ``names`` are name paths the resolver reads (``model.fc.weight``, ``history[-1]``,
    ``opt.param_groups[0]['lr']``), looked up in the innermost user frame at each sample;
    ``every`` the seconds between samples (at least 0.05); ``paused`` keeps the watch but takes
    no samples. ``enabled=False`` ends the watch. Sent between runs; while code runs, pause
    and resume travel on the control channel (:data:`WATCH_CONTROL`). ``histograms`` are the
    watched names whose tensor or array facts also carry ``hist`` (bin counts between the
    finite values' min and max: one more pass over the data, so only where asked).
    """

    method: ClassVar[str] = "watch"
    names: list[str] | None = None
    every: float = 0.25
    paused: bool = False
    enabled: bool = True
    histograms: list[str] | None = None


@dataclass(frozen=True)
class ApplyFix(Request[PatchedScript]):
    """The script *code* with a card's fix applied (the card's ``fix``, ``fix_mode``, ``fix_line``). Reply: :class:`PatchedScript`.

    Pure text: nothing runs. A fix proof asks it of its own background kernel before it runs
    the patched script there (``explorer.client.fix_proof``).
    """

    method: ClassVar[str] = "apply_fix"
    code: str = ""
    fix: str = ""
    fix_mode: str = "replace"
    fix_line: int = 1


#: Every request type by its method name.
REQUESTS: dict[str, type[Request[Any]]] = {
    cls.method: cls for cls in (
        Hello, AfterRun, Snapshot, Overlaps, SetLanguage, ScriptContext, Image, Render, Values,
        MemoryMap, Graph, StatsStart, StatsPoll, StatsCancel, PrepareLoad, ClearError, SelectFrame, Resume,
        StepCapture, StepCompare, SeedRandom, WatchGradients, Watch, ApplyFix, PushAfterRun,
    )
}
