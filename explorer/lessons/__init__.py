"""Ready-made classroom lessons: short scripts stepped through cell by cell.

Every lesson is a file ``NN_slug.py`` in this folder (shipped as package data).
One file holds both languages, so the two cannot drift apart. The format is
kept plain so teachers can write their own:

* line 1: ``# title: <English title>``; line 2: ``# 标题: <Simplified Chinese title>``.
* cells start at lines beginning with ``# %%`` (the usual editor convention);
  text before the first marker is the header and is not a cell.
* every explaining comment is a whole line that says its language:
  ``# en: <English>`` followed by ``# zh: <the same in Chinese>``. Comments
  come in such pairs, English first (:func:`check_lesson` lists the lines that
  break the rule); there are no comments at the end of code lines.
* a header line ``# watch: loss, w.grad`` names what the Watch tab draws while the lesson's
  code runs (name paths, as the inspector writes them); the window sets that watch when the
  lesson opens (:func:`lesson_watch`). In Chinese it reads ``# 监视：loss, w.grad``.
* a cell that raises on purpose carries the line
  ``# this cell fails on purpose: <ExceptionType>`` so the app, the teacher and
  the tests all know the error is the lesson, not a bug. In Chinese it reads
  ``# 本单元格故意出错：<ExceptionType>``; both are recognised.

:func:`render_lesson` gives the text the editor shows: the code, the cell
markers and the comments of one language (or both), without the tags.

Nothing here imports torch: the GUI reads this catalogue to build its menu.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from explorer.protocol.cells import is_cell_marker

__all__ = ["LESSONS", "check_lesson", "lesson_cells", "lesson_path", "lesson_watch", "read_titles", "render_lesson",
           "split_cells"]

LESSON_DIR = Path(__file__).resolve().parent
FAIL_MARKER = "# this cell fails on purpose:"

_FILE_PATTERN = re.compile(r"^(\d{2})_([a-z0-9_]+)\.py$")
_TITLE_EN = re.compile(r"^#\s*title\s*:\s*(.+?)\s*$", re.IGNORECASE)
_TITLE_ZH = re.compile(r"^#\s*标题\s*[:：]\s*(.+?)\s*$")
_FAIL = re.compile(r"^\s*#\s*(?:this cell fails on purpose|本单元格故意出错)\s*[:：]\s*([A-Za-z_][A-Za-z0-9_]*)")
_TAGGED = re.compile(r"^(?P<indent>\s*)#\s*(?P<lang>en|zh):\s?(?P<text>.*)$")
FAIL_MARKER_ZH = "# 本单元格故意出错："
_WATCH = re.compile(r"^#\s*(?:watch|监视)\s*[:：]\s*(.*?)\s*$")
WATCH_MARKER_ZH = "# 监视："


def read_titles(path: str | Path) -> tuple[str, str]:
    """Return ``(title_en, title_zh)`` from the first two lines of a lesson file.

    Parameters
    ----------
    path : str or Path
        The lesson file.

    Returns
    -------
    tuple of str
        English and Chinese titles; an empty string where a line is missing.
    """
    with open(path, encoding="utf-8") as handle:
        head = [handle.readline().rstrip("\n") for _ in range(2)]
    en = _TITLE_EN.match(head[0])
    zh = _TITLE_ZH.match(head[1])
    return (en.group(1) if en else "", zh.group(1) if zh else "")


def lesson_watch(source: str) -> list[str]:
    """The name paths a lesson's header asks the Watch tab to draw (``# watch: loss, w.grad``); [] if none."""
    for line in source.splitlines():
        if is_cell_marker(line):
            break
        match = _WATCH.match(line.strip())
        if match:
            return [name.strip() for name in match.group(1).split(",") if name.strip()]
    return []


def split_cells(source: str) -> list[dict[str, Any]]:
    """Split lesson text at ``# %%`` lines.

    Parameters
    ----------
    source : str
        The whole lesson file.

    Returns
    -------
    list of dict
        One dict per cell: ``source`` (the cell text, marker line included, so
        that line numbers in tracebacks stay meaningful), ``line`` (1-based line
        of the marker in the file) and ``expected_error`` (exception type name
        for cells that fail on purpose, else None).
    """
    cells: list[dict[str, Any]] = []
    current: list[str] | None = None
    start = 0
    for number, line in enumerate(source.splitlines(keepends=True), start=1):
        if is_cell_marker(line):
            if current is not None:
                cells.append(_make_cell(current, start))
            current, start = [line], number
        elif current is not None:
            current.append(line)
    if current is not None:
        cells.append(_make_cell(current, start))
    return cells


def _make_cell(lines: list[str], start: int) -> dict[str, Any]:
    """Build one cell dict, reading its fail-on-purpose marker if any."""
    expected = None
    for line in lines:
        match = _FAIL.match(line)
        if match:
            expected = match.group(1)
            break
    return {"source": "".join(lines), "line": start, "expected_error": expected}


def _scan() -> list[dict[str, str]]:
    """List the lesson files of this folder, sorted by number."""
    lessons = []
    for path in sorted(LESSON_DIR.iterdir()):
        if not _FILE_PATTERN.match(path.name):
            continue
        title_en, title_zh = read_titles(path)
        lessons.append({"id": path.stem, "path": str(path), "title_en": title_en, "title_zh": title_zh})
    return lessons


LESSONS: list[dict[str, str]] = _scan()


def lesson_path(lesson_id: str) -> str:
    """Return the absolute path of a lesson.

    Parameters
    ----------
    lesson_id : str
        The full id (``"03_views"``), its number (``"03"`` or ``"3"``) or its
        slug (``"views"``), so ``tensor-explorer --lesson 3`` works too.

    Returns
    -------
    str
        Absolute path of the lesson file.

    Raises
    ------
    KeyError
        When no lesson matches.
    """
    wanted = lesson_id.strip().lower().removesuffix(".py")
    for lesson in LESSONS:
        number, _, slug = lesson["id"].partition("_")
        if wanted in (lesson["id"], number, slug) or (wanted.isdigit() and int(wanted) == int(number)):
            return lesson["path"]
    known = ", ".join(lesson["id"] for lesson in LESSONS)
    raise KeyError(f"no lesson {lesson_id!r}; known lessons: {known}")


def lesson_cells(lesson_id: str) -> list[dict[str, Any]]:
    """Return the cells of a lesson (see :func:`split_cells`)."""
    return split_cells(Path(lesson_path(lesson_id)).read_text(encoding="utf-8"))


def _language(lang: str) -> str:
    """'zh' for any Chinese locale name ("zh_CN", "zh-CN", "zh"), else 'en'."""
    return "zh" if str(lang).lower().replace("-", "_").startswith("zh") else "en"


def render_lesson(source: str, lang: str, both: bool = False) -> str:
    """The lesson as the editor shows it: code and cell markers, the comments of one language.

    Parameters
    ----------
    source : str
        The lesson file (both languages, tagged comments).
    lang : str
        ``"en"`` or ``"zh_CN"`` (any ``zh`` locale name).
    both : bool, optional
        Keep the comments of both languages (English line, then its Chinese line).

    Returns
    -------
    str
        The text with ``# en:`` / ``# zh:`` tags removed and the other language's comment
        lines (and title) left out; the fail-on-purpose marker in the chosen language.
    """
    want = _language(lang)
    out = []
    for number, line in enumerate(source.splitlines(keepends=True), start=1):
        tagged = _TAGGED.match(line.rstrip("\r\n"))
        ending = line[len(line.rstrip("\r\n")):]
        if tagged:
            if both or tagged.group("lang") == want:
                out.append(f"{tagged.group('indent')}# {tagged.group('text')}".rstrip() + ending)
            continue
        if number <= 2 and not both and _title_language(line) not in (None, want):
            continue
        watch = _WATCH.match(line.strip())
        if watch and want == "zh" and not both:  # the header's watch line, in Chinese (lesson_watch reads both)
            line = f"{WATCH_MARKER_ZH}{watch.group(1)}{ending}"
        fail = _FAIL.match(line)
        if fail and want == "zh" and not both:
            indent = line[: len(line) - len(line.lstrip())]
            line = f"{indent}{FAIL_MARKER_ZH}{fail.group(1)}{ending}"
        out.append(line)
    return "".join(out)


def _title_language(line: str) -> str | None:
    if _TITLE_EN.match(line.rstrip("\r\n")):
        return "en"
    if _TITLE_ZH.match(line.rstrip("\r\n")):
        return "zh"
    return None


def check_lesson(source: str) -> list[str]:
    """Problems with the lesson's comments: untagged explanations, a language without its counterpart.

    Returns
    -------
    list of str
        One entry per problem (``"line 12: ..."``); empty for a well-formed lesson.
    """
    problems: list[str] = []
    pending: tuple[int, str] | None = None  # an English line waiting for its Chinese line
    header = True  # before the first cell: the titles and a "# watch:" line are not explanations
    for number, line in enumerate(source.splitlines(), start=1):
        stripped = line.strip()
        header = header and not is_cell_marker(line)
        tagged = _TAGGED.match(line)
        if tagged:
            lang = tagged.group("lang")
            if lang == "en" and pending is None:
                pending = (number, tagged.group("text"))
            elif lang == "zh" and pending is not None:
                pending = None
            else:
                problems.append(f"line {number}: '# {lang}:' without its {'Chinese' if lang == 'en' else 'English'} line")
                pending = None
            continue
        if pending is not None:
            problems.append(f"line {pending[0]}: English comment without its Chinese line")
            pending = None
        if "#" in stripped and not stripped.startswith("#"):
            problems.append(f"line {number}: a comment at the end of a code line has no language")
        elif stripped.startswith("#") and not (is_cell_marker(line) or _FAIL.match(line)
                                               or (number <= 2 and _title_language(line))
                                               or (header and _WATCH.match(stripped))):
            problems.append(f"line {number}: comment without '# en:' or '# zh:'")
    if pending is not None:
        problems.append(f"line {pending[0]}: English comment without its Chinese line")
    return problems
