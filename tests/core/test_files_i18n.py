"""The file loader's sentences, written by the real loader on real files, in English and in Chinese.

Every refusal a bad file can cause (:mod:`tests.core.i18n_cases_files`,
:mod:`tests.core.i18n_cases_formats`) and the summary and hint of every kind of
good file (:mod:`tests.core.i18n_cases_loaded`) are produced in both languages: the Chinese holds no English outside
code and names, and the names, sizes and shapes filled in come back unchanged.
The last test checks that the cases reach every sentence of ``explorer/core/files``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer.core import i18n
from explorer.core.files.prepare import FileLoadError
from tests.core import i18n_cases_checkpoints, i18n_cases_formats, i18n_cases_loaded  # noqa: F401 - they register cases
from tests.core.i18n_cases_files import LOADED, REFUSED
from tests.core.i18n_helpers import Recording, check_sentence, language, sources

LANGUAGES = ("en", "zh_CN")


def _refusal_text(name: str, tmp: Path, mp: pytest.MonkeyPatch) -> tuple[str, tuple[str, ...]]:
    call, values = REFUSED[name](tmp, mp)
    with pytest.raises(FileLoadError) as info:
        call()
    return str(info.value), values


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refusal_is_one_sentence_in_the_language(name: str, lang: str, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    with language(lang):
        text, values = _refusal_text(name, tmp_path, monkeypatch)
    check_sentence(text, lang, values)
    assert text.endswith("。" if lang == "zh_CN" else "."), text
    assert "\n" not in text


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", sorted(LOADED))
def test_summary_and_hint_are_in_the_language(name: str, lang: str, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    with language(lang):
        call, values = LOADED[name](tmp_path, monkeypatch)
        result = call()
    said = [result["summary"]] + ([result["hint"]] if result["hint"] else [])
    said += [line[2:] for line in result["code"].splitlines() if line.startswith("# ")]  # comments in the snippet
    for text in said:
        check_sentence(text, lang)
    for value in values:
        assert any(value in text for text in said), (value, said)
    compile(result["code"], "<load>", "exec")  # a translated comment leaves the snippet valid Python


def test_both_languages_carry_the_same_facts(tmp_path: Path) -> None:
    """One refusal, word for word: the Chinese is written by the loader, not rebuilt from the English."""
    texts = {}
    for lang in LANGUAGES:
        folder = tmp_path / lang
        folder.mkdir()
        with language(lang), pytest.MonkeyPatch.context() as mp:
            texts[lang], _values = _refusal_text("npz_too_big", folder, mp)
    assert texts["en"] == ("Loading 'big.npz' would need 7.8 KiB of memory, but only 100 B is free; "
                           "extract the arrays you need one by one with np.load(path)['key'].")
    assert texts["zh_CN"] == "加载 'big.npz' 需要 7.8 KiB 内存，但可用内存只剩 100 B；请用 np.load(path)['key'] 逐个取出需要的数组。"


@pytest.mark.parametrize(("name", "summary"), [
    ("npz_one", "npz archive with 1 array, 1 element, 8 B"),
    ("pt_list", "list of 1 item with 1 tensor, 2 parameters, 8 B"),
    ("safetensors_eager", "safetensors file with 2 tensors, 2 parameters, 8 B"),
])
def test_english_counts_agree_with_their_nouns(name: str, summary: str, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    with language("en"):
        call, _values = LOADED[name](tmp_path, monkeypatch)
        assert call()["summary"] == summary


def test_every_sentence_of_the_loader_is_reached(tmp_path: Path) -> None:
    """Each English source in explorer/core/files is asked for by at least one case above."""
    recording = Recording(i18n.catalog("zh_CN"))
    before = i18n.language()
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(i18n, "catalog", lambda lang: recording)
            i18n.set_language("zh_CN")
            for registry, kind in ((REFUSED, "refused"), (LOADED, "loaded")):
                for name, make in registry.items():
                    folder = tmp_path / kind / name
                    folder.mkdir(parents=True)
                    with pytest.MonkeyPatch.context() as case_mp:
                        call, _values = make(folder, case_mp)
                        try:
                            call()
                        except FileLoadError:
                            pass
    finally:
        i18n.set_language(before)
    missing = sorted(sources("explorer/core/files/") - recording.asked)
    assert missing == [], "\n".join(missing)
