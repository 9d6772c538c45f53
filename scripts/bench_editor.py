"""The code pane's rows of ``scripts/bench.py``: typing, opening a file, completion (issue 23).

* a key typed into a 5,000-line highlighted file until the viewport has repainted,
  beside the same keys in a bare ``QPlainTextEdit`` (no highlighter, no behaviours);
* a 5,000-line file opened until the highlighted text is painted, beside Pygments'
  Python lexer over the same lines (what the highlighter used before);
* the completion list after ``t.``: asked of a warm idle kernel, beside the bare
  ``complete_request`` round trip; and while the kernel runs code (jedi over the text),
  beside jedi's first answer after start.
"""

from __future__ import annotations

import inspect
import os
import statistics
import sys
import time
from typing import Any

Row = tuple[str, str, str, str]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
LINES = 5000


def _spread(values: list[float]) -> str:
    values = sorted(values)
    return f"{statistics.median(values):.1f} ms ({values[0]:.1f}-{values[-1]:.1f}, n={len(values)})"


def _source(lines: int = LINES) -> str:
    """*lines* of real Python: the standard library's inspect module, repeated."""
    own = inspect.getsource(inspect).split("\n")
    return "\n".join((own * (lines // len(own) + 1))[:lines])


def _shown(editor: Any) -> Any:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    editor.resize(900, 700)
    editor.show()
    app.processEvents()
    return app


def _open_ms(make: Any, text: str) -> float:
    editor = make()
    app = _shown(editor)
    start = time.perf_counter()
    editor.setPlainText(text)
    editor.viewport().repaint()  # painted, highlighted: what the user sees
    ms = (time.perf_counter() - start) * 1000
    editor.close()
    app.processEvents()
    return ms


def _keys_ms(make: Any, text: str) -> list[float]:
    """Milliseconds from each key press in the middle of *text* to the repainted viewport."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    editor = make()
    app = _shown(editor)
    editor.setPlainText(text)
    editor.activateWindow()
    editor.setFocus()
    cursor = editor.textCursor()
    cursor.setPosition(editor.document().findBlockByNumber(LINES // 2).position())
    editor.setTextCursor(cursor)
    editor.centerCursor()
    app.processEvents()
    keys: list[Any] = [Qt.Key.Key_End, Qt.Key.Key_Return, *"x = f(a, [1, 2])", Qt.Key.Key_Return, Qt.Key.Key_Return]
    times = []
    for key in keys * 3:
        start = time.perf_counter()
        if isinstance(key, str):
            QTest.keyClicks(editor, key)
        else:
            QTest.keyClick(editor, key)
        editor.viewport().repaint()
        times.append((time.perf_counter() - start) * 1000)
        app.processEvents()
    editor.document().setModified(False)
    editor.close()
    return times


def bench_editor_typing() -> list[Row]:
    from pygments.lexers import PythonLexer
    from PySide6.QtWidgets import QApplication, QPlainTextEdit

    from explorer.ui.editor.code_editor_widget import CodeEditorWidget

    QApplication.instance() or QApplication([])
    text = _source()
    ours = _keys_ms(CodeEditorWidget, text)
    bare = _keys_ms(QPlainTextEdit, text)
    opened = [_open_ms(CodeEditorWidget, text) for _ in range(5)]
    bare_open = [_open_ms(QPlainTextEdit, text) for _ in range(5)]
    lexer = PythonLexer(stripnl=False, ensurenl=False)
    start = time.perf_counter()
    for line in text.split("\n"):
        for _token in lexer.get_tokens_unprocessed(line):
            pass
    pygments_ms = (time.perf_counter() - start) * 1000
    return [
        (f"editor: a key typed (letters, brackets, Return) -> repainted, {LINES:,}-line file with highlighting",
         _spread(ours), f"bare QPlainTextEdit {_spread(bare)}; slowest key ours {max(ours):.1f} ms", "< 16 ms"),
        (f"editor: open a {LINES:,}-line file -> highlighted text painted", _spread(opened),
         f"bare QPlainTextEdit {_spread(bare_open)}; Pygments' lexer alone (the highlighter before) "
         f"{pygments_ms:.0f} ms", "< 200 ms"),
    ]


def bench_editor_completion() -> list[Row]:
    """The list after ``t.``: from the warm idle kernel, then from jedi while the kernel sleeps."""
    from tests.ui.stall_probe import DrivenWindow

    win = DrivenWindow()
    editor = win.window.editor
    try:
        win.run("import torch, time\nt = torch.zeros(3)")
        editor.setPlainText("import torch, time\nt = torch.zeros(3)\nt.")
        editor.moveCursor(editor.textCursor().MoveOperation.End)
        editor.setFocus()
        cold = _list_ms(win, editor, "static", lambda: _ask_static(editor))  # jedi's first look at torch
        kernel = [_list_ms(win, editor, "kernel", lambda: editor.completion.request(explicit=False)) for _ in range(20)]
        rtt = [_round_trip_ms(win) for _ in range(20)]
        win.window.runs.submit(_run("time.sleep(600)"))
        win.wait(lambda: win.session.status == "busy")
        static = [_list_ms(win, editor, "static", lambda: editor.completion.request(explicit=False)) for _ in range(20)]
        win.session.interrupt()
        win.wait(lambda: win.session.status == "idle")
    finally:
        editor.document().setModified(False)
        win.close()
        win.join()
    return [
        ("completion list shown after `t.` (`t = torch.zeros(3)` ran), warm idle kernel: request -> list painted",
         _spread(kernel[2:]), f"bare complete_request round trip {_spread(rtt[2:])}; the list opens "
         "200 ms after the dot (the pause is deliberate)", "< 100 ms"),
        ("completion list shown after `t.` while the kernel runs code: jedi over the script's text",
         _spread(static[2:]), f"jedi's first answer after start (reads torch's stubs once) {cold:.0f} ms", "< 100 ms"),
    ]


def _run(code: str) -> Any:
    from explorer.client.run_queue import Run

    return Run(code, 1, "file")


def _ask_static(editor: Any) -> None:
    """Ask jedi alone (the kernel set aside for one request)."""
    kernel = editor.completion.kernel
    editor.completion.set_kernel(None)
    editor.completion.request(explicit=False)
    editor.completion.set_kernel(kernel)


def _list_ms(win: Any, editor: Any, source: str, ask: Any) -> float:
    """Milliseconds from asking to the list painted; the answer must come from *source*."""
    editor.completion.popup.hide()
    shown: list[str] = []
    editor.completion.shown.connect(shown.append)
    start = time.perf_counter()
    ask()
    win.wait(lambda: bool(shown), 120)
    editor.completion.popup.repaint()
    ms = (time.perf_counter() - start) * 1000
    editor.completion.shown.disconnect(shown.append)
    if shown[0] != source:
        raise RuntimeError(f"the list came from {shown[0]}, not {source}")
    return ms


def _round_trip_ms(win: Any) -> float:
    client = win.session.kernel_client
    replies: list[dict] = []
    client.shell_channel.message_received.connect(replies.append)
    start = time.perf_counter()
    msg_id = client.complete("t.", 2)
    win.wait(lambda: any(r["parent_header"].get("msg_id") == msg_id for r in replies))
    client.shell_channel.message_received.disconnect(replies.append)
    return (time.perf_counter() - start) * 1000
