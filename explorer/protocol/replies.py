"""What the kernel answers: one TypedDict per reply, every field documented."""

from __future__ import annotations

from typing import Any, Literal, TypedDict


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
