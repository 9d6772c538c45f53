"""``inspect --existing`` when the kernel cannot be reached or talked to: one sentence that says why, in seconds.

No test here times anything: a command that waited out ``--timeout 300`` (the kernel never
answers a wrong key) would trip the hang guard of :func:`tests.cli.helpers.cli`, or end with
another sentence, and fail the test either way.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from tests.cli.helpers import cli, cli_env, unscaled_env
from tests.client.tcp_kernel import run_in, tcp_kernel

PORTS = ("shell_port", "iopub_port", "stdin_port", "hb_port", "control_port")
#: A budget no handshake needs: a command that waited for all of it fails the test.
PATIENT = ("--timeout", "300")



def _one_sentence(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


def _copy(path: str, folder: Path, **changes) -> Path:
    """The connection file *path* with some fields changed (a stale or edited copy)."""
    info = json.loads(Path(path).read_text())
    info.update(changes)
    copy = folder / "kernel-copy.json"
    copy.write_text(json.dumps(info))
    return copy


def test_a_wrong_key_is_named_after_a_bounded_handshake(tmp_path: Path) -> None:
    with tcp_kernel(str(tmp_path)) as kernel:
        done = cli(tmp_path, "inspect", "--existing", str(_copy(kernel["file"], tmp_path, key="not-the-key")),
                   "--json", *PATIENT, env=unscaled_env(tmp_path))
        assert done.returncode == 2
        line = _one_sentence(done.stderr)
        assert "answers its heartbeat but not our signed requests" in line and "the key" in line
        assert json.loads(done.stdout)["error"]["type"] == "AttachError"
        # The window says it too, before it opens.
        window = cli(tmp_path, "--existing", str(tmp_path / "kernel-copy.json"), env=unscaled_env(tmp_path))
        assert window.returncode == 2 and "not our signed requests" in _one_sentence(window.stderr)
        assert kernel["process"].poll() is None
        assert run_in(kernel["file"], "assert 1")["status"] == "ok"  # the kernel never noticed


def test_a_kernel_that_has_ended_is_said_at_once(tmp_path: Path) -> None:
    with tcp_kernel(str(tmp_path)) as kernel:
        stale = _copy(kernel["file"], tmp_path)
    old = time.time() - 3600  # a file left by a kernel that ended an hour ago
    os.utime(stale, (old, old))
    done = cli(tmp_path, "inspect", "--existing", str(stale), *PATIENT)
    assert done.returncode == 2
    line = _one_sentence(done.stderr)
    assert "Nothing listens on 127.0.0.1:" in line and "the kernel has ended" in line
    # The window says it too, before it opens.
    window = cli(tmp_path, "--existing", str(stale), env=cli_env(tmp_path))
    assert window.returncode == 2 and "Nothing listens on" in _one_sentence(window.stderr)


def test_an_unknown_signature_scheme_is_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "kernel-odd.json"
    path.write_text(json.dumps({**{p: 40000 + i for i, p in enumerate(PORTS)}, "transport": "tcp",
                                "ip": "127.0.0.1", "key": "k", "signature_scheme": "hmac-bogus"}))
    done = cli(tmp_path, "inspect", "--existing", str(path), "--json")
    assert done.returncode == 2
    assert "signature_scheme Jupyter does not know ('hmac-bogus'" in _one_sentence(done.stderr)
    for field, value in (("transport", "udp"), ("key", 7), ("signature_scheme", None)):
        path.write_text(json.dumps({**{p: 40000 + i for i, p in enumerate(PORTS)}, "transport": "tcp",
                                    "ip": "127.0.0.1", "key": "k", field: value}))
        done = cli(tmp_path, "inspect", "--existing", str(path))
        assert done.returncode == 2, field
        _one_sentence(done.stderr)


# Run in the attached kernel by its own client: a thread that ends the process once our snapshot is being made
# (of many variables, so that it takes a while).
DIES_WHILE_INSPECTED = """\
import os, sys, threading
globals().update({f"v{i}": i for i in range(20000)})
main = threading.main_thread().ident

def snapshotting():
    frame = sys._current_frames().get(main)
    while frame is not None:
        code = frame.f_code
        if code.co_name == 'snapshot' and code.co_filename.endswith(os.path.join('agent', 'handlers.py')):
            return True
        frame = frame.f_back
    return False

def end_it():
    while not snapshotting():
        pass
    os._exit(1)

sys.setswitchinterval(1e-5)
threading.Thread(target=end_it, daemon=True).start()
"""


def test_a_kernel_that_dies_during_the_inspection_is_one_sentence(tmp_path: Path) -> None:
    with tcp_kernel(str(tmp_path)) as kernel:
        run_in(kernel["file"], DIES_WHILE_INSPECTED)
        done = cli(tmp_path, "inspect", "--existing", kernel["file"], "--json", *PATIENT, env=unscaled_env(tmp_path))
        assert kernel["process"].wait(timeout=60) == 1  # it did die, during our request
    assert done.returncode == 2
    line = _one_sentence(done.stderr)
    assert "stopped answering its heartbeat while it was being inspected" in line
    assert json.loads(done.stdout)["error"]["type"] == "AttachError"
