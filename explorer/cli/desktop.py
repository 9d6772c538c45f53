"""``tensor-explorer --install-desktop``: put the launcher and the icon where desktops look for them.

Files go under ``$XDG_DATA_HOME`` (default ``~/.local/share``), as the XDG base directory and
desktop entry specifications say: ``applications/tensor-explorer.desktop`` and
``icons/hicolor/scalable/apps/tensor-explorer.svg``. The launcher's ``Exec`` names this very
installation by absolute path, because a desktop session's PATH rarely holds a virtual env.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

RESOURCES = Path(__file__).resolve().parent.parent / "resources"
APP_ID = "tensor-explorer"
#: Characters that force an Exec argument into double quotes (desktop entry spec, "The Exec key").
_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


def data_home() -> Path:
    """``$XDG_DATA_HOME`` when it is set to an absolute path, else ``~/.local/share``."""
    value = os.environ.get("XDG_DATA_HOME", "")
    return Path(value) if os.path.isabs(value) else Path.home() / ".local" / "share"


def launch_command() -> list[str]:
    """How the launcher starts the window: the ``tensor-explorer-gui`` script beside this Python, if any."""
    script = Path(sys.executable).parent / "tensor-explorer-gui"
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-m", "explorer"]


def exec_argument(arg: str) -> str:
    """One argument of an ``Exec`` line, quoted and escaped as the desktop entry spec requires."""
    arg = arg.replace("%", "%%")
    if any(ch in _RESERVED for ch in arg):
        inner = "".join("\\" + ch if ch in '"`$\\' else ch for ch in arg)
        arg = f'"{inner}"'
    return arg.replace("\\", "\\\\")  # the string-value escape, applied on top of the quoting


def desktop_entry() -> str:
    """The packaged ``.desktop`` file with ``Exec`` pointing at this installation."""
    command = " ".join(exec_argument(arg) for arg in launch_command())
    lines = (RESOURCES / f"{APP_ID}.desktop").read_text(encoding="utf-8").splitlines()
    return "\n".join(f"Exec={command} %F" if line.startswith("Exec=") else line for line in lines) + "\n"


def install_desktop() -> int:
    """Write the launcher and the icon; print where they went. Returns the exit status."""
    base = data_home()
    desktop = base / "applications" / f"{APP_ID}.desktop"
    icon = base / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg"
    try:
        desktop.parent.mkdir(parents=True, exist_ok=True)
        icon.parent.mkdir(parents=True, exist_ok=True)
        desktop.write_text(desktop_entry(), encoding="utf-8")
        shutil.copyfile(RESOURCES / "icon.svg", icon)
    except OSError as exc:
        print(f"tensor-explorer: the launcher could not be installed: {exc}", file=sys.stderr)
        return 1
    print(f"Installed the application launcher: {desktop}")
    print(f"Installed the icon: {icon}")
    print("Tensor Explorer is now in the desktop's application menu (log out and in if it does not show yet).")
    return 0
