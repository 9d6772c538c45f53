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

#: key -> (shortcuts, where they work); the order is the Edit menu's.
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
#: Where the Edit menu puts separators: before these.
GROUP_STARTS = ("cut", "comment", "find", "complete")
_STANDARD = ("undo", "redo", "cut", "copy", "paste", "select_all")


def _texts() -> dict[str, tuple[str, str]]:
    """key -> (menu text, tooltip), in the current language."""
    t = QCoreApplication.translate
    return {
        "undo": (t("CodeEditor", "&Undo"), t("CodeEditor", "Undo the last edit")),
        "redo": (t("CodeEditor", "&Redo"), t("CodeEditor", "Redo the edit just undone")),
        "cut": (t("CodeEditor", "Cu&t"), t("CodeEditor", "Cut the selection to the clipboard")),
        "copy": (t("CodeEditor", "&Copy"), t("CodeEditor", "Copy the selection to the clipboard")),
        "paste": (t("CodeEditor", "&Paste"), t("CodeEditor", "Paste the clipboard")),
        "select_all": (t("CodeEditor", "Select &All"), t("CodeEditor", "Select the whole script")),
        "comment": (t("CodeEditor", "Toggle &Comment"), t("CodeEditor", "Comment the selected lines out with #, or back in")),
        "indent": (t("CodeEditor", "&Indent"), t("CodeEditor", "Indent the selected lines one level (4 spaces)")),
        "dedent": (t("CodeEditor", "&Dedent"), t("CodeEditor", "Remove one level of indentation from the selected lines")),
        "duplicate": (t("CodeEditor", "D&uplicate Line"), t("CodeEditor", "Copy the selected lines below themselves")),
        "move_up": (t("CodeEditor", "Move Line U&p"), t("CodeEditor", "Move the selected lines up by one line")),
        "move_down": (t("CodeEditor", "Move Line Do&wn"), t("CodeEditor", "Move the selected lines down by one line")),
        "find": (t("CodeEditor", "&Find…"), t("CodeEditor", "Find text in the script")),
        "find_next": (t("CodeEditor", "Find &Next"), t("CodeEditor", "Go to the next match")),
        "find_previous": (t("CodeEditor", "Find Pre&vious"), t("CodeEditor", "Go to the previous match")),
        "replace": (t("CodeEditor", "R&eplace…"), t("CodeEditor", "Find text and replace it")),
        "go_to_line": (t("CodeEditor", "&Go to Line…"), t("CodeEditor", "Jump to a line by its number")),
        "complete": (t("CodeEditor", "Complete C&ode"), t("CodeEditor", "Show the names that can follow: the kernel's live objects, or the script's text while the kernel is busy")),
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
        sequences = []
        for k in keys:
            sequences += QKeySequence.keyBindings(k) if isinstance(k, QKeySequence.StandardKey) else [QKeySequence(k)]
        action.setShortcuts(sequences)
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
