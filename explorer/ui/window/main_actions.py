"""The window's actions, menus and toolbar: one place for texts, shortcuts and tooltips."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QStyle, QToolBar

_CTX = "MainActions"


def _t(text: str) -> str:
    return QCoreApplication.translate(_CTX, text)


@dataclass
class Spec:
    """What an action is: text, tooltip, shortcuts, icon and the slot it triggers."""

    key: str
    text: str
    tip: str
    slot: Callable[[], None]
    shortcuts: tuple[str, ...] = ()
    icon: QStyle.StandardPixmap | None = None
    checkable: bool = False


@dataclass
class Actions:
    by_key: dict[str, QAction] = field(default_factory=dict)
    recent_menu: QMenu | None = None
    lessons_menu: QMenu | None = None
    language_menu: QMenu | None = None
    menus: dict[str, QMenu] = field(default_factory=dict)

    def __getitem__(self, key: str) -> QAction:
        return self.by_key[key]


def specs(w) -> list[Spec]:
    """Every action of the main window *w* (texts in the current language)."""
    sp = QStyle.StandardPixmap
    return [
        Spec("new", _t("&New Script"), _t("Start an empty script"), w.new_script, ("Ctrl+N",), sp.SP_FileIcon),
        Spec("open", _t("&Open Script…"), _t("Open a Python script in the editor"), w.open_script_dialog, ("Ctrl+O",), sp.SP_DialogOpenButton),
        Spec("open_data", _t("Open &Data…"), _t("Load .npy, .npz, .pt, .pth, .safetensors or image files as variables"), w.open_data_dialog, ("Ctrl+Shift+O",)),
        Spec("save", _t("&Save"), _t("Save the script"), w.save_script, ("Ctrl+S",), sp.SP_DialogSaveButton),
        Spec("save_as", _t("Save &As…"), _t("Save the script under a new name"), w.save_script_as, ("Ctrl+Shift+S",)),
        Spec("quit", _t("&Quit"), _t("Close Tensor Explorer"), w.close, ("Ctrl+Q",)),
        Spec("run_file", _t("Run &File"), _t("Run the whole script (F5)"), w.run_file, ("F5",), sp.SP_MediaPlay),
        Spec("run_cell", _t("Run &Cell"), _t("Run the cell under the cursor; cells start with # %% (Ctrl+Enter)"), w.run_cell, ("Ctrl+Return", "Ctrl+Enter")),
        Spec("run_cell_advance", _t("Run Cell and &Advance"), _t("Run the current cell and move to the next one: step through a lesson (Shift+Enter)"), w.run_cell_and_advance, ("Shift+Return", "Shift+Enter"), sp.SP_MediaSeekForward),
        Spec("run_selection", _t("Run &Selection or Line"), _t("Run the selected lines, or the cursor's line (F9)"), w.run_selection, ("F9",)),
        Spec("stop", _t("S&top"), _t("Interrupt the running code (KeyboardInterrupt)"), w.stop_kernel, ("Ctrl+.",), sp.SP_MediaStop),
        Spec("restart", _t("&Restart Kernel"), _t("Start a fresh Python process; variables are lost, your script is kept"), w.restart_kernel, ("Ctrl+Shift+.",), sp.SP_BrowserReload),
        Spec("presentation", _t("&Presentation Mode"), _t("Big fonts for a classroom projector (F11)"), w.toggle_presentation, ("F11",), None, True),
        Spec("zoom_in", _t("Zoom &In"), _t("Larger text"), w.zoom_in, ("Ctrl++", "Ctrl+=")),
        Spec("zoom_out", _t("Zoom &Out"), _t("Smaller text"), w.zoom_out, ("Ctrl+-",)),
        Spec("about", _t("&About Tensor Explorer"), _t("Version and credits"), w.show_about),
        Spec("shortcuts", _t("&Keyboard Shortcuts"), _t("All keyboard shortcuts"), w.show_shortcuts, ("F1",)),
    ]


def build(w: QMainWindow) -> Actions:
    """Create actions, menus and the toolbar on *w*."""
    actions = Actions()
    for spec in specs(w):
        action = QAction(w)
        action.setObjectName("action_" + spec.key)
        action.setShortcuts([QKeySequence(s) for s in spec.shortcuts])
        action.setCheckable(spec.checkable)
        if spec.icon is not None:
            action.setIcon(w.style().standardIcon(spec.icon))
        action.triggered.connect(lambda _checked=False, slot=spec.slot: slot())
        w.addAction(action)
        actions.by_key[spec.key] = action
    bar = w.menuBar()
    for menu_key, keys in (("file", ("new", "open", "open_data", "|recent", "-", "save", "save_as", "-", "quit")),
                           ("run", ("run_file", "run_cell", "run_cell_advance", "run_selection", "-", "stop", "restart")),
                           ("view", ("presentation", "zoom_in", "zoom_out", "-", "|language")),
                           ("lessons", ()),
                           ("help", ("shortcuts", "about"))):
        menu = bar.addMenu("")
        menu.setObjectName("menu_" + menu_key)
        actions.menus[menu_key] = menu
        for key in keys:
            if key == "-":
                menu.addSeparator()
            elif key.startswith("|"):
                sub = menu.addMenu("")
                setattr(actions, key[1:] + "_menu", sub)
            else:
                menu.addAction(actions[key])
    actions.lessons_menu = actions.menus["lessons"]
    toolbar = QToolBar(w)
    toolbar.setObjectName("main_toolbar")
    for key in ("run_file", "run_cell_advance", "stop", "restart"):
        toolbar.addAction(actions[key])
    w.addToolBar(toolbar)
    retranslate(w, actions)
    return actions


def retranslate(w: QMainWindow, actions: Actions) -> None:
    """Set every text again (after a language change)."""
    for spec in specs(w):
        action = actions[spec.key]
        action.setText(spec.text)
        keys = " / ".join(spec.shortcuts[:1])
        action.setToolTip(f"{spec.tip}" + (f" [{keys}]" if keys and keys not in spec.tip else ""))
        action.setStatusTip(spec.tip)
    titles = {"file": _t("&File"), "run": _t("&Run"), "view": _t("&View"), "lessons": _t("&Lessons"), "help": _t("&Help")}
    for key, menu in actions.menus.items():
        menu.setTitle(titles[key])
    if actions.recent_menu is not None:
        actions.recent_menu.setTitle(_t("Recent &Files"))
    if actions.language_menu is not None:
        actions.language_menu.setTitle(_t("&Language"))
