"""The ``tensor-explorer`` command line: the GUI launcher, ``inspect`` and ``render``."""

from explorer.cli.main import gui_main, main

__all__ = ["gui_main", "main"]
