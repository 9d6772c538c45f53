"""The detail tabs are built when first shown, and not before the kernel's handshake: start-up does not wait on them.

Building the Image tab imports matplotlib (and the Graph tab networkx) on the GUI thread; done at
start-up, the kernel's handshake waited behind it. These tests count which views exist, and one
checks in a fresh process that showing the tabs imports neither library until the kernel is ready.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from types import SimpleNamespace

import torch
from PySide6.QtCore import QObject, Signal

from explorer.ui.app_state import AppState
from explorer.ui.detail_tabs_widget import DetailTabsWidget
from tests.ui.fakes import InProcessSource
from tests.ui.fakes import var as fake_var
from tests.waits import scaled_ms


class _ReadySource(InProcessSource, QObject):
    """An in-process source that also says when its (pretend) kernel is ready, as the session does."""

    ready = Signal(dict)

    def __init__(self, namespace: dict) -> None:
        QObject.__init__(self)
        InProcessSource.__init__(self, namespace)


def _shown_tabs(qtbot, source) -> tuple[DetailTabsWidget, AppState]:
    state = AppState()
    tabs = DetailTabsWidget(source, state)
    qtbot.addWidget(tabs)
    tabs.resize(600, 400)
    tabs.show()
    qtbot.waitExposed(tabs)
    return tabs, state


def test_no_view_is_built_before_the_kernel_is_ready(qtbot) -> None:
    source = _ReadySource({"t": torch.ones(2, 3)})
    tabs, _state = _shown_tabs(qtbot, source)
    qtbot.wait(50)
    assert tabs.built() == []
    source.ready.emit({})
    qtbot.waitUntil(lambda: tabs.built() == ["image"])  # only the tab on show
    tabs.setCurrentIndex(2)
    qtbot.waitUntil(lambda: tabs.built() == ["image", "stats"])
    assert tabs.currentIndex() == 2  # building a tab does not move the user elsewhere


def test_a_selection_before_the_handshake_builds_the_shown_view(qtbot) -> None:
    source = _ReadySource({"t": torch.ones(2, 3)})
    tabs, state = _shown_tabs(qtbot, source)
    tabs.setCurrentIndex(1)
    assert tabs.built() == []
    state.select(fake_var("t"))
    qtbot.waitUntil(lambda: tabs.built() == ["values"])


def test_without_a_handshake_the_shown_view_comes_after_the_fallback_delay(qtbot, monkeypatch) -> None:
    tabs, _state = _shown_tabs(qtbot, InProcessSource({}))  # no ready signal at all
    assert tabs.built() == []
    qtbot.waitUntil(lambda: tabs.built() == ["image"], timeout=scaled_ms(10_000))


def test_the_import_runs_off_the_gui_thread_and_the_view_is_made_on_it(qtbot, monkeypatch) -> None:
    import threading

    from explorer.ui import detail_tabs_widget

    threads: list[str] = []
    real = detail_tabs_widget.importlib.import_module

    def counting_import(name: str):
        threads.append(threading.current_thread().name)
        return real(name)

    monkeypatch.setattr(detail_tabs_widget, "sys", SimpleNamespace(modules={}))  # as if nothing were imported yet
    monkeypatch.setattr(detail_tabs_widget.importlib, "import_module", counting_import)
    source = _ReadySource({})
    tabs, _state = _shown_tabs(qtbot, source)
    tabs.setCurrentIndex(1)
    source.ready.emit({})
    qtbot.waitUntil(lambda: tabs.built() == ["values"])
    assert threads[0] == "te-import-values"  # imported on the worker
    assert tabs.values.thread() is tabs.thread()  # made on the GUI thread


def test_asking_for_a_view_builds_only_that_one(qtbot) -> None:
    tabs, _state = _shown_tabs(qtbot, _ReadySource({}))
    graph = tabs.graph
    assert tabs.built() == ["graph"] and tabs.page_of(graph) is tabs.widget(4)


_FRESH = textwrap.dedent("""
    import sys, time
    from PySide6.QtCore import QObject, Signal
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from explorer.ui.app_state import AppState
    from explorer.ui.detail_tabs_widget import DetailTabsWidget

    class Source(QObject):
        ready = Signal(dict)
        def ask(self, request, on_reply, valid=None):
            pass

    source = Source()
    tabs = DetailTabsWidget(source, AppState())
    tabs.show()
    for _ in range(20):
        app.processEvents()
    before = [m for m in ("matplotlib", "networkx") if m in sys.modules]
    source.ready.emit({})
    for _ in range(3000):  # the Image tab's module is imported on a worker thread, then the view made here
        app.processEvents()
        if tabs.built():
            break
        time.sleep(0.01)
    after = [m for m in ("matplotlib", "networkx") if m in sys.modules]
    print(before, after, tabs.built())
""")


def test_showing_the_tabs_imports_matplotlib_only_once_the_kernel_is_ready() -> None:
    out = subprocess.run([sys.executable, "-c", _FRESH], capture_output=True, text=True, timeout=300, check=True)
    assert out.stdout.split("\n")[0] == "[] ['matplotlib'] ['image']", out.stdout + out.stderr
