"""``breakpoint()`` in the user's code: pause there and answer the inspector's requests until Continue or Stop.

While the code is paused, the kernel's main thread is inside this hook, so the shell
channel (where comm messages arrive) is not read. The client that ran the code said in
its handshake that it can answer input requests (``Hello.pause``); the hook asks it for
each request with :data:`explorer.protocol.PAUSE_PROMPT` on the stdin channel, answers
on the comm as usual, and the client's :class:`~explorer.protocol.Resume` ends the pause.

Code run by anyone else (a notebook, the console) keeps Python's own ``breakpoint()``
(pdb) when its client can type answers; code run without stdin (the CLI), and
``breakpoint()`` in a thread of the user's, does not stop. The pause waits for the client
as long as it takes; if the client vanished, an interrupt (a notebook's Stop) ends it.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Callable
from typing import Any

from explorer import protocol
from explorer.core.agent.frames import FrameStack, stack_frames


class PauseHook:
    """The ``sys.breakpointhook`` the extension installs.

    Parameters
    ----------
    kernel : object
        The ipykernel kernel (its ``get_parent`` and ``raw_input``).
    agent : Agent
        Keeps the paused frames for the requests.
    endpoints : callable
        Returns the comm endpoints now open (each knows its client's session and ``pause``).
    previous : callable
        The hook that was installed before (pdb), for code that another client runs.
    """

    def __init__(self, kernel: Any, agent: Any, endpoints: Callable[[], list[Any]], previous: Callable[..., Any]) -> None:
        self.kernel = kernel
        self.agent = agent
        self.endpoints = endpoints
        self.previous = previous
        self.active = False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if os.environ.get("PYTHONBREAKPOINT") == "0" or self.active:
            return None
        if threading.current_thread() is not threading.main_thread():
            return None  # the kernel reads its stdin channel on the main thread only
        parent = _shell_parent(self.kernel)
        endpoint = self._endpoint(parent)
        can_type = bool((parent.get("content") or {}).get("allow_stdin"))
        if endpoint is None:
            return self.previous(*args, **kwargs) if can_type else None
        if not can_type:
            return None  # nobody can answer: run on, as with PYTHONBREAKPOINT=0
        self.pause(endpoint, sys._getframe(1))
        return None

    def _endpoint(self, parent: dict) -> Any:
        """The endpoint of the client that ran the code now running, if it answers pause prompts."""
        session = (parent.get("header") or {}).get("session")
        for endpoint in self.endpoints():
            if endpoint.client.pause and session and endpoint.session == session:
                return endpoint
        return None

    def pause(self, endpoint: Any, frame: Any) -> None:
        """Announce the pause with the caller's frame chosen, serve requests, then go on or stop."""
        agent = self.agent
        cells = agent.code_filenames()
        stack = stack_frames(frame, cells) or [(frame, frame.f_lineno)]
        agent.frames = FrameStack(stack, code=agent.code, code_filenames=cells, script=agent.script)
        selected = len(stack) - 1
        endpoint.client.frame = agent.frames.choice(selected)
        endpoint.notify("paused", {"frames": agent.frames.describe_all(), "selected": selected})
        self.active = True
        stop, answered = False, False
        try:
            stop = self._serve(endpoint)
            answered = True
        finally:
            self.active = False
            agent.frames.clear()
            endpoint.client.frame = None
            # "interrupted": the last prompt was abandoned (Ctrl+C from the console), nobody must answer it
            endpoint.notify("resumed", {"stop": stop, "interrupted": not answered})
        del frame, stack  # the paused frames must not outlive the pause through this call
        if stop:
            raise KeyboardInterrupt("stopped at breakpoint()")

    def _serve(self, endpoint: Any) -> bool:
        """Answer requests read from the client until it resumes; True when it asked to stop."""
        while True:
            try:
                text = self.kernel.raw_input(protocol.PAUSE_PROMPT)
            except EOFError:
                return False
            try:
                data = json.loads(text)
            except ValueError:
                continue  # not ours (an empty answer): ask again
            resume = _as_resume(data)
            if resume is None:
                endpoint.on_message(data)
                continue
            endpoint.reply(resume[0], {"stop": resume[1].stop})
            return bool(resume[1].stop)


def _as_resume(data: Any) -> tuple[int, protocol.Resume] | None:
    """``(id, request)`` when *data* is a well-formed Resume request."""
    if not isinstance(data, dict) or data.get("method") != protocol.Resume.method:
        return None
    try:
        request_id, request = protocol.parse_request(data)
    except protocol.ProtocolError:
        return None  # answered as an error by the endpoint
    return (request_id, request) if isinstance(request, protocol.Resume) else None


def _shell_parent(kernel: Any) -> dict:
    """The request (execute_request) the kernel is running now."""
    try:
        parent = kernel.get_parent("shell")
    except Exception:  # noqa: BLE001 - an ipykernel without get_parent: no pause, never an error
        return {}
    return parent if isinstance(parent, dict) else {}
