"""The layering: core runs in the kernel, client and ui in the window; only the protocol crosses; no import loops."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "explorer"

FORBIDDEN = {
    "core": ("PySide6", "qtconsole", "qtpy", "jupyter_client", "matplotlib.pyplot", "explorer.client", "explorer.ui",
             "explorer.app", "explorer.cli"),
    # The window's side of the process line: it speaks to the kernel only through the protocol.
    "client": ("explorer.core", "explorer.ui", "explorer.app", "explorer.cli", "matplotlib.pyplot", "torch"),
    "ui": ("torch", "explorer.core", "matplotlib.pyplot", "explorer.app", "explorer.cli"),
    "protocol": ("torch", "numpy", "PySide6", "qtconsole", "jupyter_client", "explorer.core", "explorer.client",
                 "explorer.ui"),
}


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: pathlib.Path, module: str | None = None) -> list[str]:
    """Every module *path* imports, anywhere in the file, relative imports resolved to absolute names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = (module or _module_name(path)).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            names.append(base)
            # "from explorer.core.errors import shapes" imports the module explorer.core.errors.shapes
            names += [f"{base}.{alias.name}" for alias in node.names]
    return names


def _layer_files(layer: str) -> list[pathlib.Path]:
    single = PACKAGE / f"{layer}.py"
    return [single] if single.exists() else sorted((PACKAGE / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_only_downwards(layer: str) -> None:
    files = _layer_files(layer)
    assert files, f"no modules found for layer {layer}"
    offenders = []
    for path in files:
        for name in _imports(path):
            if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN[layer]):
                offenders.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert offenders == []


def test_architecture_check_catches_a_violation(tmp_path: pathlib.Path) -> None:
    bad = tmp_path / "shapes.py"
    bad.write_text("import torch\nfrom PySide6.QtCore import QObject\n"
                   "def f():\n    from explorer.ui import x\n    from ...ui import window\n")
    found = _imports(bad, module="explorer.core.errors.shapes")
    assert {"torch", "PySide6.QtCore", "explorer.ui.x", "explorer.ui.window"} <= set(found)


def _import_graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for imported in _imports(path):
            # the deepest explorer module named by the import
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != name and not name.startswith(imported + "."):
                targets.add(imported)
        graph[name] = targets
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_loops_between_modules() -> None:
    """Imports inside functions count too: a lazy import that closes a loop is still a loop."""
    assert _cycles(_import_graph()) == []


def test_loop_finder_sees_a_loop() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _modules_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"})
    return set(out.stdout.split())


def test_core_imports_without_qt() -> None:
    modules = _modules_after("import explorer.core.agent.handlers, explorer.core.snapshot.build")
    assert not any(m.startswith("PySide6") for m in modules)


def test_window_imports_without_torch() -> None:
    modules = _modules_after("import explorer.ui.window.main_window, explorer.app")
    assert "torch" not in modules
    assert "PySide6.QtWidgets" in modules


def test_protocol_needs_only_the_standard_library() -> None:
    """The rules both sides share (kinds, names, cells, units, positions, pixels) import nothing installed."""
    offenders = []
    for path in _layer_files("protocol"):
        for name in _imports(path):
            top = name.split(".")[0]
            if top not in sys.stdlib_module_names and not name.startswith("explorer.protocol") and top != "__future__":
                offenders.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert offenders == []


#: docs/architecture.md, Conventions: "a module over 450 lines is split".
MODULE_LINES = 450


def test_no_module_is_over_the_conventions_limit() -> None:
    root = PACKAGE.parent
    long = {str(path.relative_to(root)): n for folder in ("explorer", "scripts", "tests")
            for path in sorted((root / folder).rglob("*.py"))
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LINES}
    assert not long, f"split these modules (over {MODULE_LINES} lines): {long}"
