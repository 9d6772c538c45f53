"""The kernel side's answers: one handler per request type of :mod:`explorer.protocol`.

Handlers are registered by request class in :data:`HANDLERS` (no lookup by
attribute name): a reader goes from ``protocol.Image`` to :meth:`Agent.image`
through the table at the end of this module. A handler gets the typed request
and returns its reply TypedDict (the ``R`` of ``Request[R]``; ``tests/test_protocol.py``
checks the two agree); a ``ValueError`` carries one sentence for the user. The
summaries and payload builders of the core make plain dicts; where a handler
passes one on, ``cast`` names the reply it is, and the tests compare what they
send with the declaration (``tests/test_protocol_var.py``, ``tests/test_protocol_replies.py``).
"""

from __future__ import annotations

import os
import re
import sys
import threading
from collections.abc import Callable, Mapping
from typing import Any, cast

from explorer import protocol
from explorer.core import i18n
from explorer.core.agent.frames import FrameChoice, FrameStack, frame_namespace, traceback_frames
from explorer.core.i18n import _
from explorer.core.resolve import resolve

#: The top-level name a name path starts with (``model`` of ``model.fc.weight``, ``d`` of ``d['k']``).
_ROOT_NAME = re.compile(r"[^\W\d]\w*")


class ClientState:
    """What the kernel remembers per client (comm): the last snapshot sent, the change tracker, the chosen frame."""

    def __init__(self) -> None:
        from explorer.core.graph.grad_changes import GradChanges
        from explorer.core.snapshot.changes import ChangeTracker
        from explorer.core.snapshot.copy_hints import CopyHints
        from explorer.core.snapshot.delta import SnapshotDelta
        from explorer.core.step import StepMemory

        self.delta = SnapshotDelta()
        self.tracker = ChangeTracker()
        self.grads = GradChanges()
        self.copy_hints = CopyHints()
        self.steps = StepMemory()
        self.frame: FrameChoice | None = None  # None: the namespace
        self.last_changes: dict[str, Any] = {}  # of the last run, to show again when the client leaves a frame
        self.pause = False  # the client answers PAUSE_PROMPT input requests (Hello.pause)
        self.watch: Any = None  # a sampler.WatchState while the client watches running code (Watch)
        self.push: protocol.PushAfterRun | None = None  # each run's AfterRun is sent unasked (PushAfterRun)


class Agent:
    """Answers requests about the user's namespace without ever keeping a copy of it.

    Parameters
    ----------
    namespace : callable
        Returns the user namespace now (IPython's ``user_ns``, read at every
        request: ``%reset -f`` may have emptied it).
    hidden : callable
        Returns names the inspector never shows (IPython's ``user_ns_hidden``).
    code_filenames : callable
        Returns the file names IPython compiled user cells under (to tell user frames).
    """

    def __init__(self, namespace: Callable[[], dict[str, Any]], hidden: Callable[[], Any] = lambda: (),
                 code_filenames: Callable[[], set[str]] = set) -> None:
        self._namespace = namespace
        self._hidden = hidden
        self.code_filenames = code_filenames
        self.warnings: list[dict[str, Any]] = []  # recorded by the extension during the last run
        self.frames = FrameStack()  # the last error's or the paused run's; emptied when a run starts
        self.code: str | None = None  # the cell running now (for the lines of a paused run's frames)
        self.script_dir: str | None = None
        self.script: str | None = None  # the file the code runs as (ScriptContext), for the frames' ``file``
        self._jobs: dict[int, Any] = {}
        self._next_job = 1

    # -- the namespace --------------------------------------------------------------
    def user_namespace(self) -> dict[str, Any]:
        """The user's variables, without IPython's own names."""
        hidden = self._hidden()
        return {k: v for k, v in self._namespace().items() if k not in hidden}

    def scope(self, client: ClientState | None) -> dict[str, Any]:
        """The variables *client* inspects: its chosen frame's locals, else the namespace."""
        frame = self.frames.frame(client.frame) if client is not None else None
        if frame is None:
            return self.user_namespace()
        return frame_namespace(frame, self.user_namespace, self._namespace())

    def in_frame(self, client: ClientState) -> bool:
        return self.frames.frame(client.frame) is not None

    def value(self, name: str, client: ClientState | None = None) -> Any:
        return resolve(self.scope(client), name)

    def new_run(self, code: str | None) -> None:
        """A run starts: the frames of the last one are let go (each client is back on the namespace)."""
        self.frames.clear()
        self.code = code

    # -- handlers ---------------------------------------------------------------------
    def hello(self, req: protocol.Hello, client: ClientState) -> protocol.HelloReply:
        from explorer import __version__

        client.delta.reset()
        client.pause = bool(req.pause)
        i18n.set_language(req.language)
        return {"protocol": protocol.PROTOCOL_VERSION, "package": __version__,
                "python": sys.version.split()[0], "pid": os.getpid(), "language": i18n.language()}

    def snapshot(self, req: protocol.Snapshot | protocol.AfterRun | protocol.SelectFrame, client: ClientState) -> protocol.SnapshotReply:
        """Summaries of every user variable, memory facts and what changed since this client's last snapshot."""
        from explorer.core.snapshot.build import build_snapshot

        ns = self.scope(client)
        snap = build_snapshot(ns, exact_overlaps=req.exact_overlaps, overlaps=req.overlaps)
        variables = snap.pop("variables")
        if self.in_frame(client):  # a frame's locals: no run changed them, no copy to hint at
            snap["changes"] = {}
        elif isinstance(req, protocol.SelectFrame):  # back on the namespace: the last run's changes again
            snap["changes"] = client.last_changes
        else:
            client.copy_hints.update(req.code, ns, variables)
            snap["changes"] = client.last_changes = client.tracker.update(ns, variables, req.code, defer=True)
            client.grads.update(ns, variables, snap["changes"])  # a .grad filled, added to or zeroed is a change too
        snap.update(client.delta.make(variables, delta=getattr(req, "delta", False)))
        torch = sys.modules.get("torch")
        snap["torch_version"] = str(getattr(torch, "__version__", "")) or None if torch else None
        try:
            snap["grad_enabled"] = bool(torch.is_grad_enabled()) if torch else True
        except Exception:  # noqa: BLE001 - a half-imported or replaced torch
            snap["grad_enabled"] = True
        return cast(protocol.SnapshotReply, snap)

    def after_run(self, req: protocol.AfterRun, client: ClientState) -> protocol.AfterRunReply:
        """Everything the window needs after one execution; each part fails on its own."""
        out: dict[str, Any] = {"snapshot": self.snapshot(req, client)}
        out["error"] = _guarded(self._explain_error, req.code) if req.failed else None
        if isinstance(out["error"], dict) and not out["error"].get("internal"):
            frames = _guarded(self._error_frames, req)
            out["error"]["frames"] = frames if isinstance(frames, list) else []
        # A run that failed without a card ended with a clean sys.exit(): it gets hints like any success.
        hints = [] if out["error"] is not None else _guarded(self._hints, req.code)
        out["hints"] = hints if isinstance(hints, list) else []
        out["warnings"], self.warnings = [w for w in self.warnings if w], []
        out["selected"] = self._selected_overlaps(req, client, out["snapshot"]["changes"])
        return cast(protocol.AfterRunReply, out)

    def push_after_run(self, req: protocol.PushAfterRun, client: ClientState) -> protocol.PushSet:
        """From the next run on, send this client each run's AfterRun reply as the run ends (explorer.core.agent.extension)."""
        client.push = req if req.enabled else None
        return {"enabled": bool(req.enabled), "selected": req.selected}

    def _selected_overlaps(self, req: protocol.AfterRun, client: ClientState,
                           changes: Mapping[str, Any]) -> protocol.OverlapsReply | None:
        """The selected variable's overlaps when this run changed it (the window would ask for them next)."""
        root = _ROOT_NAME.match(req.selected)
        if root is None or root.group(0) not in changes:
            return None
        found = _guarded(self.overlaps, protocol.Overlaps(name=req.selected), client)
        return cast(protocol.OverlapsReply, found) if isinstance(found, dict) and "internal" not in found else None

    def overlaps(self, req: protocol.Overlaps, client: ClientState) -> protocol.OverlapsReply:
        from explorer.core.memory.relations import describe_relations

        return cast(protocol.OverlapsReply, describe_relations(self.scope(client), req.name))

    def set_language(self, req: protocol.SetLanguage, client: ClientState) -> protocol.LanguageReply:
        return {"lang": i18n.set_language(req.lang)}

    def script_context(self, req: protocol.ScriptContext, client: ClientState) -> protocol.ScriptContextReply:
        """Run later code as the script at ``path``: ``__file__`` set, its folder importable."""
        if self.script_dir is not None and self.script_dir in sys.path:
            sys.path.remove(self.script_dir)
        self.script_dir = None
        ns = self._namespace()
        self.script = None
        if not req.path:
            ns.pop("__file__", None)
            return {"path": None}
        path = self.script = os.path.abspath(req.path)
        ns["__file__"] = path
        folder = os.path.dirname(path)
        if folder not in sys.path:
            sys.path.insert(0, folder)
            self.script_dir = folder
        return {"path": path}

    def image(self, req: protocol.Image, client: ClientState) -> protocol.ImageReply:
        from explorer.core.image.payload import image_payload

        return cast(protocol.ImageReply, image_payload(
            self.value(req.name, client), name=req.name, layout=req.layout, channel=req.channel,
            max_width=req.max_width, max_height=req.max_height))

    def render(self, req: protocol.Render, client: ClientState) -> protocol.Rendered:
        from explorer.core.image.payload import render_png

        return cast(protocol.Rendered, render_png(self.value(req.name, client), req.out, name=req.name, layout=req.layout))

    def values(self, req: protocol.Values, client: ClientState) -> protocol.ValuesReply:
        from explorer.core.values.window import value_block

        return cast(protocol.ValuesReply, value_block(
            self.value(req.name, client), row_dim=req.row_dim, col_dim=req.col_dim, index=req.index,
            row0=req.row0, col0=req.col0, nrows=req.nrows, ncols=req.ncols))

    def memory_map(self, req: protocol.MemoryMap, client: ClientState) -> protocol.MemoryMapReply:
        from explorer.core.memory.map import memory_map

        return cast(protocol.MemoryMapReply, memory_map(self.scope(client), req.name, max_cells=req.max_cells))

    def graph(self, req: protocol.Graph, client: ClientState) -> protocol.GraphReply:
        from explorer.core.graph.autograd import autograd_graph

        return cast(protocol.GraphReply, autograd_graph(
            self.value(req.name, client), self.scope(client), name=req.name, max_nodes=req.max_nodes))

    def stats_start(self, req: protocol.StatsStart, client: ClientState) -> protocol.StatsJob:
        """Start statistics in a thread, so the kernel keeps answering (and Stop works) meanwhile."""
        from explorer.core.stats.job import StatsJob

        job = StatsJob(self.value(req.name, client), bins=req.bins, chunk_elements=req.chunk_elements)
        job_id, self._next_job = self._next_job, self._next_job + 1
        self._jobs[job_id] = job
        threading.Thread(target=job.run, name=f"te-stats-{job_id}", daemon=True).start()
        return {"job": job_id}

    def stats_poll(self, req: protocol.StatsPoll, client: ClientState) -> protocol.StatsStatus:
        job = self._jobs.get(req.job)
        if job is None:
            return {"state": "unknown", "progress": 0.0, "result": None, "error": None}
        status = job.status()
        if status["state"] in ("done", "cancelled", "failed"):
            self._jobs.pop(req.job, None)
        return status

    def stats_cancel(self, req: protocol.StatsCancel, client: ClientState) -> protocol.StatsJob:
        job = self._jobs.get(req.job)
        if job is not None:
            job.cancel()
            if job.status()["state"] in ("done", "cancelled", "failed"):
                self._jobs.pop(req.job, None)  # nobody polls a cancelled job again
        return {"job": req.job}

    def prepare_load(self, req: protocol.PrepareLoad, client: ClientState) -> protocol.LoadPlan:
        from explorer.core.files.prepare import FileLoadError, prepare_load

        try:
            return cast(protocol.LoadPlan, prepare_load(req.path, name=req.name, taken=set(self.user_namespace()),
                                                        allow_pickle=req.allow_pickle))
        except FileLoadError as exc:
            return {"error": str(exc), "needs_pickle": bool(getattr(exc, "needs_pickle", False))}

    def clear_error(self, req: protocol.ClearError, client: ClientState) -> protocol.Cleared:
        self.frames.clear()
        for attr in ("last_type", "last_value", "last_traceback", "last_exc"):
            if hasattr(sys, attr):
                try:
                    delattr(sys, attr)
                except AttributeError:
                    pass
        return {}

    # -- stepping and gradients ------------------------------------------------------------
    def step_capture(self, req: protocol.StepCapture, client: ClientState) -> protocol.StepCaptured:
        return {"captured": client.steps.capture(self.user_namespace(), req.code)}

    def step_compare(self, req: protocol.StepCompare, client: ClientState) -> protocol.StepCompared:
        items = client.steps.compare(self.user_namespace(), list(req.names or []))
        return {"items": cast(list[protocol.BeforeAfter], items)}

    def seed_random(self, req: protocol.SeedRandom, client: ClientState) -> protocol.Seeded:
        from explorer.core.step import seed_everything

        return cast(protocol.Seeded, seed_everything(req.seed))

    def watch_gradients(self, req: protocol.WatchGradients, client: ClientState) -> protocol.GradientsWatched:
        from explorer.core.graph.watch import watch_gradients

        return {"nodes": watch_gradients(self.user_namespace(), max_nodes=req.max_nodes)}

    def watch(self, req: protocol.Watch, client: ClientState) -> protocol.WatchSet:
        """Sample the running program for this client from the next run on (explorer.core.agent.sampler)."""
        from explorer.core.agent.sampler import WatchState, watch_state

        client.watch = watch_state(req)
        state = client.watch if client.watch is not None else WatchState()
        return state.reply() if client.watch is not None else {"names": [], "every": state.every, "paused": True}

    def apply_fix(self, req: protocol.ApplyFix, client: ClientState) -> protocol.PatchedScript:
        from explorer.core.fix_proof import patched_script

        return patched_script(req.code, req.fix, req.fix_mode, req.fix_line)

    # -- frames ---------------------------------------------------------------------------
    def select_frame(self, req: protocol.SelectFrame, client: ClientState) -> protocol.FrameReply:
        """Inspect one frame (or the namespace) from now on; the reply is its full snapshot."""
        if req.index is None:
            client.frame = None
        else:
            try:
                client.frame = self.frames.choice(req.index)
            except IndexError:
                raise ValueError(_("There is no frame {index} any more: the frames of an error are kept "
                                   "only until the next run.").format(index=req.index)) from None
        snapshot = self.snapshot(req, client)
        chosen = client.frame if self.in_frame(client) else None
        frame = self.frames.describe(chosen.index) if chosen is not None else None
        return {"frame": frame, "frames": self.frames.describe_all(), "snapshot": snapshot}

    def resume(self, req: protocol.Resume, client: ClientState) -> protocol.Resumed:
        """Paused code is resumed by the pause loop (explorer.core.agent.pause); here nothing waits."""
        raise ValueError(_("Nothing is paused: Continue works while the code waits in breakpoint()."))

    def _error_frames(self, req: protocol.AfterRun) -> list[protocol.FrameInfo]:
        """The user frames of the error just explained (kept for SelectFrame), described for its card."""
        exc = getattr(sys, "last_value", None)
        self.frames = FrameStack(traceback_frames(getattr(exc, "__traceback__", None), self.code_filenames()),
                                 code=req.code, code_filenames=self.code_filenames(), script=self.script)
        frames = self.frames.describe_all()
        if req.frame_variables:
            from explorer.core.snapshot.build import build_snapshot

            for info in frames:
                frame = self.frames.frame(self.frames.choice(info["index"]))
                if frame is None:  # describe() just listed it from the same stack: cannot happen, but never crash
                    info["variables"] = []
                    continue
                ns = frame_namespace(frame, self.user_namespace, self._namespace())
                info["variables"] = build_snapshot(ns, exact_overlaps=req.exact_overlaps,
                                                   overlaps=req.overlaps)["variables"]
        return frames

    # -- error cards ----------------------------------------------------------------------
    def _explain_error(self, code: str) -> dict | None:
        """Explain the last exception IPython showed (``sys.last_value``), or None."""
        from explorer.core.errors.explain import explain

        exc = getattr(sys, "last_value", None)
        if exc is None:
            return None
        return explain(exc, self.user_namespace(), code_filenames=self.code_filenames(), code=code)

    def _hints(self, code: str) -> list:
        from explorer.core.errors.explain import hints

        return hints(code, self.user_namespace())

    def record_warning(self, message: Any, category: type, filename: str, lineno: int, code: str | None,
                       frame: Any) -> None:
        """Turn a warning the user's code raised into a quiet card, kept for the next ``after_run``."""
        from explorer.core.errors.explain import explain_warning

        card = explain_warning(message, category, filename, lineno, self.user_namespace(), code,
                               code_filenames=self.code_filenames(), frame=frame)
        if card is not None:
            self.warnings.append(card)


def _guarded(fn: Callable[..., Any], *args: Any) -> Any:
    """Run one part of a reply; its failure is reported in its place, not raised."""
    try:
        return fn(*args)
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        return {"type": type(exc).__name__, "message": str(exc), "internal": True}


#: Request type -> the Agent method that answers it.
HANDLERS: dict[type[protocol.Request[Any]], Callable[[Agent, Any, ClientState], Mapping[str, object]]] = {
    protocol.Hello: Agent.hello,
    protocol.AfterRun: Agent.after_run,
    protocol.Snapshot: Agent.snapshot,
    protocol.Overlaps: Agent.overlaps,
    protocol.SetLanguage: Agent.set_language,
    protocol.ScriptContext: Agent.script_context,
    protocol.Image: Agent.image,
    protocol.Render: Agent.render,
    protocol.Values: Agent.values,
    protocol.MemoryMap: Agent.memory_map,
    protocol.Graph: Agent.graph,
    protocol.StatsStart: Agent.stats_start,
    protocol.StatsPoll: Agent.stats_poll,
    protocol.StatsCancel: Agent.stats_cancel,
    protocol.PrepareLoad: Agent.prepare_load,
    protocol.ClearError: Agent.clear_error,
    protocol.StepCapture: Agent.step_capture,
    protocol.StepCompare: Agent.step_compare,
    protocol.SeedRandom: Agent.seed_random,
    protocol.WatchGradients: Agent.watch_gradients,
    protocol.Watch: Agent.watch,
    protocol.SelectFrame: Agent.select_frame,
    protocol.Resume: Agent.resume,
    protocol.ApplyFix: Agent.apply_fix,
    protocol.PushAfterRun: Agent.push_after_run,
}
