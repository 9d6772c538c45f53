"""Which requests a session sends to the kernel, in order (by request class name)."""

from __future__ import annotations

from typing import Any


def count_requests(session: Any) -> list[str]:
    """Start recording the requests *session*'s comm client sends; the list grows as they go."""
    sent: list[str] = []
    real = session.client._send

    def counting(request: Any, callback: Any, valid: Any) -> Any:
        sent.append(type(request).__name__)
        return real(request, callback, valid)

    session.client._send = counting
    return sent
