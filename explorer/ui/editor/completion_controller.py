"""When the completion list and the call tip open, where their answers come from, and when they close.

The list opens on Ctrl+Space (or Tab after a name) and a short pause after a dot (typing
on restarts the pause; anything but a name cancels it). The kernel is asked while it is
idle (its live objects: ``t.`` after ``t = torch.zeros(3)`` ran lists tensor methods);
while it runs code, is paused or has not started, or says nothing, jedi completes from
the script's text. An answer that comes after the user typed on is dropped. The call
tip opens when ``(`` is typed after a name and closes when the cursor leaves the call.
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QObject, QRect, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

from explorer.ui.editor.calltip import CalltipWidget, from_docstring, parse_inspection
from explorer.ui.editor.completion_context import callee, completion_context, kernel_may_inspect
from explorer.ui.editor.completion_popup import CompletionPopup
from explorer.ui.editor.indentation import statement_context
from explorer.ui.editor.line_range import text_before, utf16_len
from explorer.ui.editor.source_scan import scan, scan_cached
from explorer.ui.editor.static_completer import StaticCompleter, warm_up

# The pause after a dot before the list opens (typing on restarts it).
POPUP_DELAY_MS = 200
_NAME_CHARS = re.compile(r"\w*$")
_NAVIGATION = {Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown}


class CompletionController(QObject):
    """Owns the completion list and the call tip of one editor."""

    shown = Signal(str)  # the list opened; "kernel" or "static" answered
    calltip_shown = Signal(str)

    def __init__(self, editor: QPlainTextEdit) -> None:
        super().__init__(editor)
        self._editor = editor
        self._kernel: Any = None  # an explorer.client.completion.KernelCompletion, or None
        self.popup = CompletionPopup(editor)
        self.popup.accepted.connect(self._insert)
        self.calltip = CalltipWidget(editor)
        self._static = StaticCompleter(self)
        self._static.completed.connect(self._on_static_completed)
        self._static.signatures_found.connect(self._on_static_signatures_found)
        self._timer = QTimer(self, singleShot=True, interval=POPUP_DELAY_MS)
        self._timer.timeout.connect(lambda: self.request(explicit=False))
        self._request = 0
        self._tip_request = 0
        self._expected = (-1, -1)  # (document revision, cursor position) of the newest request
        self._start: QTextCursor | None = None  # where the name being completed begins
        self._call: QTextCursor | None = None  # right after the "(" the call tip is about

    @property
    def kernel(self) -> Any:
        return self._kernel

    def set_kernel(self, kernel: Any) -> None:
        self._kernel = kernel

    # -- keys -------------------------------------------------------------------------------------
    def key_pressed(self, event: QKeyEvent) -> bool:
        """Keys the open list or tip takes before the editor; True when taken."""
        key = event.key()
        if self.popup.isVisible():
            if key in _NAVIGATION:
                self.popup.navigate(event)
                return True
            if key == Qt.Key.Key_Escape:
                self.popup.hide()
                return True
            if key == Qt.Key.Key_Tab or (key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not self._typed_in_full()):
                self._insert(self.popup.current_name() or "")
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.popup.hide()  # the name is typed in full: Return is a new line, not a completion
        if self.calltip.isVisible() and key == Qt.Key.Key_Escape:
            self.calltip.hide()
            return True
        return False

    def text_typed(self, text: str) -> None:
        """After the editor inserted *text*: filter the open list, or start the pause after a dot."""
        warm_up()  # the first key typed: jedi starts reading torch now, seconds before it is needed
        if self.popup.isVisible() and text != ".":
            self._refresh_popup()
            return
        self.popup.hide()
        context = completion_context(text_before(self._editor.textCursor()))
        if text == "." or (context is not None and text.isidentifier()):
            self._timer.start()
        else:
            self._timer.stop()
        if text == "(":
            self._request_calltip()

    def cursor_moved(self) -> None:
        """Close the list when the cursor leaves the name, the tip when it leaves the call."""
        if self.popup.isVisible():
            self._refresh_popup()
        if self.calltip.isVisible() and not self._inside_call():
            self.calltip.hide()

    def pending(self) -> bool:
        """Whether the pause after a dot is running (the list opens when it ends)."""
        return self._timer.isActive()

    def hide(self) -> None:
        self._timer.stop()
        self.popup.hide()
        self.calltip.hide()

    # -- completion -----------------------------------------------------------------------------------
    def request(self, explicit: bool = True) -> bool:
        """Ask for completions at the cursor (the kernel when it can answer, else jedi); False when none apply."""
        cursor = self._editor.textCursor()
        state = scan_cached(statement_context(cursor))
        context = completion_context(text_before(cursor), explicit)
        if cursor.hasSelection() or state.string is not None or state.comment or context is None:
            return False
        self._request += 1
        request = self._request
        self._expected = (self._editor.document().revision(), cursor.position())
        before = text_before(cursor)
        if context.kernel_may_ask and self._kernel is not None and self._kernel.complete(
                before, len(before), lambda reply: self._on_kernel_completed(request, before, reply)):
            return True
        self._ask_static(request)
        return True

    def _ask_static(self, request: int) -> None:
        cursor = self._editor.textCursor()
        self._static.complete(request, self._editor.toPlainText(), cursor.blockNumber() + 1,
                              len(text_before(cursor)))

    def _current(self, request: int) -> bool:
        """Whether *request* is the newest and nothing was typed or moved since it was made."""
        now = (self._editor.document().revision(), self._editor.textCursor().position())
        return request == self._request and now == self._expected

    def _on_kernel_completed(self, request: int, before: str, reply: dict[str, Any] | None) -> None:
        if not self._current(request):
            return  # the user typed on: this answer is about text that is gone
        if not reply or not reply.get("matches"):
            self._ask_static(request)  # a slow or empty kernel: the script's text may still know
            return
        kinds = {m.get("text"): m.get("type", "") for m in (reply.get("metadata") or {}).get("_jupyter_types_experimental", [])
                 if m.get("type") != "<unknown>"}  # our kernel skips types (see explorer.client.launch)
        items = [(m, kinds.get(m, "")) for m in dict.fromkeys(reply["matches"])]
        self._show(items, utf16_len(before) - utf16_len(before[: reply.get("cursor_start", len(before))]), "kernel")

    def _on_static_completed(self, request: int, items: list[tuple[str, str, int]] | None) -> None:
        if request < 0 or not items or not self._current(request):
            return
        before = text_before(self._editor.textCursor())
        typed = before[len(before) - items[0][2]:]
        # private names only when asked for, as IPython does after a dot
        shown = [(name, kind) for name, kind, _n in items if typed.startswith("_") or not name.startswith("_")]
        self._show(shown, utf16_len(typed), "static")

    def _show(self, items: list[tuple[str, str]], typed_units: int, source: str) -> None:
        cursor = self._editor.textCursor()
        start = QTextCursor(cursor)
        start.setPosition(cursor.position() - typed_units)
        start.setKeepPositionOnInsert(True)  # what is typed next goes after the start, not before it
        self._start = start
        typed = cursor.block().text()[start.positionInBlock():cursor.positionInBlock()]
        rect = self._editor.cursorRect(start)
        where = QRect(self._editor.viewport().mapToGlobal(rect.topLeft()), rect.size())
        if self.popup.show_items(items, typed, where, self._editor.font()):
            self.shown.emit(source)

    def _typed(self) -> str | None:
        """The text between the completion's start and the cursor; None when the cursor left it."""
        cursor = self._editor.textCursor()
        if self._start is None or self._start.block() != cursor.block() or cursor.position() < self._start.position():
            return None
        return cursor.block().text()[self._start.positionInBlock():cursor.positionInBlock()]

    def _typed_in_full(self) -> bool:
        return self._typed() == self.popup.current_name()

    def _refresh_popup(self) -> None:
        typed = self._typed()
        if typed is None or not _NAME_CHARS.fullmatch(typed) or not self.popup.filter(typed):
            self.popup.hide()

    def _insert(self, name: str) -> None:
        """Put *name* in place of what was typed of it."""
        self.popup.hide()
        if not name or self._typed() is None or self._start is None:
            return
        cursor = self._editor.textCursor()
        cursor.setPosition(self._start.position(), QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(name)
        self._editor.setTextCursor(cursor)

    # -- call tips ---------------------------------------------------------------------------------
    def _request_calltip(self) -> None:
        cursor = self._editor.textCursor()
        before = text_before(cursor)
        name = callee(before)
        state = scan(statement_context(cursor)[:-1])
        if name is None or state.string is not None or state.comment:
            return
        self._call = QTextCursor(cursor)
        self._call.setKeepPositionOnInsert(True)  # the arguments typed go after it
        self._tip_request += 1
        request = self._tip_request
        text = self._editor.toPlainText()
        asked = self._kernel is not None and kernel_may_inspect(name, text) and self._kernel.inspect(
            name, len(name), lambda reply: self._on_kernel_inspected(request, reply))
        if not asked:
            self._static.signature(request, text, cursor.blockNumber() + 1, len(before))

    def _on_kernel_inspected(self, request: int, reply: dict[str, Any] | None) -> None:
        found = parse_inspection((reply.get("data") or {}).get("text/plain", "")) if reply and reply.get("found") else None
        if found is None:
            cursor = self._editor.textCursor()
            self._static.signature(request, self._editor.toPlainText(), cursor.blockNumber() + 1, len(text_before(cursor)))
            return
        self._show_calltip(request, found, "kernel")

    def _on_static_signatures_found(self, request: int, found: tuple[str, str] | None) -> None:
        if found is not None:
            self._show_calltip(request, from_docstring(*found), "static")

    def _show_calltip(self, request: int, found: tuple[str, str], source: str) -> None:
        if request != self._tip_request or self._call is None or not self._inside_call():
            return
        rect = self._editor.cursorRect(self._call)
        where = QRect(self._editor.viewport().mapToGlobal(rect.topLeft()), rect.size())
        self.calltip.show_tip(found[0], found[1], where, self._editor.font())
        self.calltip_shown.emit(source)

    def _inside_call(self) -> bool:
        """Whether the cursor is still between the call's "(" and its ")"."""
        cursor = self._editor.textCursor()
        if self._call is None or cursor.position() < self._call.position():
            return False
        between = QTextCursor(self._call)
        between.setPosition(cursor.position(), QTextCursor.MoveMode.KeepAnchor)
        text = between.selectedText().replace("\u2029", "\n")
        if text.count("\n") > 50:
            return False
        brackets = scan("(" + text).brackets
        return bool(brackets) and (brackets[0].line, brackets[0].column) == (0, 0)
