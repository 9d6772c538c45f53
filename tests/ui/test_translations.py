"""The interface's Qt catalogs: complete, in step with the code, placeholders kept, the seed's words.

``explorer/ui/translations/*.ts`` are what ``pyside6-lupdate`` extracts from the
``tr()`` calls; the ``.qm`` next to them must be what ``pyside6-lrelease`` makes
of them (``scripts/i18n.py check qt``). The runtime checks go through the real
installed ``QTranslator``, as the app does.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import shutil
import string
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication

from explorer.ui import i18n

ROOT = Path(__file__).resolve().parents[2]
UI_DIR = ROOT / "explorer" / "ui"
TS_DIR = i18n.TRANSLATIONS_DIR
_MNEMONIC = re.compile(r"&([^&\s])")
_POSITIONAL = re.compile(r"%L?(\d|n)")


@dataclass(frozen=True)
class Entry:
    """One message of a .ts file."""

    context: str
    source: str
    comment: str | None
    numerus: bool
    forms: tuple[str, ...]
    state: str | None  # "unfinished", "obsolete", "vanished" or None when finished

    @property
    def label(self) -> str:
        return f"{self.context}: {self.source!r}"


def read_ts(path: Path) -> list[Entry]:
    entries = []
    for context in ET.parse(path).getroot().iter("context"):
        for message in context.iter("message"):
            translation = message.find("translation")
            numerus = message.get("numerus") == "yes"
            forms = [f.text or "" for f in translation.findall("numerusform")] if numerus else [translation.text or ""]
            entries.append(Entry(context.findtext("name"), message.findtext("source"), message.findtext("comment"),
                                 numerus, tuple(forms), translation.get("type")))
    return entries


ZH = read_ts(TS_DIR / "zh_CN.ts")
EN = read_ts(TS_DIR / "en.ts")


def _i18n_script():
    spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fields(text: str) -> list[str]:
    """The ``{field}`` names of a str.format template (repeated as often as they occur)."""
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


def qt_markers(text: str) -> list[str]:
    """Qt's own markers: %n (the plural count) and %1..%9."""
    return sorted(_POSITIONAL.findall(text))


# ---------------------------------------------------------------- the glossary
#: Words the seed tutorial does not use, and what it says instead.
FORBIDDEN = {
    "叶子张量": "叶子节点",
    "叶子(?!节点)": "叶子节点",
    "下标": "索引",
    "色图": "颜色映射",
    "修改方法": "解决方法",
    # 格 alone for a cell; 单元格, 格式, 表格, 网格 and the like are other words
    "(?<!单元)(?<!表)(?<!网)(?<!价)(?<!严)(?<!规)(?<!资)(?<!风)(?<!性)(?<!空)格(?![式外])": "单元格",
    r"\d+ 个数": "个元素",
    "。 ": "。 without a space",
    "[\u4e00-\u9fff][,:;!?]": "full-width punctuation after Chinese: ，：；！？",
}


def glossary_problems(text: str) -> list[str]:
    return [f"{re.search(bad, text).group(0)!r} -> {good}" for bad, good in FORBIDDEN.items() if re.search(bad, text)]


@pytest.mark.parametrize("text, flagged", [
    ("叶子张量", True), ("它是叶子。", True), ("叶子节点", False), ("这个非叶子节点", False),
    ("第 2 维的下标", True), ("颜色映射", False), ("色图：", True), ("修改方法", True), ("解决方法", False),
    ("每格 = 1 字节", True), ("这一格", True), ("逐格运行", True), ("第 3 格", True),
    ("单元格", False), ("文件格式", False), ("表格", False), ("网格", False), ("格外", False),
    ("共 3 个数", True), ("元素个数", False), ("零值个数", False),
    ("已停止。 下一步", True), ("名称:", True), ("Python 脚本 (*.py);;所有文件 (*)", False),
])
def test_glossary_check(text: str, flagged: bool) -> None:
    assert bool(glossary_problems(text)) == flagged


def test_chinese_uses_the_seed_tutorials_words() -> None:
    wrong = {e.label: problems for e in ZH for form in e.forms if (problems := glossary_problems(form))}
    assert not wrong, wrong


def test_the_card_says_how_to_fix_it() -> None:
    assert _zh("ErrorCardView", "Fix") == "解决方法"
    assert _zh("InspectorColumns", "Leaf") == "叶子节点"
    assert _zh("ImageView", "Colormap:") == "颜色映射："


def _zh(context: str, source: str) -> str:
    return next(e.forms[0] for e in ZH if e.context == context and e.source == source)


# ---------------------------------------------------------------- the catalogs are complete and current
def test_catalogs_hold_the_ui_strings() -> None:
    # Guards the checks below against a catalog that silently lost its entries.
    assert len(ZH) > 200 and {e.context for e in ZH} >= {"MainActions", "InspectorColumns", "ErrorCardView", "GraphView"}
    assert EN and all(e.numerus for e in EN)


@pytest.mark.parametrize("entries", [ZH, EN], ids=["zh_CN", "en"])
def test_no_entry_is_unfinished_or_obsolete(entries: list[Entry]) -> None:
    wrong = [f"{e.label} ({e.state or 'empty'})" for e in entries if e.state or not all(f.strip() for f in e.forms)]
    assert not wrong, "finish these in the .ts, then run scripts/i18n.py compile:\n" + "\n".join(wrong)


def test_catalogs_are_in_step_with_the_code() -> None:
    # lupdate would add no string and drop none; each .qm is what lrelease makes of its .ts.
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "i18n.py"), "check", "qt"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_the_check_notices_a_stale_qm_and_a_vanished_string(tmp_path: Path, monkeypatch) -> None:
    script = _i18n_script()
    copy = tmp_path / "translations"
    shutil.copytree(TS_DIR, copy)
    monkeypatch.setattr(script, "TS_DIR", copy)
    assert script.qt_stale() == []
    (copy / "en.qm").write_bytes((copy / "en.qm").read_bytes() + b"\0")
    assert [Path(line.split()[3]).name for line in script.qt_stale()] == ["en.qm"]
    ts = copy / "zh_CN.ts"
    ts.write_text(ts.read_text(encoding="utf-8").replace("<source>Kernel idle</source>", "<source>Kernel is idle</source>"),
                  encoding="utf-8")
    assert "zh_CN.ts" in "\n".join(script.qt_stale())


def test_english_holds_exactly_the_plural_messages() -> None:
    numerus = {(e.context, e.source) for e in ZH if e.numerus}
    assert numerus and {(e.context, e.source) for e in EN} == numerus


# ---------------------------------------------------------------- placeholders survive translation
@pytest.mark.parametrize("entries", [ZH, EN], ids=["zh_CN", "en"])
def test_translations_keep_placeholders(entries: list[Entry]) -> None:
    wrong = [f"{e.label} -> {form!r}" for e in entries for form in e.forms
             if fields(form) != fields(e.source) or qt_markers(form) != qt_markers(e.source)]
    assert not wrong, "placeholders differ:\n" + "\n".join(wrong)


def test_translations_keep_mnemonics() -> None:
    # "&Run" -> "运行(&R)": the same access key, last and in parentheses, as Chinese desktop software does.
    wrong = []
    for e in ZH:
        keys = [m.upper() for m in _MNEMONIC.findall(e.source)]
        for form in e.forms:
            if [m.upper() for m in _MNEMONIC.findall(form)] != keys or (keys and not re.search(r"\(&[A-Z]\)(…)?$", form)):
                wrong.append(f"{e.label} -> {form!r}")
    assert not wrong, wrong


@pytest.fixture
def chinese(qapp):
    i18n.install_language("zh_CN")
    yield
    i18n.install_language("en")


def _distinct_values(source: str) -> dict[str, str]:
    return {name: f"⟨v{i}⟩" for i, name in enumerate(sorted(set(fields(source))))}


def test_values_come_back_once_each_through_the_installed_translator(chinese) -> None:
    # Swapped or dropped placeholders show here: every value appears as often as in the English.
    count = 987_654
    checked, wrong = 0, []
    for e in ZH:
        values = _distinct_values(e.source)
        if not values and "%n" not in e.source:
            continue
        text = QCoreApplication.translate(e.context, e.source, e.comment, count if e.numerus else -1)
        if e.forms[0] != e.source:
            assert text != e.source.replace("%n", str(count)), f"not translated at run time: {e.label}"
        filled = text.format(**values)
        expected = {value: fields(e.source).count(name) for name, value in values.items()}
        if "%n" in e.source:
            expected[str(count)] = e.source.count("%n")
        got = {value: filled.count(value) for value in expected}
        if got != expected:
            wrong.append(f"{e.label}: {filled!r}")
        checked += 1
    assert checked > 40 and not wrong, wrong


# ---------------------------------------------------------------- plurals, in English too
@pytest.mark.parametrize("n, expected", [(1, "1 file could not be opened:"), (4, "4 files could not be opened:"),
                                         (0, "0 files could not be opened:")])
def test_english_plurals_follow_the_count(qapp, n: int, expected: str) -> None:
    from explorer.ui.window.data_dialogs import FileCountText

    i18n.install_language("en")
    assert FileCountText().not_opened(n) == expected


def test_no_english_plural_shows_a_bracketed_s(qapp) -> None:
    i18n.install_language("en")
    for e in EN:
        one, many = (QCoreApplication.translate(e.context, e.source, e.comment, n) for n in (1, 2))
        assert "(s)" not in one + many and one != many, (e.label, one, many)


# ---------------------------------------------------------------- the strings reach lupdate
def _ui_modules() -> list[Path]:
    return sorted(UI_DIR.rglob("*.py"))


def _translation_calls(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("tr", "translate"):
            yield node


@pytest.mark.parametrize("path", _ui_modules(), ids=lambda p: p.stem)
def test_every_translation_call_is_one_lupdate_reads(path: Path) -> None:
    # lupdate sees only literal texts; the lupdate of PySide6 6.11 also drops a call whose arguments hold
    # any expression (len(x), a.b) and reads plurals only from self.tr(text, "", count). Names from a
    # QT_TRANSLATE_NOOP table are the one exception.
    source = path.read_text(encoding="utf-8")
    marked = "QT_TRANSLATE_NOOP" in source
    wrong = []
    for call in _translation_calls(ast.parse(source)):
        index = 1 if call.func.attr == "translate" else 0
        text = call.args[index] if len(call.args) > index else None
        literal = isinstance(text, ast.Constant) and isinstance(text.value, str)
        simple = all(isinstance(a, (ast.Constant, ast.Name)) for a in call.args) and not call.keywords
        plural_ok = call.func.attr == "tr" or len(call.args) <= 2
        if not (literal or (marked and isinstance(text, ast.Name))) or not simple or not plural_ok:
            wrong.append(f"{path.name}:{call.lineno}")
    assert not wrong, wrong


def test_plural_contexts_are_qt_classes_not_mixins() -> None:
    # self.tr looks plural forms up in the object's own class only: a mixin's context is never asked.
    classes = [node for path in _ui_modules() for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
               if isinstance(node, ast.ClassDef)]
    qt_classes: set[str] = set()
    while True:  # a Qt class, or a class of ours built on one (SelectionView is a QWidget)
        found = {node.name for node in classes
                 if any(ast.unparse(b).startswith("Q") or ast.unparse(b) in qt_classes for b in node.bases)}
        if found == qt_classes:
            break
        qt_classes = found
    assert "ImageStatusMixin" not in qt_classes and "SelectionView" in qt_classes
    contexts = {e.context for e in ZH if e.numerus}
    assert contexts and contexts <= qt_classes, contexts - qt_classes


@pytest.mark.parametrize("path", _ui_modules(), ids=lambda p: p.stem)
def test_translator_comments_sit_on_a_translated_line(path: Path) -> None:
    # lupdate attaches a "#:" comment to the next tr() however far away, so one may only precede one.
    lines = path.read_text(encoding="utf-8").splitlines()
    wrong = [f"{path.name}:{i + 1}" for i, line in enumerate(lines) if line.strip().startswith("#:")
             and not re.search(r"\btr\(|translate\(|QT_TRANSLATE_NOOP\(", lines[i + 1] if i + 1 < len(lines) else "")]
    assert not wrong, wrong


def test_no_home_made_translation_remains() -> None:
    for path in (ROOT / "explorer").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        subclasses = [n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)
                      and any(ast.unparse(b).endswith("QTranslator") for b in n.bases)]
        wrappers = [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name in ("_t", "tr")]
        assert not subclasses and not wrappers, (path, subclasses, wrappers)


def test_the_compiled_catalogs_ship_in_the_package() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    patterns = re.search(r"^explorer = \[(.*)\]$", text, re.MULTILINE).group(1)
    patterns = [p.strip().strip('"') for p in patterns.split(",")]
    for qm in TS_DIR.glob("*.qm"):
        assert any(fnmatch(str(qm.relative_to(ROOT / "explorer")), p) for p in patterns), qm


# ---------------------------------------------------------------- loading and switching
def test_qt_own_dialog_texts_turn_chinese(chinese) -> None:
    from PySide6.QtWidgets import QDialogButtonBox

    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel | QDialogButtonBox.StandardButton.Save)
    assert box.button(QDialogButtonBox.StandardButton.Cancel).text() == "取消"
    assert box.button(QDialogButtonBox.StandardButton.Save).text() == "保存"


def test_the_language_follows_the_system_unless_chosen(monkeypatch) -> None:
    from PySide6.QtCore import QSettings

    class Locale:
        def __init__(self, *languages: str) -> None:
            self._languages = list(languages)

        def system(self):
            return self

        def uiLanguages(self):
            return self._languages

    QSettings().remove("language")
    monkeypatch.setattr(i18n, "QLocale", Locale("zh-CN", "en-US"))
    assert i18n.default_language() == "zh_CN"
    monkeypatch.setattr(i18n, "QLocale", Locale("de-DE"))
    assert i18n.default_language() == "en"
    QSettings().setValue("language", "zh_CN")
    try:
        assert i18n.default_language() == "zh_CN"
    finally:
        QSettings().remove("language")


def test_installing_chinese_retranslates_open_widgets(qtbot) -> None:
    from explorer.ui.app_state import AppState
    from explorer.ui.detail_tabs_widget import DetailTabsWidget
    from tests.ui.fakes import InProcessSource

    tabs = DetailTabsWidget(InProcessSource({}), AppState())
    qtbot.addWidget(tabs)
    i18n.install_language("en")
    english = ["Image", "Values", "Stats", "Memory", "Graph", "Watch"]
    qtbot.waitUntil(lambda: [tabs.tabText(i) for i in range(tabs.count())] == english)
    i18n.install_language("zh_CN")
    try:
        qtbot.waitUntil(lambda: [tabs.tabText(i) for i in range(tabs.count())] == ["图像", "数值", "统计", "内存", "计算图", "监视"])
        assert tabs.tabToolTip(0) == _zh("DetailTabsWidget", "The tensor drawn as an image, with the channel order fixed automatically")
    finally:
        i18n.install_language("en")
    qtbot.waitUntil(lambda: [tabs.tabText(i) for i in range(tabs.count())] == english)


def test_column_headers_follow_the_language(chinese) -> None:
    from explorer.ui.inspector.inspector_columns import columns

    titles = {c.key: c.header for c in columns()}
    assert titles["name"] == "名称" and titles["is_leaf"] == "叶子节点"
    assert titles["data_ptr"] == "data_ptr"  # identifiers stay as the API spells them
    i18n.install_language("en")
    assert columns()[0].header == "Name"
