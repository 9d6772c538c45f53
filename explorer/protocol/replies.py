"""What the kernel answers: one TypedDict per reply, every field documented."""

from __future__ import annotations

from typing import Any, Literal, TypedDict, cast

from explorer.protocol.kinds import VarKind


class GradSummary(TypedDict):
    """A tensor's ``.grad`` in its VAR: shape, dtype and (at most 16 elements on the CPU) the values as text."""

    shape: list[int]
    dtype: str
    preview: str | None


class Storage(TypedDict):
    """The allocation a tensor or array lives in: its first byte's address and its size."""

    data_ptr: int
    nbytes: int


class Relations(TypedDict):
    """How a member of a memory group relates to the others (name lists capped, see ``core.memory.groups``)."""

    same_allocation: list[str]
    overlaps: list[str]
    same_elements: list[str]


class Var(TypedDict):
    """One variable (the CLI contract's VAR, docs/architecture.md): every key present, null where it does not apply.

    The kernel makes every VAR from one blank record, so tensors, arrays, containers and
    other values all carry these keys (``tests/test_protocol_var.py`` checks each kind).
    A delta snapshot travels with its null fields dropped (:func:`explorer.protocol.pack_rows`);
    unpacking puts them back, so a reader always finds every key.
    """

    name: str
    kind: VarKind
    type: str
    shape: list[int] | None
    dtype: str | None
    device: str | None
    strides: list[int] | None  # in elements
    byte_strides: list[int] | None
    storage_offset: int | None  # in elements
    data_ptr: int | None  # 0 for a tensor without storage (meta, lazy)
    itemsize: int | None
    numel: int | None
    nbytes: int | None
    is_contiguous: bool | None
    requires_grad: bool | None
    is_leaf: bool | None
    grad_fn: str | None  # the grad_fn's class name
    grad: GradSummary | None
    storage: Storage | None
    memory_group: str | None  # "M1", "M2", ... shared by the variables of one allocation
    overlaps: list[str] | None  # null when the snapshot skipped them (the window asks per selection)
    note: str | None  # why a field is null, in the kernel's language
    retains_grad: bool | None
    is_parameter: bool | None
    preview: str | None  # the values of at most 16 elements, as text
    layout: str | None  # "strided", "sparse_coo", ...
    is_view: bool | None
    copy_hint: str | None  # a copy the last run made where a view would share memory
    length: int | None  # a container's len()
    children: list[Var] | None  # a container's tensors/arrays and the containers holding some
    repr: str | None  # the bounded one-line text of a container or other value
    overlaps_exact: bool | None  # False when the bounded check skipped some pairs
    relation: Relations | None


#: Every key of a VAR, in the CLI contract's order.
VAR_KEYS: tuple[str, ...] = tuple(Var.__annotations__)


def null_var(name: str = "", kind: VarKind = "other", type_name: str = "") -> Var:
    """A VAR whose every field is null but its name, kind and type (a placeholder row)."""
    var = cast(Var, dict.fromkeys(VAR_KEYS))
    var["name"], var["kind"], var["type"] = name, kind, type_name
    return var


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


def empty_snapshot() -> SnapshotReply:
    """The full snapshot of an empty namespace (what a fresh kernel holds)."""
    return {"seq": 0, "full": True, "variables": [], "removed": [], "order": None, "changes": {},
            "memory_error": None, "torch_version": None, "grad_enabled": True}


class CardVariable(TypedDict):
    """A tensor or array the failing statement names, as the card lists it."""

    name: str
    shape: list[int] | None
    dtype: str | None
    device: str | None
    requires_grad: bool | None


class Card(TypedDict, total=False):
    """An explained error, warning or hint (the error card).

    ``fix`` is code (applied at ``fix_line`` as ``fix_mode`` says: "replace" the line or go
    "before" it) or advice in comment lines; ``key`` names the rule that explained it;
    ``code_line`` is the failing line's text; an error also carries its ``traceback``.
    """

    key: str
    severity: Literal["error", "warning", "hint"]
    type: str
    message: str
    line: int | None  # the line in the submitted code (1-based)
    title: str
    explanation: str
    fix: str | None
    fix_mode: Literal["replace", "before"] | None
    fix_line: int | None
    code_line: str | None
    variables: list[CardVariable]
    frames: list[FrameInfo]
    fix_proof: dict[str, Any] | None  # the CLI's verdict on the fix (explorer.client.fix_proof)
    traceback: str
    internal: bool  # the explainer itself failed (only type and message then)


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
    selected: OverlapsReply | None  # AfterRun.selected's overlaps when the run changed it, else None


class PushSet(TypedDict):
    """Whether this comm now gets each run's :class:`AfterRunReply` unasked, and the selection it is computed for."""

    enabled: bool
    selected: str


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


class PatchedScript(TypedDict):
    """A script with a fix applied (the reply to ``ApplyFix``); ``code`` is None when the fix does not apply.

    The fix took the place of the original lines ``first``..``last`` (``last = first - 1`` when it was
    inserted before ``first``) and is ``lines`` lines long, so a line of the patched script maps back
    to the original's numbering (``explorer.client.fix_proof.original_line``).
    """

    code: str | None
    first: int | None
    last: int | None
    lines: int
class LanguageReply(TypedDict):
    """The language the kernel now writes its sentences in."""

    lang: str


class ScriptContextReply(TypedDict):
    """The script's absolute path later code runs as (null: none)."""

    path: str | None


class StatsJob(TypedDict):
    """A statistics job started or asked to stop."""

    job: int


class LoadPlan(TypedDict, total=False):
    """How to load a data file (``code`` to run, ``name`` it defines, ...) or why not (``error``, ``needs_pickle``)."""

    name: str
    code: str
    format: str
    summary: str
    hint: str | None
    path: str
    error: str
    needs_pickle: bool


class Cleared(TypedDict):
    """Nothing to say: the request was done (``ClearError``)."""


class StepCaptured(TypedDict):
    """How many variables were remembered before a step."""

    captured: int


class StepCompared(TypedDict):
    """Each asked variable before and after the step."""

    items: list[BeforeAfter]


class Seeded(TypedDict):
    """The libraries whose random generators were seeded ("random", "numpy", "torch")."""

    seeded: list[str]


class GradientsWatched(TypedDict):
    """How many autograd nodes were newly hooked to record their gradients."""

    nodes: int


class Resumed(TypedDict):
    """What paused code was told (the answer to a pause prompt only)."""

    stop: bool


class Rendered(TypedDict, total=False):
    """The CLI's ``render`` JSON: how the PNG at ``path`` was drawn."""

    layout: str
    permute: str | None
    display_shape: list[int]
    scaling: str
    grid: list[int] | None
    guessed: bool
    reason: str | None
    range: list[float] | None
    width: int
    height: int
    channels: int
    zoom: float
    notes: list[str]
    path: str


class WatchSet(TypedDict):
    """The watch this client now has: the name paths, the seconds between samples, whether it is paused."""

    names: list[str]
    every: float
    paused: bool


class WatchSample(TypedDict):
    """One sample of a running program (the data of a :data:`WATCH_EVENT`).

    ``seq`` counts the samples of one run from 1; ``t`` is seconds since the run started; ``frame``
    the function whose locals were read (``"<module>"`` at the top level) and ``line`` its line (in
    that code object's file); ``names`` the variables that exist there (at most 500); ``values`` maps
    each watched name path that could be read to a number (int, float, bool: a non-finite float is
    the string ``"nan"``, ``"inf"`` or ``"-inf"``) or to a tensor's facts
    (``shape, dtype, device, numel, requires_grad, value`` (one element) ``, norm, min, max, mean,
    nan, inf, grad_norm``, a field null when it cannot be had, ``note`` why); ``skipped`` maps the
    others to one sentence (no such name here, a sparse tensor, a class whose code would run);
    ``every`` is the interval now used (it grows when samples cost more than they should) and
    ``cost`` what this sample took, in seconds of the sampling thread.
    """

    seq: int
    t: float
    frame: str | None
    line: int | None
    names: list[str]
    values: dict[str, Any]
    skipped: dict[str, str]
    every: float
    cost: float
