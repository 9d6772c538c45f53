"""Keep user tampering with the interpreter from breaking the inspector.

User code may do ``builtins.len = None``, ``sys.modules['numpy'] = None`` or
``sys.setrecursionlimit(60)``. The core reads builtins and modules like any
Python code, so while a request is answered :class:`Pristine` puts back what
was there when the extension loaded, then restores the user's versions: the
user's experiment stays as they left it, and the inspector keeps working.
"""

from __future__ import annotations

import builtins
import sys
from types import ModuleType
from typing import Any

#: Modules the core imports lazily; a user's ``sys.modules[name] = None`` must not reach it.
GUARDED_MODULES = ("numpy", "json", "math", "re", "ast", "inspect", "threading", "warnings", "gettext", "torch")
#: The core needs some stack: numpy/torch calls and recursive container summaries.
MIN_RECURSION = 1000
_MISSING = object()


class Pristine:
    """Context manager: the builtins, guarded modules and recursion limit as they were at capture."""

    def __init__(self) -> None:
        self._builtins = dict(builtins.__dict__)
        self._modules: dict[str, ModuleType] = {}
        self.capture_modules()

    def capture_modules(self) -> None:
        """Remember guarded modules that are imported now (torch once the user imports it)."""
        for name in GUARDED_MODULES:
            module = sys.modules.get(name)
            if isinstance(module, ModuleType):
                self._modules.setdefault(name, module)

    def __enter__(self) -> Pristine:
        space = builtins.__dict__
        self._saved_builtins = {k: space.get(k, _MISSING) for k, v in self._builtins.items() if space.get(k, _MISSING) is not v}
        space.update({k: self._builtins[k] for k in self._saved_builtins})
        self._saved_modules: dict[str, Any] = {}
        for name, module in self._modules.items():
            now = sys.modules.get(name, _MISSING)
            if now is not module:
                self._saved_modules[name] = now
                sys.modules[name] = module
        self._limit = sys.getrecursionlimit()
        if self._limit < MIN_RECURSION:
            sys.setrecursionlimit(MIN_RECURSION)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.setrecursionlimit(self._limit)
        for name, old in self._saved_modules.items():
            if old is _MISSING:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = old
        space = builtins.__dict__
        for key, old in self._saved_builtins.items():
            if old is _MISSING:
                space.pop(key, None)
            else:
                space[key] = old
        self.capture_modules()
