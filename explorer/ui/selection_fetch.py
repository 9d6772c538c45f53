"""The one way a view asks the kernel about the selection: when visible, and only for the latest selection.

Every view (image, values, stats, memory map, graph, the inspector's overlaps)
sends its requests through :meth:`SelectionFetch.ask`. A reply is delivered only
if, when it arrives, the selection is still the one it was asked for (the
:class:`~explorer.ui.app_state.AppState` generation), the view has not restarted
its own options since (a new layout, a new window of values), and the view
still exists. A view that is hidden fetches when it is next shown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import shiboken6
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget

from explorer import protocol
from explorer.ui.app_state import AppState

R = TypeVar("R")


class SelectionFetch(QObject):
    """Runs *fetch* now if *view* is visible, else when it is next shown; drops stale replies.

    Parameters
    ----------
    view : QWidget
        The view (or the widget that shows the view's model).
    source : object
        Has ``ask(request, on_reply, valid)`` (the kernel session).
    state : AppState
        Holds the selection and its generation.
    fetch : callable, optional
        Sends the view's requests for the current selection (through :meth:`ask`).
    """

    def __init__(self, view: QWidget, source: protocol.RequestSource, state: AppState, fetch: Callable[[], None] | None = None) -> None:
        super().__init__(view)
        self._view = view
        self._source = source
        self._state = state
        self._fetch = fetch
        self._token = 0
        self._pending = False
        view.installEventFilter(self)

    def restart(self) -> None:
        """Forget the replies in flight and any waiting fetch (a new selection, or new options)."""
        self._token += 1
        self._pending = False

    def schedule(self) -> None:
        """Fetch now when visible; otherwise on the next show."""
        if self._fetch is None:
            return
        if self._view.isVisible():
            self._pending = False
            self._fetch()
        else:
            self._pending = True

    def ask(self, request: protocol.Request[R], on_reply: Callable[[protocol.Reply[R]], None],
            on_stale: Callable[[protocol.Reply[R]], None] | None = None) -> None:
        """Send *request*; *on_reply* runs only if nothing was restarted or selected meanwhile.

        A stale reply is dropped, or handed to *on_stale* when it holds something to
        release (a statistics job that nobody will poll must be cancelled).
        """
        token, generation = self._token, self._state.generation

        def current() -> bool:
            return token == self._token and self._state.is_current(generation) and shiboken6.isValid(self._view)

        if on_stale is None:
            self._source.ask(request, on_reply, current)
            return

        def deliver(reply: protocol.Reply[R]) -> None:
            (on_reply if current() else on_stale)(reply)

        self._source.ask(request, deliver, None)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # While the view is torn down Qt may still deliver events to a half-gone wrapper.
        if getattr(self, "_pending", False) and watched is self._view and event.type() == QEvent.Type.Show:
            self._pending = False
            if self._fetch is not None:
                self._fetch()
        return False
