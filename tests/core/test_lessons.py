"""Tests for the classroom lessons (explorer.lessons): they run, fail where they say, teach true facts."""

from __future__ import annotations

import builtins
import itertools
import re
import traceback
import unicodedata
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from explorer.lessons import (
    LESSONS,
    check_lesson,
    lesson_cells,
    lesson_path,
    lesson_watch,
)

IDS = [lesson["id"] for lesson in LESSONS]
CJK = re.compile(r"[\u4e00-\u9fff]")
# Width of a projector line, counting a Chinese character as two columns.
MAX_COLUMNS = 90
# Values that are uninitialised memory on purpose (lesson 01 shows torch.Tensor(2, 3)).
UNINITIALISED = {"01_creating": {"garbage"}}

# Lesson 07 reads y.grad on a non-leaf to show that it is None; PyTorch warns, as taught.
pytestmark = pytest.mark.filterwarnings("ignore:The .grad attribute of a Tensor that is not a leaf")


def _run_lesson(lesson_id: str) -> tuple[dict[str, Any], list[tuple[dict, BaseException | None]]]:
    """Execute a lesson cell by cell in one namespace, as the app's stepper does."""
    path = lesson_path(lesson_id)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    outcomes: list[tuple[dict, BaseException | None]] = []
    for cell in lesson_cells(lesson_id):
        # Pad with newlines so tracebacks point at the real lines of the file.
        code = compile("\n" * (cell["line"] - 1) + cell["source"], path, "exec")
        try:
            exec(code, namespace)
        except Exception as exc:  # noqa: BLE001 - recorded and checked below
            outcomes.append((cell, exc))
        else:
            outcomes.append((cell, None))
    return namespace, outcomes


@pytest.fixture(scope="module")
def runs() -> dict[str, tuple[dict[str, Any], list[tuple[dict, BaseException | None]]]]:
    return {lesson_id: _run_lesson(lesson_id) for lesson_id in IDS}


def _ns(runs: dict, lesson_id: str) -> dict[str, Any]:
    return runs[lesson_id][0]


def _last_code_line(cell: dict) -> int:
    """Line number (in the file) of the last line of a cell that is code."""
    last = cell["line"]
    for offset, line in enumerate(cell["source"].splitlines()):
        if line.strip() and not line.lstrip().startswith("#"):
            last = cell["line"] + offset
    return last


def _shares(a: torch.Tensor | np.ndarray, b: torch.Tensor | np.ndarray) -> bool:
    """Exact byte overlap, via NumPy views of CPU tensors."""
    to_np = lambda x: x.detach().numpy() if isinstance(x, torch.Tensor) else x  # noqa: E731
    return bool(np.shares_memory(to_np(a), to_np(b), max_work=None))


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


# -- the lessons run ----------------------------------------------------------

@pytest.mark.parametrize("lesson_id", IDS)
def test_only_cells_marked_as_failing_raise(lesson_id: str, runs: dict) -> None:
    for cell, exc in runs[lesson_id][1]:
        where = f"{lesson_id} cell at line {cell['line']}"
        if cell["expected_error"] is None:
            assert exc is None, f"{where} raised {exc!r}"
            continue
        expected = getattr(builtins, cell["expected_error"], None)
        assert isinstance(expected, type) and issubclass(expected, Exception), where
        assert isinstance(exc, expected), f"{where}: expected {expected.__name__}, got {exc!r}"
        # The error must come from the cell's last line, not from its set-up.
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == lesson_path(lesson_id)]
        assert frames and frames[-1].lineno == _last_code_line(cell), where


def test_error_lesson_fails_many_times_and_others_rarely(runs: dict) -> None:
    failing = {lesson_id: sum(exc is not None for _, exc in runs[lesson_id][1]) for lesson_id in IDS}
    assert failing["09_common_errors"] >= 6
    assert {"01_creating", "02_essentials", "10_linear_regression"}.isdisjoint(
        {lesson_id for lesson_id, count in failing.items() if count}
    )


@pytest.mark.parametrize("lesson_id", IDS)
def test_lessons_stay_small_and_on_cpu(lesson_id: str, runs: dict) -> None:
    tensors = [v for v in _ns(runs, lesson_id).values() if isinstance(v, torch.Tensor)]
    assert tensors
    for value in tensors:
        assert value.device.type == "cpu"
        assert value.numel() <= 10_000


@pytest.mark.parametrize("lesson_id", IDS)
def test_lessons_are_deterministic(lesson_id: str, runs: dict) -> None:
    first = _ns(runs, lesson_id)
    second, _ = _run_lesson(lesson_id)
    skip = UNINITIALISED.get(lesson_id, set())
    for name, value in first.items():
        if name in skip or not isinstance(value, torch.Tensor):
            continue
        assert torch.equal(value, second[name]), name


# -- facts the lessons teach -------------------------------------------------

def test_01_creation_facts(runs: dict) -> None:
    ns = _ns(runs, "01_creating")
    assert ns["ints"].dtype == torch.int64 and ns["floats"].dtype == torch.float32
    assert ns["from_class"].dtype == torch.get_default_dtype() == torch.float32
    assert ns["first"].tolist() == [1.0, 2.0, 3.0]
    assert ns["garbage"].shape == (2, 3)
    assert _shares(ns["shared"], ns["arr"])
    assert ns["arr_now"].tolist() == [[11, 12], [13, 14]]
    assert not _shares(ns["copied"], ns["arr"]) and not _shares(ns["cloned"], ns["shared"])
    assert ns["cloned"][0, 0] == -1 and ns["shared"][0, 0] == 11


def test_02_essentials_facts(runs: dict) -> None:
    ns = _ns(runs, "02_essentials")
    assert ns["shape"] == (4, 5) and ns["dtype"] == torch.float32 and ns["device"].type == "cpu"
    assert ns["ranks"] == [0, 1, 2]
    assert ns["single_as_batch"].shape == (1, 3, 16, 16) and ns["batch"].dim() == 4
    assert ns["moved"] is ns["on_cpu"]
    assert (ns["b"].dtype, ns["as_half"].dtype, ns["as_double"].dtype) == (torch.bool, torch.float16, torch.float64)


def test_03_view_writes_reach_t(runs: dict) -> None:
    ns = _ns(runs, "03_views")
    t = ns["t"]
    assert t[0, 0] == 999 and ns["t_first"] == 999 and ns["t_first_after_clone"] == 999
    assert ns["private"][0, 0] == -1 and not _shares(ns["private"], t)
    assert ns["second_row"].storage_offset() == 5
    assert ns["cols"].stride() == (5, 1) and ns["cols"].storage_offset() == 1
    assert ns["every_other"].stride() == (2,)
    assert _shares(ns["sub"], t) and _shares(ns["row"], t)
    assert not _shares(ns["picked"], t) and not _shares(ns["big"], t)


def test_04_view_needs_contiguity(runs: dict) -> None:
    ns = _ns(runs, "04_view_reshape")
    assert ns["at"].stride() == (1, 3) and ns["at_contiguous"] is False
    assert ns["at_flat"].tolist() == [0, 3, 1, 4, 2, 5]
    assert _shares(ns["a_reshaped"], ns["a"]) and not _shares(ns["at_reshaped"], ns["a"])
    assert _shares(ns["flat"], ns["a"]) and ns["auto"].shape == (3, 2)


def test_05_image_layouts(runs: dict) -> None:
    ns = _ns(runs, "05_permute_images")
    img, hwc = ns["img"], ns["img_hwc"]
    assert img.shape == (3, 24, 32) and hwc.shape == (24, 32, 3)
    assert not ns["hwc_contiguous"] and _shares(hwc, img)
    assert torch.equal(hwc[..., 2], img[2])
    assert 0 in ns["ys"].stride() and 0 in ns["xs"].stride()
    assert torch.equal(ns["back_to_nchw"], ns["batch_nchw"]) and ns["batch_nchw"].shape == (2, 3, 24, 32)
    assert ns["img_u8"].dtype == torch.uint8 and int(ns["img_u8"].max()) == 255
    assert float(img.min()) == 0.0 and float(img.max()) == 1.0


def test_06_tracking_switches(runs: dict) -> None:
    ns = _ns(runs, "06_requires_grad")
    # Variable merged into Tensor in 0.4: the old spelling still works and gives a plain Tensor.
    assert ns["old_style_is_tensor"] is True and ns["old_style"].requires_grad and ns["old_style"].is_leaf
    assert type(ns["new_style"]) is type(ns["old_style"]) and ns["new_style"].requires_grad
    assert ns["plain_doubled"].grad_fn is None and ns["w_doubled"].grad_fn is not None
    assert ns["w"].is_leaf and not ns["w_total"].is_leaf
    assert ns["counts_can_track"] is False
    assert ns["with_bias"].requires_grad and not ns["evaluated"].requires_grad
    assert ns["evaluated"].grad_fn is None
    assert _shares(ns["w_detached"], ns["w"]) and not ns["w_detached"].requires_grad
    assert not ns["bias"].requires_grad and not ns["after_off"].requires_grad


def test_07_backward_gives_36(runs: dict) -> None:
    ns = _ns(runs, "07_graph_backward")
    assert ns["x"].grad.item() == 36.0 and ns["final_x_grad"] == 36.0 and ns["by_hand"] == 36.0
    assert ns["x_is_leaf"] and not ns["y_is_leaf"] and ns["y_grad"] is None
    assert ns["z_made_by"] == "MulBackward0"
    v = ns["v"].detach()
    assert torch.equal(ns["v_grad"], 2 * v) and torch.equal(ns["v_grad_accumulated"], 4 * v)


def test_08_numpy_shares_memory(runs: dict) -> None:
    ns = _ns(runs, "08_numpy_interop")
    assert ns["t_now"].tolist() == [100.0, 2.0]
    assert _shares(ns["t"], ns["n"])
    # .cpu() of a CPU tensor is the tensor itself, so t.cpu().numpy() still shares t's memory.
    assert ns["cpu_is_t"] is True and ns["t_cpu"] is ns["t"]
    assert _shares(ns["n_shared"], ns["t"]) and ns["t"].tolist() == [100.0, 7.0]
    assert ns["t_after_cpu_numpy"].tolist() == [100.0, 7.0]
    assert _shares(ns["from_np"], ns["a"]) and _shares(ns["as_t"], ns["a"])
    assert not _shares(ns["copied"], ns["a"]) and ns["from_np"].dtype == torch.float64
    assert ns["rev_tensor"].tolist() == [5.0, 4.0, 3.0, 2.0, 1.0, 0.0]
    assert _shares(ns["p_view"], ns["p"]) and not _shares(ns["safe"], ns["p"])
    assert ns["p_after"].tolist() == [1.0, 2.0] and ns["safe"][0] == -5.0


def test_09_fixes_work(runs: dict) -> None:
    ns = _ns(runs, "09_common_errors")
    assert ns["product"].shape == (2, 2) and ns["out"].shape == (2,)
    assert ns["grid"].shape == (2, 5) and ns["flat"].shape == (6,)
    assert ns["w"].item() == 3.0 and ns["w"].grad.item() == 4.0
    assert ns["ce"].dim() == 0 and ns["labels"].dtype == torch.float32
    assert torch.equal(ns["on_device"], ns["out"])
    assert ns["forgot_grad"] is None and ns["tracked_grad"].item() == 3.0
    assert torch.equal(ns["row"], ns["grid"][1])  # the fix cell after the IndexError


def test_10_regression_learns_the_line(runs: dict) -> None:
    ns = _ns(runs, "10_linear_regression")
    assert ns["learned_w"] == pytest.approx(3.0, abs=0.15)
    assert ns["learned_b"] == pytest.approx(0.5, abs=0.1)
    assert ns["final_loss"] < ns["losses"][0] < ns["loss"].new_tensor(100).item()
    assert ns["w_after_one_step"] > 0  # the first step already moves w towards 3
    assert ns["new_y"].item() == pytest.approx(6.5, abs=0.4) and not ns["new_y"].requires_grad
    model = ns["model"]
    assert isinstance(model.weight, torch.nn.Parameter)
    assert model.weight.item() == pytest.approx(ns["learned_w"], abs=0.05)


def test_11_checklist_finds_each_cause(runs: dict) -> None:
    ns = _ns(runs, "11_gradient_checklist")
    assert ns["weights_tracked"] and all(ns["weights_tracked"].values())
    assert ns["x_tracked"] is False
    assert ns["hidden_grad"] is None and ns["out_grad"] is not None  # the detach() cut the first layer off
    assert ns["hidden_grad_fixed"] is not None and ns["hidden_grad_fixed"].abs().sum() > 0
    assert ns["scalar_loss"].dim() == 0 and ns["grad_after_mean"] is not None


def test_12_a_learning_rate_too_high_explodes(runs: dict) -> None:
    ns = _ns(runs, "12_exploding_gradients")
    assert ns["w_small_value"] == pytest.approx(2.0, abs=1e-3)
    assert ns["small_losses"][-1] < 1e-6 < ns["small_losses"][0]
    big = ns["big_losses"]
    assert all(later > earlier for earlier, later in itertools.pairwise(big))  # it grows at every step
    assert ns["blew_up_after"] < 80 and big[-1] > 1e30  # stopped when the loss was no longer finite
    assert ns["big_grads"][-1] > 1e15 * ns["big_grads"][0]
    # The lesson's explanation: the error is multiplied by |1 - 2 lr mean(x^2)| per step.
    assert ns["factor_small"] < 1 < ns["factor_big"]
    assert ns["growth_per_step"] == pytest.approx(ns["factor_big"], rel=1e-3)


def test_lessons_name_what_the_watch_tab_draws() -> None:
    assert lesson_watch(Path(lesson_path("10")).read_text(encoding="utf-8")) == ["loss", "w", "b"]
    assert lesson_watch(Path(lesson_path("12")).read_text(encoding="utf-8")) == ["loss", "w.grad"]
    assert lesson_watch(Path(lesson_path("03")).read_text(encoding="utf-8")) == []
    inside = "# title: T\n# 标题: 标\n\n# %%\n# watch: loss\nx = 1\n"
    assert any("without '# en:'" in problem for problem in check_lesson(inside))  # only in the header


def test_09_matmul_card_and_the_next_cell_give_one_answer() -> None:
    """The card for the lesson's (2 x 3) @ (2 x 3) offers the fix the next cell teaches, a @ b.T."""
    import linecache

    from explorer.core.errors.explain import explain

    cells = lesson_cells("09_common_errors")
    namespace: dict[str, Any] = {"__name__": "__main__"}
    for number, cell in enumerate(cells):
        name = f"<lesson-09-{number}>"
        linecache.cache[name] = (len(cell["source"]), None, cell["source"].splitlines(True), name)
        try:
            exec(compile(cell["source"], name, "exec"), namespace)
        except RuntimeError as exc:
            card = explain(exc, namespace, code_filenames={name}, code=cell["source"])
            assert card["key"] == "matmul_shape"
            following = [line for line in cells[number + 1]["source"].splitlines() if line and not line.startswith("#")]
            assert card["fix"].split("  #")[0] == following[0] == "product = a @ b.T"
            return
    raise AssertionError("lesson 09 has no matmul error")


# -- what the app shows around the lessons ---------------------------------------

def _visible(value: Any) -> bool:
    """A value the variable list shows: not a module, function or class."""
    import types

    return not isinstance(value, (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, type))


@pytest.mark.parametrize("lesson_id", IDS)
def test_first_cell_shows_something(lesson_id: str) -> None:
    first = lesson_cells(lesson_id)[0]
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(first["source"], "<first-cell>", "exec"), namespace)
    shown = [name for name, value in namespace.items() if not name.startswith("__") and _visible(value)]
    assert shown, f"the first cell of {lesson_id} shows nothing in the variable list"


def test_09_every_error_is_followed_by_its_fix() -> None:
    cells = lesson_cells("09_common_errors")
    for index, cell in enumerate(cells):
        if cell["expected_error"] is None:
            continue
        following = cells[index + 1]
        assert following["expected_error"] is None
        assert "# en: Fix" in following["source"], following["source"]


@pytest.mark.parametrize("lesson_id", [i for i in IDS if any(c["expected_error"] for c in lesson_cells(i))])
def test_deliberate_errors_get_a_card_whose_fix_runs(lesson_id: str) -> None:
    """Each error a lesson makes on purpose gets a catalogue card; a fix given as code repairs the cell."""
    import copy
    import linecache

    from explorer.core.errors.explain import explain
    from explorer.core.errors.source import apply_fix, is_code

    namespace: dict[str, Any] = {"__name__": "__main__"}
    for number, cell in enumerate(lesson_cells(lesson_id)):
        name = f"<lesson-cell-{number}>"
        linecache.cache[name] = (len(cell["source"]), None, cell["source"].splitlines(True), name)
        before = copy.copy(namespace)
        try:
            exec(compile(cell["source"], name, "exec"), namespace)
            continue
        except Exception as exc:  # noqa: BLE001 - the lesson's own error
            card = explain(exc, namespace, code_filenames={name}, code=cell["source"])
        assert card["key"] != "unknown", (lesson_id, cell["line"], card["message"])
        if is_code(card["fix"]):
            fixed = apply_fix(cell["source"], card)
            exec(compile(fixed, "<fixed>", "exec"), before)
