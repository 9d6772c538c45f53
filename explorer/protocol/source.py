"""What the views need of the link to the kernel: ask a typed request, get its typed reply.

The window's :class:`~explorer.client.session.KernelSession` is one; the tests' in-process
stand-ins are others. Typing a view's ``source`` with :class:`RequestSource` lets the type
checker follow a request to the reply the view reads: a callback declared for
``Reply[ImageReply]`` that reads a field the reply does not have, or a request answered by
another reply type, is an error before it is a bug.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from explorer.protocol.constants import R
from explorer.protocol.envelope import Reply
from explorer.protocol.requests import Request


class RequestSource(Protocol):
    """Answers requests; *on_reply* runs on the GUI thread unless ``valid()`` says False by then."""

    def ask(self, request: Request[R], on_reply: Callable[[Reply[R]], None],
            valid: Callable[[], bool] | None = None) -> None: ...
