"""``tensor-explorer watch``: one JSON line per sample while the script runs; exit status as for ``inspect``."""

from __future__ import annotations

import json
from pathlib import Path

from tests.child_output import first_line
from tests.cli.helpers import HANG_GUARD_S, cli, start_cli

LOOP = '''
import time, torch, pathlib

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(10, 4)

model = Net()
with torch.no_grad():
    model.fc.weight.fill_(2.0)

def train():
    i = 0
    end = time.monotonic() + 3.0
    while time.monotonic() < end:
        i += 1
        loss = 1.0 / i
        time.sleep(0.01)
    return i

steps = train()
pathlib.Path("ended").write_text("yes")
'''


def test_watch_prints_samples_while_the_script_runs(tmp_path: Path) -> None:
    script = tmp_path / "loop.py"
    script.write_text(LOOP)
    proc = start_cli(tmp_path, "watch", str(script), "--var", "loss", "--var", "model.fc.weight", "--var", "i",
                     "--hist", "model.fc.weight", "--every", "0.25", "--json")
    try:
        assert proc.stdout is not None
        first = first_line(proc)
        assert first, proc.communicate()
        assert not (tmp_path / "ended").exists()  # the line came while the script was still running
        rest, err = proc.communicate(timeout=HANG_GUARD_S)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    samples = [json.loads(line) for line in [first, *rest.splitlines()] if line.strip()]
    looping = [s for s in samples if "i" in s["values"]]
    assert len(looping) >= 5, samples
    assert [s["seq"] for s in samples] == sorted({s["seq"] for s in samples})
    iterations = [s["values"]["i"] for s in looping]
    assert iterations == sorted(iterations) and iterations[0] < iterations[-1]
    for sample in looping:
        assert sample["frame"] == "train" and isinstance(sample["t"], float)
        if "loss" in sample["values"]:
            assert sample["values"]["loss"] in (1.0 / sample["values"]["i"], 1.0 / max(sample["values"]["i"] - 1, 1))
        weight = sample["values"]["model.fc.weight"]  # a global, found from inside train()
        assert weight["shape"] == [4, 10] and weight["dtype"] == "torch.float32"
        assert abs(weight["norm"] - 2.0 * 40 ** 0.5) < 1e-9 and weight["min"] == weight["max"] == 2.0
        assert (weight["hist"]["lo"], weight["hist"]["hi"]) == (1.5, 2.5) and sum(weight["hist"]["counts"]) == 40


def test_watch_exits_1_when_the_script_raises_and_2_for_a_data_file(tmp_path: Path) -> None:
    script = tmp_path / "fails.py"
    script.write_text("import time\nfor k in range(30):\n    time.sleep(0.02)\nraise ValueError('boom')\n")
    out = cli(tmp_path, "watch", str(script), "--var", "k", "--every", "0.1", "--json")
    assert out.returncode == 1, out.stderr
    assert all(json.loads(line)["seq"] for line in out.stdout.splitlines())
    assert "boom" in out.stderr and len(out.stderr.strip().splitlines()) == 1
    data = tmp_path / "a.npy"
    data.write_bytes(b"")
    out = cli(tmp_path, "watch", str(data), "--var", "x")
    assert out.returncode == 2 and "not a .py script" in out.stderr
    out = cli(tmp_path, "watch", str(script), "--var", "1 + x")
    assert out.returncode == 2 and "not a variable name" in out.stderr
