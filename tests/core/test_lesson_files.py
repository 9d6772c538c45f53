"""The lesson catalogue and the lesson files' form (titles, cells, bilingual comments that fit a projector),
and the app's icon and desktop entry. What the lessons teach, run cell by cell, is ``test_lessons.py``."""

from __future__ import annotations

import ast
import re
import unicodedata
from pathlib import Path

import pytest

from explorer.lessons import (
    LESSON_DIR,
    LESSONS,
    check_lesson,
    lesson_cells,
    lesson_path,
    read_titles,
    render_lesson,
    split_cells,
)

IDS = [lesson["id"] for lesson in LESSONS]
CJK = re.compile(r"[\u4e00-\u9fff]")
# Width of a projector line, counting a Chinese character as two columns.
MAX_COLUMNS = 90


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


# -- catalogue ---------------------------------------------------------------

def test_catalogue_lists_eight_to_twelve_numbered_lessons() -> None:
    assert 8 <= len(LESSONS) <= 12
    assert sorted(IDS) == IDS
    assert len(set(IDS)) == len(IDS)
    for lesson in LESSONS:
        path = Path(lesson["path"])
        assert path.is_absolute() and path.is_file()
        assert path.parent == LESSON_DIR
        assert path.stem == lesson["id"]
        assert re.fullmatch(r"\d{2}_[a-z0-9_]+", lesson["id"])


def test_catalogue_ignores_the_package_init() -> None:
    assert "__init__" not in IDS
    assert all(Path(lesson["path"]).name != "__init__.py" for lesson in LESSONS)


@pytest.mark.parametrize("lesson_id", IDS)
def test_lesson_has_titles_in_both_languages(lesson_id: str) -> None:
    lesson = next(item for item in LESSONS if item["id"] == lesson_id)
    assert lesson["title_en"] and lesson["title_en"].isascii()
    assert CJK.search(lesson["title_zh"])
    assert (lesson["title_en"], lesson["title_zh"]) == read_titles(lesson["path"])


@pytest.mark.parametrize("lesson_id", IDS)
def test_lesson_parses_and_has_at_least_three_cells(lesson_id: str) -> None:
    text = Path(lesson_path(lesson_id)).read_text(encoding="utf-8")
    ast.parse(text)
    cells = lesson_cells(lesson_id)
    assert len(cells) >= 3
    assert all(cell["source"].startswith("# %%") for cell in cells)


@pytest.mark.parametrize("lesson_id", IDS)
def test_comments_are_bilingual_pairs_that_fit_a_projector(lesson_id: str) -> None:
    text = Path(lesson_path(lesson_id)).read_text(encoding="utf-8")
    assert check_lesson(text) == []
    for cell in lesson_cells(lesson_id):
        lines = cell["source"].splitlines()[1:]
        english = [line.split("# en:", 1)[1] for line in lines if line.strip().startswith("# en:")]
        chinese = [line.split("# zh:", 1)[1] for line in lines if line.strip().startswith("# zh:")]
        assert english, f"cell at line {cell['line']} explains nothing"
        assert len(english) == len(chinese)
        assert not any(CJK.search(line) for line in english), english
        assert all(CJK.search(line) for line in chinese), chinese
    for line in render_lesson(text, "en", both=True).splitlines():
        assert _width(line) <= MAX_COLUMNS, line


@pytest.mark.parametrize(("source", "problem"), [
    ("# %%\n# en: one\nx = 1\n", "line 2: English comment without its Chinese line"),
    ("# %%\n# zh: 一\nx = 1\n", "line 2: '# zh:' without its English line"),
    ("# %%\n# just words\nx = 1\n", "line 2: comment without '# en:' or '# zh:'"),
    ("# %%\n# en: one\n# zh: 一\nx = 1  # why\n", "line 4: a comment at the end of a code line has no language"),
    ("# %%\n# en: one\n# en: two\n# zh: 二\nx = 1\n", "line 3: '# en:' without its Chinese line"),
])
def test_check_lesson_finds_unpaired_comments(source: str, problem: str) -> None:
    assert problem in check_lesson(source)


@pytest.mark.parametrize("lesson_id", IDS)
def test_render_shows_one_language_and_keeps_the_code(lesson_id: str) -> None:
    text = Path(lesson_path(lesson_id)).read_text(encoding="utf-8")
    english, chinese, both = render_lesson(text, "en"), render_lesson(text, "zh_CN"), render_lesson(text, "en", both=True)
    assert not CJK.search(english) and "# en:" not in english and "# zh:" not in chinese
    comments = [line for line in chinese.splitlines() if line.startswith("#") and not line.startswith("# %%")]
    assert comments and all(CJK.search(line) for line in comments), [c for c in comments if not CJK.search(c)]
    code = lambda rendered: [line for line in rendered.splitlines() if not line.lstrip().startswith("#")]  # noqa: E731
    assert code(english) == code(chinese) == code(both) == code(text)
    assert len(both.splitlines()) == len(text.splitlines())
    assert [c["expected_error"] for c in split_cells(chinese)] == [c["expected_error"] for c in lesson_cells(lesson_id)]
    assert read_titles(lesson_path(lesson_id))[0] in english and read_titles(lesson_path(lesson_id))[1] in chinese


def test_lesson_path_accepts_id_number_and_slug() -> None:
    first = LESSONS[0]
    number, _, slug = first["id"].partition("_")
    for spelling in (first["id"], number, str(int(number)), slug, first["id"] + ".py"):
        assert lesson_path(spelling) == first["path"]
    with pytest.raises(KeyError):
        lesson_path("no_such_lesson")
    with pytest.raises(KeyError):
        lesson_path("99")


# -- cell splitting -------------------------------------------------------------

def test_split_cells_skips_header_and_reads_markers() -> None:
    text = (
        "# title: T\n# 标题: 标\n\n"
        "# %%\nx = 1\n"
        "# %% second\n# this cell fails on purpose: ZeroDivisionError\n1 / 0\n"
        "# %%\n"
    )
    cells = split_cells(text)
    assert [cell["line"] for cell in cells] == [4, 6, 9]
    assert cells[0]["source"] == "# %%\nx = 1\n"
    assert [cell["expected_error"] for cell in cells] == [None, "ZeroDivisionError", None]


def test_split_cells_without_markers_has_no_cells() -> None:
    assert split_cells("x = 1\n") == []
    assert split_cells("") == []


def test_read_titles_missing_lines_give_empty_strings(tmp_path: Path) -> None:
    path = tmp_path / "01_empty.py"
    path.write_text("x = 1\n", encoding="utf-8")
    assert read_titles(path) == ("", "")
    path.write_text("# title: Only English\n", encoding="utf-8")
    assert read_titles(path) == ("Only English", "")


# -- running ---------------------------------------------------------------------


# -- icon and desktop entry ----------------------------------------------------

REPO = Path(__file__).resolve().parents[2]


def test_icon_is_a_square_svg_with_a_few_colours() -> None:
    import xml.etree.ElementTree as ET

    root = ET.parse(REPO / "explorer" / "resources" / "icon.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("viewBox") == "0 0 64 64"
    fills = {el.get("fill") for el in root.iter() if el.get("fill") not in (None, "none")}
    assert 2 <= len(fills) <= 3


def test_desktop_entry_has_the_required_keys() -> None:
    import configparser

    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # keys are case-sensitive in desktop entries
    parser.read(REPO / "explorer" / "resources" / "tensor-explorer.desktop", encoding="utf-8")
    entry = parser["Desktop Entry"]
    assert entry["Type"] == "Application" and entry["Name"] == "Tensor Explorer"
    assert entry["Name[zh_CN]"] == "张量浏览器"
    assert entry["Exec"] == "tensor-explorer-gui %F" and entry["Icon"] == "tensor-explorer"
    assert entry["Categories"] == "Education;Science;Development;"
    assert CJK.search(entry["Comment[zh_CN]"]) and entry["Comment"].isascii()
    assert all(mime.count("/") == 1 for mime in entry["MimeType"].rstrip(";").split(";"))
