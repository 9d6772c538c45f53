"""Readable from the back row (issue 24): what a class must read on a projector, on a window without a kernel."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from explorer.lessons import LESSONS
from tests.ui.quiet_window import quiet_window


def test_lessons_menu_items_carry_the_number_that_lesson_07_names(qtbot) -> None:
    window = quiet_window(qtbot)
    menu = window.actions_.lessons_menu
    texts = [action.text() for action in menu.actions()]
    assert len(texts) == len(LESSONS)
    assert any(text.startswith("07  ") for text in texts), texts
    assert all(text[:2].isdigit() for text in texts)


def test_data_ptr_is_shown_by_default(qtbot) -> None:
    QSettings().remove("inspector/hidden_columns")
    window = quiet_window(qtbot)
    tree = window.inspector.tree
    section = window.inspector.model.column_of("data_ptr")
    assert not tree.isColumnHidden(section)
