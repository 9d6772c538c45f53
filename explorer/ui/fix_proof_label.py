"""The line under an error card's fix that says what the fix did when it ran on the learner's script.

It shows "checking…" while the background proof runs, then the verdict of
:mod:`explorer.client.fix_proof` in the interface's language: the lines it names are links.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

PASSED = "#009E73"  # Okabe-Ito bluish green: the fix got the script further
FAILED = "#D55E00"  # the error card's vermillion: the fix does not help
_SHOW_FIX = "show-fix"


class FixProofLabel(QLabel):
    """The verdict on a card's fix (``show_proof``); hidden when there is nothing to say.

    Signals
    -------
    line_activated(int)
        A line the verdict names was clicked.
    fix_revealed()
        The learner asked to see a fix that did not work.
    """

    line_activated = Signal(int)
    fix_revealed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("fixProof")
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.linkActivated.connect(self._on_link_activated)
        self._proof: dict[str, Any] | None = None
        self._line: int | None = None
        self.hide()

    # -- public ------------------------------------------------------------------------------
    def show_proof(self, proof: dict[str, Any] | None, line: int | None = None) -> None:
        """Show *proof* (a verdict, ``{"status": "checking"}`` or None) for a card whose error is on *line*."""
        self._proof, self._line = (dict(proof) if proof else None), line
        self._render()

    def status(self) -> str | None:
        return (self._proof or {}).get("status")

    def drops_fix(self) -> bool:
        """True when the fix ran and did not get the script past its error: it is no fix."""
        proof = self._proof or {}
        return proof.get("status") == "fails" and not proof.get("past_line")

    def badge(self) -> tuple[str, str | None]:
        """(short text, colour) for the card's header: the verdict at a glance, even when the card is scrolled."""
        proof = self._proof or {}
        status, past = proof.get("status"), proof.get("past_line")
        if status == "checking":
            #: Short note in the error card's title row while the fix runs on the learner's script.
            return self.tr("checking the fix…"), None
        if status == "runs" or (status in ("fails", "timeout") and past):
            #: Short note in the error card's title row: the fix ran on the learner's script and got past the error.
            return self.tr("✓ fix checked"), PASSED
        if status == "fails":
            return self.tr("✗ the fix does not work"), FAILED
        if status == "timeout":
            return self.tr("fix not proven"), None
        return "", None

    def plain_text(self) -> str:
        """The verdict without markup (tests, accessibility)."""
        from PySide6.QtGui import QTextDocument

        doc = QTextDocument()
        doc.setHtml(self.text())
        return doc.toPlainText()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self._render()
        super().changeEvent(event)

    # -- texts ---------------------------------------------------------------------------------
    def _render(self) -> None:
        proof = self._proof
        text = self._sentence(proof) if proof else None
        if proof is None or not text:
            self.setText("")
            self.hide()
            return
        colour = {"runs": PASSED, "fails": PASSED if proof.get("past_line") else FAILED}.get(str(proof.get("status")))
        if proof.get("status") == "timeout" and proof.get("past_line"):
            colour = PASSED
        self.setText(f'<span style="color:{colour}">{text}</span>' if colour else text)
        self.setToolTip(self._tooltip(proof))
        self.show()

    def _sentence(self, proof: dict[str, Any]) -> str | None:
        status, past = proof.get("status"), proof.get("past_line")
        if status == "checking":
            #: Shown at once under an error card's fix while the fix runs on the learner's script.
            return "<i>" + html.escape(self.tr("Checking this fix on your script…")) + "</i>"
        if status == "runs":
            return html.escape(self.tr("✓ Checked: with this fix your script runs to the end."))
        if status == "fails":
            return self._fails(proof)
        if status == "timeout" and past:
            stopped = proof.get("stopped_at")
            text = (self.tr("✓ Checked: with this fix your script runs past {line}; it was still running {now} when "
                            "the check stopped after {seconds} s.") if stopped else
                    self.tr("✓ Checked: with this fix your script runs past {line}; it was still running when the "
                            "check stopped after {seconds} s."))
            return self._fill(text, line=past, now=stopped, seconds=proof.get("budget"))
        if status == "timeout":
            text = self.tr("Not proven: after {seconds} s the fixed script had not got past {line} yet.")
            return self._fill(text, line=self._line, seconds=proof.get("budget"))
        return self._not_checked(str(proof.get("reason")), str(proof.get("detail") or ""))

    def _fails(self, proof: dict[str, Any]) -> str:
        error = proof.get("error") or {}
        what = html.escape(f"{error.get('type') or ''}: {error.get('message') or ''}".strip(": "))
        if proof.get("past_line"):
            text = self.tr("✓ Checked: with this fix your script runs past {line}. Then {next} fails: {error}")
            return self._fill(text, line=proof["past_line"], next=error.get("line"), error=what)
        text = self.tr("✗ This fix does not work on your script: {next} still fails ({error}), so it is not "
                       "offered.")
        show = html.escape(self.tr("Show it anyway"))
        return self._fill(text, next=error.get("line"), error=what) + f' <a href="{_SHOW_FIX}">{show}</a>'

    def _not_checked(self, reason: str, detail: str) -> str | None:
        texts = {
            "console": self.tr("Not checked: this code was typed in the console, so there is no script to run "
                               "the fix in."),
            "attached": self.tr("Not checked: the kernel runs elsewhere, so the fix is not run here."),
            "cannot_apply": self.tr("Not checked: the fix could not be put into the script."),
            "kernel": self.tr("Not checked: a background Python process could not be started ({detail}).").format(
                detail=detail),
            "no_time": self.tr("Not checked: the check ran out of time."),
        }
        text = texts.get(reason)
        return html.escape(text) if text else None

    def _tooltip(self, proof: dict[str, Any]) -> str:
        budget = proof.get("budget")
        if proof.get("status") == "not_checked" or not isinstance(budget, (int, float)):
            return ""
        text = self.tr("Your whole script ran again with this fix, in a separate background Python process: "
                       "random numbers seeded as for Step Back, for {seconds} s at most. Your own kernel and "
                       "variables were not touched.").format(seconds=f"{budget:g}")
        seconds = proof.get("seconds")
        if isinstance(seconds, (int, float)):
            text += " " + self.tr("The check took {seconds} s.").format(seconds=f"{seconds:.1f}")
        return text

    def _fill(self, text: str, **values: Any) -> str:
        """*text* (translated) escaped, with ``{line}``-like values as links to the line and seconds as numbers."""
        out = html.escape(text)
        for key, value in values.items():
            if key in ("line", "next", "now") and isinstance(value, int):
                link = html.escape(self.tr("line {n}").format(n=value))
                value = f'<a href="line:{value}">{link}</a>'
            elif key in ("line", "next", "now"):
                value = html.escape(self.tr("the failing line"))
            elif key == "seconds":
                value = f"{value:g}" if isinstance(value, (int, float)) else "?"
            out = out.replace("{" + key + "}", str(value))
        return out

    def _on_link_activated(self, link: str) -> None:
        if link == _SHOW_FIX:
            self.fix_revealed.emit()
        elif link.startswith("line:") and link[5:].isdigit():
            self.line_activated.emit(int(link[5:]))
