"""Explain an exception from the user's code in plain words, with the shapes involved.

``explain`` is called inside the kernel after a run raised; ``hints`` after a run that
did not raise. Both return JSON-able dicts in English or Simplified Chinese.
"""

from __future__ import annotations

import linecache
import os
import sysconfig
import traceback
from types import FrameType, TracebackType
from typing import Any, Iterable

from explorer.core.errors.catalogue import find_entry
from explorer.core.errors.context import ErrorContext, collect_objects, variable_record

__all__ = ["explain", "hints"]

_MAX_MESSAGE = 2000
_MAX_TRACEBACK = 4000
_MAX_VARIABLES = 12
_TRACEBACK_FRAMES = 6


def _library_roots() -> tuple[str, ...]:
    """Folders whose frames are never 'the user's code': the stdlib and this package."""
    paths = sysconfig.get_paths()
    roots = {paths.get("stdlib", ""), paths.get("platstdlib", ""), os.path.dirname(os.path.dirname(__file__))}
    return tuple(os.path.normcase(os.path.abspath(r)) + os.sep for r in roots if r)


_LIBRARY_ROOTS = _library_roots()


def _is_library(filename: str) -> bool:
    """True for frames in site-packages, the standard library, frozen modules or explorer itself."""
    if not filename or filename.startswith("<frozen"):
        return True
    if filename.startswith("<"):  # <cell-1>, <string>: code that was typed, not installed
        return False
    path = os.path.normcase(os.path.abspath(filename))
    if "site-packages" in path or "dist-packages" in path:
        return True
    return path.startswith(_LIBRARY_ROOTS)


def _user_frame(tb: TracebackType | None, code_filenames: Iterable[str]) -> tuple[FrameType, int] | None:
    """The deepest traceback frame that runs the user's code, with its line number."""
    names = set(code_filenames)
    chosen = None
    for frame, lineno in traceback.walk_tb(tb):
        filename = frame.f_code.co_filename
        if (filename in names) if names else not _is_library(filename):
            chosen = (frame, lineno)
    return chosen


def _safe_str(exc: BaseException) -> str:
    """str(exc), which a hostile exception may make raise."""
    try:
        return str(exc)[:_MAX_MESSAGE]
    except Exception:  # noqa: BLE001
        return f"<{type(exc).__name__}: message could not be read>"


def _format_traceback(exc: BaseException) -> str:
    """The last few frames plus the message, as Python prints them."""
    try:
        lines = traceback.format_exception(type(exc), exc, exc.__traceback__, limit=-_TRACEBACK_FRAMES)
        text = "".join(lines)
    except Exception:  # noqa: BLE001
        text = f"{type(exc).__name__}: {_safe_str(exc)}"
    return text if len(text) <= _MAX_TRACEBACK else "…\n" + text[-_MAX_TRACEBACK:]


def _locate(exc: BaseException, code_filenames: Iterable[str]) -> tuple[int | None, str, list[dict[str, Any]]]:
    """(line number, line source, scopes) of the failing line in the user's code."""
    if isinstance(exc, SyntaxError) and exc.lineno:
        names = set(code_filenames)
        if not names or exc.filename in names:
            return exc.lineno, (exc.text or "").strip(), []
    found = _user_frame(exc.__traceback__, code_filenames)
    if found is None:
        return None, "", []
    frame, lineno = found
    line = linecache.getline(frame.f_code.co_filename, lineno, frame.f_globals).strip()
    return lineno, line, [frame.f_locals, frame.f_globals]


def _generic_card(exc: BaseException, ctx: ErrorContext, line: int | None) -> tuple[str, str, str]:
    """Title, explanation and fix for an error the catalogue does not know."""
    kind = type(exc).__name__
    where = ctx.t(f" on line {line}", f"（第 {line} 行）") if line else ""
    shapes = ctx.describe_all()
    listed = ctx.t(f" The values on that line: {shapes}.", f" 这一行涉及的值：{shapes}。") if shapes else ""
    explanation = ctx.t(
        f"Python raised {kind}{where}. The message above says what went wrong.{listed} "
        "Compare the shapes, dtypes and devices with what the operation expects.",
        f"Python 抛出了 {kind}{where}。上面的报错信息说明了原因。{listed}"
        "请把这些形状、dtype 和设备与该运算的要求对照一下。",
    )
    prints = [f"print({n}.shape, {n}.dtype)" for n in list(ctx.tensors)[:3]]
    fix = "\n".join(prints) if prints else f"# {ctx.t('check the values used on this line', '检查这一行用到的值')}"
    return ctx.t(f"{kind} in your code", f"代码中出现 {kind}"), explanation, fix


def _frame_names(tb: TracebackType | None) -> set[str]:
    return {frame.f_code.co_name for frame, _ in traceback.walk_tb(tb)}


def explain(
    exc: BaseException,
    namespace: dict,
    *,
    code_filenames: set[str] = frozenset(),
    lang: str = "en",
) -> dict:
    """Explain an exception raised by the user's code.

    Parameters
    ----------
    exc : BaseException
        The exception, with its traceback.
    namespace : dict
        The user namespace (used after the frame's locals and globals to look names up).
    code_filenames : set of str, optional
        Filenames of the executed cells; empty means "any frame outside libraries".
    lang : str, optional
        ``"en"`` or ``"zh_CN"``.

    Returns
    -------
    dict
        ``type``, ``message``, ``line``, ``title``, ``explanation``, ``fix``, ``variables``,
        ``code_line``, ``key`` (catalogue id or ``"unknown"``) and ``traceback``. Never raises.
    """
    message = _safe_str(exc)
    try:
        line, code_line, scopes = _locate(exc, code_filenames)
        objects = collect_objects(code_line, [*scopes, namespace]) if code_line else {}
        frame_names = _frame_names(exc.__traceback__)
    except Exception:  # noqa: BLE001 - the card must still appear
        line, code_line, objects, frame_names = None, "", {}, set()
    ctx = ErrorContext(lang=lang, message=message, code_line=code_line, objects=objects,
                       frame_names=frame_names, namespace=namespace)
    key, (title, explanation, fix) = _card(exc, ctx, line)
    return {
        "type": type(exc).__name__, "message": message, "line": line, "title": title,
        "explanation": explanation, "fix": fix, "variables": _variables(ctx), "code_line": code_line,
        "key": key, "traceback": _format_traceback(exc),
    }


def _card(exc: BaseException, ctx: ErrorContext, line: int | None) -> tuple[str, tuple[str, str, str]]:
    """(key, card) from the catalogue, or the generic card."""
    try:
        found = find_entry(exc, ctx)
        if found is not None:
            ctx.match = found[1]
            return found[0].key, found[0].build(ctx)
    except Exception:  # noqa: BLE001 - a catalogue bug must not hide the error itself
        pass
    return "unknown", _generic_card(exc, ctx, line)


def _variables(ctx: ErrorContext) -> list[dict[str, Any]]:
    """Records of the tensors/arrays named on the failing line."""
    records = []
    for name, value in list(ctx.tensors.items())[:_MAX_VARIABLES]:
        try:
            records.append(variable_record(name, value))
        except Exception:  # noqa: BLE001
            continue
    return records


def hints(code: str, namespace: dict, *, lang: str = "en") -> list[dict]:
    """Teaching hints for code that ran without raising (see :mod:`explorer.core.errors.hints`).

    Returns
    -------
    list of dict
        Each ``{"key", "line", "title", "explanation", "fix"}``; ``[]`` when nothing to say
        or when the code does not parse. Never raises.
    """
    from explorer.core.errors.hints import find_hints

    try:
        return find_hints(code, namespace, lang=lang)
    except Exception:  # noqa: BLE001 - hints are optional teaching aids
        return []
