"""How a local kernel is started: its command line, environment and private IPC folder.

Shared by the window's session and the CLI's headless kernel so both run code the same way.
"""

from __future__ import annotations

import os
import sys
import tempfile
from typing import Any

from explorer import protocol


def kernel_argv() -> list[str]:
    """Command line of a kernel that runs in this very Python, with our extension loaded at start."""
    return [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}", f"--ext={protocol.EXTENSION}"]


def kernel_env() -> dict[str, str]:
    """Environment for the kernel: the project importable, inline figures, no GUI backend."""
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    env["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
    return env


def configure_manager(manager: Any) -> str:
    """Make a jupyter_client KernelManager use IPC sockets in a private temp dir and our kernel spec.

    Returns the temp dir (the caller removes it after shutting the kernel down).
    """
    from jupyter_client.kernelspec import KernelSpec

    runtime = tempfile.mkdtemp(prefix="tensor-explorer-")
    manager.transport = "ipc"
    manager.ip = os.path.join(runtime, "kernel")
    manager.connection_file = os.path.join(runtime, "kernel.json")
    # Private attribute: jupyter_client has no public way to pass a spec object,
    # and looking one up by name could pick a foreign "python3" kernel.
    manager._kernel_spec = KernelSpec(
        argv=kernel_argv(), display_name="Tensor Explorer", language="python", env={}
    )
    return runtime
