"""A handful of the learner scripts through the real command line: ``tensor-explorer inspect script.py --json``.

The card the kernel writes reaches the JSON with its line, its fix and where the fix goes;
applied to the script with ``apply_fix``, that fix makes it run. One kernel per script, so
only a few of the corpus (the in-process tests cover all of them).
"""

from __future__ import annotations

import contextlib
import io
import json
import warnings
from pathlib import Path

import pytest

from explorer.core.errors.source import apply_fix
from tests.cli.helpers import cli
from tests.core.errors.harness import run
from tests.learner_scripts.expected import EXPECTED

FOLDER = Path(__file__).resolve().parents[2] / "learner_scripts"
# A fix in the caller (the data), a fix in __init__ (the layer), and one at a DataLoader's creation.
CHOSEN = ("logreg_mnist_unflattened.py", "tinyvgg_classifier_in_features.py", "captcha_label_lengths.py")


@pytest.mark.parametrize("script", CHOSEN)
def test_cli_json_carries_the_card_and_its_fix(script: str, tmp_path: Path) -> None:
    expect = next(e for e in EXPECTED if e.script == script)
    path = FOLDER / script
    out = cli(tmp_path, "inspect", str(path), "--json")
    assert out.returncode == 1, out.stderr
    error = json.loads(out.stdout)["error"]
    assert error["key"] == expect.key and error["line"] == expect.line
    for text in expect.says:
        assert text in error["explanation"], (text, error["explanation"])
    assert error["fix_line"] == (expect.fix_line or expect.line) and error["fix_mode"] in ("replace", "before")
    patched = apply_fix(path.read_text(encoding="utf-8"), error)
    assert patched is not None
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exc, _ = run(patched, str(path) + ".fixed")
    assert exc is None, repr(exc)
