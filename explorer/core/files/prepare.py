"""Load data files safely: validate without running code from them, then hand back a snippet.

A teacher drops ``batch.npy`` or ``weights.pt`` on the window; :func:`prepare_load`
checks the file (signature bytes, headers, sizes, pickled objects) and returns the
Python code that loads it, which the GUI then runs in the kernel so the learner
sees (and can copy) the real NumPy / PyTorch / safetensors / Pillow call.

Nothing here runs code stored in a file: NumPy object arrays and pickled PyTorch
objects are refused with ``needs_pickle=True`` unless the caller passes
``allow_pickle=True`` explicitly.
"""

from __future__ import annotations

import os
import stat
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable
from typing import Any

from explorer.core.files.common import FileLoadError, show
from explorer.core.files.naming import check_name, variable_name

__all__ = ["FileLoadError", "prepare_load", "variable_name", "sniff", "FORMATS"]

FORMATS: dict[str, str] = {
    ".npy": "npy",
    ".npz": "npz",
    ".pt": "pt",
    ".pth": "pt",
    ".ckpt": "pt",
    ".bin": "pt",
    ".safetensors": "safetensors",
    **{ext: "image" for ext in (".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff", ".webp")},
}
SCRIPTS = (".py", ".pyw", ".ipynb")
# Signature -> the extension to suggest when an image arrives under a wrong name.
_IMAGE_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", ".png"),
    (b"\xff\xd8\xff", ".jpg"),
    (b"GIF87a", ".gif"),
    (b"GIF89a", ".gif"),
    (b"BM", ".bmp"),
    (b"II*\x00", ".tif"),
    (b"MM\x00*", ".tif"),
)
_CONTENT_LABEL = {
    "npy": "a NumPy .npy array",
    "npz": "a NumPy .npz archive",
    "pt": "a PyTorch checkpoint",
    "safetensors": "a safetensors file",
    "image": "an image",
    "zip": "a zip archive",
    "broken_zip": "a damaged zip archive",
}
_SUGGESTED_EXT = {"npy": ".npy", "npz": ".npz", "pt": ".pt", "safetensors": ".safetensors"}


def _local_path(path: str) -> str:
    """Turn a dropped path or ``file://`` URL into an absolute local path; refuse other URLs."""
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str) or not path.strip():
        raise FileLoadError("No file was given")
    if os.path.lexists(path):  # an odd but real file name wins over URL parsing
        return os.path.abspath(path)
    text = path.strip()
    if "\n" in text or "\r" in text:
        raise FileLoadError("Several paths were given; please load one file at a time")
    parts = urllib.parse.urlsplit(text)
    scheme = parts.scheme.lower()
    if scheme == "file":
        if parts.netloc not in ("", "localhost"):
            raise FileLoadError(
                f"{show(text)} is on another computer ({parts.netloc}); copy it to this one first"
            )
        text = urllib.request.url2pathname(parts.path)
    elif len(scheme) > 1:  # one letter is a Windows drive such as C:
        raise FileLoadError(
            f"{show(text)} is a {scheme} address, not a file on this computer; "
            "download it first and load the saved file"
        )
    return os.path.abspath(os.path.expanduser(text))


def _check_regular_file(path: str) -> int:
    """Return the file size; refuse missing paths, folders, devices, pipes and empty files."""
    shown = show(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise FileLoadError(f"There is no file at {shown}") from None
    except PermissionError:
        raise FileLoadError(f"You do not have permission to open {shown}") from None
    except (OSError, ValueError) as exc:
        raise FileLoadError(f"{shown} cannot be opened ({type(exc).__name__})") from None
    if stat.S_ISDIR(info.st_mode):
        raise FileLoadError(f"{shown} is a folder, not a file; drop a single data file instead")
    if not stat.S_ISREG(info.st_mode):
        # Reading a pipe or a device such as /dev/zero could block or never end.
        raise FileLoadError(f"{shown} is not a regular file (it may be a device or a pipe)")
    if info.st_size == 0:
        raise FileLoadError(f"{show(os.path.basename(path))} is empty (0 bytes)")
    return info.st_size


def _read_head(path: str, size: int = 64) -> bytes:
    """The first bytes of the file, for signature checks."""
    try:
        with open(path, "rb") as fh:
            return fh.read(size)
    except PermissionError:
        raise FileLoadError(f"You do not have permission to read {show(path)}") from None
    except OSError as exc:
        raise FileLoadError(f"{show(path)} cannot be read ({exc.strerror or type(exc).__name__})") from None


def _zip_kind(path: str) -> str:
    """Tell a NumPy ``.npz`` from a PyTorch zip checkpoint by its member names."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
    except Exception:  # noqa: BLE001 - BadZipFile, NotImplementedError (odd versions), OSError ...
        return "broken_zip"
    if any(n == "data.pkl" or n.endswith("/data.pkl") for n in names):
        return "pt"
    # np.savez() with no arrays writes an empty zip; the .npz check then says "no arrays".
    if all(n.endswith(".npy") for n in names):
        return "npz"
    return "zip"


def _looks_like_safetensors(head: bytes, size: int) -> bool:
    """8-byte little-endian header length that fits the file, followed by a JSON object."""
    if len(head) < 9:
        return False
    length = int.from_bytes(head[:8], "little")
    return 2 <= length <= size - 8 and head[8:9] == b"{"


def _image_extension(head: bytes) -> str | None:
    """The usual extension for an image's signature, or None when it is not an image."""
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return ".webp"
    return next((ext for sig, ext in _IMAGE_SIGNATURES if head.startswith(sig)), None)


def sniff(path: str, head: bytes, size: int) -> str | None:
    """Name the format the content looks like ("npy", "npz", "pt", "safetensors", "image", "zip"), or None."""
    if head.startswith(b"\x93NUMPY"):
        return "npy"
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return _zip_kind(path)
    if _image_extension(head):
        return "image"
    # Before the pickle test: a header length such as 0x0280 starts with b"\x80\x02".
    if _looks_like_safetensors(head, size):
        return "safetensors"
    if head[:1] == b"\x80" and head[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05"):
        return "pt"  # a pickle: torch's legacy (pre-zip) format starts this way
    return None


def _format_for(path: str, size: int) -> str:
    """Decide the format from the extension and check the content agrees."""
    base = os.path.basename(path)
    ext = os.path.splitext(base)[1].lower()
    if ext in SCRIPTS:
        raise FileLoadError(f"{show(base)} is a script, not data; open it in the editor")
    expected = FORMATS.get(ext)
    head = _read_head(path)
    content = sniff(path, head, size)
    if expected is None:
        known = "; it looks like " + _CONTENT_LABEL[content] if content in _CONTENT_LABEL else ""
        raise FileLoadError(
            f"Tensor Explorer does not load {show(ext or base)} files{known}; it opens .npy, .npz, .pt, .pth, "
            ".safetensors and image files"
        )
    if content == expected:
        return expected
    if content == "broken_zip" and expected in ("npz", "pt"):
        raise FileLoadError(f"{show(base)} is damaged or truncated: its zip directory cannot be read")
    return _mismatch(base, expected, content, _image_extension(head))


def _mismatch(base: str, expected: str, content: str | None, image_ext: str | None) -> str:
    """Explain an extension that does not match the content (always raises)."""
    if content is None:
        raise FileLoadError(
            f"{show(base)} is not {_CONTENT_LABEL[expected]} (its first bytes do not match the format); "
            "it may be damaged or have the wrong extension"
        )
    if content in ("zip", "broken_zip"):
        raise FileLoadError(f"{show(base)} is a zip archive but not {_CONTENT_LABEL[expected]}")
    rename = image_ext or _SUGGESTED_EXT.get(content, "")
    raise FileLoadError(
        f"{show(base)} is named like {_CONTENT_LABEL[expected]} but holds {_CONTENT_LABEL[content]}; "
        f"rename it to end in {rename} to load it"
    )


def _planner(fmt: str) -> Callable[[str, str, bool], dict[str, Any]]:
    """The format module's planner; imported lazily so torch is imported only for .pt files."""
    if fmt in ("npy", "npz"):
        from explorer.core.files import numpy_format as files_numpy

        return files_numpy.plan_npy if fmt == "npy" else files_numpy.plan_npz
    if fmt == "pt":
        from explorer.core.files.torch_format import plan_pt

        return plan_pt
    if fmt == "safetensors":
        from explorer.core.files.safetensors_format import plan_safetensors

        return plan_safetensors
    from explorer.core.files.image_format import plan_image

    return plan_image


def prepare_load(
    path: str,
    *,
    name: str | None = None,
    taken: Iterable[str] = frozenset(),
    allow_pickle: bool = False,
) -> dict[str, Any]:
    """Validate a data file without running code from it and return the snippet that loads it.

    Parameters
    ----------
    path : str
        A local path or ``file://`` URL (as dropped on the window).
    name : str, optional
        Variable name to use; derived from the file name when omitted.
    taken : iterable of str
        Names already defined in the kernel (a derived name avoids them).
    allow_pickle : bool
        Permit files holding pickled objects (NumPy object arrays, ``torch.save(model)``);
        loading those runs code from the file, so this is never the default.

    Returns
    -------
    dict
        ``name``, ``code`` (Python to run in the kernel), ``format`` ("npy", "npz",
        "pt", "safetensors" or "image"), ``summary`` (one line), ``hint`` (teaching
        note or None) and ``path`` (the absolute path).

    Raises
    ------
    FileLoadError
        With a one-sentence message; ``needs_pickle`` tells whether allowing
        pickles would make the load possible.
    """
    local = _local_path(path)
    size = _check_regular_file(local)
    fmt = _format_for(local, size)
    var = check_name(name) if name is not None else variable_name(local, taken)
    try:
        result = _planner(fmt)(local, var, bool(allow_pickle))
    except FileLoadError:
        raise
    except MemoryError:
        raise FileLoadError(f"There is not enough memory to check {show(os.path.basename(local))}") from None
    except RecursionError:
        raise FileLoadError(f"{show(os.path.basename(local))} is nested too deeply to check safely") from None
    except Exception as exc:  # noqa: BLE001 - last resort: the user still gets one sentence, not a traceback
        raise FileLoadError(
            f"{show(os.path.basename(local))} could not be checked (unexpected {type(exc).__name__}); "
            "it may be damaged"
        ) from exc
    result.update(name=var, path=local)
    return result
