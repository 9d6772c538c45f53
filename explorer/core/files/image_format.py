"""Images (PNG, JPEG, BMP, GIF, TIFF, WebP) loaded through Pillow into a NumPy array.

The snippet uses ``np.array`` rather than ``np.asarray``: Pillow hands out a
read-only buffer, and ``torch.from_numpy`` on a read-only array warns, which
would confuse the very next step the hint teaches.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

from explorer.core.files.common import LARGE_BYTES, FileLoadError, human_bytes, plan, show
from explorer.core.i18n import _

_ALPHA_MODES = frozenset({"RGBA", "RGBa", "LA", "La", "PA"})
_GRAY_MODES = frozenset({"1", "L"})
_DEEP_MODES = frozenset({"I", "I;16", "I;16B", "I;16L", "I;16N", "F"})  # kept as-is: converting loses depth


def target_mode(im: Any) -> str | None:
    """The mode the snippet converts to, or None to keep the image's own (high bit depth)."""
    if im.mode in _DEEP_MODES:
        return None
    if im.mode in _GRAY_MODES:
        return "L"
    if im.mode in _ALPHA_MODES or (im.mode == "P" and "transparency" in im.info):
        return "RGBA"
    return "RGB"


def _open_checked(path: str) -> tuple[str, tuple[int, int], str, str | None, int]:
    """Open, verify and decode the image once; return (format, size, mode, target mode, frames)."""
    from PIL import Image, UnidentifiedImageError

    label = show(os.path.basename(path))
    limit = Image.MAX_IMAGE_PIXELS
    try:
        with warnings.catch_warnings():
            # Damaged files make Pillow warn (e.g. corrupt EXIF); the result already says what matters.
            warnings.simplefilter("ignore")
            # Pillow only warns between 1x and 2x its limit; treat that as a bomb too.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                im.verify()
            with Image.open(path) as im:
                fmt, size, frames = im.format or "image", im.size, int(getattr(im, "n_frames", 1))
                _decode(im)
                return fmt, size, im.mode, target_mode(im), frames
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise FileLoadError(_("{file} declares more than {limit} pixels, Pillow's limit against decompression bombs "
                              "(tiny files that expand to huge images).").format(file=label, limit=f"{limit:,}")) from None
    except UnidentifiedImageError:
        raise FileLoadError(_("{file} is not an image Pillow can read.").format(file=label)) from None
    except (OSError, SyntaxError, ValueError, EOFError, IndexError, TypeError, KeyError):
        # Pillow reports truncated data as OSError and broken structure as SyntaxError.
        raise FileLoadError(_("{file} is a damaged or truncated image.").format(file=label)) from None


def _decode(im: Any) -> None:
    """Decode the pixels once, to find damage the headers do not show (the console decodes them again).

    A big PNG is not decoded here: ``verify()`` has already checked every chunk's CRC, which finds
    the same cuts and flipped bytes. A big JPEG is decoded at 1/8 scale, which still reads all of
    its data. So checking a 9000 x 9000 photo no longer costs a second full decode.
    """
    big = im.width * im.height * len(im.getbands()) > LARGE_BYTES
    if big and im.format == "PNG":
        return
    if big and im.format == "JPEG":
        im.draft(im.mode, (max(1, im.width // 8), max(1, im.height // 8)))
    im.load()


def _hint(name: str, mode: str | None, own_mode: str) -> str:
    """How to turn the array into what a model wants."""
    if mode == "L":
        # TRANSLATORS: {code} is a line of Python; H, W and C are the height, width and channels.
        return _("{name} is H x W uint8 (grayscale); a model wants 1 x H x W floats: {code}").format(
            name=name, code=f"torch.from_numpy({name}).unsqueeze(0).float() / 255")
    if mode is None:
        scale = "65535" if own_mode.startswith("I;16") else f"{name}.max()"
        # TRANSLATORS: {mode} is Pillow's name of the pixel format, such as "I;16"; {code} is a line of Python.
        return _("{name} keeps the image's own bit depth ({mode}); scale it to floats with {code}").format(
            name=name, mode=own_mode, code=f"torch.from_numpy({name}.astype('float32')) / {scale}")
    return _("{name} is H x W x C uint8 with C = {count} ({mode}), channels last; a model wants C x H x W floats: "
             "{code}").format(name=name, count=len(mode), mode=mode,
                              code=f"torch.from_numpy({name}).permute(2, 0, 1).float() / 255")


def plan_image(path: str, name: str, allow_pickle: bool) -> dict[str, Any]:
    """Validate an image with Pillow and return the snippet that makes it an array."""
    del allow_pickle  # images hold no code
    fmt, (width, height), own_mode, mode, frames = _open_checked(path)
    convert = f".convert({mode!r})" if mode else ""
    code = (
        # One line, not a ``with`` block, so no helper name (``im``) is left behind in the user's
        # namespace; Pillow closes a single-frame file itself once the pixels are loaded.
        f"import numpy as np\nfrom PIL import Image\n{name} = np.array(Image.open({path!r}){convert})"
    )
    channels = {"L": "", "RGB": " × 3", "RGBA": " × 4"}.get(mode or "", "")
    facts = {"format": fmt, "height": height, "width": width, "channels": channels, "mode": own_mode,
             "size": human_bytes(os.path.getsize(path)), "frames": frames}
    if frames > 1:
        # TRANSLATORS: {format} is the file format (PNG, GIF...); {channels} is empty or " × 3"; {size} e.g. "4.5 KiB".
        summary = _("{format} image, {height} × {width}{channels} ({mode}), {size} on disk, "
                    "first of {frames} frames").format(**facts)
    else:
        summary = _("{format} image, {height} × {width}{channels} ({mode}), {size} on disk").format(**facts)
    return plan("image", code, summary, _hint(name, mode, own_mode))
