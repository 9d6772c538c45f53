"""The agent installed in the kernel: answers the GUI's silent requests with JSON.

The kernel layer evaluates ``__tensor_explorer__.call(method, params_json)`` as a
``user_expression``; the returned object's ``repr`` *is* the JSON reply, so the
reply travels without being printed and without a second encoding.
"""

from __future__ import annotations

import base64
import json
import sys
import threading
import traceback
from typing import Any, Callable

from explorer.core.resolve import ResolveError, resolve

AGENT_NAME = "__tensor_explorer__"


class JsonReply:
    """An object whose ``repr`` is its JSON text (what ``user_expressions`` send back)."""

    __slots__ = ("text",)

    def __init__(self, payload: Any) -> None:
        self.text = json.dumps(_jsonable(payload), allow_nan=False, separators=(",", ":"))

    def __repr__(self) -> str:
        return self.text


def _jsonable(obj: Any) -> Any:
    """Make *obj* strict JSON: bytes become base64 text, NaN/Inf become strings."""
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, (bytes, bytearray, memoryview)):
        return {"__bytes__": base64.b64encode(bytes(obj)).decode("ascii")}
    if isinstance(obj, float) and (obj != obj or obj in (float("inf"), float("-inf"))):
        return repr(obj)
    return obj


class Agent:
    """Dispatches requests from the GUI to :mod:`explorer.core` functions.

    Parameters
    ----------
    namespace : dict
        The user namespace (IPython's ``user_ns``).
    hidden : set of str, optional
        Names the GUI never shows (IPython's own variables).
    """

    def __init__(self, namespace: dict[str, Any], hidden: set[str] | None = None) -> None:
        self.namespace = namespace
        self.hidden = set(hidden or ())
        self.hidden.add(AGENT_NAME)
        self.lang = "en"
        self.code_filenames: Callable[[], set[str]] = lambda: set()
        self._tracker = None
        self._copy_hints = None
        self._script_dir: str | None = None  # the folder do_script_context put on sys.path
        self._jobs: dict[int, Any] = {}
        self._next_job = 1

    # -- entry point -------------------------------------------------------
    def call(self, method: str, params_json: str = "{}") -> JsonReply:
        """Run one request; never raises (errors come back as ``{"error": ...}``)."""
        try:
            params = json.loads(params_json) if params_json else {}
            handler = getattr(self, "do_" + method, None)
            if handler is None:
                return JsonReply({"error": f"unknown request {method!r}"})
            return JsonReply(self._localized(method, {"result": handler(**params)}))
        except (ResolveError, ValueError) as exc:
            # core functions raise these with one sentence meant for the user
            return JsonReply(self._localized(method, {"error": str(exc)}))
        except BaseException as exc:  # noqa: BLE001 - the GUI must get an answer
            if isinstance(exc, KeyboardInterrupt):
                return JsonReply({"error": "interrupted"})
            detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
            return JsonReply({"error": detail, "traceback": traceback.format_exc(limit=8)})

    def _localized(self, method: str, reply: dict) -> dict:
        """The reply with its sentences for the user in the GUI's language (the core writes English)."""
        if not self.lang.startswith("zh"):
            return reply
        from explorer.core.text_zh import localize

        return localize(method, reply)

    def user_namespace(self) -> dict[str, Any]:
        """The user's variables, without IPython's and the agent's own names."""
        return {k: v for k, v in self.namespace.items() if k not in self.hidden}

    def value(self, name: str) -> Any:
        return resolve(self.user_namespace(), name)

    # -- namespace ----------------------------------------------------------
    def do_snapshot(self, exact_overlaps: bool = False, code: str = "", overlaps: bool = True) -> dict:
        """Summaries of every user variable, memory facts and what changed since last time."""
        from explorer.core.snapshot.build import build_snapshot
        from explorer.core.snapshot.changes import ChangeTracker
        from explorer.core.snapshot.copy_hints import CopyHints

        ns = self.user_namespace()
        snap = build_snapshot(ns, exact_overlaps=exact_overlaps, overlaps=overlaps)
        if self._tracker is None:
            self._tracker, self._copy_hints = ChangeTracker(), CopyHints()
        self._copy_hints.update(code, ns, snap["variables"])
        snap["changes"] = self._tracker.update(ns, snap["variables"], code)
        torch = sys.modules.get("torch")
        snap["torch_version"] = getattr(torch, "__version__", None) if torch else None
        snap["grad_enabled"] = bool(torch.is_grad_enabled()) if torch else True
        return snap

    def do_after_run(self, code: str = "", failed: bool = False, exact_overlaps: bool = False,
                     overlaps: bool = True) -> dict:
        """Everything the GUI needs after one execution, in one round trip.

        Each part fails on its own: a broken explainer must not hide the snapshot.
        """
        out: dict[str, Any] = {"snapshot": self.do_snapshot(exact_overlaps=exact_overlaps, code=code, overlaps=overlaps)}
        out["error"] = self._guarded(self.do_explain_error) if failed else None
        hints = [] if failed else self._guarded(self.do_hints, code=code)
        out["hints"] = hints if isinstance(hints, list) else []
        return out

    @staticmethod
    def _guarded(fn: Callable[..., Any], **kwargs: Any) -> Any:
        try:
            return fn(**kwargs)
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            return {"type": type(exc).__name__, "message": str(exc), "internal": True}

    def do_overlaps(self, name: str) -> dict:
        """Exact byte overlaps of one variable with every other (bounded work)."""
        from explorer.core.memory.groups import overlaps_of

        return overlaps_of(self.user_namespace(), name)

    def do_script_context(self, path: str | None) -> dict:
        """Run code as the script at *path*: ``__file__`` set, its folder importable (like ``python path``)."""
        import os

        if self._script_dir is not None and self._script_dir in sys.path:
            sys.path.remove(self._script_dir)
        self._script_dir = None
        if not path:
            self.namespace.pop("__file__", None)
            return {"path": None}
        path = os.path.abspath(path)
        self.namespace["__file__"] = path
        folder = os.path.dirname(path)
        if folder not in sys.path:
            sys.path.insert(0, folder)
            self._script_dir = folder
        return {"path": path}

    def do_set_language(self, lang: str) -> dict:
        self.lang = lang
        return {"lang": lang}

    # -- details for the selected variable ---------------------------------
    def do_image(self, name: str, **options: Any) -> dict:
        from explorer.core.image.payload import image_payload

        return image_payload(self.value(name), name=name, **options)

    def do_values(self, name: str, **options: Any) -> dict:
        from explorer.core.values.window import value_window

        return value_window(self.value(name), **options)

    def do_memory_map(self, name: str, **options: Any) -> dict:
        from explorer.core.memory.map import memory_map

        return memory_map(self.user_namespace(), name, **options)

    def do_render(self, name: str, out: str, **options: Any) -> dict:
        """Write the image canvas's pixels for *name* to a PNG file (the CLI's ``render``)."""
        from explorer.core.image.payload import render_png

        return render_png(self.value(name), out, name=name, **options)

    def do_graph(self, name: str, **options: Any) -> dict:
        from explorer.core.graph.autograd import autograd_graph

        return autograd_graph(self.value(name), self.user_namespace(), name=name, **options)

    # -- statistics run in a thread so the kernel stays responsive ----------
    def do_stats_start(self, name: str, **options: Any) -> dict:
        from explorer.core.stats.job import StatsJob

        job = StatsJob(self.value(name), **options)
        job_id = self._next_job
        self._next_job += 1
        self._jobs[job_id] = job
        threading.Thread(target=job.run, name=f"te-stats-{job_id}", daemon=True).start()
        return {"job": job_id}

    def do_stats_poll(self, job: int) -> dict:
        stats_job = self._jobs.get(job)
        if stats_job is None:
            return {"state": "unknown"}
        status = stats_job.status()
        if status["state"] in ("done", "cancelled", "failed"):
            self._jobs.pop(job, None)
        return status

    def do_stats_cancel(self, job: int) -> dict:
        stats_job = self._jobs.get(job)
        if stats_job is not None:
            stats_job.cancel()
            if stats_job.status()["state"] in ("done", "cancelled", "failed"):
                self._jobs.pop(job, None)  # nobody polls a cancelled job again
        return {"job": job}

    # -- errors and files ---------------------------------------------------
    def do_explain_error(self) -> dict | None:
        """Explain the last exception IPython showed (``sys.last_value``), or None."""
        from explorer.core.errors.explain import explain

        exc = getattr(sys, "last_value", None)
        if exc is None:
            return None
        return explain(exc, self.user_namespace(), code_filenames=self.code_filenames(), lang=self.lang)

    def do_hints(self, code: str = "") -> list:
        """Teaching hints after a run that raised nothing (e.g. grads all None, torch.Tensor(2, 3))."""
        from explorer.core.errors.explain import hints

        return hints(code, self.user_namespace(), lang=self.lang)

    def do_clear_error(self) -> dict:
        for attr in ("last_type", "last_value", "last_traceback", "last_exc"):
            if hasattr(sys, attr):
                try:
                    delattr(sys, attr)
                except AttributeError:
                    pass
        return {}

    def do_prepare_load(self, path: str, name: str | None = None, allow_pickle: bool = False) -> dict:
        from explorer.core.files.prepare import FileLoadError, prepare_load

        try:
            return prepare_load(path, name=name, taken=set(self.user_namespace()), allow_pickle=allow_pickle)
        except FileLoadError as exc:
            return {"error": str(exc), "needs_pickle": bool(getattr(exc, "needs_pickle", False))}


def install(shell: Any) -> Agent:
    """Install the agent in an IPython shell (called inside the kernel)."""
    hidden = set(getattr(shell, "user_ns_hidden", {}) or {})
    agent = Agent(shell.user_ns, hidden=hidden)
    compiler = getattr(shell, "compile", None)
    filename_map = getattr(compiler, "_filename_map", None)
    if isinstance(filename_map, dict):
        agent.code_filenames = lambda: set(filename_map)
    shell.user_ns[AGENT_NAME] = agent
    shell.user_ns_hidden[AGENT_NAME] = agent
    return agent


def decode_reply(text: str) -> dict:
    """Parse a reply's JSON text, turning ``{"__bytes__": ...}`` back into ``bytes``."""

    def hook(obj: dict) -> Any:
        if len(obj) == 1 and "__bytes__" in obj:
            return base64.b64decode(obj["__bytes__"])
        return obj

    return json.loads(text, object_hook=hook)
