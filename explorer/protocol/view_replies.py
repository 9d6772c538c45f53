"""The replies the detail tabs draw: Image, Values, Memory (map rows) and Graph.

Split from :mod:`explorer.protocol.replies` (the snapshot, cards and the small replies) to keep
each module short; ``explorer.protocol`` exports both, so callers name ``protocol.ImageReply``.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from explorer.protocol.replies import Storage


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


class MapRow(TypedDict):
    """One member of the memory group in the memory map: where it lives and which cells it reaches, in visit order."""

    name: str
    color_index: int
    data_ptr: int
    storage_ptr: int
    storage_offset: int | None  # in elements; null when not a whole number of them
    byte_offset: int
    itemsize: int
    dtype: str
    shape: list[int]
    strides: list[int] | None  # in elements; null when not whole numbers of them
    byte_strides: list[int]
    numel: int
    reached: list[int]  # the first cell of each element visited, in C order
    cell_span: int
    flat: list[int] | None  # the flat indices visited, when the visits were sampled
    sampled: bool
    counts: dict[str, int]  # cell -> times reached, where more than once (JSON keys are text)
    formula: str


class MemoryMapReply(TypedDict):
    """An allocation as cells and who reaches which (see ``explorer.core.memory.map``); ``allocation`` null: no storage."""

    name: str
    memory_group: str | None
    note: str | None
    allocation: Storage | None
    span: Storage | None
    unit: Literal["element", "byte"]
    unit_bytes: int
    itemsize: int | None
    cells: int
    bin: int
    cell_bytes: int
    values: list[str | None]
    rows: list[MapRow]


class GraphReply(TypedDict, total=False):
    """The autograd graph behind one tensor (see ``explorer.core.graph.autograd.autograd_graph``)."""

    root: str | None
    nodes: list[dict[str, Any]]
    edges: list[list[str]]
    edge_counts: list[int]
    edge_info: list[dict[str, Any] | None]
    freed: bool
    message: str | None
    message_key: Literal["leaf", "no_grad", "not_tensor"] | None
    truncated: bool
