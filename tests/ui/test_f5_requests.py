"""F5 with a variable selected: the run's own reply brings the selection's overlaps, so the window asks twice, not three times.

Counted at the client's send (no timer): the run's ``AfterRun`` and the shown tab's request; the
memory relations of the selected variable arrive inside the ``AfterRun`` reply.
"""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.window_helpers import open_window, press, type_code


def _spy(session) -> list[str]:
    sent: list[str] = []
    real = session.client._send

    def counting(request, callback, valid):
        sent.append(type(request).__name__)
        return real(request, callback, valid)

    session.client._send = counting
    return sent


def test_f5_with_a_selection_costs_two_requests(qtbot) -> None:
    window, session = open_window(qtbot)
    try:
        type_code(qtbot, window, "import torch\nt = torch.ones(4, 4)\nu = t[1:]")
        press(qtbot, window, Qt.Key.Key_F5)
        window.inspector.select("u")
        qtbot.waitUntil(lambda: "t" in window.inspector.relation.text())  # u is a view of t
        sent = _spy(session)
        press(qtbot, window, Qt.Key.Key_F5)
        qtbot.waitUntil(lambda: "Image" in sent)
        qtbot.wait(300)  # nothing more is asked
        assert sent == ["AfterRun", "Image"], sent
        assert "t" in window.inspector.relation.text()  # the relations came with the run
        assert window.inspector_model.variable("u")["overlaps"] == ["t"]
    finally:
        window.editor.document().setModified(False)
        window.close()
        session.shutdown()
