"""A stand-in for ``ssh`` that forwards ports on this machine, so ``--ssh`` can be tested without a server.

It understands what Tensor Explorer and ``jupyter_client.ssh.tunnel`` run:

* ``ssh -o BatchMode=yes ... HOST true``: the key check; succeeds.
* ``ssh -O check HOST``: "is there a control master?"; there is none (exit 255).
* ``ssh -f -S none -L 127.0.0.1:LPORT:RHOST:RPORT HOST sleep N``: goes to the background (as ``-f``
  does) and forwards LPORT to RHOST:RPORT until nothing has used it for N seconds. Its pid is
  written into ``$FAKE_SSH_PIDS`` so the test can end it, and ``PID.used`` once a connection came through.
"""

from __future__ import annotations

import os
import socket
import sys
import threading
import time


def _pump(src: socket.socket, dst: socket.socket) -> None:
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for sock in (src, dst):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def _forward(lport: int, rhost: str, rport: int, idle: float) -> None:
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", lport))
    server.listen(16)
    server.settimeout(0.5)
    last = time.monotonic()
    open_count = [0]
    while open_count[0] or time.monotonic() - last < idle:
        try:
            client, _ = server.accept()
        except TimeoutError:
            continue
        remote = socket.create_connection((rhost, rport))
        open_count[0] += 1
        with open(os.path.join(os.environ["FAKE_SSH_PIDS"], f"{os.getpid()}.used"), "w"):
            pass  # the test checks every tunnel carried the client's connection

        def run(a: socket.socket = client, b: socket.socket = remote) -> None:
            pumps = [threading.Thread(target=_pump, args=pair, daemon=True) for pair in ((a, b), (b, a))]
            for pump in pumps:
                pump.start()
            for pump in pumps:
                pump.join()
            open_count[0] -= 1

        threading.Thread(target=run, daemon=True).start()
        last = time.monotonic()


def main(argv: list[str]) -> int:
    if "-O" in argv:
        return 255
    if "-L" not in argv:
        return 0  # the login check
    lport, rhost, rport = argv[argv.index("-L") + 1].split(":")[1:]
    idle = float(argv[-1])
    if os.fork():
        return 0  # "-f": the foreground process ends once the tunnel is up
    os.setsid()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    with open(os.path.join(os.environ["FAKE_SSH_PIDS"], str(os.getpid())), "w"):
        pass
    _forward(int(lport), rhost, int(rport), idle)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
