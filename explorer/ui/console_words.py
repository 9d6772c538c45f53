"""The console's own sentences in the interface's language.

qtconsole writes its banner, IPython's banner (with a random English tip) and
"Kernel died, restarting" in English, whatever the window speaks. This gives the
console a short banner of ours, keeps of the kernel's banner only the versions,
and says the restart in the window's language. Nothing of qtconsole is changed
but this one widget's texts.
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QCoreApplication

_VERSION = re.compile(r"(?:Python|IPython)\s+(\d+(?:\.\d+)+\S*)")


def console_banner() -> str:
    return QCoreApplication.translate(
        "ConsoleWords", "The Python console: type code here and press Enter; the variables it makes appear in the "
        "inspector too.\n")


def kernel_banner(original: str) -> str:
    """The kernel's banner reduced to its versions, in the interface's language ('' when it names none)."""
    versions = _VERSION.findall(original or "")
    if not versions:
        return ""
    python = versions[0]
    ipython = versions[1] if len(versions) > 1 else "?"
    return QCoreApplication.translate("ConsoleWords", "Python {python}, IPython {ipython}. A name followed by ? "
                                      "shows its help.\n").format(python=python, ipython=ipython)


def restart_message(died: bool) -> str:
    if died:
        return QCoreApplication.translate("ConsoleWords", "Kernel died, restarting")
    return QCoreApplication.translate("ConsoleWords", "Kernel restarting")


def localize_console(console: Any) -> None:
    """Give qtconsole's *console* widget our banner, the kernel's versions only, and translated restarts."""
    console.banner = console_banner()
    rewriting: list[bool] = []  # set while our own rewrite sets the trait again

    def on_kernel_banner(change: dict) -> None:
        if rewriting:
            return
        rewriting.append(True)
        try:
            console.kernel_banner = kernel_banner(change["new"])
        finally:
            rewriting.clear()

    console.observe(on_kernel_banner, names="kernel_banner")

    def kernel_restarted_message(died: bool = True) -> None:
        console._append_html(f"<br>{restart_message(died)}<hr><br>", before_prompt=False)

    console._kernel_restarted_message = kernel_restarted_message
