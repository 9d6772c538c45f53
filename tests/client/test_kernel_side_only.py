"""The kernel side needs only the protocol and the core: no Qt, no console, no plotting, no jupyter_client.

On a GPU server the kernel's environment gets ``pip install --no-deps tensor-explorer`` (README):
these tests hide the GUI's packages and check that the extension still loads and answers.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from explorer import protocol
from explorer.client.attached import AttachedKernel
from explorer.client.connection import resolve
from tests.client.tcp_kernel import run_in, tcp_kernel

#: What the window needs and a kernel-only install does not have.
GUI_ONLY = ("PySide6", "shiboken6", "qtconsole", "qtpy", "matplotlib", "networkx", "PIL", "safetensors", "orjson")
#: (pygments is not among them: IPython itself needs it, so every kernel has it.)



def blocker(hidden: tuple[str, ...]) -> str:
    """Python code that makes the packages *hidden* impossible to import (as if not installed)."""
    return textwrap.dedent("""
        import importlib.abc, sys

        class _Absent(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in HIDDEN:
                    raise ModuleNotFoundError("No module named %r (hidden by the test)" % name, name=name)
                return None

        sys.meta_path.insert(0, _Absent())
    """).replace("HIDDEN", repr(hidden))


def test_protocol_and_agent_import_and_answer_without_gui_packages_or_jupyter_client(tmp_path) -> None:
    code = blocker(GUI_ONLY + ("jupyter_client",)) + textwrap.dedent("""
        import json
        import numpy as np
        import torch
        import explorer, explorer.protocol as protocol
        import explorer.core.agent.extension, explorer.core.agent.pause
        from explorer.core.agent.comm import CommEndpoint
        from explorer.core.agent.handlers import Agent

        ns = {"x": torch.arange(12.0).reshape(3, 4), "a": np.zeros((4, 5, 3), dtype=np.uint8)}
        ns["col"] = ns["x"][:, 1]
        out = []
        endpoint = CommEndpoint(Agent(lambda: ns), lambda data, buffers: out.append(data))
        methods = []
        for i, request in enumerate([protocol.Hello(pause=True), protocol.Snapshot(), protocol.Image(name="a"),
                                     protocol.Values(name="col"), protocol.MemoryMap(name="col"),
                                     protocol.Overlaps(name="col")]):
            endpoint.on_message(protocol.request_message(i, request))
            methods.append([request.method, out[-1]["ok"]])
        print(json.dumps(methods))
        print(" ".join(sorted(sys.modules)))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env={"PYTHONPATH": str(__import__("pathlib").Path(__file__).resolve().parents[2]),
                               "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr[-3000:]
    answers, modules = done.stdout.splitlines()[-2:]
    assert all(ok for _method, ok in __import__("json").loads(answers)), answers
    loaded = {name.split(".")[0] for name in modules.split()}
    assert not loaded & set(GUI_ONLY + ("jupyter_client",))


@pytest.fixture()
def bare_kernel(tmp_path):
    """A kernel whose environment lacks every package only the window needs."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(blocker(GUI_ONLY))  # not jupyter_client: ipykernel itself needs it
    with tcp_kernel(str(tmp_path), path_first=str(site)) as kernel:
        yield kernel


def test_a_kernel_without_the_gui_packages_loads_the_extension_and_answers(bare_kernel) -> None:
    status = run_in(bare_kernel["file"], "import numpy as np\nimg = np.zeros((6, 8, 3), dtype=np.uint8)\n"
                                         "try:\n    import PySide6\nexcept ImportError:\n    hidden = True\n")
    assert status["status"] == "ok"
    with AttachedKernel(resolve(bare_kernel["file"])) as kernel:
        names = [v["name"] for v in kernel.ask(protocol.Snapshot(), timeout=60).result["variables"]]
        assert names == ["img", "hidden"]  # the kernel really has no PySide6
        image = kernel.ask(protocol.Image(name="img", max_width=16, max_height=16), timeout=60)
        assert image.ok and image.result["layout"] == "HWC"
        assert np.frombuffer(image.result["pixels"], dtype=np.uint8).size > 0
        assert kernel.ask(protocol.Values(name="img"), timeout=60).result["shape"] == [6, 8, 3]
