"""``tensor-explorer inspect --existing``: a running kernel's variables, the kernel left running; failures in one sentence."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from tests.cli.helpers import cli, cli_env
from tests.client.tcp_kernel import run_in, tcp_kernel

PORTS = ("shell_port", "iopub_port", "stdin_port", "hb_port", "control_port")


def _one_sentence(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


def test_inspect_existing_lists_the_kernels_variables_and_leaves_it_running(tmp_path: Path) -> None:
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    with tcp_kernel(str(runtime)) as kernel:
        run_in(kernel["file"], "import numpy as np\nimg = np.zeros((4, 5, 3))\nrow = img[0]")
        env = cli_env(tmp_path, JUPYTER_RUNTIME_DIR=str(runtime))
        done = cli(tmp_path, "inspect", "--existing", kernel["file"], "--json", env=env)
        assert done.returncode == 0, done.stderr
        payload = json.loads(done.stdout)
        assert [v["name"] for v in payload["variables"]] == ["img", "row"]
        assert payload["variables"][1]["overlaps"] == ["img"] and payload["error"] is None
        # Without a file: the newest connection file in Jupyter's runtime folder; the readable table.
        table = cli(tmp_path, "inspect", "--existing", env=env)
        assert table.returncode == 0, table.stderr
        assert "img" in table.stdout and "[4, 5, 3]" in table.stdout
        assert kernel["process"].poll() is None
        assert run_in(kernel["file"], "assert row.shape == (5, 3)")["status"] == "ok"


def test_a_connection_file_without_a_key_is_refused_in_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "kernel-nokey.json"
    path.write_text(json.dumps({**{p: 40000 + i for i, p in enumerate(PORTS)}, "transport": "tcp",
                                "ip": "127.0.0.1", "key": ""}))
    done = cli(tmp_path, "inspect", "--existing", str(path), "--json")
    assert done.returncode == 2
    assert "has no key" in _one_sentence(done.stderr)
    assert "has no key" in json.loads(done.stdout)["error"]["message"]


def _connection_file(tmp_path: Path) -> Path:
    path = tmp_path / "kernel-remote.json"
    path.write_text(json.dumps({**{p: 40000 + i for i, p in enumerate(PORTS)}, "transport": "tcp",
                                "ip": "127.0.0.1", "key": "k", "signature_scheme": "hmac-sha256"}))
    return path


def test_ssh_to_a_host_that_refuses_is_one_sentence(tmp_path: Path) -> None:
    # Port 1 on this machine refuses at once: no network is needed to see the failure.
    done = cli(tmp_path, "inspect", "--existing", str(_connection_file(tmp_path)), "--ssh", "nobody@127.0.0.1:1")
    assert done.returncode == 2
    line = _one_sentence(done.stderr)
    assert "Could not log in to nobody@127.0.0.1:1 over SSH" in line and "refused" in line


def test_ssh_without_an_ssh_command_is_one_sentence(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"  # a PATH with python but no ssh
    bin_dir.mkdir()
    env = cli_env(tmp_path, PATH=str(bin_dir))
    done = cli(tmp_path, "inspect", "--existing", str(_connection_file(tmp_path)), "--ssh", "me@gpu", env=env)
    assert done.returncode == 2
    assert "there is no ssh command" in _one_sentence(done.stderr)


def test_ssh_that_asks_for_a_password_is_refused_in_one_sentence(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "ssh"  # what ssh -o BatchMode=yes says when the server accepts passwords only
    fake.write_text("#!/bin/sh\necho 'me@gpu: Permission denied (publickey,password).' >&2\nexit 255\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    env = cli_env(tmp_path, PATH=os.pathsep.join((str(bin_dir), os.environ["PATH"])))
    done = cli(tmp_path, "inspect", "--existing", str(_connection_file(tmp_path)), "--ssh", "me@gpu", env=env)
    assert done.returncode == 2
    line = _one_sentence(done.stderr)
    assert "Permission denied" in line and "without a password" in line


def test_existing_and_a_target_together_are_wrong_arguments(tmp_path: Path) -> None:
    done = cli(tmp_path, "inspect", "script.py", "--existing", str(_connection_file(tmp_path)))
    assert done.returncode == 2 and "not both" in _one_sentence(done.stderr)
    done = cli(tmp_path, "inspect")
    assert done.returncode == 2 and "needs a TARGET or --existing" in _one_sentence(done.stderr)


def test_ssh_tunnels_reach_the_kernel(tmp_path: Path) -> None:
    """``--ssh`` through jupyter_client's tunnels; ``ssh`` here forwards on this machine (no server needed)."""
    import signal
    import sys

    bin_dir, pids = tmp_path / "bin", tmp_path / "pids"
    bin_dir.mkdir()
    pids.mkdir()
    fake = bin_dir / "ssh"
    fake.write_text(f"#!{sys.executable}\n" + (Path(__file__).parent / "fake_ssh.py").read_text())
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    env = cli_env(tmp_path, PATH=os.pathsep.join((str(bin_dir), os.environ["PATH"])), FAKE_SSH_PIDS=str(pids))
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    try:
        with tcp_kernel(str(runtime)) as kernel:
            run_in(kernel["file"], "remote = [1, 2, 3]")
            done = cli(tmp_path, "inspect", "--existing", kernel["file"], "--ssh", "me@gpu-server", "--json", env=env)
            assert done.returncode == 0, done.stderr
            assert [v["name"] for v in json.loads(done.stdout)["variables"]] == ["remote"]
            names = os.listdir(pids)
            started = [n for n in names if n.isdigit()]
            assert len(started) == 5 and sorted(n + ".used" for n in started) == sorted(set(names) - set(started))
            assert kernel["process"].poll() is None
    finally:
        for name in os.listdir(pids):
            try:
                if name.isdigit():
                    os.kill(int(name), signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_a_kernel_without_tensor_explorer_is_one_sentence_with_the_install_command(tmp_path: Path) -> None:
    from tests.client.test_kernel_side_only import blocker

    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(blocker(("explorer",)))  # as if tensor-explorer were not installed there
    with tcp_kernel(str(tmp_path), path_first=str(site)) as kernel:
        done = cli(tmp_path, "inspect", "--existing", kernel["file"], "--json")
        assert done.returncode == 2
        line = _one_sentence(done.stderr)
        assert "cannot load the tensor-explorer extension" in line and "No module named 'explorer'" in line
        assert "`pip install tensor-explorer`" in line
        assert kernel["process"].poll() is None


def test_the_window_refuses_a_missing_or_keyless_connection_file_before_it_opens(tmp_path: Path) -> None:
    done = cli(tmp_path, "--existing", str(tmp_path / "gone.json"), env=cli_env(tmp_path, JUPYTER_RUNTIME_DIR=str(tmp_path)))
    assert done.returncode == 2 and "No connection file" in _one_sentence(done.stderr)
    keyless = tmp_path / "kernel-nokey.json"
    keyless.write_text(json.dumps({**{p: 40000 + i for i, p in enumerate(PORTS)}, "transport": "tcp", "key": ""}))
    done = cli(tmp_path, "--existing", str(keyless))
    assert done.returncode == 2 and "has no key" in _one_sentence(done.stderr)
