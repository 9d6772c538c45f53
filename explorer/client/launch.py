"""How a local kernel is started: its command line, environment and private IPC folder.

Shared by the window's session and the CLI's headless kernel so both run code the same way.

The kernel process itself starts in :func:`serve` (see :func:`kernel_argv`), which adds two things
to a plain ``ipykernel_launcher``:

* ipykernel's pipe for output of forked children (``multiprocessing``, DataLoader workers) binds a
  random TCP port on 127.0.0.1 that any local user can connect to. It is moved to an IPC socket in
  the kernel's private folder, so a local kernel listens on no TCP port at all. (The TCP pipe was not
  a hole: it only accepts messages that start with a 16-byte random key the kernel keeps in memory,
  and it never sends anything back; but a stranger could still open it and flood it.)
* a kernel started with ``die_with_parent`` is killed by Linux the moment its parent exits, even a
  kernel stuck in a C call that holds the GIL (ipykernel's own parent poller, enabled through
  ``JPY_PARENT_PID``, is a Python thread and needs the GIL to notice).
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from typing import TYPE_CHECKING, Any

from explorer import protocol

if TYPE_CHECKING:
    from ipykernel.iostream import IOPubThread

#: Longest socket path we create (Linux allows 107 bytes, macOS 103); longer ones fail in ZMQ.
MAX_SOCKET_PATH = 100
#: The longest name a socket gets inside the runtime folder (``kernel-65535``, ``iopub-pipe``).
_SOCKET_NAME = "kernel-65535"
_PREFIX = "tensor-explorer-"
#: Set in the kernel's environment: the pid of the parent whose exit must kill the kernel at once.
DIE_WITH_ENV = "TENSOR_EXPLORER_DIE_WITH"
#: The kernel's first statement: drop the working directory from sys.path (IPython adds it back
#: for the user's code), so that a folder named ``explorer`` beside the user's script cannot stand
#: in for this package.
_BOOT = "import sys; del sys.path[0]; from explorer.client.launch import serve; serve()"


def kernel_argv() -> list[str]:
    """Command line of a kernel that runs in this very Python, with our extension loaded at start."""
    # Completion without jedi's per-name type and signature (80-220 ms of a 100 ms budget for `t.`; 12 ms without).
    return [sys.executable, "-c", _BOOT, "-f", "{connection_file}", f"--ext={protocol.EXTENSION}",
            "--IPCompleter.jedi_compute_type_timeout=0"]


def kernel_env(die_with_parent: bool = False) -> dict[str, str]:
    """Environment for the kernel: the project importable, inline figures, no GUI backend.

    With *die_with_parent* the kernel is killed as soon as the calling thread's process exits; pass
    it only from a thread that lives as long as the kernel should (Linux ties the signal to the
    thread that started the process).
    """
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    env["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
    env.pop(DIE_WITH_ENV, None)
    if die_with_parent and threading.current_thread() is threading.main_thread():
        env[DIE_WITH_ENV] = str(os.getpid())
    return env


def private_runtime_dir() -> str:
    """A new folder only this user can enter (0700), short enough for the kernel's socket paths.

    It is made under the temp folder; when that path is so long that a socket path in it would
    not fit, under ``$XDG_RUNTIME_DIR`` or ``/tmp`` instead.
    """
    longest = len(os.sep + _PREFIX + "xxxxxxxx" + os.sep + _SOCKET_NAME)
    candidates = [tempfile.gettempdir(), os.environ.get("XDG_RUNTIME_DIR", ""), "/tmp"]  # noqa: S108 (mkdtemp, 0700)
    for base in candidates:
        if base and os.path.isdir(base) and len(os.path.abspath(base)) + longest <= MAX_SOCKET_PATH:
            return tempfile.mkdtemp(prefix=_PREFIX, dir=os.path.abspath(base))
    raise OSError(f"no temporary folder with a path short enough for the kernel's sockets "
                  f"({MAX_SOCKET_PATH - longest} characters at most); set TMPDIR to a short one")


def configure_manager(manager: Any) -> str:
    """Make a jupyter_client KernelManager use IPC sockets in a private temp dir and our kernel spec.

    Returns the temp dir (the caller removes it after shutting the kernel down).
    """
    from jupyter_client.kernelspec import KernelSpec

    runtime = private_runtime_dir()
    manager.transport = "ipc"
    manager.ip = os.path.join(runtime, "kernel")
    manager.connection_file = os.path.join(runtime, "kernel.json")
    # Private attribute: jupyter_client has no public way to pass a spec object,
    # and looking one up by name could pick a foreign "python3" kernel.
    manager._kernel_spec = KernelSpec(
        argv=kernel_argv(), display_name="Tensor Explorer", language="python", env={}
    )
    return runtime


# -- inside the kernel process --------------------------------------------------------------------
def serve() -> None:
    """Run the kernel (``kernel_argv``'s entry): ipykernel, with the two changes of the module doc."""
    _die_with_parent(os.environ.pop(DIE_WITH_ENV, ""))
    from ipykernel import kernelapp

    folder = _private_folder(_connection_file(sys.argv[1:]))
    if folder is not None:
        thread_class = _ipc_pipe_thread(os.path.join(folder, "iopub-pipe"))
        if thread_class is not None:
            kernelapp.IOPubThread = thread_class  # type: ignore[misc]  # a monkeypatch: ipykernel builds the class it finds here
    kernelapp.launch_new_instance()


def _die_with_parent(parent: str) -> None:
    """Ask Linux to SIGKILL this process when *parent* (a pid) exits; exit now if it already has."""
    if not parent.isdigit() or not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    pr_set_pdeathsig = 1
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(pr_set_pdeathsig, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):
        return  # ipykernel's parent poller still ends the kernel (within a second, GIL permitting)
    if os.getppid() != int(parent):  # the parent died before the request was in place
        os._exit(1)


def _connection_file(args: list[str]) -> str | None:
    """The ``-f FILE`` / ``--f=FILE`` argument of the kernel's command line."""
    for index, arg in enumerate(args):
        if arg == "-f" and index + 1 < len(args):
            return args[index + 1]
        if arg.startswith(("--f=", "-f=")):
            return arg.split("=", 1)[1]
    return None


def _private_folder(connection_file: str | None) -> str | None:
    """The connection file's folder when only this user can use it and a socket path there fits."""
    if not connection_file:
        return None
    folder = os.path.dirname(os.path.abspath(connection_file))
    try:
        info = os.stat(folder)
    except OSError:
        return None
    private = hasattr(os, "getuid") and info.st_uid == os.getuid() and info.st_mode & 0o077 == 0
    fits = len(os.path.join(folder, _SOCKET_NAME)) <= MAX_SOCKET_PATH
    return folder if private and fits else None


def _ipc_pipe_thread(address: str) -> type[IOPubThread] | None:
    """ipykernel's IOPubThread with the forked-output pipe on the IPC socket *address*, not TCP.

    It relies on ipykernel internals (``_setup_pipe_in``/``_setup_pipe_out``, ``_pipe_uuid``,
    ``_pipe_in``, ``_handle_pipe_msg``); when a release renames them, None keeps ipykernel's own
    pipe (``tests/client/test_headless_security.py`` then fails and says so).
    """
    import zmq
    from ipykernel.iostream import IOPubThread
    from zmq.eventloop.zmqstream import ZMQStream

    needed = ("_setup_pipe_in", "_setup_pipe_out", "_handle_pipe_msg")
    if not all(hasattr(IOPubThread, name) for name in needed):
        return None
    url = "ipc://" + address

    class IpcPipeIOPubThread(IOPubThread):
        """Forked children push their output through a socket file in the kernel's private folder."""

        def _setup_pipe_in(self) -> None:
            # Messages must still start with this random key: the folder keeps strangers out, the
            # key keeps out anything but this kernel's own children.
            self._pipe_uuid = os.urandom(16)
            puller = self.socket.context.socket(zmq.PULL)
            puller.linger = 0
            try:
                puller.bind(url)
            except zmq.ZMQError:
                puller.close()
                self._pipe_flag = False  # children's output is then dropped, as ipykernel does
                return
            self._pipe_in = ZMQStream(puller, self.io_loop)
            self._pipe_in.on_recv(self._handle_pipe_msg)

        def _setup_pipe_out(self) -> tuple[Any, Any]:
            context = zmq.Context()  # a fork must not reuse the parent's context
            pusher = context.socket(zmq.PUSH)
            pusher.linger = 3000
            pusher.connect(url)
            return context, pusher

    return IpcPipeIOPubThread
