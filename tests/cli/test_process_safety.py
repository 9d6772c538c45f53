"""The CLI never leaves a kernel or a temp folder behind, and --timeout bounds the whole command."""

from __future__ import annotations

import json
import os
import signal
import tempfile
import time
from pathlib import Path

import pytest

from tests.cli.helpers import (
    HANG_GUARD_S,
    cli,
    cli_env,
    leftovers,
    private_tmp,
    start_cli,
    unscaled_env,
    wait_for_file,
    wait_gone,
)

# The script tells the test its kernel's pid, then never ends on its own.
BLOCKS_IN_PYTHON = "import os, time\nkept = 1\n{mark}\nwhile True:\n    time.sleep(0.05)\n"
# Catches the interrupt and goes on: only killing the kernel ends it.
IGNORES_INTERRUPTS = ("import os, time\nkept = 1\n{mark}\nwhile True:\n    try:\n        time.sleep(0.05)\n"
                      "    except KeyboardInterrupt:\n        pass\n")
# One C call that holds the GIL for hours: no interrupt, no Python thread of the kernel runs meanwhile.
BLOCKS_IN_C = "import os\nkept = 1\n{mark}\ntotal = sum(range(10**14))\n"


def _script(tmp_path: Path, template: str) -> tuple[Path, Path]:
    marker = tmp_path / "kernel.pid"
    mark = f"open({str(marker)!r}, 'w').write(str(os.getpid()))"
    script = tmp_path / "script.py"
    script.write_text(template.format(mark=mark))
    return script, marker


@pytest.mark.parametrize("template", [IGNORES_INTERRUPTS, BLOCKS_IN_C], ids=["catches-interrupt", "blocks-in-c"])
def test_an_ignored_interrupt_escalates_to_killing_the_kernel(tmp_path: Path, template: str) -> None:
    script, marker = _script(tmp_path, template)
    out = cli(tmp_path, "inspect", str(script), "--json", "--timeout", "3", env=unscaled_env(tmp_path))
    assert out.returncode == 1, out.stderr
    error = json.loads(out.stdout)["error"]
    assert error["type"] == "Timeout" and "--timeout 3" in error["message"]
    assert wait_gone(int(marker.read_text()), 10)
    assert leftovers(tmp_path) == []


def test_a_timed_out_script_lists_what_it_made(tmp_path: Path) -> None:
    script, _ = _script(tmp_path, BLOCKS_IN_PYTHON)
    out = cli(tmp_path, "inspect", str(script), "--json", "--timeout", "3")
    assert out.returncode == 1, out.stderr
    payload = json.loads(out.stdout)
    assert [v["name"] for v in payload["variables"]] == ["kept"]
    assert payload["error"]["type"] == "Timeout" and payload["error"]["line"] == 5
    assert leftovers(tmp_path) == []


def test_the_kernel_start_has_its_own_bound_from_the_one_scale(tmp_path: Path) -> None:
    """The start budget (60 s) times TENSOR_EXPLORER_TIME_SCALE: here a few milliseconds, which no start meets."""
    script = tmp_path / "quick.py"
    script.write_text("x = 1\n")
    env = cli_env(tmp_path, TENSOR_EXPLORER_TIME_SCALE="0.0001")
    out = cli(tmp_path, "inspect", str(script), "--json", env=env)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert "did not start within 0.006 s" in out.stderr and "TENSOR_EXPLORER_TIME_SCALE" in out.stderr
    assert json.loads(out.stdout)["error"]["type"] == "Timeout"
    assert leftovers(tmp_path) == []


# Only in the kernel (the CLI's environment lacks the variable): a start slower than the --timeout below.
SLOW_KERNEL_START = "import os, time\nif os.environ.get('TENSOR_EXPLORER_DIE_WITH'):\n    time.sleep(6)\n"


def test_timeout_counts_from_the_kernel_being_up(tmp_path: Path) -> None:
    """A busy machine's slow kernel start does not eat the script's --timeout."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SLOW_KERNEL_START)
    env = cli_env(tmp_path)
    env["PYTHONPATH"] = os.pathsep.join((str(site), env["PYTHONPATH"]))
    script = tmp_path / "quick.py"
    script.write_text("x = 1\n")
    out = cli(tmp_path, "inspect", str(script), "--json", "--timeout", "5", env=env)
    assert out.returncode == 0, out.stdout + out.stderr
    assert [v["name"] for v in json.loads(out.stdout)["variables"]] == ["x"]


# After the script ends, a thread waits until the main thread answers an inspection request (the comm
# endpoint's handler; not the extension's hooks around the cell), then holds the GIL in one C call: the
# request is never answered.
FREEZES_THE_INSPECTOR = """\
import os, sys, threading
kept = 1
{mark}
main = threading.main_thread().ident

def inspecting():
    frame = sys._current_frames().get(main)
    while frame is not None:
        code = frame.f_code
        if code.co_name == 'answer' and code.co_filename.endswith(os.path.join('agent', 'comm.py')):
            return True
        frame = frame.f_back
    return False

def freeze():
    while not inspecting():
        pass
    sum(range(10**14))

sys.setswitchinterval(1e-5)
threading.Thread(target=freeze, daemon=True).start()
"""


def test_timeout_bounds_the_inspection_requests(tmp_path: Path) -> None:
    script, marker = _script(tmp_path, FREEZES_THE_INSPECTOR)
    out = cli(tmp_path, "inspect", str(script), "--json", "--timeout", "8")
    assert out.returncode == 2, out.stdout + out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert json.loads(out.stdout)["error"]["type"] == "Timeout"
    assert wait_gone(int(marker.read_text()), 10)
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_stops_the_kernel_and_removes_the_temp_folder(tmp_path: Path, signum: int, status: int) -> None:
    script, marker = _script(tmp_path, BLOCKS_IN_PYTHON)
    proc = start_cli(tmp_path, "inspect", str(script))
    kernel = int(wait_for_file(marker, proc))
    assert any(name.endswith("kernel.json") for name in leftovers(tmp_path))  # the folder is watched
    proc.send_signal(signum)
    _, stderr = proc.communicate(timeout=HANG_GUARD_S)
    assert proc.returncode == status
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1, stderr
    assert wait_gone(kernel, 10)
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("template", [BLOCKS_IN_PYTHON, BLOCKS_IN_C], ids=["python", "c"])
def test_sigkill_of_the_cli_leaves_no_kernel_running(tmp_path: Path, template: str) -> None:
    script, marker = _script(tmp_path, template)
    proc = start_cli(tmp_path, "inspect", str(script))
    kernel = int(wait_for_file(marker, proc))
    proc.kill()
    proc.communicate(timeout=HANG_GUARD_S)
    assert wait_gone(kernel, 5), "the kernel outlived the CLI that started it"


def test_kernel_death_removes_the_temp_folder(tmp_path: Path) -> None:
    script = tmp_path / "dies.py"
    script.write_text("import os\nkept = 1\nos._exit(3)\n")
    out = cli(tmp_path, "inspect", str(script), "--json")
    assert out.returncode == 1
    assert json.loads(out.stdout)["error"]["type"] == "KernelDied"
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("body", ["x = 1\n", "x = 1\nraise ValueError('no')\n"], ids=["ok", "raises"])
def test_normal_and_error_exits_remove_the_temp_folder(tmp_path: Path, body: str) -> None:
    script = tmp_path / "plain.py"
    script.write_text(body)
    out = cli(tmp_path, "inspect", str(script), "--json")
    assert out.returncode in (0, 1) and json.loads(out.stdout)["variables"]
    assert leftovers(tmp_path) == []


def test_unloadable_file_removes_the_temp_folder(tmp_path: Path) -> None:
    bad = tmp_path / "broken.npy"
    bad.write_bytes(b"\x93NUMPY garbage")
    assert cli(tmp_path, "inspect", str(bad)).returncode == 2
    assert leftovers(tmp_path) == []


def test_a_long_tmpdir_falls_back_to_a_short_private_folder(tmp_path: Path) -> None:
    deep = private_tmp(tmp_path) / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    short = Path(tempfile.mkdtemp(prefix="te-run-"))
    try:
        env = cli_env(tmp_path, XDG_RUNTIME_DIR=str(short))
        env["TMPDIR"] = str(deep)
        script = tmp_path / "ok.py"
        script.write_text("x = 1\n")
        out = cli(tmp_path, "inspect", str(script), "--json", env=env)
        assert out.returncode == 0, out.stderr
        assert [v["name"] for v in json.loads(out.stdout)["variables"]] == ["x"]
        assert list(deep.iterdir()) == [] and list(short.iterdir()) == []
    finally:
        os.rmdir(short)


def test_ctrl_c_while_the_kernel_starts_prints_one_line(tmp_path: Path) -> None:
    script = tmp_path / "quick.py"
    script.write_text("x = 1\n")
    proc = start_cli(tmp_path, "inspect", str(script))
    # The connection file exists: the kernel process is starting (it takes a second or more).
    end = time.monotonic() + HANG_GUARD_S
    while not list(private_tmp(tmp_path).rglob("kernel.json")) and proc.poll() is None and time.monotonic() < end:
        time.sleep(0.005)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=HANG_GUARD_S)
    assert proc.returncode == 130, stdout + stderr
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1, stderr
    assert leftovers(tmp_path) == []
