"""The completion list and the call tip in the real editor, with a stand-in kernel and with jedi.

The stand-in answers as ipykernel does (``complete_reply``, ``inspect_reply`` contents),
after a delay of its choosing; ``tests/ui/test_editor_kernel.py`` asks a real kernel.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from explorer.ui.editor.calltip import from_docstring, parse_inspection
from explorer.ui.editor.code_editor_widget import CodeEditorWidget
from explorer.ui.editor.completion_context import callee, completion_context, kernel_may_inspect
from tests.ui.editor_helpers import focused_editor
from tests.waits import scaled_ms

CTRL = Qt.KeyboardModifier.ControlModifier
TENSOR = ["abs", "add", "real", "reshape", "reshape_as", "sum", "view"]
ZEROS_HELP = ("\x1b[31mDocstring:\x1b[39m\nzeros(*size, *, out=None, dtype=None) -> Tensor\n\n"
              "Returns a tensor filled with the scalar value `0`, with the shape defined\n"
              "by the variable argument :attr:`size`.\n\nArgs:\n    size (int...): a sequence\n")


class StandInKernel:
    """Answers like ipykernel after *delay_ms*; ``busy`` makes it unavailable (the editor falls back)."""

    def __init__(self, delay_ms: int = 0) -> None:
        self.delay_ms = delay_ms
        self.busy = False
        self.asked: list[tuple[str, str]] = []
        self.answered = 0

    def available(self) -> bool:
        return not self.busy

    def complete(self, code: str, cursor_pos: int, on_reply: Any) -> bool:
        if self.busy:
            return False
        self.asked.append(("complete", code))
        typed = len(code) - len(code.rstrip("abcdefghijklmnopqrstuvwxyz_"))
        reply = {"status": "ok", "matches": TENSOR, "cursor_start": cursor_pos - typed, "cursor_end": cursor_pos,
                 "metadata": {"_jupyter_types_experimental": [{"text": m, "type": "function"} for m in TENSOR]}}
        QTimer.singleShot(self.delay_ms, lambda: self._answer(on_reply, reply))
        return True

    def inspect(self, code: str, cursor_pos: int, on_reply: Any) -> bool:
        if self.busy:
            return False
        self.asked.append(("inspect", code))
        reply = {"status": "ok", "found": True, "data": {"text/plain": ZEROS_HELP}}
        QTimer.singleShot(self.delay_ms, lambda: self._answer(on_reply, reply))
        return True

    def _answer(self, on_reply: Any, reply: dict) -> None:
        self.answered += 1
        on_reply(reply)


@pytest.fixture
def kernel() -> StandInKernel:
    return StandInKernel()


@pytest.fixture
def editor(qtbot, kernel) -> CodeEditorWidget:
    return focused_editor(qtbot, completion=kernel)


def popup_after_dot(qtbot, editor: CodeEditorWidget, text: str) -> str:
    """Type *text* (ending in a dot, or a dot and a name) and wait for the list; returns who answered."""
    with qtbot.waitSignal(editor.completion.shown, timeout=scaled_ms(30_000)) as shown:
        qtbot.keyClicks(editor, text)
    return shown.args[0]


def test_a_short_pause_after_a_dot_opens_the_kernels_list(qtbot, editor, kernel) -> None:
    editor.setPlainText("t = torch.zeros(3)\n")
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    assert popup_after_dot(qtbot, editor, "t.") == "kernel"
    assert kernel.asked == [("complete", "t.")]  # the line up to the cursor
    assert editor.completion.popup.names() == TENSOR
    qtbot.keyClicks(editor, "res")  # typing on filters the open list
    assert editor.completion.popup.names() == ["reshape", "reshape_as"]
    qtbot.keyClick(editor, Qt.Key.Key_Down)
    qtbot.keyClick(editor, Qt.Key.Key_Tab)
    assert editor.toPlainText() == "t = torch.zeros(3)\nt.reshape_as"
    assert not editor.completion.popup.isVisible()


def test_enter_accepts_and_esc_closes(qtbot, editor) -> None:
    popup_after_dot(qtbot, editor, "t.su")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert editor.toPlainText() == "t.sum"
    qtbot.keyClicks(editor, "()")
    popup_after_dot(qtbot, editor, "\u0020+ t.")
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert not editor.completion.popup.isVisible()
    assert editor.toPlainText() == "t.sum() + t."


def test_return_after_a_name_typed_in_full_is_a_new_line(qtbot, editor) -> None:
    popup_after_dot(qtbot, editor, "x = t.view")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert editor.toPlainText() == "x = t.view\n"


def test_ctrl_space_completes_a_name_and_typing_on_closes_the_list_at_a_non_name(qtbot, editor, kernel) -> None:
    qtbot.keyClicks(editor, "re")
    with qtbot.waitSignal(editor.completion.shown, timeout=scaled_ms(5000)):
        qtbot.keyClick(editor, Qt.Key.Key_Space, CTRL)
    assert kernel.asked == [("complete", "re")]
    qtbot.keyClicks(editor, "(")
    assert not editor.completion.popup.isVisible()


def test_tab_after_a_name_completes_and_tab_in_indentation_indents(qtbot, editor, kernel) -> None:
    qtbot.keyClick(editor, Qt.Key.Key_Tab)
    assert editor.toPlainText() == "    " and kernel.asked == []
    qtbot.keyClicks(editor, "t.vi")
    with qtbot.waitSignal(editor.completion.shown, timeout=scaled_ms(5000)):
        qtbot.keyClick(editor, Qt.Key.Key_Tab)
    qtbot.keyClick(editor, Qt.Key.Key_Tab)
    assert editor.toPlainText() == "    t.view"


def test_an_answer_that_comes_after_the_user_typed_on_is_dropped(qtbot, editor, kernel) -> None:
    kernel.delay_ms = 300
    qtbot.keyClicks(editor, "t.")
    qtbot.keyClick(editor, Qt.Key.Key_Space, CTRL)  # asked now, answered in 300 ms
    qtbot.keyClicks(editor, " ")  # typed on before the answer
    qtbot.waitUntil(lambda: kernel.answered >= 1, timeout=scaled_ms(5000))
    QApplication.processEvents()
    assert not editor.completion.popup.isVisible()


def test_typing_on_cancels_the_pause_and_a_non_name_cancels_it(qtbot, editor, kernel) -> None:
    qtbot.keyClicks(editor, "t.")
    assert editor.completion.pending()  # the pause runs
    qtbot.keyClicks(editor, "sh")
    assert editor.completion.pending()  # restarted: the list waits for a pause
    qtbot.keyClicks(editor, " ")
    assert not editor.completion.pending()  # a space cancels it: nothing will open
    assert kernel.asked == [] and not editor.completion.popup.isVisible()


def test_no_list_in_strings_comments_or_after_a_number(qtbot, editor, kernel) -> None:
    for text in ("s = 'a.", "# see t.", "x = 1."):
        editor.clear()
        qtbot.keyClicks(editor, text)
        assert not editor.completion.request(explicit=True)
    assert kernel.asked == []


def test_a_busy_kernel_falls_back_to_the_scripts_text(qtbot, editor, kernel) -> None:
    kernel.busy = True
    editor.setPlainText("class Greeter:\n    def hello(self):\n        pass\n\n    def help_me(self):\n        pass\n\n"
                        "g = Greeter()\n")
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    assert popup_after_dot(qtbot, editor, "g.") == "static"
    assert editor.completion.popup.names()[:2] == ["hello", "help_me"]
    assert kernel.asked == []


def test_subscripts_and_calls_are_never_sent_to_the_kernel(qtbot, editor, kernel) -> None:
    editor.setPlainText("items = ['a']\n")
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    assert popup_after_dot(qtbot, editor, "items[0].") == "static"  # jedi reads the text; nothing is evaluated
    assert "upper" in editor.completion.popup.names()
    assert kernel.asked == []


def test_the_list_grows_with_the_editors_font(qtbot, editor) -> None:
    font = editor.font()
    font.setPointSizeF(font.pointSizeF() * 1.8)
    editor.setFont(font)
    popup_after_dot(qtbot, editor, "t.")
    assert editor.completion.popup.font().pointSizeF() == pytest.approx(font.pointSizeF())


def test_an_open_paren_after_a_name_shows_its_signature_and_first_docstring_line(qtbot, editor, kernel) -> None:
    editor.setPlainText("import torch\n")
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    with qtbot.waitSignal(editor.completion.calltip_shown, timeout=scaled_ms(5000)) as shown:
        qtbot.keyClicks(editor, "x = torch.zeros(")
    assert shown.args == ["kernel"] and ("inspect", "torch.zeros") in kernel.asked
    tip = editor.completion.calltip
    assert tip.signature == "zeros(*size, *, out=None, dtype=None) -> Tensor"
    assert tip.doc == ("Returns a tensor filled with the scalar value `0`, with the shape defined "
                       "by the variable argument :attr:`size`.")
    qtbot.keyClicks(editor, "2, 3")
    assert tip.isVisible()  # still inside the call
    qtbot.keyClicks(editor, ")")
    assert not tip.isVisible()


def test_esc_closes_the_calltip(qtbot, editor) -> None:
    editor.setPlainText("import torch\n")
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    with qtbot.waitSignal(editor.completion.calltip_shown, timeout=scaled_ms(5000)):
        qtbot.keyClicks(editor, "torch.zeros(")
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert not editor.completion.calltip.isVisible()


def test_a_busy_kernel_gives_the_calltip_from_the_scripts_text(qtbot, editor, kernel) -> None:
    kernel.busy = True
    editor.setPlainText('def add(a, b=2):\n    """Add two numbers.\n\n    More here."""\n    return a + b\n\n')
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    with qtbot.waitSignal(editor.completion.calltip_shown, timeout=scaled_ms(30_000)) as shown:
        qtbot.keyClicks(editor, "add(")
    assert shown.args == ["static"]
    assert editor.completion.calltip.signature == "add(a, b=2)"
    assert editor.completion.calltip.doc == "Add two numbers."


def test_no_calltip_for_a_definition_or_a_keyword() -> None:
    assert callee("def zeros(") is None
    assert callee("if (") is None
    assert callee("x = f(a)(") is None  # a call's result: it would have to be evaluated
    assert callee("y = torch.nn.Linear(") == "torch.nn.Linear"


def test_what_the_kernel_may_be_asked() -> None:
    for text, chain in (("t.", "t"), ("x = np.ze", "np")):
        context = completion_context(text)
        assert context is not None and context.chain == chain and context.kernel_may_ask
    for text in ("x[0].", "f().", "'abc'.", "(a + b).", "model.fc."):  # a.b. would read a.b: a property
        context = completion_context(text)
        assert context is not None and not context.kernel_may_ask, text
    assert completion_context("x = 1.") is None
    assert completion_context("tor") is None  # a name completes only when asked (Ctrl+Space, Tab)
    assert completion_context("tor", explicit=True) is not None


def test_the_kernel_is_asked_for_call_tips_of_module_functions_and_builtins_only() -> None:
    script = "import torch\nimport numpy as np, os.path\nclass Model:\n    pass\nmodel = Model()\nlen = 3\n"
    for name in ("torch.zeros", "np.arange", "os.path.join", "print", "torch.nn.Linear"):
        assert kernel_may_inspect(name, script), name
    # model.forward( would make IPython build str(model.forward): the user's __repr__ of model
    for name in ("model.forward", "Model", "len", "zeros", "np2.arange"):
        assert not kernel_may_inspect(name, script), name


def test_a_method_of_the_users_object_gets_its_calltip_from_the_text(qtbot, editor, kernel) -> None:
    editor.setPlainText("class Box:\n    def put(self, item, twice=False):\n        '''Put item in the box.'''\n\n"
                        "box = Box()\n")
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    with qtbot.waitSignal(editor.completion.calltip_shown, timeout=scaled_ms(30_000)) as shown:
        qtbot.keyClicks(editor, "box.put(")
    assert shown.args == ["static"] and kernel.asked == []
    assert editor.completion.calltip.signature == "put(item, twice=False)"


def test_ipythons_help_text_becomes_a_signature_and_a_sentence() -> None:
    assert parse_inspection(ZEROS_HELP) == (
        "zeros(*size, *, out=None, dtype=None) -> Tensor",
        "Returns a tensor filled with the scalar value `0`, with the shape defined by the variable argument :attr:`size`.")
    text = ("\x1b[31mInit signature:\x1b[39m\ntorch.nn.Linear(\n    in_features: int,\n    out_features: int,\n) -> None\n"
            "\x1b[31mDocstring:\x1b[39m     \nApplies an affine linear transformation.\n\nMore.\n"
            "\x1b[31mFile:\x1b[39m  linear.py")
    assert parse_inspection(text) == ("torch.nn.Linear(in_features: int, out_features: int) -> None",
                                      "Applies an affine linear transformation.")
    assert parse_inspection("\x1b[31mType:\x1b[39m int") is None


def test_jedis_docstring_that_starts_with_the_call_gives_the_short_signature() -> None:
    stub = "zeros(size: Sequence[_int | SymInt], *, out: Tensor | None=None) -> Tensor"
    doc = "zeros(*size, *, out=None) -> Tensor\n\nReturns a tensor filled with\nzeros.\n\nArgs: ..."
    assert from_docstring(stub, doc) == ("zeros(*size, *, out=None) -> Tensor", "Returns a tensor filled with zeros.")
    assert from_docstring("add(a, b=2)", "Add two numbers.\n\nMore.") == ("add(a, b=2)", "Add two numbers.")


def test_the_jedi_process_answers_a_json_line_per_request_and_ends_with_its_input() -> None:
    requests = [{"id": 7, "kind": "complete", "code": "class A:\n    def hello(self): pass\nA().he", "line": 3,
                 "column": 6, "path": None}]
    done = subprocess.run([sys.executable, "-m", "explorer.ui.editor.jedi_worker"], capture_output=True, text=True,
                          input="".join(json.dumps(r) + "\n" for r in requests), timeout=120, check=False)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0  # stdin closed: the process ended by itself
    assert answers == [{"id": 7, "result": [["hello", "function", 2]]}]


def test_the_jedi_process_answers_what_came_before_its_input_ended(monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A request and the end of stdin queued together (a loaded machine): the request is still answered."""
    from explorer.ui.editor import jedi_worker

    class AtOnce:  # the reader thread has read everything before the loop first looks
        def __init__(self, target: Any, args: tuple[Any, ...], daemon: bool) -> None:
            self.run = lambda: target(*args)

        def start(self) -> None:
            self.run()

    monkeypatch.setattr(jedi_worker.threading, "Thread", AtOnce)
    monkeypatch.setattr(jedi_worker, "_answer", lambda request: ["answered", request["id"]])
    lines = [json.dumps({"id": n, "kind": "complete"}) + "\n" for n in (1, 2)]
    monkeypatch.setattr(jedi_worker.sys, "stdin", io.StringIO("".join(lines)))
    assert jedi_worker.main() == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert answers == [{"id": 1, "result": None}, {"id": 2, "result": ["answered", 2]}]


def test_the_jedi_process_never_mixes_up_two_objects_behind_brackets() -> None:
    """An index's value is no name: it is never looked up in the remembered attribute lists."""
    worker = subprocess.Popen([sys.executable, "-m", "explorer.ui.editor.jedi_worker"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, bufsize=1)
    try:
        answers = []
        for wire, code in enumerate(("import datetime\nd = [datetime.date.today()]\nd[0].", "w = ['a']\nw[0].")):
            request = {"id": wire, "kind": "complete", "code": code, "line": 3 if wire == 0 else 2,
                       "column": len(code.split("\n")[-1]), "path": None}
            worker.stdin.write(json.dumps(request) + "\n")
            worker.stdin.flush()
            answers.append({name for name, _kind, _typed in json.loads(worker.stdout.readline())["result"]})
    finally:
        worker.stdin.close()
        worker.wait(timeout=60)
    assert "isoformat" in answers[0] and "upper" in answers[1] and "isoformat" not in answers[1]
