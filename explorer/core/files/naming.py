"""Turn a file name into a readable, valid and unique Python variable name."""

from __future__ import annotations

import builtins
import keyword
import os
import re
import unicodedata
from collections.abc import Iterable

from explorer.core.files.common import FileLoadError, show
from explorer.core.i18n import _

# Names the loading snippets themselves use, plus IPython's own: a variable with
# one of these names would break the snippet or the console.
RESERVED = frozenset(
    {"np", "numpy", "torch", "Image", "PIL", "safetensors", "load_file", "safe_open",
     "In", "Out", "get_ipython", "exit", "quit", "display"}
)
MAX_LENGTH = 40
FALLBACK = "data"


def _is_avoided(name: str) -> bool:
    """True for keywords, soft keywords, builtins and reserved names."""
    return (
        keyword.iskeyword(name)
        or keyword.issoftkeyword(name)
        or hasattr(builtins, name)
        or name in RESERVED
    )


def _clean_stem(path: str) -> str:
    """Lower-case stem with every run of non-identifier characters turned into one ``_``."""
    base = os.path.basename(path.rstrip("/\\")) or path
    stem = os.path.splitext(base)[0] if not base.startswith(".") else base.lstrip(".")
    stem = unicodedata.normalize("NFKC", stem).lower()
    # "_" + ch keeps letters of any script (数据 is a fine Python name) and digits.
    chars = [ch if ("_" + ch).isidentifier() else "_" for ch in stem]
    return re.sub(r"_+", "_", "".join(chars)).strip("_")


def _move_leading_digits(stem: str) -> str:
    """``2024_data_set`` -> ``data_set_2024``, ``3d_points`` -> ``points_3d``; ``2024`` -> ``data_2024``."""
    tokens = stem.split("_")
    lead = 0
    while lead < len(tokens) and tokens[lead][:1].isdigit():
        lead += 1
    if lead == 0:
        return stem
    if lead == len(tokens):
        return f"{FALLBACK}_{stem}"
    return "_".join(tokens[lead:] + tokens[:lead])


def _shorten(name: str) -> str:
    """Cut very long names at an underscore so they stay readable on a projector."""
    if len(name) <= MAX_LENGTH:
        return name
    cut = name[:MAX_LENGTH]
    if "_" in cut[MAX_LENGTH // 2:]:
        cut = cut[: cut.rindex("_")]
    return cut.rstrip("_")


def variable_name(path: str, taken: Iterable[str] = frozenset()) -> str:
    """Derive a valid, unique Python identifier from a file name.

    Parameters
    ----------
    path : str
        The file path; only its last component's stem is used.
    taken : iterable of str
        Names already in use (the kernel's variables); the result avoids them.

    Returns
    -------
    str
        Lower-case identifier, e.g. ``2024 data-set.npy`` -> ``data_set_2024``,
        ``list.npy`` -> ``list_``; ``_2``, ``_3`` ... is appended when taken.
    """
    name = _shorten(_move_leading_digits(_clean_stem(path))) or FALLBACK
    if not name.isidentifier():  # e.g. a stem starting with a combining mark
        name = f"{FALLBACK}_{name}" if (FALLBACK + "_" + name).isidentifier() else FALLBACK
    if _is_avoided(name):
        name += "_"
    used = set(taken)
    if name not in used:
        return name
    count = 2
    while f"{name}_{count}" in used:
        count += 1
    return f"{name}_{count}"


def check_name(name: object) -> str:
    """Validate a name the user chose; raise :class:`FileLoadError` when it cannot hold the data."""
    if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
        raise FileLoadError(_("{name} is not a valid Python variable name.").format(name=show(str(name))))
    if name in RESERVED:
        raise FileLoadError(_("The loading code itself uses {name}; please choose another variable name.").format(
            name=show(name)))
    return name
