"""The detail views' sentences (image, values, statistics, graph, memory map, names) in English and Chinese.

Each case runs the real core function on a real value and returns what it said;
the Chinese must hold no English outside code and names, the names, shapes and
counts filled in must come back unchanged, and the English must choose its plurals.
The cases reach every sentence of those modules; the last tests go through the
kernel's comm endpoint, where the language is set by the client's request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

from explorer import protocol
from explorer.core import i18n
from explorer.core.agent.comm import CommEndpoint
from explorer.core.agent.handlers import Agent
from explorer.core.graph.autograd import autograd_graph
from explorer.core.image import payload as image
from explorer.core.image import sample
from explorer.core.image.layout import detect_layout
from explorer.core.image.sample import make_plan
from explorer.core.memory.map import element_position, memory_map
from explorer.core.resolve import resolve
from explorer.core.stats import job as stats
from explorer.core.values import window as values
from tests.core.i18n_helpers import Recording, check_sentence, language, sources

Said = tuple[list[str], tuple[str, ...]]  # (the sentences, values they carry between them)
CASES: dict[str, Callable[[pytest.MonkeyPatch], Said]] = {}
LANGUAGES = ("en", "zh_CN")


def case(fn: Callable[[pytest.MonkeyPatch], Said]) -> Callable[[pytest.MonkeyPatch], Said]:
    CASES[fn.__name__.strip("_")] = fn
    return fn


def _refusal(call: Callable[[], Any]) -> list[str]:
    """The one sentence *call* raises for the user."""
    with pytest.raises((ValueError, LookupError)) as info:
        call()
    return [str(info.value)]


def _draw(value: Any, name: str = "x", **options: Any) -> Callable[[], dict]:
    return lambda: image.image_payload(value, name=name, **options)


def _notes(p: dict) -> list[str]:
    found = list(p["notes"]) + [p[k] for k in ("device_note", "range_note") if p[k]]
    return found + ([p["hint"].split("  # ", 1)[1]] if "  # " in p["hint"] else [])


def _stats(value: Any) -> dict:
    run = stats.StatsJob(value)
    run.run()
    return run.status()


# -- image: values that cannot be drawn ------------------------------------------------------
_REFUSED_IMAGES: dict[str, tuple[Callable[[], dict], tuple[str, ...]]] = {
    "empty": (_draw(torch.empty(0, 4), "e"), ("e", "[0, 4]")),
    "no_numbers": (_draw(np.array([["a", "b"]]), "s", layout="HW"), ("s", "<U1")),
    "one_dim": (_draw(torch.zeros(7), "v"), ("v", "1", "2", "4")),
    "five_dims": (_draw(torch.zeros(2, 2, 2, 2, 2)), ("5",)),
    "no_channels": (_draw(torch.rand(16, 8, 8), "feat"), ("feat", "[16, 8, 8]", "16", "8")),
    "one_channel_missing": (_draw(torch.rand(1, 8, 8), channel=3), ("1", "CHW", "3")),
    "channel_missing": (_draw(torch.rand(3, 8, 8), channel=5), ("3", "CHW", "5")),
    "too_many_channels": (_draw(torch.rand(16, 8, 8), layout="CHW"), ("16", "CHW")),
    "unknown_layout": (_draw(torch.rand(16, 8, 8), layout="XYZ"), ("'XYZ'", "HW, CHW, HWC, NCHW, NHWC")),
    "layout_rank": (_draw(torch.rand(16, 8, 8), layout="NCHW"), ("NCHW", "4", "[16, 8, 8]")),
    "meta": (_draw(torch.empty(3, 4, device="meta"), "m"), ("m",)),
    "nested": (_draw(torch.nested.nested_tensor([torch.zeros(2), torch.zeros(3)]), "nt"), ("nt",)),
    "not_an_array": (_draw("hello"), ("str",)),
}


def _refused_image(key: str) -> None:
    call, carried = _REFUSED_IMAGES[key]
    CASES[f"image_{key}"] = lambda mp: (_refusal(call), carried)


for _key in _REFUSED_IMAGES:
    _refused_image(_key)


@case
def _image_large_sparse(mp: pytest.MonkeyPatch) -> Said:
    mp.setattr(sample, "SPARSE_DENSE_LIMIT", 1)
    return _refusal(_draw(torch.eye(5).to_sparse(), "sp")), ("sp", "sp.to_dense()")


# -- image: notes under the picture, reasons for the layout ---------------------------------
@case
def _image_non_finite(mp: pytest.MonkeyPatch) -> Said:
    img = torch.rand(3, 8, 8)
    img[0, 0, 0] = float("nan")
    img[1, 1, 1], img[2, 2, 2] = float("inf"), -float("inf")
    return image.image_payload(img)["notes"], ("1", "2")


@case
def _image_special_values(mp: pytest.MonkeyPatch) -> Said:
    found = [image.image_payload(torch.full((8, 8), float("nan")))["notes"][0],
             image.image_payload(torch.rand(8, 8) > 0.5)["notes"][0],
             image.image_payload(torch.randn(8, 8, dtype=torch.complex64))["notes"][0]]
    return found, ("False", "True", "|z|")


@case
def _image_batch(mp: pytest.MonkeyPatch) -> Said:
    p = image.image_payload(torch.randn(300, 3, 8, 8), name="b", max_width=64, max_height=64)
    return _notes(p) + [p["reason"]], ("256", "300", "4", "3 ", "8 × 8")


@case
def _image_sampled_range(mp: pytest.MonkeyPatch) -> Said:
    return _notes(image.image_payload(torch.randn(3, 600, 600) * 5, max_width=100, max_height=100)), ("6",)


@case
def _image_device_and_graph(mp: pytest.MonkeyPatch) -> Said:
    # Off-CPU tensors are not lent to the tests: the note comes from the function itself, on the meta device.
    value = torch.empty(3, 64, 64, device="meta", requires_grad=True)
    note = image._device_note(value, "torch", make_plan([3, 64, 64], "CHW", 16, 16))
    return [note, image.image_payload(torch.rand(8, 8, requires_grad=True))["device_note"]], ("meta", "4")


@case
def _image_reasons(mp: pytest.MonkeyPatch) -> Said:
    shapes = ([8, 5], [3, 8, 3], [3, 8, 7], [8, 7, 4], [2, 1, 8, 8], [5, 0])
    found = [detect_layout(s, "float32", "torch")["reason"] for s in shapes]
    found.append(detect_layout([3, 8, 3], "uint8", "numpy")["reason"])
    found.append(image.image_payload(torch.rand(3, 8, 8), layout="CHW")["reason"])
    return found, ("8 × 5", "CHW", "numpy", "HWC", "8 × 7", "2", "[5, 0]")


# -- values, statistics, graph, memory map, names --------------------------------------------
@case
def _values_refused(mp: pytest.MonkeyPatch) -> Said:
    mp.setattr(values, "MAX_SPARSE_NNZ", 0)
    nested = torch.nested.nested_tensor([torch.zeros(2), torch.zeros(3)])
    found = [*_refusal(lambda: values.value_window([1, 2])), *_refusal(lambda: values.value_window(nested)),
             *_refusal(lambda: values.value_window(torch.empty(2, device="meta"))),
             *_refusal(lambda: values.value_window(torch.sparse_coo_tensor([[0]], [1.0], (3,))))]
    return found, ("list", "1")


@case
def _values_cell(mp: pytest.MonkeyPatch) -> Said:
    class Broken:
        def __str__(self) -> str:
            raise RuntimeError("boom")

    cells = np.array([Broken()], dtype=object)
    return [values.value_window(cells)["rows"][0][0]], ("Broken", "RuntimeError")


@case
def _stats_refused(mp: pytest.MonkeyPatch) -> Said:
    found = [_stats(v)["error"] for v in ("s", np.array(["a"]), torch.empty(2, device="meta"),
                                           torch.nested.nested_tensor([torch.zeros(2), torch.zeros(3)]))]
    return found, ("str", "<U1")


@case
def _stats_notes(mp: pytest.MonkeyPatch) -> Said:
    mp.setattr(stats, "HIST_FULL_LIMIT", 4)
    mp.setattr(stats, "HIST_SAMPLE", 2)
    z = torch.tensor([1 + 1j, float("nan"), 2j, 3, 1, 2, 3, 4], dtype=torch.complex64)
    quantized = torch.quantize_per_tensor(torch.rand(10), 0.1, 0, torch.quint8)
    found = [_stats(v)["result"]["note"] for v in (z, torch.eye(3).to_sparse(), quantized)]
    return found, ("|z|", "4", "5")


@case
def _graph_messages(mp: pytest.MonkeyPatch) -> Said:
    found = [autograd_graph(v, {}, name=n)["message"] for v, n in
             ((torch.ones(2, requires_grad=True), "w"), (torch.ones(2), "c"), (5, "n"))]
    return found, ("w", "w.grad", "c", "n", "int")


@case
def _memory_map_notes(mp: pytest.MonkeyPatch) -> Said:
    ns = {"s": "text", "m": torch.empty(2, device="meta"), "sp": torch.eye(2).to_sparse()}
    return [memory_map(ns, n)["note"] for n in ns], ("str", "sparse_coo")


@case
def _memory_map_formulas(mp: pytest.MonkeyPatch) -> Said:
    base = np.zeros(16, np.uint8)
    ns = {"t": torch.arange(6.0)[2:], "a": base, "b": np.frombuffer(base, dtype=np.int32, offset=1, count=2)}
    rows = memory_map(ns, "t")["rows"] + memory_map(ns, "b")["rows"]
    return [r["formula"] for r in rows], ("2 × 4", "+ 1 =")


@case
def _memory_positions_refused(mp: pytest.MonkeyPatch) -> Said:
    found = [*_refusal(lambda: element_position(torch.empty(2, device="meta"), [0])),
             *_refusal(lambda: element_position({"shape": [2], "strides": None, "storage_offset": None}, [0]))]
    with pytest.raises(IndexError) as info:
        element_position(torch.ones(2), [5])
    return found + [str(info.value)], ("[5]", "[2]")


@case
def _names_refused(mp: pytest.MonkeyPatch) -> Said:
    class Slotted:
        __slots__ = ("a",)

    class Lazy:
        @property
        def p(self) -> int:
            return 1

    ns = {"l": [1], "lin": torch.nn.Linear(2, 2), "o": Slotted(), "z": Lazy()}
    found = [_refusal(lambda n=n: resolve(ns, n))[0] for n in ("x", "1 +", "lin.nope", "l[5]", "o.a", "z.p")]
    return found, ("'x'", "'1 +'", "lin.nope", "'nope'", "l[5]", "IndexError: list index out of range", "o.a",
                   "'Slotted' object has no attribute 'a'", "z.p")


# -- the tests ------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_sentences_are_in_the_language(name: str, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with language(lang):
        found, carried = CASES[name](monkeypatch)
    assert found and all(found), found
    for text in found:
        check_sentence(text, lang, tuple(v for v in carried if v in text))
    for value in carried:
        assert any(value in text for text in found), (value, found)


def test_english_chooses_its_plurals(monkeypatch: pytest.MonkeyPatch) -> None:
    img = torch.rand(3, 8, 8)
    img[0, 0, 0], img[1, 1, 1] = float("nan"), float("inf")
    monkeypatch.setattr(values, "MAX_SPARSE_NNZ", 0)
    with language("en"):
        assert image.image_payload(img)["notes"] == ["1 NaN value drawn as 0 (black)",
                                                     "1 infinite value drawn at the ends of the range"]
        assert _refusal(_draw(torch.rand(1, 8, 8), channel=3)) == ["x has 1 channel in layout CHW; there is no channel 3."]
        assert detect_layout([2, 1, 8, 8], "float32", "torch")["reason"] == "a batch of 2 images, 1 channel first, then 8 × 8 pixels"
        assert _refusal(lambda: values.value_window(torch.sparse_coo_tensor([[0]], [1.0], (3,)))) == [
            "This sparse tensor stores 1 value; cutting a window out of it would be too slow."]


def test_every_sentence_of_the_views_is_reached() -> None:
    """Each English source of these modules is asked for by at least one case above."""
    recording = Recording(i18n.catalog("zh_CN"))
    before = i18n.language()
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(i18n, "catalog", lambda lang: recording)
            i18n.set_language("zh_CN")
            for make in CASES.values():
                with pytest.MonkeyPatch.context() as case_mp:
                    make(case_mp)
    finally:
        i18n.set_language(before)
    modules = ("explorer/core/image/", "explorer/core/values/", "explorer/core/stats/", "explorer/core/graph/",
               "explorer/core/memory/map.py", "explorer/core/resolve.py")
    missing = sorted(sources(*modules) - recording.asked)
    assert missing == [], "\n".join(missing)


# -- through the kernel's comm: the client sets the language, nothing translates afterwards ----------
def _endpoint(namespace: dict) -> CommEndpoint:
    return CommEndpoint(Agent(lambda: namespace), lambda data, buffers: None)


@pytest.mark.parametrize(("lang", "words"), [("zh_CN", ("不是图像", "找不到文件")), ("en", ("is not an image", "There is no file"))])
def test_the_comm_answers_in_the_language_the_client_set(lang: str, words: tuple[str, str], tmp_path: Any) -> None:
    endpoint = _endpoint({"vec": torch.zeros(7)})
    before = i18n.language()
    try:
        assert endpoint.answer(protocol.SetLanguage(lang=lang))[0] == {"lang": lang}
        result, error = endpoint.answer(protocol.Image(name="vec"))
        assert result is None and error is not None and words[0] in error.message, error
        check_sentence(error.message, lang, ("vec", "1"))
        result, error = endpoint.answer(protocol.PrepareLoad(path=str(tmp_path / "gone.npy")))
        assert error is None and words[1] in result["error"], result
        check_sentence(result["error"], lang, (f"'{tmp_path / 'gone.npy'}'",))
    finally:
        i18n.set_language(before)


def test_the_comm_keeps_the_kernels_sentence_as_it_is() -> None:
    """The reply holds what the core wrote: no translation step is left between the two."""
    before = i18n.language()
    try:
        endpoint = _endpoint({"vec": torch.zeros(7)})
        endpoint.answer(protocol.SetLanguage(lang="zh_CN"))
        _result, error = endpoint.answer(protocol.Image(name="vec"))
        with language("zh_CN"):
            direct = _refusal(_draw(torch.zeros(7), "vec"))[0]
        assert error is not None and error.message == direct
    finally:
        i18n.set_language(before)


def test_an_unknown_name_reaches_the_client_as_one_sentence() -> None:
    before = i18n.language()
    try:
        endpoint = _endpoint({})
        endpoint.answer(protocol.SetLanguage(lang="zh_CN"))
        _result, error = endpoint.answer(protocol.Image(name="missing"))
        assert error is not None and error.message == "没有名为 'missing' 的变量"
    finally:
        i18n.set_language(before)
