"""Every translatable UI string has Simplified Chinese, with the same placeholders and mnemonics.

The strings are found by parsing the UI modules (no import, no Qt), so a string
added to any ``self.tr(...)`` / ``_t(...)`` / ``translate(ctx, ...)`` call fails
here until its ``zh_*.py`` entry exists. Parametrized per module so a failure
names the module that needs work.
"""

from __future__ import annotations

import ast
import importlib
import re
import string
from pathlib import Path

import pytest

from explorer.ui import i18n

UI_DIR = Path(__file__).resolve().parents[2] / "explorer" / "ui"
#: Receivers whose ``.tr(context, text)`` is the app helper (text second), not QObject.tr(text).
_CONTEXT_FIRST_TR = {"i18n"}
_TRANSLATE_OWNERS = {"QCoreApplication", "QApplication", "QGuiApplication"}
_MNEMONIC = re.compile(r"&([^&\s])")


def _ui_modules() -> list[Path]:
    """Every Python module of the UI package, translations themselves excluded."""
    return sorted(p for p in UI_DIR.rglob("*.py") if "i18n" not in p.relative_to(UI_DIR).parts)


def _literal(node: ast.expr | None) -> str | None:
    """The string value of a literal (including "a" + "b"), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _literal(node.left), _literal(node.right)
        return left + right if left is not None and right is not None else None
    return None


def _text_argument(call: ast.Call) -> ast.expr | None:
    """The node holding the source text of a translation call, or None if *call* is not one."""
    func = call.func
    keywords = {k.arg: k.value for k in call.keywords}
    if isinstance(func, ast.Name) and func.id in ("tr", "_t"):
        # The bare helper explorer.ui.i18n.tr(context, text) takes the text second.
        index = 1 if func.id == "tr" and len(call.args) >= 2 else 0
    elif isinstance(func, ast.Attribute) and func.attr == "tr":
        receiver = func.value.id if isinstance(func.value, ast.Name) else ""
        index = 1 if receiver in _CONTEXT_FIRST_TR else 0
    elif isinstance(func, ast.Attribute) and func.attr == "translate":
        if not (isinstance(func.value, ast.Name) and func.value.id in _TRANSLATE_OWNERS):
            return None
        index = 1
    else:
        return None
    if len(call.args) > index:
        return call.args[index]
    return keywords.get("sourceText", keywords.get("text"))


def translatable_strings(path: Path) -> tuple[set[str], list[str]]:
    """The literal source texts of *path*'s translation calls, and f-strings wrongly passed to them."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    texts: set[str] = set()
    dynamic: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        arg = _text_argument(node)
        value = _literal(arg)
        if value is not None:
            texts.add(value)
        elif isinstance(arg, ast.JoinedStr):
            # An f-string is formatted before lookup, so no dictionary key can ever match it.
            dynamic.append(f"{path.name}:{node.lineno}")
    return texts, dynamic


def all_string_constants() -> set[str]:
    """Every string literal in the UI modules (labels may be translated later via a variable)."""
    found: set[str] = set()
    for path in _ui_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    return found


def placeholders(text: str) -> set[str]:
    """The ``{field}`` names (with conversion and format spec) of a str.format template."""
    try:
        return {f"{name}!{conv}:{spec}" for _, name, spec, conv in string.Formatter().parse(text) if name is not None}
    except ValueError:  # unbalanced braces: compare the raw brace groups instead
        return set(re.findall(r"\{[^{}]*\}", text))


@pytest.fixture(scope="module")
def zh() -> dict[str, str]:
    return i18n.load_strings("zh_CN")


# ---------------------------------------------------------------- the collector itself
def test_collector_finds_every_call_form(tmp_path: Path) -> None:
    source = (
        "from PySide6.QtCore import QCoreApplication\n"
        "from explorer.ui import i18n\n"
        "def _t(text): return QCoreApplication.translate('Ctx', text)\n"
        "class W:\n"
        "    def f(self, n):\n"
        "        self.tr('A {n} b').format(n=n)\n"
        "        _t('helper')\n"
        "        tr('Ctx', 'bare helper')\n"
        "        i18n.tr('Ctx', 'module helper')\n"
        "        QCoreApplication.translate('Ctx', 'core ' + 'joined')\n"
        "        QApplication.translate('Ctx', sourceText='keyword')\n"
        "        self.tr(f'bad {n}')\n"
        "        self.tr(n)\n"
        "        other.translate('not', 'this')\n"
    )
    path = tmp_path / "sample.py"
    path.write_text(source, encoding="utf-8")
    texts, dynamic = translatable_strings(path)
    assert texts == {"A {n} b", "helper", "bare helper", "module helper", "core joined", "keyword"}
    assert dynamic == ["sample.py:12"]


@pytest.mark.parametrize("text, expected", [
    ("plain", set()),
    ("{n} elements", {"n!None:"}),
    ("{a} and {b:>4}", {"a!None:", "b!None:>4"}),
    ("{{literal}} {x!r}", {"x!r:"}),
    ("broken { brace", set()),
])
def test_placeholders(text: str, expected: set[str]) -> None:
    assert placeholders(text) == expected


def test_the_ui_has_translatable_strings() -> None:
    # Guards the per-module tests below against a collector that silently finds nothing.
    total = sum(len(translatable_strings(p)[0]) for p in _ui_modules())
    assert total > 100


# ---------------------------------------------------------------- every module, every string
@pytest.mark.parametrize("path", _ui_modules(), ids=lambda p: p.stem)
def test_module_strings_are_translated(path: Path, zh: dict[str, str]) -> None:
    texts, _ = translatable_strings(path)
    missing = sorted(t for t in texts if not (zh.get(t) or "").strip())
    assert not missing, f"{path.name}: {len(missing)} string(s) without zh_CN translation:\n" + "\n".join(
        repr(t) for t in missing)


@pytest.mark.parametrize("path", _ui_modules(), ids=lambda p: p.stem)
def test_module_passes_no_fstrings_to_tr(path: Path) -> None:
    _, dynamic = translatable_strings(path)
    assert not dynamic, "f-strings can never be looked up; use tr('... {x}').format(x=...): " + ", ".join(dynamic)


@pytest.mark.parametrize("path", _ui_modules(), ids=lambda p: p.stem)
def test_module_translations_keep_placeholders(path: Path, zh: dict[str, str]) -> None:
    texts, _ = translatable_strings(path)
    wrong = [f"{t!r} -> {zh[t]!r}" for t in sorted(texts) if t in zh and placeholders(zh[t]) != placeholders(t)]
    assert not wrong, "placeholders differ:\n" + "\n".join(wrong)


@pytest.mark.parametrize("path", _ui_modules(), ids=lambda p: p.stem)
def test_module_translations_keep_mnemonics(path: Path, zh: dict[str, str]) -> None:
    # "&Run" -> "运行(&R)": the same access key, so keyboard users keep their habits.
    texts, _ = translatable_strings(path)
    wrong = [f"{t!r} -> {zh[t]!r}" for t in sorted(texts)
             if t in zh and {m.upper() for m in _MNEMONIC.findall(t)} != {m.upper() for m in _MNEMONIC.findall(zh[t])}]
    assert not wrong, "mnemonics differ:\n" + "\n".join(wrong)


def _zh_modules() -> list[str]:
    folder = UI_DIR / "i18n"
    return sorted(p.stem for p in folder.glob("zh_*.py"))


@pytest.mark.parametrize("name", _zh_modules())
def test_zh_module_keys_exist_in_the_ui(name: str) -> None:
    # A key with a typo (or for a string since reworded) translates nothing; it must match a literal.
    strings = importlib.import_module(f"explorer.ui.i18n.{name}").STRINGS
    known = all_string_constants()
    stale = sorted(k for k in strings if k not in known)
    assert not stale, f"{name}: keys that appear nowhere in explorer/ui:\n" + "\n".join(repr(k) for k in stale)


@pytest.mark.parametrize("name", _zh_modules())
def test_zh_module_values_are_chinese_text(name: str) -> None:
    strings = importlib.import_module(f"explorer.ui.i18n.{name}").STRINGS
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in strings.items())
    empty = sorted(k for k, v in strings.items() if not v.strip())
    assert not empty, f"{name}: empty translations: {empty}"


def test_main_strings_use_chinese_menu_convention() -> None:
    from explorer.ui.i18n.zh_main import STRINGS

    assert STRINGS["&Run"] == "运行(&R)"
    assert STRINGS["&File"] == "文件(&F)"
    assert STRINGS["Name"] == "名称"
    # The mnemonic goes last, in parentheses, after the Chinese words.
    menus = {k: v for k, v in STRINGS.items() if _MNEMONIC.search(k)}
    assert menus and all(re.search(r"\(&[A-Z]\)(…)?$", v) for v in menus.values()), menus


# ---------------------------------------------------------------- switching at run time
@pytest.fixture
def english_afterwards():
    yield
    i18n.install_language("en")


def test_installing_chinese_retranslates_open_widgets(qtbot, english_afterwards, zh: dict[str, str]) -> None:
    from explorer.ui.detail_tabs_widget import DetailTabsWidget
    from tests.ui.fakes import InProcessSource

    tabs = DetailTabsWidget(InProcessSource({}))
    qtbot.addWidget(tabs)
    english = [tabs.tabText(i) for i in range(tabs.count())]
    assert english == ["Image", "Values", "Stats", "Memory", "Graph"]
    chinese = [zh[t] for t in english]
    assert all(c != e for c, e in zip(chinese, english))

    i18n.install_language("zh_CN")
    qtbot.waitUntil(lambda: [tabs.tabText(i) for i in range(tabs.count())] == chinese)
    assert tabs.tabToolTip(0) == zh[
        "The tensor drawn as an image, with the channel order fixed automatically"]

    i18n.install_language("en")
    qtbot.waitUntil(lambda: [tabs.tabText(i) for i in range(tabs.count())] == english)


def test_column_headers_follow_the_language(qtbot, english_afterwards) -> None:
    from explorer.ui.inspector.inspector_columns import columns

    i18n.install_language("zh_CN")
    titles = {c.key: c.header for c in columns()}
    assert titles["name"] == "名称"
    assert titles["data_ptr"] == "data_ptr"  # identifiers stay as the API spells them
    i18n.install_language("en")
    assert columns()[0].header == "Name"
