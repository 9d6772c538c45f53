"""The layering of DESIGN.md: ui -> kernel -> core, never back; no Qt in core; no torch in ui."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "explorer"

FORBIDDEN = {
    "core": ("PySide6", "qtconsole", "qtpy", "jupyter_client", "matplotlib.pyplot", "explorer.kernel", "explorer.ui", "explorer.app", "explorer.cli"),
    "kernel": ("explorer.ui", "explorer.app", "matplotlib.pyplot"),
    "ui": ("torch", "matplotlib.pyplot", "explorer.app", "explorer.cli"),
}


def _imports(path: pathlib.Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_only_downwards(layer: str) -> None:
    offenders = []
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        for name in _imports(path):
            if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN[layer]):
                offenders.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert offenders == []


def test_architecture_check_catches_a_violation(tmp_path: pathlib.Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import torch\nfrom PySide6.QtCore import QObject\n")
    assert "torch" in _imports(bad) and "PySide6.QtCore" in _imports(bad)


def _modules_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"})
    return set(out.stdout.split())


def test_core_imports_without_qt() -> None:
    modules = _modules_after("import explorer.core.agent, explorer.core.snapshot")
    assert not any(m.startswith("PySide6") for m in modules)


def test_window_imports_without_torch() -> None:
    modules = _modules_after("import explorer.ui.main_window, explorer.app")
    assert "torch" not in modules
    assert "PySide6.QtWidgets" in modules
