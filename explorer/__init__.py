"""Tensor Explorer: see what every tensor and array is.

``%load_ext explorer`` in any IPython kernel installs the kernel side (a Jupyter
comm target) that the window and the CLI talk to; see :mod:`explorer.protocol`.
"""

from typing import Any

__version__ = "0.2.0"


def load_ipython_extension(shell: Any) -> None:
    """Called by ``%load_ext explorer``: register the comm target in this kernel."""
    from explorer.core.agent.extension import load_ipython_extension as load

    load(shell)


def unload_ipython_extension(shell: Any) -> None:
    from explorer.core.agent.extension import unload_ipython_extension as unload

    unload(shell)
