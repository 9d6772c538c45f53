"""The ``tensor-explorer`` command line: the GUI launcher, ``inspect`` and ``render``."""

from explorer.cli.main import main

__all__ = ["main"]
