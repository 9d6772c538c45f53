"""Explain an exception from the learner's code in plain words, with the shapes involved.

``explain`` is called inside the kernel after a run raised, ``hints`` after a run that
did not raise, ``explain_warning`` for a warning the learner's code triggered. They
return JSON-able card dicts in the language set with ``explorer.core.i18n.set_language``
(or the ``lang`` given). A card's ``fix`` is built from the learner's own statement and
names: when that cannot be done safely it is advice in comment lines, never code that fails.
"""

from __future__ import annotations

import contextlib
import traceback
import warnings
from collections.abc import Iterable, Iterator
from types import FrameType, TracebackType

from explorer.core import i18n
from explorer.core.errors import frames
from explorer.core.errors.cards import card_dict, is_user_file, source_of
from explorer.core.errors.catalogue import find_entry
from explorer.core.errors.context import ErrorContext, context_for, join
from explorer.core.errors.entry import Card
from explorer.core.errors.hints import find_hints
from explorer.core.errors.source import cell_offset, comment_lines
from explorer.core.errors.warned import warning_card
from explorer.core.i18n import _

__all__ = ["explain", "explain_warning", "hints", "is_clean_exit"]

_MAX_MESSAGE = 2000
_MAX_TRACEBACK = 4000
_TRACEBACK_FRAMES = 6


def _user_frame(tb: TracebackType | None, code_filenames: Iterable[str]) -> tuple[FrameType, int] | None:
    """The deepest traceback frame that runs the learner's code, with its line number."""
    chosen = None
    for frame, lineno in traceback.walk_tb(tb):
        if is_user_file(frame.f_code.co_filename, code_filenames):
            chosen = (frame, lineno)
    return chosen


def _safe_str(exc: BaseException) -> str:
    """str(exc), which a hostile exception may make raise."""
    try:
        if isinstance(exc, SyntaxError) and isinstance(exc.msg, str):
            return exc.msg[:_MAX_MESSAGE]  # str() adds "(file, line N)" with the line Python counted
        return str(exc)[:_MAX_MESSAGE]
    except Exception:  # noqa: BLE001
        return _("<{kind}: the message could not be read>").format(kind=type(exc).__name__)


def _format_traceback(exc: BaseException) -> str:
    """The last few frames plus the message, as Python prints them."""
    try:
        lines = traceback.format_exception(type(exc), exc, exc.__traceback__, limit=-_TRACEBACK_FRAMES)
        text = "".join(lines)
    except Exception:  # noqa: BLE001
        text = f"{type(exc).__name__}: {_safe_str(exc)}"
    return text if len(text) <= _MAX_TRACEBACK else "…\n" + text[-_MAX_TRACEBACK:]


def _locate(exc: BaseException, namespace: dict, code_filenames: Iterable[str]) -> tuple[str, int | None, list[dict]]:
    """(source of the failing file, line in it, scopes) for the failing line of the learner's code."""
    if isinstance(exc, SyntaxError) and exc.lineno and is_user_file(exc.filename or "<unknown>", code_filenames):
        return source_of(exc.filename or "") or (exc.text or ""), exc.lineno, [namespace]
    found = _user_frame(exc.__traceback__, code_filenames)
    if found is None:
        return "", None, [namespace]
    frame, lineno = found
    # f_locals need not be a dict (a proxy on newer Pythons): only real dicts are searched.
    scopes: list[object] = [frame.f_locals, frame.f_globals, namespace]
    return source_of(frame.f_code.co_filename, frame.f_globals), lineno, [s for s in scopes if isinstance(s, dict)]


def is_clean_exit(exc: BaseException) -> bool:
    """``sys.exit()``, ``sys.exit(0)``, ``raise SystemExit(None)``: a normal end of the script, not an error."""
    return isinstance(exc, SystemExit) and exc.code in (None, 0, False)


@contextlib.contextmanager
def language(lang: str | None) -> Iterator[None]:
    """Write in *lang* for the duration (the language already set when None); reading values warns nobody."""
    with warnings.catch_warnings(), i18n.speaking(lang):
        warnings.simplefilter("ignore")  # a value read to explain must not add a warning card of its own
        yield


def _generic_card(exc: BaseException, ctx: ErrorContext, line: int | None) -> Card:
    """The card for an error the catalogue does not know."""
    kind = type(exc).__name__
    if line:
        said = _("Python stopped with {kind} on line {line}.").format(kind=kind, line=line)
    else:
        said = _("Python stopped with {kind}.").format(kind=kind)
    listed = ctx.describe_all()
    values = _("The values on that line: {values}.").format(values=listed) if listed else ""
    explanation = join(said, _("The message above says what went wrong."), values,
                       _("Compare the shapes, dtypes and devices with what the operation expects."))
    advice = comment_lines(_("read the message, then check the values used on this line"))
    return Card(_("{kind} in your code").format(kind=kind), explanation, advice, mode=None)


def _card(exc: BaseException, ctx: ErrorContext, line: int | None) -> tuple[str, Card]:
    """(key, card) from the catalogue, or the generic card."""
    try:
        found = find_entry(exc, ctx)
        if found is not None:
            ctx.match = found[1]
            return found[0].key, found[0].build(ctx)
    except Exception:  # noqa: BLE001 - a catalogue bug must not hide the error itself
        pass
    return "unknown", _generic_card(exc, ctx, line)


def explain(exc: BaseException, namespace: dict, *, code_filenames: Iterable[str] = frozenset(),
            lang: str | None = None, code: str | None = None) -> dict | None:
    """Explain an exception raised by the learner's code.

    Parameters
    ----------
    exc : BaseException
        The exception, with its traceback.
    namespace : dict
        The learner's namespace (used after the frame's locals and globals to look names up).
    code_filenames : iterable of str, optional
        Filenames of the executed cells; empty means "any frame outside libraries".
    lang : str, optional
        ``"en"`` or ``"zh_CN"``; default: the language set with ``i18n.set_language``.
    code : str, optional
        The code that was submitted (file, cell or selection), so that ``line`` counts
        its lines even where Python dropped leading blank lines.

    Returns
    -------
    dict or None
        ``type``, ``message``, ``line``, ``title``, ``explanation``, ``fix``, ``fix_mode``,
        ``fix_line``, ``severity`` ("error"), ``variables``, ``code_line``, ``key``
        (catalogue id or ``"unknown"``) and ``traceback``; None for a clean ``sys.exit()``.
        Never raises.
    """
    if is_clean_exit(exc):
        return None
    code_filenames = frozenset(code_filenames)
    with language(lang):
        message = _safe_str(exc)
        try:
            source, line, scopes = _locate(exc, namespace, code_filenames)
            frame_names = {frame.f_code.co_name for frame, _ in traceback.walk_tb(exc.__traceback__)}
            ctx = context_for(message, source, line, scopes, frame_names)
            frames.attach(ctx, exc.__traceback__, lambda name: is_user_file(name, code_filenames), namespace)
        except Exception:  # noqa: BLE001 - the card must still appear
            source, ctx = "", ErrorContext(message=message, scopes=[namespace])
        offset = (cell_offset(code, source) or 0) if code is not None and source else 0
        key, card = _card(exc, ctx, ctx.line + offset if ctx.line else None)
        out = card_dict(key, card, ctx, offset, "error")
        return {"type": type(exc).__name__, "message": message, **out, "traceback": _format_traceback(exc)}


def hints(code: str, namespace: dict, *, lang: str | None = None) -> list[dict]:
    """Teaching hints for code that ran without raising (see :mod:`explorer.core.errors.hints`).

    Returns
    -------
    list of dict
        Each ``{"key", "severity": "hint", "line", "title", "explanation", "fix", "fix_mode",
        "fix_line"}``, lines counted in *code*; ``[]`` when there is nothing to say or the code
        does not parse. Never raises.
    """
    with language(lang):
        try:
            return find_hints(code, namespace)
        except Exception:  # noqa: BLE001 - hints are optional teaching aids
            return []


def explain_warning(message: Warning | str, category: type | str, filename: str, lineno: int | None,
                    namespace: dict, code: str | None = None, *, code_filenames: Iterable[str] = frozenset(),
                    lang: str | None = None, frame: FrameType | None = None) -> dict | None:
    """A quiet card (``"severity": "warning"``) for a warning the learner's code triggered.

    Parameters
    ----------
    message, category, filename, lineno
        As ``warnings.showwarning`` receives them.
    namespace : dict
        The learner's namespace.
    code : str, optional
        The submitted code (see :func:`explain`).
    code_filenames, lang
        As for :func:`explain`.
    frame : frame, optional
        The frame that was running when the warning was shown (``sys._getframe()`` in the
        hook): when *filename* is inside a library, the card points at the learner's line
        that called it.

    Returns
    -------
    dict or None
        The card (keys as :func:`explain`'s, ``severity`` "warning", ``key`` an entry or
        ``"warning"``); None for a warning that did not come from the learner's code. Never raises.
    """
    with language(lang):
        try:
            return warning_card(str(message), category, filename, lineno, namespace, code, code_filenames, frame)
        except Exception:  # noqa: BLE001 - a warning card is a teaching aid
            return None
