"""The editor's own actions (the Edit menu shows them): texts, shortcuts and what each one does.

They belong to the editor, so their shortcuts work where the editor has the keyboard
and nowhere else: Ctrl+/ in the console is the console's. Find, Find Next and the like
also work while typing in the editor's find bar. The clipboard and undo actions act on
the text field that has the keyboard (the console, a find field), the editor otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QLineEdit, QPlainTextEdit, QTextEdit

# The editor is typed Any here: naming CodeEditorWidget would close an import loop with the module that builds this.
CodeEditorWidget = Any

_SK = QKeySequence.StandardKey
# Shortcuts that stay in the editor itself (not its find bar), and those that also work in its bars.
_EDITOR, _PANE = Qt.ShortcutContext.WidgetShortcut, Qt.ShortcutContext.WidgetWithChildrenShortcut

# key -> (shortcuts, where they work), in the order of the Edit menu.
SHORTCUTS: dict[str, tuple[tuple[str | QKeySequence.StandardKey, ...], Qt.ShortcutContext]] = {
    "undo": ((_SK.Undo,), _EDITOR),
    "redo": ((_SK.Redo,), _EDITOR),
    "cut": ((_SK.Cut,), _EDITOR),
    "copy": ((_SK.Copy,), _EDITOR),
    "paste": ((_SK.Paste,), _EDITOR),
    "select_all": ((_SK.SelectAll,), _EDITOR),
    "comment": (("Ctrl+/",), _EDITOR),
    "indent": (("Tab",), _EDITOR),
    "dedent": (("Shift+Tab",), _EDITOR),
    "duplicate": (("Ctrl+Shift+D",), _EDITOR),
    "move_up": (("Alt+Up",), _EDITOR),
    "move_down": (("Alt+Down",), _EDITOR),
    "find": (("Ctrl+F",), _PANE),
    "find_next": (("F3",), _PANE),
    "find_previous": (("Shift+F3",), _PANE),
    "replace": (("Ctrl+H",), _PANE),
    "go_to_line": (("Ctrl+G",), _PANE),
    "complete": (("Ctrl+Space",), _EDITOR),
}
# The Edit menu puts a separator before each of these.
GROUP_STARTS = ("cut", "comment", "find", "complete")
_STANDARD = ("undo", "redo", "cut", "copy", "paste", "select_all")


def _texts() -> dict[str, tuple[str, str]]:
    """key -> (menu text, tooltip), in the current language."""
    # Spelled out in full on every line: pyside6-lupdate finds only QCoreApplication.translate(...) calls.
    return {
        "undo": (QCoreApplication.translate("CodeEditor", "&Undo"), QCoreApplication.translate("CodeEditor", "Undo the last edit")),
        "redo": (QCoreApplication.translate("CodeEditor", "&Redo"), QCoreApplication.translate("CodeEditor", "Redo the edit just undone")),
        "cut": (QCoreApplication.translate("CodeEditor", "Cu&t"), QCoreApplication.translate("CodeEditor", "Cut the selection to the clipboard")),
        "copy": (QCoreApplication.translate("CodeEditor", "&Copy"), QCoreApplication.translate("CodeEditor", "Copy the selection to the clipboard")),
        "paste": (QCoreApplication.translate("CodeEditor", "&Paste"), QCoreApplication.translate("CodeEditor", "Paste the clipboard")),
        "select_all": (QCoreApplication.translate("CodeEditor", "Select &All"), QCoreApplication.translate("CodeEditor", "Select the whole script")),
        "comment": (QCoreApplication.translate("CodeEditor", "Toggle &Comment"), QCoreApplication.translate("CodeEditor", "Comment the selected lines out with #, or back in")),
        "indent": (QCoreApplication.translate("CodeEditor", "&Indent"), QCoreApplication.translate("CodeEditor", "Indent the selected lines one level (4 spaces)")),
        "dedent": (QCoreApplication.translate("CodeEditor", "&Dedent"), QCoreApplication.translate("CodeEditor", "Remove one level of indentation from the selected lines")),
        "duplicate": (QCoreApplication.translate("CodeEditor", "D&uplicate Line"), QCoreApplication.translate("CodeEditor", "Copy the selected lines below themselves")),
        "move_up": (QCoreApplication.translate("CodeEditor", "Move Line U&p"), QCoreApplication.translate("CodeEditor", "Move the selected lines up by one line")),
        "move_down": (QCoreApplication.translate("CodeEditor", "Move Line Do&wn"), QCoreApplication.translate("CodeEditor", "Move the selected lines down by one line")),
        "find": (QCoreApplication.translate("CodeEditor", "&Find…"), QCoreApplication.translate("CodeEditor", "Find text in the script")),
        "find_next": (QCoreApplication.translate("CodeEditor", "Find &Next"), QCoreApplication.translate("CodeEditor", "Go to the next match")),
        "find_previous": (QCoreApplication.translate("CodeEditor", "Find Pre&vious"), QCoreApplication.translate("CodeEditor", "Go to the previous match")),
        "replace": (QCoreApplication.translate("CodeEditor", "R&eplace…"), QCoreApplication.translate("CodeEditor", "Find text and replace it")),
        "go_to_line": (QCoreApplication.translate("CodeEditor", "&Go to Line…"), QCoreApplication.translate("CodeEditor", "Jump to a line by its number")),
        "complete": (QCoreApplication.translate("CodeEditor", "Complete C&ode"), QCoreApplication.translate("CodeEditor", "Show the names that can follow: the kernel's live objects, or the script's text while the kernel is busy")),
    }


def _standard_slot(editor: CodeEditorWidget, key: str) -> Callable[[], None]:
    return lambda: _standard(editor, key)


def _slots(editor: CodeEditorWidget) -> dict[str, Callable[[], None]]:
    return {
        **{key: _standard_slot(editor, key) for key in _STANDARD},
        "comment": editor.toggle_comment,
        "indent": editor.indent_selection,
        "dedent": editor.dedent_selection,
        "duplicate": editor.duplicate_lines,
        "move_up": lambda: editor.move_lines(up=True),
        "move_down": lambda: editor.move_lines(up=False),
        "find": lambda: editor.find_bar.open_bar(replace=False),
        "find_next": lambda: editor.find_bar.find_next(),
        "find_previous": lambda: editor.find_bar.find_next(backward=True),
        "replace": lambda: editor.find_bar.open_bar(replace=True),
        "go_to_line": editor.go_to_line_bar.open_bar,
        "complete": editor.complete,
    }


def _standard(editor: CodeEditorWidget, key: str) -> None:
    """Undo, copy, paste... on the text field that has the keyboard in the editor's window, else the editor."""
    focus = QApplication.focusWidget()
    inside = focus is not None and focus.window() is editor.window()
    target = focus if inside and isinstance(focus, (QLineEdit, QTextEdit, QPlainTextEdit)) else editor
    getattr(target, "selectAll" if key == "select_all" else key)()


def build(editor: CodeEditorWidget) -> dict[str, QAction]:
    """The editor's actions, added to it (their shortcuts work only there)."""
    actions = {}
    slots = _slots(editor)
    for key, (keys, context) in SHORTCUTS.items():
        action = QAction(editor)
        action.setObjectName("action_" + key)
        # A standard key's first binding (Ctrl+Z): the editor itself knows the others (Shift+Del, Undo keys).
        action.setShortcuts([QKeySequence(k) for k in keys])
        action.setShortcutContext(context)
        action.triggered.connect(lambda _checked=False, slot=slots[key]: slot())
        editor.addAction(action)
        actions[key] = action
    retranslate(actions)
    return actions


def retranslate(actions: dict[str, QAction]) -> None:
    for key, (text, tip) in _texts().items():
        action = actions[key]
        action.setText(text)
        shortcut = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        action.setToolTip(f"{tip} [{shortcut}]" if shortcut else tip)
        action.setStatusTip(tip)
