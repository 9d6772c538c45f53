"""A local kernel listens on no TCP port; its connection file and socket folder are the user's alone."""

from __future__ import annotations

import glob
import os
import stat
import time

from explorer.client.headless import HeadlessKernel


def _listening_tcp_inodes() -> dict[str, str]:
    """Socket inode -> local address of every listening TCP socket on this machine."""
    found = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table, encoding="ascii") as handle:
                rows = handle.readlines()[1:]
        except FileNotFoundError:
            continue
        for row in rows:
            fields = row.split()
            if fields[3] == "0A":  # TCP_LISTEN
                found[fields[9]] = fields[1]
    return found


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    for fd in glob.glob(f"/proc/{pid}/fd/*"):
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    return inodes


def _kernel_pid(kernel: HeadlessKernel) -> int:
    assert kernel.run(f"import os\nopen({kernel.runtime + '/pid'!r}, 'w').write(str(os.getpid()))")["status"] == "ok"
    with open(os.path.join(kernel.runtime, "pid"), encoding="ascii") as handle:
        return int(handle.read())


def test_a_local_kernel_listens_on_no_tcp_port(headless_kernel) -> None:
    pid = _kernel_pid(headless_kernel)
    listening = _listening_tcp_inodes()
    assert {inode: listening[inode] for inode in _socket_inodes(pid) if inode in listening} == {}


def test_connection_file_and_socket_folder_are_owner_only(headless_kernel) -> None:
    runtime = headless_kernel.runtime
    # jupyter_client adds the sticky bit (so /tmp cleaners keep the file): still owner-only
    assert stat.S_IMODE(os.stat(runtime).st_mode) & 0o777 == 0o700
    connection = headless_kernel.manager.connection_file
    assert os.path.dirname(connection) == runtime
    assert stat.S_IMODE(os.stat(connection).st_mode) == 0o600
    sockets = [p for p in os.listdir(runtime) if stat.S_ISSOCK(os.stat(os.path.join(runtime, p)).st_mode)]
    assert sockets, "the kernel's IPC sockets live in the private folder"


def test_output_of_a_forked_child_still_reaches_the_client(headless_kernel) -> None:
    """The forked-output pipe moved off TCP; ``multiprocessing`` children's prints must still arrive."""
    code = ("import os, sys\npid = os.fork()\nif pid == 0:\n    print('from the child', flush=True)\n"
            "    sys.stdout.flush()\n    os._exit(0)\nos.waitpid(pid, 0)\nimport time\ntime.sleep(0.5)\n")
    msg_id = headless_kernel.client.execute(code)
    seen, end = [], time.monotonic() + 60
    while time.monotonic() < end:
        msg = headless_kernel._pump(0.2)
        if msg is None or msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "stream":
            seen.append(msg["content"]["text"])
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            break
    assert "from the child" in "".join(seen)


def test_shutdown_removes_the_private_folder() -> None:
    kernel = HeadlessKernel()
    runtime = kernel.runtime
    assert os.path.isdir(runtime)
    kernel.shutdown()
    assert not os.path.exists(runtime)
