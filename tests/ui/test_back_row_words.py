"""Chinese from the back row (issue 24 item 10): the console's banner and restarts, the status bar, the
restore banner and lesson 07 read as a teacher would say them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication

from explorer.lessons import lesson_path, render_lesson
from explorer.ui.i18n import install_language

IPYTHON_BANNER = ("Python 3.11.7 (main, Dec  8 2023, 18:56:58) [GCC 11.4.0]\n"
                  "Type 'copyright', 'credits' or 'license' for more information\n"
                  "IPython 9.18.1 -- An enhanced Interactive Python. Type '?' for help.\n"
                  "Tip: You can use `%hist` to view history, see the options with `%history?`\n")


@pytest.fixture
def chinese(qapp):
    install_language("zh_CN")
    yield
    install_language("en")


def test_the_console_banner_and_restart_are_chinese(chinese) -> None:
    from qtconsole.rich_jupyter_widget import RichJupyterWidget

    from explorer.ui.console_words import kernel_banner, localize_console, restart_message

    banner = kernel_banner(IPYTHON_BANNER)
    assert "3.11.7" in banner and "9.18.1" in banner and "帮助" in banner
    assert "Tip" not in banner and "copyright" not in banner
    assert restart_message(True) == "内核已退出，正在重启"
    console = RichJupyterWidget()
    localize_console(console)
    assert "控制台" in console.banner
    console.kernel_banner = IPYTHON_BANNER  # what the kernel's kernel_info reply sets
    assert console.kernel_banner == banner
    console._kernel_restarted_message(died=True)
    assert "内核已退出，正在重启" in console._control.toPlainText()
    console.deleteLater()


def test_the_status_bar_and_the_restore_banner_write_no_stray_brackets_or_spaces(chinese) -> None:
    torch = QCoreApplication.translate("MainWindow", "torch {version} (not imported yet)").format(version="2.13.0")
    stopped = QCoreApplication.translate("RunControl", "Stopped (KeyboardInterrupt)")
    assert "（" not in torch + stopped and "(" not in torch + stopped, (torch, stopped)
    joined = QCoreApplication.translate("UnsavedText",
                                        "{question} ({count} texts to restore: this is the newest.)")
    text = joined.format(question="要恢复吗？", count=2)
    assert text.startswith("要恢复吗？（") and "份内容" in text  # no space between the two


def test_lesson_07_says_what_backward_does_in_a_teachers_words() -> None:
    with open(lesson_path("07"), encoding="utf-8") as handle:
        text = render_lesson(handle.read(), "zh_CN")
    assert "反向传播时沿着记录倒着走一遍" in text and "账本" not in text
