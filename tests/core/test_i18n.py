"""The kernel side's gettext catalogs: complete, in step with the code, placeholders intact."""

from __future__ import annotations

import re
import string
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.core import i18n

ROOT = Path(__file__).resolve().parents[2]
PO_FILES = sorted((ROOT / "explorer" / "locale").glob("*/LC_MESSAGES/tensor_explorer.po"))


def _entries(po: Path):
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalog = read_po(handle)
    return [m for m in catalog if m.id]


def _pairs(message) -> list[tuple[str, str]]:
    """(source, translation) pairs of one entry; plural forms pair with the plural source."""
    if isinstance(message.id, tuple):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        return [(message.id[0] if i == 0 and len(strings) > 1 else message.id[1], s) for i, s in enumerate(strings)]
    return [(message.id, message.string)]


def _fields(text: str) -> list[str]:
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


def test_catalogs_exist() -> None:
    assert [p.parent.parent.name for p in PO_FILES] == ["zh_CN"]


def test_catalogs_are_in_step_with_the_code() -> None:
    """No sentence missing from the .po, none left over, and the .mo compiled from the .po as it is."""
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "i18n.py"), "check"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


@pytest.mark.parametrize("po", PO_FILES, ids=lambda p: p.parent.parent.name)
def test_every_entry_is_translated(po: Path) -> None:
    missing = [m.id for m in _entries(po) if m.fuzzy or not all(s for _, s in _pairs(m))]
    assert missing == []


@pytest.mark.parametrize("po", PO_FILES, ids=lambda p: p.parent.parent.name)
def test_placeholders_match(po: Path) -> None:
    wrong = []
    for message in _entries(po):
        for source, translated in _pairs(message):
            if translated and _fields(source) != _fields(translated):
                wrong.append((source, translated))
            if translated and sorted(re.findall(r"%[sdr]", source)) != sorted(re.findall(r"%[sdr]", translated)):
                wrong.append((source, translated))
    assert wrong == []


@pytest.mark.parametrize("po", PO_FILES, ids=lambda p: p.parent.parent.name)
def test_values_come_back_unswapped(po: Path) -> None:
    """Each placeholder filled with its own value: each value comes back, once, where the source has it once.

    Numbers written in the English text (``64 KiB``, ``2^48``) must reach the translation too.
    """
    wrong = []
    for message in _entries(po):
        for source, translated in _pairs(message):
            if not translated:
                continue
            names = _fields(source)
            values = {name: f"<{i}:{name}>" for i, name in enumerate(names)}
            try:
                src, out = source.format(**values), translated.format(**values)
            except (KeyError, IndexError, ValueError) as exc:
                wrong.append((source, f"format failed: {exc}"))
                continue
            for value in values.values():
                if src.count(value) != out.count(value):
                    wrong.append((source, translated))
            literal = list(re.findall(r"\d+", re.sub(r"\{[^}]*\}", "", source)))
            if sorted(literal) != sorted(re.findall(r"\d+", re.sub(r"\{[^}]*\}", "", translated))):
                wrong.append((source, translated, "numbers differ"))
    assert wrong == []


def test_language_switch_and_fallback() -> None:
    before = i18n.language()
    try:
        assert i18n.set_language("xx_YY") == "xx_YY"
        assert i18n._("no such sentence") == "no such sentence"
        assert i18n.ngettext("{n} element", "{n} elements", 1) == "{n} element"
        assert i18n.ngettext("{n} element", "{n} elements", 2) == "{n} elements"
        i18n.set_language("en")
        assert i18n.language() == "en"
    finally:
        i18n.set_language(before)


def test_speaking_switches_for_the_block_and_restores_after_an_error() -> None:
    before = i18n.language()
    with i18n.speaking(None):
        assert i18n.language() == before
    with pytest.raises(RuntimeError), i18n.speaking("zh_CN"):
        assert i18n._("no variable named {name}") == "没有名为 {name} 的变量"
        raise RuntimeError
    assert i18n.language() == before
