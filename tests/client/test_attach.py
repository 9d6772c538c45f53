"""Attaching to a kernel someone else started (over TCP on loopback, as an SSH tunnel presents it).

The kernel is a plain ``python -m ipykernel_launcher``: our extension is loaded into it by the
attach, it is inspected, and it is still running (and usable by its own client) after we leave.
"""

from __future__ import annotations

import json
import os

import pytest

from explorer import __version__, protocol
from explorer.client.attached import AttachedKernel
from explorer.client.connection import AttachError, find_connection_file, load_connection, resolve
from explorer.client.headless import version_sentence
from tests.client.tcp_kernel import run_in, tcp_kernel


@pytest.fixture(scope="module")
def kernel_file(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("runtime"))
    with tcp_kernel(folder) as started:
        run_in(started["file"], "import numpy as np\na = np.arange(6.0).reshape(2, 3)\ncol = a[:, 1]")
        yield started


def _names(kernel: AttachedKernel) -> list[str]:
    reply = kernel.ask(protocol.Snapshot(exact_overlaps=True), timeout=60)
    assert reply.ok, reply.message
    return [var["name"] for var in reply.result["variables"]]


def test_attach_loads_the_extension_inspects_and_leaves_the_kernel_running(kernel_file) -> None:
    info = resolve(kernel_file["file"])
    with AttachedKernel(info) as kernel:
        assert kernel.hello["package"] == __version__
        snapshot = kernel.ask(protocol.Snapshot(exact_overlaps=True), timeout=60).result
        by_name = {var["name"]: var for var in snapshot["variables"]}
        assert set(by_name) == {"a", "col"}
        assert by_name["col"]["strides"] == [3] and by_name["col"]["memory_group"] == by_name["a"]["memory_group"]
        assert kernel.ask(protocol.Values(name="col", nrows=2, ncols=1), timeout=60).result["shape"] == [2]
    assert kernel_file["process"].poll() is None
    # Its own client still runs code in it, with the variables it had.
    assert run_in(kernel_file["file"], "assert a.shape == (2, 3)")["status"] == "ok"


def test_attached_kernel_keeps_working_after_reset(kernel_file) -> None:
    with AttachedKernel(resolve(kernel_file["file"])) as kernel:
        assert "a" in _names(kernel)
        kernel.run("%reset -f", timeout=60)
        assert _names(kernel) == []
        kernel.run("import numpy as np\nafter = np.zeros(3)", timeout=60)
        assert _names(kernel) == ["after"]
    with AttachedKernel(resolve(kernel_file["file"]), start_timeout=60) as again:  # a second attach: loaded once
        assert _names(again) == ["after"]
    assert kernel_file["process"].poll() is None


def test_default_is_the_newest_connection_file_in_the_runtime_folder(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path))
    with pytest.raises(AttachError, match="No running Jupyter kernel was found"):
        find_connection_file(None)
    old, new = tmp_path / "kernel-old.json", tmp_path / "kernel-new.json"
    for path in (old, new):
        path.write_text("{}")
    os.utime(old, (1_000_000, 1_000_000))
    assert find_connection_file(None) == str(new)
    assert find_connection_file("kernel-old.json") == str(old)  # a name in the runtime folder
    with pytest.raises(AttachError, match=r"No connection file 'nothing\.json'"):
        find_connection_file("nothing.json")


def test_a_tcp_connection_file_without_a_key_is_refused(tmp_path) -> None:
    path = tmp_path / "kernel-nokey.json"
    ports = {name: 50000 + i for i, name in enumerate(("shell_port", "iopub_port", "stdin_port", "hb_port",
                                                       "control_port"))}
    path.write_text(json.dumps({**ports, "transport": "tcp", "ip": "127.0.0.1", "key": ""}))
    with pytest.raises(AttachError) as caught:
        load_connection(str(path))
    assert "has no key" in str(caught.value) and str(caught.value).count(". ") == 0
    path.write_text(json.dumps({**ports, "transport": "ipc", "ip": "/tmp/k", "key": ""}))
    assert load_connection(str(path))["transport"] == "ipc"  # local sockets: the folder's permissions guard them
    path.write_text("not json")
    with pytest.raises(AttachError, match="not a Jupyter connection file"):
        load_connection(str(path))


def test_version_sentence_says_what_to_install() -> None:
    same = {"protocol": protocol.PROTOCOL_VERSION, "package": __version__}
    assert version_sentence(same) is None
    sentence = version_sentence(dict(same, package="0.0.1"))
    assert sentence is not None and "0.0.1" in sentence and f"pip install tensor-explorer=={__version__}" in sentence
