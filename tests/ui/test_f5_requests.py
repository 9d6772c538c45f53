"""F5 with a variable selected: the kernel pushes the run's reply, with the selection's overlaps, so the window asks once.

Counted at the client's send (no timer): only the shown tab's request. The run's ``AfterRun`` reply
comes unasked as the run ends (``PushAfterRun``, issue 25) and carries the memory relations of the
selected variable (the kernel learnt the selection when it changed).
"""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.client.request_spy import count_requests
from tests.ui.window_helpers import close_window, open_window, press, type_code
from tests.waits import scaled_ms


def test_f5_with_a_selection_costs_one_request(qtbot) -> None:
    window, session = open_window(qtbot)
    try:
        type_code(qtbot, window, "import torch\nt = torch.ones(4, 4)\nu = t[1:]")
        press(qtbot, window, Qt.Key.Key_F5)
        window.inspector.select("u")
        qtbot.waitUntil(lambda: "t" in window.inspector.relation.text())  # u is a view of t
        sent = count_requests(session)
        press(qtbot, window, Qt.Key.Key_F5)
        qtbot.waitUntil(lambda: "Image" in sent)
        qtbot.wait(300)  # nothing more is asked
        assert sent == ["Image"], sent  # no AfterRun: its reply was pushed
        assert "t" in window.inspector.relation.text()  # the relations came with the run
        assert window.inspector_model.variable("u")["overlaps"] == ["t"]
    finally:
        close_window(window, session)


def test_code_typed_in_the_console_updates_the_inspector_without_asking(qtbot) -> None:
    window, session = open_window(qtbot)
    try:
        qtbot.waitUntil(lambda: session.is_ready and hasattr(window.console, "execute"), timeout=scaled_ms(30000))
        # The console is another client: its code may reach the kernel before our PushAfterRun (sent at the
        # handshake); such an early run is asked for. From the acknowledgement on, none is.
        qtbot.waitUntil(lambda: session.client.push_acknowledged is not None, timeout=scaled_ms(30000))
        sent = count_requests(session)
        window.console.execute("w = 7 * 6")  # as if typed in the console: another client's execution
        qtbot.waitUntil(lambda: (window.inspector_model.variable("w") or {}).get("repr") == "42", timeout=scaled_ms(30000))
        assert "AfterRun" not in sent, sent  # the kernel pushed the run's reply
    finally:
        close_window(window, session)
