"""Scripts that replace what the kernel itself needs: said in seconds and by name, the kernel's log kept off stderr.

Nothing here is timed: a command that waited out ``--timeout 300`` for a kernel that can no
longer answer would trip the hang guard of :func:`tests.cli.helpers.cli`, or report a timeout,
and fail the test either way.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.cli.helpers import cli, leftovers, unscaled_env
from tests.client.test_kernel_side_only import blocker

PATIENT = ("--timeout", "300")


def _inspect(tmp_path: Path, code: str, hidden: tuple[str, ...] = ()):
    """``inspect --json`` of *code*; *hidden*: packages the CLI and its kernel cannot import (as if not installed)."""
    script = tmp_path / "script.py"
    script.write_text(code)
    env = unscaled_env(tmp_path)
    if hidden:
        site = tmp_path / "site"
        site.mkdir()
        (site / "sitecustomize.py").write_text(blocker(hidden))
        env["PYTHONPATH"] = os.pathsep.join((str(site), env["PYTHONPATH"]))
    out = cli(tmp_path, "inspect", str(script), "--json", *PATIENT, env=env)
    return out, json.loads(out.stdout)


#: jupyter_client packs and unpacks messages with orjson where it is installed (the window's environment),
#: falling back to json: such a kernel needs both replaced to fall silent; a kernel-only install without
#: orjson (``pip install --no-deps``) needs json alone.
WITHOUT_ORJSON = ("orjson",)


@pytest.mark.parametrize(("code", "name", "line", "fate", "hidden"), [
    ("import builtins\nkept = 1\nbuiltins.isinstance = None\n", "builtins.isinstance", 3, "fell silent", ()),
    ("import json\njson.dumps = None\n", "json.dumps", 2, "fell silent", WITHOUT_ORJSON),
    ("import json, orjson\njson.dumps = orjson.dumps = None\n", "json.dumps, orjson.dumps", 2, "fell silent", ()),
    ("import builtins\nbuiltins.getattr = None\n", "builtins.getattr", 2, "fell silent", ()),
    # the kernel sends, but cannot read
    ("import json\njson.loads = None\n", "json.loads", 2, "fell silent", WITHOUT_ORJSON),
    ("import json, orjson\njson.loads = orjson.loads = None\n", "json.loads, orjson.loads", 2, "fell silent", ()),
    ("import sys\nsys._getframe = None\n", "sys._getframe", 2, "process ended", ()),  # its event loop's logging ends it
], ids=["isinstance", "json.dumps", "json+orjson.dumps", "getattr", "json.loads", "json+orjson.loads",
        "sys._getframe"])
def test_a_script_that_breaks_the_kernels_messaging_is_named(tmp_path: Path, code: str, name: str, line: int,
                                                              fate: str, hidden: tuple[str, ...]) -> None:
    out, payload = _inspect(tmp_path, code, hidden)
    assert out.returncode == 1, out.stdout + out.stderr
    error = payload["error"]
    assert error["type"] == "KernelSilent" and error["line"] == line
    assert f"the script replaced {name}, which the kernel itself needs" in error["message"] and fate in error["message"]
    assert out.stderr == ""  # the kernel's tracebacks stay in its own log
    assert leftovers(tmp_path) == []


def test_render_says_it_in_one_sentence(tmp_path: Path) -> None:
    script = tmp_path / "script.py"
    script.write_text("import builtins\nimport numpy as np\nimg = np.zeros((4, 4))\nbuiltins.isinstance = None\n")
    out = cli(tmp_path, "render", str(script), "--out", str(tmp_path / "x.png"), *PATIENT, env=unscaled_env(tmp_path))
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "replaced builtins.isinstance" in out.stderr


# Replacing these leaves the kernel working: one's own print, and what the kernel side calls (it uses its own copies).
HARMLESS = """\
import builtins, contextlib, gc, io, sys, warnings
builtins.print = lambda *args, **kwargs: None
contextlib.redirect_stdout = None
io.StringIO = None
gc.disable = None
sys.getrecursionlimit = None
warnings.catch_warnings = None
kept = 1
"""


def test_json_replaced_alone_leaves_a_kernel_with_orjson_working(tmp_path: Path) -> None:
    """jupyter_client packs with orjson there, json only when orjson refuses: the notice means nothing."""
    pytest.importorskip("orjson")
    out, payload = _inspect(tmp_path, "import json\njson.dumps = json.loads = None\nkept = 1\n")
    assert out.returncode == 0, out.stdout + out.stderr
    assert [v["name"] for v in payload["variables"]] == ["kept"] and payload["error"] is None


def test_what_the_kernel_side_does_not_need_from_the_user_leaves_it_working(tmp_path: Path) -> None:
    out, payload = _inspect(tmp_path, HARMLESS)
    assert out.returncode == 0, out.stdout + out.stderr
    assert [v["name"] for v in payload["variables"]] == ["kept"] and payload["error"] is None


def test_the_kernels_own_output_stays_off_the_terminal(tmp_path: Path) -> None:
    out, payload = _inspect(tmp_path, "import os\nos.write(2, b'from the kernel process\\n')\nkept = 1\n")
    assert out.returncode == 0 and [v["name"] for v in payload["variables"]] == ["kept"]
    assert out.stderr == ""
