"""``%%explorer_replay`` (issue 25 goal 4): Step back replays the earlier statements as one execution."""

from __future__ import annotations

import signal

import pytest
from IPython.core.interactiveshell import InteractiveShell

from explorer.client.statements import split_statements
from explorer.client.step import replay_code
from explorer.core.step import replay


@pytest.fixture()
def shell():
    sh = InteractiveShell.instance()
    replay.register(sh)
    sh.user_ns.clear()
    yield sh
    sh.user_ns.clear()


SCRIPT = "import math\n\nroot = math.sqrt(\n    16)\nbroken = 1 / 0\nafter = root + 1\nundefined_name\nlast = 2\n"


def test_the_cell_the_stepper_sends_runs_every_statement_and_errors_do_not_stop_it(shell, capsys) -> None:
    cell = replay_code(split_statements(SCRIPT))
    assert cell.splitlines()[0] == "%%explorer_replay 1:1 3:2 5:1 6:1 7:1 8:1"
    result = shell.run_cell(cell)
    assert result.success  # the cell itself: each statement's error is shown, as it was the first time
    assert shell.user_ns["root"] == 4.0 and shell.user_ns["after"] == 5.0 and shell.user_ns["last"] == 2
    assert "broken" not in shell.user_ns
    out = capsys.readouterr().out
    assert "ZeroDivisionError" in out and "NameError" in out
    assert "line 5" in out and "line 7" in out  # the file's lines
    assert "replay.py" not in out  # the traceback starts at the statement, not in the replay's loop


def test_magics_run_as_in_a_cell_and_a_syntax_error_is_one_statement(shell) -> None:
    cell = "%%explorer_replay 1:1 2:1 3:1\nx = %time 1\ndef (:\ny = 3"
    assert shell.run_cell(cell).success
    assert shell.user_ns["y"] == 3 and "x" in shell.user_ns


def test_stop_ends_the_replay(shell) -> None:
    cell = "%%explorer_replay 1:1 2:1 3:1\na = 1\nimport os; os.kill(os.getpid(), 2)\nb = 2"
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        shell.run_cell(cell)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert shell.user_ns["a"] == 1 and "b" not in shell.user_ns


def test_a_cell_that_does_not_match_its_statements_is_refused() -> None:
    with pytest.raises(ValueError):
        replay.parse("1:3", "a = 1")
