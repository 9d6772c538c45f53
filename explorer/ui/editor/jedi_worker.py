"""jedi in a process of its own: one JSON request a line on stdin, one JSON answer a line on stdout.

The window's process never runs jedi itself: its first look at torch unpickles cached
parse trees for seconds, holding the interpreter lock for up to a quarter of a second
at a time, which would freeze typing in the editor (measured). Requests that wait while
another is worked on are answered only if they are the newest (older ones get
``null``): the user has typed on. The process ends when its stdin closes (the window quit).

usage: python -m explorer.ui.editor.jedi_worker
  {"id": 1, "kind": "complete" | "signature", "code": ..., "line": 1-based, "column": chars, "path": null}
"""

from __future__ import annotations

import json
import queue
import re
import sys
import threading
from typing import Any

# Names answered at most (jedi can list thousands of globals; a tensor has 737 attributes).
MAX_ITEMS = 2000
_PREFIX = re.compile(r"(?:[^\W\d]\w*)?$")
_ATTRIBUTES: dict[tuple[str, ...], list[tuple[str, str]]] = {}  # a library type's full names -> its attributes


def _script(request: dict[str, Any]) -> Any:
    import jedi  # type: ignore[import-untyped]

    return jedi.Script(request["code"], path=request.get("path"))


def complete(request: dict[str, Any]) -> list[list[Any]]:
    """[name, type, characters of it already typed] for each completion."""
    script = _script(request)
    line, column = request["line"], request["column"]
    before = request["code"].split("\n")[line - 1][:column]
    prefix = _PREFIX.search(before).group()  # type: ignore[union-attr]  # it matches the empty string
    dot = column - len(prefix) - 1
    if dot > 0 and before[dot] == "." and (before[dot - 1].isalnum() or before[dot - 1] == "_"):
        names = _attributes(script, line, dot)  # a name before the dot (at a bracket jedi would infer its inside)
        low = prefix.lower()
        return [[name, kind, len(prefix)] for name, kind in names if name.lower().startswith(low)][:MAX_ITEMS]
    return [[c.name, c.type, len(c.name) - len(c.complete or "")] for c in script.complete(line, column)[:MAX_ITEMS]]


def _attributes(script: Any, line: int, dot: int) -> list[tuple[str, str]]:
    """Every attribute of the object before the dot at column *dot*, remembered per library type.

    Inferring the object's type is a quarter of listing its attributes; the list of a
    library's class (a tensor's 737) does not change while the editor runs. Classes of
    the script itself are never remembered: the user is editing them.
    """
    try:
        types = script.infer(line, dot - 1)
    except Exception:  # noqa: BLE001 - an object jedi cannot read (x[0], f()): complete without the shortcut
        types = []
    key = tuple(sorted(f"{t.type}:{t.full_name}" for t in types))  # a class and its instances differ
    cacheable = bool(types) and all(t.full_name and t.module_path and t.module_name != "__main__" for t in types)
    if cacheable and key in _ATTRIBUTES:
        return _ATTRIBUTES[key]
    names = [(c.name, c.type) for c in script.complete(line, dot + 1)]
    if cacheable:
        _ATTRIBUTES[key] = names
    return names


def signature(request: dict[str, Any]) -> list[str] | None:
    """[signature, docstring] of the call at the cursor, or None."""
    found = _script(request).get_signatures(request["line"], request["column"])
    if not found:
        return None
    return [found[0].to_string(), found[0].docstring(raw=True)]


def _answer(request: dict[str, Any]) -> Any:
    try:
        return {"complete": complete, "signature": signature}[request["kind"]](request)
    except Exception:  # noqa: BLE001 - jedi on half-typed code fails in many ways: no answer then
        return None


def _read(requests: queue.Queue[dict[str, Any] | None]) -> None:
    for line in sys.stdin:
        requests.put(json.loads(line))
    requests.put(None)


def main() -> int:
    requests: queue.Queue[dict[str, Any] | None] = queue.Queue()
    threading.Thread(target=_read, args=(requests,), daemon=True).start()
    while True:
        pending = [requests.get()]
        while not requests.empty():
            pending.append(requests.get())
        ended = None in pending  # stdin closed: answer what came before it, then end
        asked = [r for r in pending if r is not None]
        for stale in asked[:-1]:
            _write({"id": stale["id"], "result": None})
        if asked:
            _write({"id": asked[-1]["id"], "result": _answer(asked[-1])})
        if ended:
            return 0


def _write(answer: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    raise SystemExit(main())
