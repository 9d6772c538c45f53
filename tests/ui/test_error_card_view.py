"""Tests for the error card (explorer.ui.error_card_view) fed by the real explainer through the agent."""

from __future__ import annotations

import re
import sys

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QPushButton

from explorer import protocol
from explorer.ui.error_card_view import ErrorCardView, rich_text
from tests.core.test_errors_cells import CELL, raise_in_cell
from tests.ui.fakes import InProcessSource
from tests.waits import scaled_ms

MATMUL = "a = torch.randn(4, 3)\nb = torch.randn(4, 5)\nc = a @ b"


def _after_run(source: InProcessSource, code: str, failed: bool, lang: str) -> dict:
    """What the window gets after a run: the AfterRun reply, through the real comm endpoint."""
    from explorer.core import i18n

    replies: list = []
    try:
        source.ask(protocol.SetLanguage(lang=lang), lambda _reply: None)
        source.answer(protocol.AfterRun(code=code, failed=failed), replies.append)()
    finally:
        i18n.set_language("en")
    assert replies and replies[0].ok, replies
    return replies[0].result


def _explained(code: str, monkeypatch: pytest.MonkeyPatch, lang: str = "en") -> dict:
    """Raise the code for real and fetch the card through the kernel's comm endpoint."""
    exc, ns = raise_in_cell(code)
    source = InProcessSource(ns)
    source.agent.code_filenames = lambda: {CELL}
    monkeypatch.setattr(sys, "last_value", exc, raising=False)
    return _after_run(source, code, True, lang)["error"]


def _hints(code: str, lang: str = "en") -> list[dict]:
    from tests.core.test_errors_cells import fresh_namespace

    ns = fresh_namespace()
    exec(compile(code, CELL, "exec"), ns)
    return _after_run(InProcessSource(ns), code, False, lang)["hints"]


@pytest.fixture
def card(qtbot) -> ErrorCardView:
    view = ErrorCardView()
    qtbot.addWidget(view)
    view.resize(700, 600)
    view.show()
    qtbot.waitExposed(view)
    return view


def test_title_explanation_and_fix_show(card, monkeypatch) -> None:
    error = _explained(MATMUL, monkeypatch)
    card.show_error(error)
    assert card.title_text() == error["title"] == "Matrix shapes don't fit for multiplication"
    assert "`a` is [4, 3]" in card.explanation_text() and "3 != 4" in card.explanation_text()
    assert card.fix_text() == error["fix"] and "a.T @ b" in card.fix_text()
    title = card.findChild(QLabel, "errorTitle")
    assert title.font().bold() and title.font().pointSizeF() > card.font().pointSizeF()
    message = card.findChild(QLabel, "errorMessage").text()
    assert message.startswith("RuntimeError: mat1 and mat2 shapes cannot be multiplied")
    explanation = card.findChild(QLabel, "errorExplanation").text()
    assert re.search(r"<span[^>]*font-family[^>]*>\[4, 3\]</span>", explanation)
    assert card.findChild(QPlainTextEdit, "fixBox").isReadOnly()
    assert not card.findChild(QPlainTextEdit, "tracebackBox").isVisible()


def test_copy_puts_the_fix_on_the_clipboard(qtbot, card, monkeypatch) -> None:
    card.show_error(_explained(MATMUL, monkeypatch))
    QGuiApplication.clipboard().setText("something else")
    button = card.findChild(QPushButton, "copyFix")
    with qtbot.waitSignal(card.fix_copied, timeout=scaled_ms(2000)) as blocker:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert blocker.args == [card.fix_text()]
    assert QGuiApplication.clipboard().text() == card.fix_text()
    assert button.text() == "Copied"


def test_line_link_emits_line_activated(qtbot, card, monkeypatch) -> None:
    card.show_error(_explained(MATMUL, monkeypatch))
    link = card.findChild(QPushButton, "lineLink")
    assert link.isVisible() and link.text() == "line 3"
    with qtbot.waitSignal(card.line_activated, timeout=scaled_ms(2000)) as blocker:
        qtbot.mouseClick(link, Qt.MouseButton.LeftButton)
    assert blocker.args == [3]


def test_unknown_error_shows_traceback_and_shapes(card, monkeypatch) -> None:
    error = _explained("d = {}\nx = torch.ones(2, 3)\nv = d[x.shape[0]]", monkeypatch)
    card.show_error(error)
    assert card.title_text() == "KeyError in your code"
    box = card.findChild(QPlainTextEdit, "tracebackBox")
    assert box.isVisible() and "KeyError" in box.toPlainText() and len(box.toPlainText().splitlines()) <= 8
    variables = card.findChild(QLabel, "errorVariables")
    assert variables.isVisible() and "x  [2, 3]  torch.float32  cpu" in variables.text()


def test_cli_contract_error_without_extras(card) -> None:
    card.show_error({"type": "ValueError", "message": "bad", "line": None, "title": "T", "explanation": "E", "fix": ""})
    assert card.title_text() == "T" and card.fix_text() == ""
    assert not card.findChild(QPushButton, "lineLink").isVisible()
    assert not card.findChild(QPushButton, "copyFix").isVisible()


def test_none_hides_and_clear_empties(card, monkeypatch) -> None:
    card.show_error(_explained(MATMUL, monkeypatch))
    card.show_hints(_hints("x = torch.Tensor(2, 3)"))
    card.show_error(None)
    assert card.title_text() == "" and not card.findChild(QLabel, "errorTitle").isVisible()
    assert card.hint_titles() == ["torch.Tensor(2, 3) is not zeros"]
    card.clear()
    assert card.hint_titles() == [] and card.fix_text() == ""


def test_hint_cards_with_line_link_and_copy(qtbot, card) -> None:
    hints = _hints("w = torch.randn(3, requires_grad=True) * 0.01\nloss = (w * 2).sum()\nloss.backward()\nz = torch.Tensor(2, 3)")
    card.show_hints(hints)
    assert [h["key"] for h in hints] == ["grad_non_leaf", "tensor_uninitialised"]
    assert card.hint_titles() == [h["title"] for h in hints]
    links = [b for b in card.findChildren(QPushButton) if b.text() == "line 4"]
    assert len(links) == 1
    with qtbot.waitSignal(card.line_activated, timeout=scaled_ms(2000)) as blocker:
        qtbot.mouseClick(links[0], Qt.MouseButton.LeftButton)
    assert blocker.args == [4]
    copies = [b for b in card.findChildren(QPushButton) if b.text() == "Copy" and b.objectName() != "copyFix"]
    with qtbot.waitSignal(card.fix_copied, timeout=scaled_ms(2000)) as blocker:
        qtbot.mouseClick(copies[0], Qt.MouseButton.LeftButton)
    assert blocker.args == [hints[0]["fix"]]


def test_headings_follow_the_inherited_font(qtbot, card, monkeypatch) -> None:
    card.show_error(_explained(MATMUL, monkeypatch))
    font = card.font()
    font.setPointSizeF(24.0)
    card.setFont(font)
    title = card.findChild(QLabel, "errorTitle")
    qtbot.waitUntil(lambda: title.font().pointSizeF() == pytest.approx(24.0 * 1.35))
    assert card.findChild(QPlainTextEdit, "fixBox").font().pointSizeF() == pytest.approx(24.0)


def test_chinese_card_and_labels(qtbot, card, monkeypatch) -> None:
    from explorer.ui.i18n import install_language

    error = _explained(MATMUL, monkeypatch, lang="zh_CN")
    card.show_error(error)
    assert re.search(r"[\u4e00-\u9fff]", card.title_text()) and "[4, 3]" in card.explanation_text()
    install_language("zh_CN")
    try:
        qtbot.waitUntil(lambda: card.findChild(QPushButton, "copyFix").text() == "复制")
        assert card.findChild(QPushButton, "lineLink").text() == "第 3 行"
    finally:
        install_language("en")
    qtbot.waitUntil(lambda: card.findChild(QPushButton, "copyFix").text() == "Copy")


@pytest.mark.parametrize(("text", "html"), [
    ("`a` is [4, 3] & <b>", "&lt;b&gt;"),
    ("dtype torch.float32 here", "torch.float32</span>"),
    ("no markup", "no markup"),
])
def test_rich_text_escapes_and_highlights(text: str, html: str) -> None:
    out = rich_text(text, "Mono")
    assert html in out and "<b>" not in out

