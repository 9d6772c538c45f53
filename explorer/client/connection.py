"""Reaching a kernel someone else started: its connection file, the key check, and SSH tunnels.

Jupyter writes one ``kernel-*.json`` connection file per running kernel into its runtime
folder (``jupyter_core.paths.jupyter_runtime_dir()``); a notebook's kernel, ``jupyter
console`` and ``python -m ipykernel`` all do. A kernel on another machine is reached the
way ``jupyter console --existing FILE --ssh HOST`` reaches it: the file is copied here and
``jupyter_client``'s SSH tunnels forward its five ports to this machine. Only key
authentication is used (a password prompt could not be answered from the window).

Every failure is an :class:`AttachError` whose text is one sentence for the user.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import shutil
import socket
import subprocess
import time
from typing import Any

#: The five ports of a kernel, in the order jupyter_client's tunnels take them.
PORTS = ("shell_port", "iopub_port", "stdin_port", "hb_port", "control_port")
#: Seconds the SSH check may take (an unreachable host must not hang the command).
SSH_CHECK_TIMEOUT = 20
#: Seconds ssh waits for the host to answer at all.
SSH_CONNECT_TIMEOUT = 10


class AttachError(Exception):
    """A running kernel cannot be reached; the message is one sentence saying why and what to do."""


def runtime_dir() -> str:
    """Jupyter's runtime folder, where running kernels leave their connection files."""
    from jupyter_core.paths import jupyter_runtime_dir

    return jupyter_runtime_dir()


def find_connection_file(name: str | None = None) -> str:
    """The connection file *name* names (a path, or a name in the runtime folder); by default the newest there."""
    folder = runtime_dir()
    if not name:
        files = glob.glob(os.path.join(folder, "kernel-*.json"))
        if not files:
            raise AttachError(f"No running Jupyter kernel was found: {folder} holds no kernel-*.json file. "
                              "Start one (a notebook, jupyter console, python -m ipykernel) or name its "
                              "connection file.")
        return max(files, key=_mtime)
    if os.path.isfile(name):
        return os.path.abspath(name)
    from jupyter_client import find_connection_file as jupyter_find

    try:
        return jupyter_find(name, path=[".", folder])
    except OSError:
        raise AttachError(f"No connection file {name!r} was found here or in {folder}.") from None


def _mtime(path: str) -> float:
    try:
        return os.path.getmtime(path)
    except OSError:
        return 0.0


def load_connection(path: str) -> dict[str, Any]:
    """The connection facts of *path*; refuses a TCP kernel without a key (anyone reaching its ports could run code)."""
    try:
        with open(path, encoding="utf-8") as handle:
            info = json.load(handle)
    except OSError as exc:
        raise AttachError(f"The connection file {path} cannot be read ({exc.strerror or exc}).") from None
    except ValueError:
        raise AttachError(f"{path} is not a Jupyter connection file (it is not JSON).") from None
    if not isinstance(info, dict) or any(not isinstance(info.get(port), int) for port in PORTS):
        raise AttachError(f"{path} is not a Jupyter connection file (it lists no kernel ports).")
    info.setdefault("transport", "tcp")
    info.setdefault("ip", "127.0.0.1")
    info.setdefault("signature_scheme", "hmac-sha256")
    _check_fields(path, info)
    if info["transport"] == "tcp" and not info.get("key"):
        raise AttachError(f"{path} has no key: over TCP the key is what keeps anyone who can reach the kernel's "
                          "ports from running code in it, so Tensor Explorer does not connect without one.")
    return info


def _check_fields(path: str, info: dict[str, Any]) -> None:
    """Refuse, in one sentence, the values jupyter_client would fail on with a traceback."""
    if info["transport"] not in ("tcp", "ipc"):
        raise AttachError(f"{path} names a transport Jupyter does not use ({info['transport']!r}; "
                          "kernels use 'tcp' or 'ipc').")
    for field in ("ip", "key", "signature_scheme"):
        if not isinstance(info.get(field, ""), str):
            raise AttachError(f"{path} is not a Jupyter connection file (its {field} is not text).")
    scheme = info["signature_scheme"]
    digest = scheme[len("hmac-"):] if scheme.startswith("hmac-") else ""
    if digest not in hashlib.algorithms_guaranteed or not callable(getattr(hashlib, digest, None)):
        raise AttachError(f"{path} names a signature_scheme Jupyter does not know ({scheme!r}; kernels sign "
                          "with 'hmac-sha256').")


def check_listening(info: dict[str, Any], timeout: float) -> None:
    """An :class:`AttachError` when nothing listens where *info* says the kernel is (it has ended, mostly).

    A kernel whose connection file is younger than *timeout* may still be starting: it gets until
    then. Not for tunnelled ports (the SSH forwarder listens whatever is behind it).
    """
    where = info.get("connection_file") or "the connection file"
    patience_until = _mtime(str(where)) + timeout
    for name in ("control_port", "hb_port", "shell_port"):
        while True:
            problem = _not_listening(info, name, timeout)
            if problem is None:
                break
            if time.time() >= patience_until:
                raise AttachError(problem.replace("{where}", str(where)))
            time.sleep(0.1)


def _not_listening(info: dict[str, Any], name: str, timeout: float) -> str | None:
    """Why nothing answers on the kernel's *name* port (a sentence with ``{where}``), or None."""
    role = name.split("_")[0]
    if info["transport"] == "ipc":
        address = f"{info['ip']}-{info[name]}"
        return None if os.path.exists(address) else f"The kernel of {{where}} has ended: its socket {address} does not exist."
    try:
        socket.create_connection((info["ip"], info[name]), timeout=timeout).close()
    except ConnectionRefusedError:
        return (f"Nothing listens on {info['ip']}:{info[name]}, the kernel's {role} port in {{where}}: the kernel "
                "has ended, or the file is from another machine (then pass --ssh USER@HOST).")
    except OSError as exc:
        why = exc.strerror or f"no answer within {timeout:g} s"
        return f"{info['ip']}:{info[name]}, the kernel's {role} port in {{where}}, cannot be reached ({why})."
    return None


def parse_server(server: str) -> tuple[str, str | None]:
    """``("user@host", "port" or None)`` from jupyter's ``user@host:port`` form."""
    host, sep, port = server.rpartition(":")
    if sep and port.isdigit() and host:
        return host, port
    return server, None


def check_ssh(server: str, keyfile: str | None = None) -> None:
    """Log in to *server* once with keys only; an :class:`AttachError` says why that failed."""
    ssh = shutil.which("ssh")
    if ssh is None:
        raise AttachError(f"{server} cannot be reached: there is no ssh command on this computer.")
    host, port = parse_server(server)
    argv = [ssh, "-o", "BatchMode=yes", "-o", f"ConnectTimeout={SSH_CONNECT_TIMEOUT}"]
    argv += ["-p", port] if port else []
    argv += ["-i", keyfile] if keyfile else []
    try:
        done = subprocess.run(argv + [host, "true"], capture_output=True, text=True, timeout=SSH_CHECK_TIMEOUT,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise AttachError(f"{server} did not answer over SSH within {SSH_CHECK_TIMEOUT} s.") from None
    except OSError as exc:
        raise AttachError(f"ssh could not be started ({exc.strerror or exc}).") from None
    if done.returncode != 0:
        lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
        why = lines[-1].rstrip(".") if lines else f"ssh exited with status {done.returncode}"
        command = " ".join(["ssh"] + (["-p", port] if port else []) + [host])
        raise AttachError(f"Could not log in to {server} over SSH with a key ({why}); check that "
                          f"`{command}` works without a password.")


def tunnel(info: dict[str, Any], server: str, keyfile: str | None = None) -> dict[str, Any]:
    """*info* with its ports forwarded to this machine through SSH tunnels to *server* (key authentication)."""
    if info.get("transport") != "tcp":
        raise AttachError("This kernel listens on local sockets (IPC), which cannot be reached over SSH.")
    check_ssh(server, keyfile)
    from jupyter_client.ssh import tunnel as ssh_tunnel

    remote_ip = info.get("ip") or "127.0.0.1"
    if remote_ip in ("0.0.0.0", "*"):  # noqa: S104 (reading the kernel's address, not binding)
        remote_ip = "127.0.0.1"
    local = ssh_tunnel.select_random_ports(len(PORTS))
    for port, name in zip(local, PORTS):
        try:
            # password False: the check above logged in with a key, nothing may prompt
            ssh_tunnel.ssh_tunnel(port, info[name], server, remote_ip, keyfile, False)
        except Exception as exc:  # noqa: BLE001 - pexpect, ssh and jupyter_client raise their own kinds
            raise AttachError(f"The SSH tunnel to {server} could not be opened ({exc}).") from None
    return dict(info, ip="127.0.0.1", **dict(zip(PORTS, local)))


def resolve(existing: str | None, ssh: str | None = None, keyfile: str | None = None) -> dict[str, Any]:
    """Find, check and (with *ssh*) tunnel to a running kernel; ``connection_file`` names the file used."""
    path = find_connection_file(existing)
    info = load_connection(path)
    if ssh:
        info = tunnel(info, ssh, keyfile)
    info["connection_file"] = path
    info["ssh"] = ssh or None
    return info


def describe(info: dict[str, Any]) -> str:
    """A short name of an attached kernel for titles: its file's name, and the SSH host if tunnelled."""
    name = os.path.basename(str(info.get("connection_file") or "kernel"))
    return f"{name} @ {info['ssh']}" if info.get("ssh") else name
