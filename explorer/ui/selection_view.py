"""The base of the five detail views (image, values, stats, memory map, graph): they follow the selection.

A view is built with the kernel *source* and the window's *state*, shows whatever
:attr:`AppState.selection <explorer.ui.app_state.AppState.selection>` holds, and asks
the kernel about it through its :class:`~explorer.ui.selection_fetch.SelectionFetch`
(only while visible; replies for a selection the user has left never arrive).
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from explorer import protocol
from explorer.ui.app_state import AppState
from explorer.ui.selection_fetch import SelectionFetch


class SelectionView(QWidget):
    """A widget that shows the selected variable.

    Parameters
    ----------
    source : object
        Has ``ask(request, on_reply, valid)`` (the kernel session); answers the view's requests.
    state : AppState
        Holds the selected variable; the view follows its ``selection_changed``.
    parent : QWidget, optional

    A subclass builds its widgets, then calls :meth:`follow_selection`; it implements
    :meth:`_on_state_selection_changed` and, when it fetches on its own schedule
    (:meth:`SelectionFetch.schedule`), :meth:`_fetch`.
    """

    def __init__(self, source: protocol.RequestSource, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app_state = state
        self._source = source
        self._fetcher = SelectionFetch(self, source, state, self._fetch)

    def follow_selection(self) -> None:
        """Show the current selection now, and every later one."""
        self.app_state.selection_changed.connect(self._on_state_selection_changed)
        self._on_state_selection_changed(self.app_state.selection)

    @property
    def _var(self) -> protocol.Var | None:
        """The selected VAR (None when nothing is selected)."""
        return self.app_state.selection

    @property
    def _name(self) -> str:
        """The selected variable's name ('' when nothing is selected)."""
        return self._var["name"] if self._var is not None else ""

    def _on_state_selection_changed(self, var: protocol.Var | None) -> None:
        """Show *var* (None: nothing selected)."""
        raise NotImplementedError

    def _fetch(self) -> None:
        """Send this view's requests for the selection (when :meth:`SelectionFetch.schedule` runs it)."""
