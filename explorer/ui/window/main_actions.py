"""The window's actions, menus and toolbar: one place for texts, shortcuts and tooltips."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QStyle, QToolBar

from explorer.ui.editor import edit_actions


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


def specs(w: Any) -> list[Spec]:  # the main window: its methods are the slots
    """Every action of the main window *w* (texts in the current language)."""
    sp = QStyle.StandardPixmap
    return [
        Spec("new", QCoreApplication.translate("MainActions", "&New Script"), QCoreApplication.translate("MainActions", "Start an empty script"), lambda: w.files.new_script(), ("Ctrl+N",), sp.SP_FileIcon),
        Spec("open", QCoreApplication.translate("MainActions", "&Open Script…"), QCoreApplication.translate("MainActions", "Open a Python script in the editor"), lambda: w.files.open_script_dialog(), ("Ctrl+O",), sp.SP_DialogOpenButton),
        Spec("open_data", QCoreApplication.translate("MainActions", "Open &Data…"), QCoreApplication.translate("MainActions", "Load .npy, .npz, .pt, .pth, .safetensors or image files as variables"), lambda: w.files.open_paths(w.data_dialogs.ask_paths()), ("Ctrl+Shift+O",)),
        Spec("save", QCoreApplication.translate("MainActions", "&Save"), QCoreApplication.translate("MainActions", "Save the script"), lambda: w.files.save_script(), ("Ctrl+S",), sp.SP_DialogSaveButton),
        Spec("save_as", QCoreApplication.translate("MainActions", "Save &As…"), QCoreApplication.translate("MainActions", "Save the script under a new name"), lambda: w.files.save_script_as(), ("Ctrl+Shift+S",)),
        Spec("quit", QCoreApplication.translate("MainActions", "&Quit"), QCoreApplication.translate("MainActions", "Close Tensor Explorer; unsaved text comes back at the next start"), w.close, ("Ctrl+Q",)),
        Spec("run_file", QCoreApplication.translate("MainActions", "Run &File"), QCoreApplication.translate("MainActions", "Run the whole script (F5)"), lambda: w.running.run_file(), ("F5",), sp.SP_MediaPlay),
        Spec("run_cell", QCoreApplication.translate("MainActions", "Run &Cell"), QCoreApplication.translate("MainActions", "Run the cell under the cursor; cells start with # %% (Ctrl+Enter)"), lambda: w.running.run_cell(), ("Ctrl+Return", "Ctrl+Enter")),
        Spec("run_cell_advance", QCoreApplication.translate("MainActions", "Run Cell and &Advance"), QCoreApplication.translate("MainActions", "Run the current cell and move to the next one: step through a lesson (Shift+Enter)"), lambda: w.running.run_cell_and_advance(), ("Shift+Return", "Shift+Enter"), sp.SP_MediaSeekForward),
        Spec("run_selection", QCoreApplication.translate("MainActions", "Run &Selection or Line"), QCoreApplication.translate("MainActions", "Run the selected lines, or the cursor's line (F9)"), lambda: w.running.run_selection(), ("F9",)),
        Spec("step", QCoreApplication.translate("MainActions", "Ste&p"), QCoreApplication.translate("MainActions", "Run the next statement and show what it changed, before and after (F10)"), lambda: w.steps.step(), ("F10",), sp.SP_ArrowForward),
        Spec("step_back", QCoreApplication.translate("MainActions", "Step &Back"), QCoreApplication.translate("MainActions", "Go back one statement: a fresh kernel replays the statements before it (Shift+F10)"), lambda: w.steps.step_back(), ("Shift+F10",), sp.SP_ArrowBack),
        Spec("run_to_cursor", QCoreApplication.translate("MainActions", "Run to C&ursor"), QCoreApplication.translate("MainActions", "Run the statements up to the cursor's line; it runs next (Ctrl+F10)"), lambda: w.steps.run_to_cursor(), ("Ctrl+F10",)),
        Spec("stop", QCoreApplication.translate("MainActions", "S&top"), QCoreApplication.translate("MainActions", "Interrupt the running code (KeyboardInterrupt)"), lambda: w.running.stop(), ("Ctrl+.",), sp.SP_MediaStop),
        Spec("restart", QCoreApplication.translate("MainActions", "&Restart Kernel"), QCoreApplication.translate("MainActions", "Start a fresh Python process; variables are lost, your script is kept"), lambda: w.running.restart(), ("Ctrl+Shift+.",), sp.SP_BrowserReload),
        Spec("spare_kernel", QCoreApplication.translate("MainActions", "&Keep a Spare Kernel"), QCoreApplication.translate("MainActions", "Keep one more kernel started in the background, so Restart and Step Back are instant (it costs the memory of one idle Python with torch)"), lambda: w.steps.set_spare_kernel(w.actions_["spare_kernel"].isChecked()), (), None, True),
        Spec("check_fixes", QCoreApplication.translate("MainActions", "Check &Fixes on My Script"), QCoreApplication.translate("MainActions", "When code fails, run your whole script again with the error card's fix, in a separate background process, and say whether it gets past the error (your own kernel is not touched)"), lambda: w.running.set_check_fixes(w.actions_["check_fixes"].isChecked()), (), None, True),
        Spec("presentation", QCoreApplication.translate("MainActions", "&Presentation Mode"), QCoreApplication.translate("MainActions", "For a classroom projector: the whole screen, big fonts, one pane at a time (F11)"), lambda: w.layout_.toggle_presentation(), ("F11",), None, True),
        Spec("focus_editor", QCoreApplication.translate("MainActions", "Show the &Code"), QCoreApplication.translate("MainActions", "Presentation mode: show the editor and the console big"), lambda: w.layout_.focus_pane("editor"), ("Ctrl+1",)),
        Spec("focus_inspector", QCoreApplication.translate("MainActions", "Show the &Variables"), QCoreApplication.translate("MainActions", "Presentation mode: show the list of variables big"), lambda: w.layout_.focus_pane("inspector"), ("Ctrl+2",)),
        Spec("focus_details", QCoreApplication.translate("MainActions", "Show the &Details"), QCoreApplication.translate("MainActions", "Presentation mode: show the Image, Values, Stats, Memory and Graph tabs big"), lambda: w.layout_.focus_pane("details"), ("Ctrl+3",)),
        Spec("toggle_console", QCoreApplication.translate("MainActions", "Show the Con&sole"), QCoreApplication.translate("MainActions", "Presentation mode: the console under the code big, or small again (Ctrl+4)"), lambda: w.layout_.toggle_console(), ("Ctrl+4",)),
        Spec("next_pane", QCoreApplication.translate("MainActions", "&Next Pane"), QCoreApplication.translate("MainActions", "Move to the next pane: code, variables, details (F6)"), lambda: w.layout_.focus_next_pane(), ("F6",)),
        Spec("watch_gradients", QCoreApplication.translate("MainActions", "&Watch Gradients"), QCoreApplication.translate("MainActions", "After backward(), show the gradient of every node of the graph, also for your own runs (always on in lessons and step-through)"), lambda: w.steps.set_watch_gradients(w.actions_["watch_gradients"].isChecked()), (), None, True),
        Spec("lesson_both", QCoreApplication.translate("MainActions", "Lessons in &Both Languages"), QCoreApplication.translate("MainActions", "Show the lessons' comments in English and Chinese, one under the other"), lambda: w.files.set_lessons_in_both_languages(w.actions_["lesson_both"].isChecked()), (), None, True),
        Spec("zoom_in", QCoreApplication.translate("MainActions", "Zoom &In"), QCoreApplication.translate("MainActions", "Larger text"), lambda: w.layout_.zoom_in(), ("Ctrl++", "Ctrl+=")),
        Spec("zoom_out", QCoreApplication.translate("MainActions", "Zoom &Out"), QCoreApplication.translate("MainActions", "Smaller text"), lambda: w.layout_.zoom_out(), ("Ctrl+-",)),
        Spec("about", QCoreApplication.translate("MainActions", "&About Tensor Explorer"), QCoreApplication.translate("MainActions", "Version and credits"), w.show_about),
        Spec("shortcuts", QCoreApplication.translate("MainActions", "&Keyboard Shortcuts"), QCoreApplication.translate("MainActions", "All keyboard shortcuts"), w.show_shortcuts, ("F1",)),
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
    actions.by_key.update(w.editor.edit_actions)  # type: ignore[attr-defined]  # the Edit menu is the editor's
    for menu_key, keys in (("file", ("new", "open", "open_data", "|recent", "-", "save", "save_as", "-", "quit")),
                           ("edit", _edit_menu()),
                           ("run", ("run_file", "run_cell", "run_cell_advance", "run_selection", "-", "step", "step_back",
                                    "run_to_cursor", "-", "stop", "restart", "spare_kernel", "-", "check_fixes")),
                           ("view", ("presentation", "focus_editor", "focus_inspector", "focus_details", "toggle_console", "next_pane", "-",
                                     "zoom_in", "zoom_out", "-", "watch_gradients", "lesson_both", "|language")),
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
    for key in ("run_file", "run_cell_advance", "step_back", "step", "stop", "restart"):
        toolbar.addAction(actions[key])
    w.addToolBar(toolbar)
    retranslate(w, actions)
    return actions


def _edit_menu() -> tuple[str, ...]:
    """The editor's actions in the order they are listed, a separator before each group."""
    keys: list[str] = []
    for key in edit_actions.SHORTCUTS:
        keys += ["-", key] if key in edit_actions.GROUP_STARTS else [key]
    return tuple(keys)


def retranslate(w: QMainWindow, actions: Actions) -> None:
    """Set every text again (after a language change)."""
    for spec in specs(w):
        action = actions[spec.key]
        action.setText(spec.text)
        keys = " / ".join(spec.shortcuts[:1])
        action.setToolTip(f"{spec.tip}" + (f" [{keys}]" if keys and keys not in spec.tip else ""))
        action.setStatusTip(spec.tip)
    #: Menu titles; the letter after & is the keyboard access key.
    titles = {"file": QCoreApplication.translate("MainActions", "&File"), "edit": QCoreApplication.translate("MainActions", "&Edit"), "run": QCoreApplication.translate("MainActions", "&Run"), "view": QCoreApplication.translate("MainActions", "&View"), "lessons": QCoreApplication.translate("MainActions", "&Lessons"), "help": QCoreApplication.translate("MainActions", "&Help")}
    for key, menu in actions.menus.items():
        menu.setTitle(titles[key])
    if actions.recent_menu is not None:
        actions.recent_menu.setTitle(QCoreApplication.translate("MainActions", "Recent &Files"))
    if actions.language_menu is not None:
        actions.language_menu.setTitle(QCoreApplication.translate("MainActions", "&Language"))
