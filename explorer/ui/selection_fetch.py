"""Fetching the selected variable's details: when the view is visible, for the latest selection only."""

from __future__ import annotations

from typing import Any, Callable

import shiboken6
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget


class SelectionFetch(QObject):
    """Runs *fetch* now if *view* is visible, else when it is next shown; drops stale replies.

    A detail view calls :meth:`restart` when the selection (or an option) changes,
    :meth:`schedule` to fetch for it, and sends its requests through :meth:`request`:
    a reply that answers an earlier selection never reaches the view.
    """

    def __init__(self, view: QWidget, source: Any, fetch: Callable[[], None]) -> None:
        super().__init__(view)
        self._view = view
        self._source = source
        self._fetch = fetch
        self._token = 0
        self._pending = False
        view.installEventFilter(self)

    def restart(self) -> None:
        """Forget the fetch in flight and any waiting one (a new selection)."""
        self._token += 1
        self._pending = False

    def schedule(self) -> None:
        """Fetch now when visible; otherwise on the next show."""
        if self._view.isVisible():
            self._pending = False
            self._fetch()
        else:
            self._pending = True

    def request(self, method: str, params: dict, on_reply: Callable[[dict], None]) -> None:
        """Send a request whose reply is delivered only if nothing was restarted meanwhile."""
        token = self._token

        def deliver(reply: dict) -> None:
            if token == self._token and shiboken6.isValid(self._view):
                on_reply(reply)

        self._source.request(method, params, deliver)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        # While the view is torn down Qt may still deliver events to a half-gone wrapper.
        if getattr(self, "_pending", False) and watched is self._view and event.type() == QEvent.Type.Show:
            self._pending = False
            self._fetch()
        return False
