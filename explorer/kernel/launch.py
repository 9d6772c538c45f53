"""What travels to the kernel: the agent's install code, request expressions, reply parsing.

Shared by the Qt session and the headless (CLI) driver so both run code the same way.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from typing import Any

from explorer.core.agent.handlers import AGENT_NAME, decode_reply

#: Run silently in every new kernel: installs the agent and keeps IPython from
#: caching outputs of user expressions in ``Out``.
INSTALL_CODE = (
    "def _te_install():\n"
    "    from explorer.core.agent.handlers import install\n"
    "    install(get_ipython())\n"
    "_te_install()\n"
    "del _te_install\n"
)


def request_expression(method: str, params: dict[str, Any] | None = None) -> str:
    """The ``user_expressions`` entry that asks the agent for *method*."""
    return f"{AGENT_NAME}.call({method!r}, {json.dumps(params or {})!r})"


def parse_expression_reply(content: dict[str, Any]) -> dict[str, Any]:
    """Turn an ``execute_reply``'s user expression result into the agent's reply dict."""
    expr = (content.get("user_expressions") or {}).get("r")
    if expr is None:
        if content.get("status") == "aborted":
            return {"error": "the request was aborted"}
        return {"error": "the kernel sent no answer"}
    if expr.get("status") != "ok":
        name = expr.get("ename", "Error")
        if name == "NameError":
            return {"error": "the explorer agent is not installed in this kernel yet"}
        return {"error": f"{name}: {expr.get('evalue', '')}"}
    text = (expr.get("data") or {}).get("text/plain", "")
    try:
        return decode_reply(text)
    except ValueError:
        return {"error": "the kernel's answer was not understood"}


def kernel_argv() -> list[str]:
    """Command line of a kernel that runs in this very Python (so it can import explorer)."""
    return [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]


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
