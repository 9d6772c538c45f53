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
from typing import Any, NoReturn

from explorer.core.files.common import FileLoadError, show
from explorer.core.files.naming import check_name, variable_name
from explorer.core.i18n import N_, _

__all__ = ["FORMATS", "FileLoadError", "prepare_load", "sniff", "variable_name"]

FORMATS: dict[str, str] = {
    ".npy": "npy",
    ".npz": "npz",
    ".pt": "pt",
    ".pth": "pt",
    ".ckpt": "pt",
    ".bin": "pt",
    ".safetensors": "safetensors",
    **dict.fromkeys((".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff", ".webp"), "image"),
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
# TRANSLATORS: what a file is or holds, as it reads inside "{file} is not {kind}" and
# "{file} is named like {expected} but holds {content}" (with the article: "a ...", "an ...").
_CONTENT_LABEL = {
    "npy": N_("a NumPy .npy array"),
    "npz": N_("a NumPy .npz archive"),
    "pt": N_("a PyTorch checkpoint"),
    "safetensors": N_("a safetensors file"),
    "image": N_("an image"),
    "zip": N_("a zip archive"),
    "broken_zip": N_("a damaged zip archive"),
}
_SUGGESTED_EXT = {"npy": ".npy", "npz": ".npz", "pt": ".pt", "safetensors": ".safetensors"}


def _kind(content: str) -> str:
    """What a format's files are, in the current language ("a PyTorch checkpoint")."""
    return _(_CONTENT_LABEL[content])


def _local_path(path: object) -> str:
    """Turn a dropped path or ``file://`` URL into an absolute local path; refuse other URLs."""
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str) or not path.strip():
        raise FileLoadError(_("No file was given."))
    if os.path.lexists(path):  # an odd but real file name wins over URL parsing
        return os.path.abspath(path)
    text = path.strip()
    if "\n" in text or "\r" in text:
        raise FileLoadError(_("Several paths were given; please load one file at a time."))
    parts = urllib.parse.urlsplit(text)
    scheme = parts.scheme.lower()
    if scheme == "file":
        if parts.netloc not in ("", "localhost"):
            raise FileLoadError(_("{file} is on another computer ({host}); copy it to this one first.").format(
                file=show(text), host=parts.netloc))
        text = urllib.request.url2pathname(parts.path)
    elif len(scheme) > 1:  # one letter is a Windows drive such as C:
        # TRANSLATORS: {scheme} is the start of the address, such as "https" or "ftp".
        raise FileLoadError(_("{file} is an internet address ({scheme}), not a file on this computer; "
                              "download it first and load the saved file.").format(file=show(text), scheme=scheme))
    return os.path.abspath(os.path.expanduser(text))


def _check_regular_file(path: str) -> int:
    """Return the file size; refuse missing paths, folders, devices, pipes and empty files."""
    shown = show(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise FileLoadError(_("There is no file at {file}.").format(file=shown)) from None
    except PermissionError:
        raise FileLoadError(_("You do not have permission to open {file}.").format(file=shown)) from None
    except (OSError, ValueError) as exc:
        # TRANSLATORS: {error} is the name of a Python exception, such as OSError.
        raise FileLoadError(_("{file} cannot be opened ({error}).").format(
            file=shown, error=type(exc).__name__)) from None
    if stat.S_ISDIR(info.st_mode):
        raise FileLoadError(_("{file} is a folder, not a file; drop a single data file instead.").format(file=shown))
    if not stat.S_ISREG(info.st_mode):
        # Reading a pipe or a device such as /dev/zero could block or never end.
        raise FileLoadError(_("{file} is not a regular file (it may be a device or a pipe).").format(file=shown))
    if info.st_size == 0:
        raise FileLoadError(_("{file} is empty (0 bytes).").format(file=show(os.path.basename(path))))
    return info.st_size


def _read_head(path: str, size: int = 64) -> bytes:
    """The first bytes of the file, for signature checks."""
    try:
        with open(path, "rb") as fh:
            return fh.read(size)
    except PermissionError:
        raise FileLoadError(_("You do not have permission to read {file}.").format(file=show(path))) from None
    except OSError as exc:
        # TRANSLATORS: {error} is the operating system's own words, such as "Input/output error".
        raise FileLoadError(_("{file} cannot be read ({error}).").format(
            file=show(path), error=exc.strerror or type(exc).__name__)) from None


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
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
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
        raise FileLoadError(_("{file} is a script, not data; open it in the editor.").format(file=show(base)))
    expected = FORMATS.get(ext)
    head = _read_head(path)
    content = sniff(path, head, size)
    if expected is None:
        _refuse_extension(show(ext or base), content)
    if content == expected:
        return expected
    if content == "broken_zip" and expected in ("npz", "pt"):
        raise FileLoadError(_("{file} is damaged or truncated: its zip directory cannot be read.").format(
            file=show(base)))
    return _mismatch(base, expected, content, _image_extension(head))


def _refuse_extension(ext: str, content: str | None) -> NoReturn:
    """Explain an extension we do not load, naming what the content looks like when we can (always raises)."""
    if content in _CONTENT_LABEL:
        raise FileLoadError(_("Tensor Explorer does not load {ext} files (this one looks like {kind}); it opens "
                              ".npy, .npz, .pt, .pth, .safetensors and image files.").format(
            ext=ext, kind=_kind(content)))
    raise FileLoadError(_("Tensor Explorer does not load {ext} files; it opens .npy, .npz, .pt, .pth, "
                          ".safetensors and image files.").format(ext=ext))


def _mismatch(base: str, expected: str, content: str | None, image_ext: str | None) -> str:
    """Explain an extension that does not match the content (always raises)."""
    if content is None:
        raise FileLoadError(_("{file} is not {kind} (its first bytes do not match the format); "
                              "it may be damaged or have the wrong extension.").format(
            file=show(base), kind=_kind(expected)))
    if content in ("zip", "broken_zip"):
        raise FileLoadError(_("{file} is a zip archive but not {kind}.").format(file=show(base), kind=_kind(expected)))
    rename = image_ext or _SUGGESTED_EXT.get(content, "")
    raise FileLoadError(_("{file} is named like {expected} but holds {content}; "
                          "rename it to end in {ext} to load it.").format(
        file=show(base), expected=_kind(expected), content=_kind(content), ext=rename))


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
        raise FileLoadError(_("There is not enough memory to check {file}.").format(
            file=show(os.path.basename(local)))) from None
    except RecursionError:
        raise FileLoadError(_("{file} is nested too deeply to check safely.").format(
            file=show(os.path.basename(local)))) from None
    except Exception as exc:
        # TRANSLATORS: {error} is the name of a Python exception, such as KeyError.
        raise FileLoadError(_("{file} could not be checked (unexpected {error}); it may be damaged.").format(
            file=show(os.path.basename(local)), error=type(exc).__name__)) from exc
    result.update(name=var, path=local)
    return result
