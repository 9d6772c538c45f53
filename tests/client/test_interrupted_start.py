"""Ctrl+C while a kernel starts: no kernel is launched afterwards and no temp folder is left.

jupyter_client starts a kernel in a coroutine run to completion on an event loop; a signal that
stops the loop midway leaves that coroutine pending, and the next use of the loop (our own
shutdown of that very kernel) resumed it: the kernel was launched after it had been "shut down"
and wrote its connection file into the folder just removed (seen on a loaded machine by
``test_ctrl_c_while_the_kernel_starts_prints_one_line``). Here the signal is a KeyboardInterrupt
raised from the loop while the start waits, at the same place every time.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile

import pytest
from jupyter_client.provisioning.local_provisioner import LocalProvisioner
from jupyter_core.utils import ensure_event_loop

from explorer.client.headless import HeadlessKernel
from tests.cli.helpers import process_gone


def test_ctrl_c_during_the_start_launches_nothing_later_and_leaves_no_folder(tmp_path, monkeypatch) -> None:
    folder = tempfile.mkdtemp(prefix="te-start-", dir="/tmp")  # short: socket paths must fit
    monkeypatch.setattr(tempfile, "tempdir", folder)
    launched: list[int] = []
    launch = LocalProvisioner.launch_kernel

    async def interrupted_launch(self, cmd, **kwargs):
        asyncio.get_running_loop().call_soon(_ctrl_c)  # the signal arrives while the start waits
        await asyncio.sleep(0.2)
        info = await launch(self, cmd, **kwargs)
        launched.append(self.process.pid)
        return info

    monkeypatch.setattr(LocalProvisioner, "launch_kernel", interrupted_launch)
    try:
        with pytest.raises(KeyboardInterrupt):
            HeadlessKernel()
        assert not [task for task in asyncio.all_tasks(ensure_event_loop()) if not task.done()]  # nothing left to go on
        ensure_event_loop().run_until_complete(asyncio.sleep(0.5))  # the loop runs again, as the next start would
        assert all(process_gone(pid) for pid in launched), "a kernel was launched after the start was stopped"
        assert os.listdir(folder) == []
    finally:
        for pid in launched:
            if not process_gone(pid):
                os.kill(pid, 9)
        shutil.rmtree(folder, ignore_errors=True)


def _ctrl_c() -> None:
    raise KeyboardInterrupt
