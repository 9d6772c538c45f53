"""The Qt binding keeps every reference a Python callback hands back, so no release like 6.12.0 slips in.

PySide6-Essentials 6.12.0 drops one reference per call to values that cross
from Python to C++: the ``True`` that ``Signal.emit`` returns, the arguments and
results of overridden virtuals (``QTranslator.translate``, ``data()`` returning
``None``). On Python <= 3.11, where ``None``, ``True`` and ``False`` are
reference-counted, the count reaches zero after a few thousand calls and the
process aborts with ``Fatal Python error: none_dealloc`` (or ``bool_dealloc``).
``pyproject.toml`` excludes that release; these tests make a future release with
the same defect fail here instead of in front of a class.

Each scenario runs in its own Python process, so an abort fails one test
instead of killing pytest.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 300

PROBE = r'''
import gc, json, os, sys
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import (QAbstractListModel, QCoreApplication, QEvent, QModelIndex, QObject,
                            QSortFilterProxyModel, Qt, QTranslator, Signal)

app = QCoreApplication([])
Role = Qt.ItemDataRole


class Emitter(QObject):
    changed = Signal(object)


class Receiver(QObject):
    def on_changed(self, value):
        return value  # a bound slot handing its argument back


def signal_round():
    emitter, receiver = Emitter(), Receiver()
    emitter.changed.connect(lambda value: value)
    emitter.changed.connect(receiver.on_changed)
    keep = (emitter, receiver)

    def run():
        for value in (None, True, False, 0, 7, 10**6):
            keep[0].changed.emit(value)
    return run


class Translator(QTranslator):
    def translate(self, context, source, disambiguation=None, n=-1):
        return "known" if source == "Known" else None  # None: "no translation here"


def translator_round():
    translator = Translator()
    app.installTranslator(translator)
    keep = (translator,)  # a collected translator is uninstalled: the closure holds it

    def run():
        assert keep
        for args in (("Probe", "Known"), ("Probe", "Unknown"), ("Probe", "Unknown", "comment"), ("Probe", "%n x", None, 3)):
            QCoreApplication.translate(*args)
    return run


class Watcher(QObject):
    def event(self, event):
        if event.type() == QEvent.Type.User:
            return True
        return super().event(event)

    def eventFilter(self, watched, event):
        return False  # let the event through


def event_round():
    watched, watcher = Watcher(), Watcher()
    watched.installEventFilter(watcher)
    keep = (watched, watcher)

    def run():
        for kind in (QEvent.Type.User, QEvent.Type.MaxUser):
            QCoreApplication.sendEvent(keep[0], QEvent(kind))
    return run


class Model(QAbstractListModel):
    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else 3

    def data(self, index, role=Role.DisplayRole):
        return f"row {index.row()}" if role == Role.DisplayRole else None  # None: an invalid QVariant

    def headerData(self, section, orientation, role=Role.DisplayRole):
        return None


def model_round():
    model, proxy = Model(), QSortFilterProxyModel()
    proxy.setSourceModel(model)
    keep = (model, proxy)

    def run():
        # The proxy asks the Python model from C++, as views do while painting.
        index = keep[1].index(1, 0)
        for role in (Role.DisplayRole, Role.ToolTipRole, Role.BackgroundRole, Role.FontRole):
            keep[1].data(index, role)
        keep[1].headerData(0, Qt.Orientation.Horizontal, Role.DisplayRole)
    return run


def counts():
    return {"None": sys.getrefcount(None), "True": sys.getrefcount(True), "False": sys.getrefcount(False)}


run = {"signal": signal_round, "translator": translator_round, "event": event_round, "model": model_round}[sys.argv[1]]()
run()  # warm-up: caches and lazy imports take their references before the count
gc.collect()
gc.disable()
before = counts()
for _ in range(int(sys.argv[2])):
    run()
after = counts()
print(json.dumps({name: after[name] - before[name] for name in before}))
'''


def _probe(scenario: str) -> tuple[subprocess.CompletedProcess, dict[str, int] | None]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", PROBE, scenario, str(ROUNDS)],
                          capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
    lines = done.stdout.strip().splitlines()
    return done, (json.loads(lines[-1]) if lines and lines[-1].startswith("{") else None)


@pytest.mark.parametrize("scenario", ["signal", "translator", "event", "model"])
def test_python_callbacks_keep_references(scenario: str) -> None:
    done, change = _probe(scenario)
    binding = f"PySide6-Essentials {metadata.version('PySide6-Essentials')}"
    assert done.returncode == 0, f"{binding}: the probe died ({done.returncode}):\n{done.stderr[-2000:]}"
    assert change is not None, f"{binding}: no result from the probe:\n{done.stdout[-2000:]}"
    fallen = {name: delta for name, delta in change.items() if delta < 0}
    assert not fallen, f"{binding} lost references over {ROUNDS} rounds ({scenario}): {fallen}"


def test_installed_binding_is_one_pyproject_allows() -> None:
    # A venv made before the exclusion keeps 6.12.0 until scripts/setup-venv replaces it.
    from packaging.requirements import Requirement

    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for name in ("PySide6-Essentials", "shiboken6"):
        line = next(ln.strip().strip('",') for ln in text.splitlines() if ln.strip().startswith(f'"{name}'))
        requirement = Requirement(line)
        assert "6.12.0" not in requirement.specifier, line
        assert metadata.version(name) in requirement.specifier, f"{name} {metadata.version(name)} is excluded by {line}"


# -- our own overrides -------------------------------------------------------------------------
#: Qt virtuals whose C++ result is a value type (bool, int, QString, QSize, QModelIndex, flags):
#: a Python None there is converted with a warning at best, and feeds the binding's refcount bugs.
VALUE_OVERRIDES = {
    "event", "eventFilter", "translate", "isEmpty", "sizeHint", "minimumSizeHint", "hasHeightForWidth",
    "heightForWidth", "rowCount", "columnCount", "flags", "index", "parent", "hasChildren",
    "canFetchMore", "canInsertFromMimeData", "focusNextPrevChild", "setData",
}


def _value_overrides() -> list[tuple[str, ast.FunctionDef]]:

    found = []
    for path in sorted((ROOT / "explorer").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                found += [(f"{path.relative_to(ROOT)}:{item.lineno} {node.name}.{item.name}", item)
                          for item in node.body if isinstance(item, ast.FunctionDef) and item.name in VALUE_OVERRIDES]
    return found


def _none_returns(function) -> list[str]:
    """Why *function* can hand None back: a bare or None return, a None in its annotation, a fall-through end."""
    problems = []
    for node in ast.walk(function):
        if isinstance(node, ast.Return) and (node.value is None or (isinstance(node.value, ast.Constant) and node.value.value is None)):
            problems.append(f"returns None on line {node.lineno}")
    if function.returns is not None and "None" in ast.unparse(function.returns):
        problems.append(f"is annotated {ast.unparse(function.returns)}")
    if not isinstance(function.body[-1], (ast.Return, ast.Raise)):
        problems.append("can end without a return")
    return problems


def test_value_type_overrides_never_return_none() -> None:
    overrides = _value_overrides()
    assert len(overrides) >= 8  # the collector finds the models', views' and editor's overrides
    wrong = {name: problems for name, function in overrides if (problems := _none_returns(function))}
    assert not wrong, wrong


def test_the_none_check_catches_a_translator_answering_none() -> None:
    source = ("class T:\n"
              "    def translate(self, context, source, disambiguation=None, n=-1) -> str | None:\n"
              "        return self._strings.get(source)\n"
              "    def eventFilter(self, watched, event):\n"
              "        if event:\n"
              "            return True\n")
    translate, event_filter = ast.parse(source).body[0].body
    assert _none_returns(translate) == ["is annotated str | None"]
    assert _none_returns(event_filter) == ["can end without a return"]
