"""Files that claim more memory than they hold are refused before anything is allocated (issue 20, item 4).

``torch.load(weights_only=True)`` calls the functions on its allow-list with whatever
arguments the pickle gives: ``bytearray(2**31)`` is 2 GiB from a 385-byte file. The
check reads the pickle's opcodes instead of running them, so it refuses such files
and its own memory stays near the file's size. Each file here is written opcode by
opcode (:mod:`tests.core.pickle_bytes`); the ones in-process claim 64 MiB, so that
even a check that did allocate could not hurt the machine, and a child process
with a capped address space tries the real 2 GiB and 8 x 2 GiB files.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
import torch

import explorer
from explorer.core.files import common as files_common
from explorer.core.files.prepare import prepare_load
from tests.core import pickle_bytes as pb
from tests.core.files_helpers import refused

ROOT = Path(explorer.__file__).resolve().parent.parent
CLAIM = 2**26  # 64 MiB: what the in-process files ask for
PEAK_LIMIT = 1_000_000  # bytes the check may allocate for a file of about 600 bytes (the claim is 67x this)


def _bytearray(n: int) -> bytes:
    return pb.call("builtins", "bytearray", pb.integer(n))


def _hooks() -> bytes:
    return pb.call("collections", "OrderedDict")


def _qtensor(numel: int) -> bytes:
    """A quantized tensor of *numel* elements on a 1-byte storage: torch allocates *numel* bytes first."""
    params = pb.MARK + pb.glob("torch", "per_tensor_affine") + b"G\x3f\xb9\x99\x99\x99\x99\x99\x9a" + pb.integer(0) \
        + pb.TUPLE
    return pb.call("torch._utils", "_rebuild_qtensor", pb.storage("0", 1, "QInt8Storage"), pb.integer(0),
                   pb.ints(numel), pb.ints(0), params, pb.FALSE, _hooks())


# name -> (make the file, the words its refusal must hold)
HOSTILE: dict[str, tuple[Callable[[Path, int], Path], str]] = {
    "bytearray": (lambda p, n: pb.write_zip(p, pb.pickle_of(_bytearray(n))), "builtins.bytearray"),
    "8 bytearrays": (lambda p, n: pb.write_zip(p, pb.pickle_of(
        pb.MARK + b"".join(_bytearray(n) for _ in range(8)) + pb.TUPLE)), "builtins.bytearray"),
    "tensor class called": (lambda p, n: pb.write_zip(p, pb.pickle_of(pb.call("torch", "FloatTensor", pb.integer(n // 4)))),
                            "torch.FloatTensor"),
    "Tensor.__new__": (lambda p, n: pb.write_zip(p, pb.pickle_of(pb.glob("torch", "Tensor") + pb.ints(n // 4) + pb.NEWOBJ)),
                       "torch.Tensor"),
    "bytearray through a rebuild": (lambda p, n: pb.write_zip(p, pb.pickle_of(pb.call(
        "torch._tensor", "_rebuild_from_type_v2", pb.glob("builtins", "bytearray"), pb.glob("torch", "Tensor"),
        pb.ints(n), pb.NONE))), "builtins.bytearray"),
    "quantized tensor bigger than its storage": (lambda p, n: pb.write_zip(p, pb.pickle_of(_qtensor(n)), {"0": b"\0"}),
                                                 "damaged"),
    "storage bigger than its record": (lambda p, n: pb.write_zip(
        p, pb.state_dict({"w": pb.tensor("0", n // 4, (n // 4,), (1,))}), {"0": b"\0" * 16}), "damaged"),
    "legacy storage left out of the key list": (lambda p, n: pb.write_legacy(
        p, pb.state_dict({"w": pb.tensor("k", n // 4, (n // 4,), (1,), legacy=True)}), [], []), "damaged"),
}


@pytest.fixture(scope="module", autouse=True)
def _warm(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Import torch and the checker once, so the measured peak is the check's, not the imports'."""
    path = tmp_path_factory.mktemp("warm") / "w.pt"
    torch.save({"w": torch.ones(2)}, path)
    prepare_load(str(path))


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_claimed_memory_is_refused_and_never_allocated(tmp_path: Path, kind: str) -> None:
    make, says = HOSTILE[kind]
    path = make(tmp_path / "bomb.pt", CLAIM)
    assert path.stat().st_size < 1000
    tracemalloc.start()
    try:
        error = refused(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert says in str(error), str(error)
    assert error.needs_pickle == (says != "damaged")
    assert peak < PEAK_LIMIT, f"the check allocated {peak} bytes for a {path.stat().st_size}-byte file"


def test_the_issues_files_in_a_child_with_capped_memory(tmp_path: Path) -> None:
    """The 2 GiB and 8 x 2 GiB files; the child may map at most 1 GiB more than it has after importing torch."""
    big = pb.write_zip(tmp_path / "big.pt", pb.pickle_of(_bytearray(2**31 - 1)))
    many = pb.write_zip(tmp_path / "many.pt", pb.pickle_of(pb.MARK + b"".join(
        _bytearray(2**31 - 1) for _ in range(8)) + pb.TUPLE))
    child = (
        "import json, resource, sys, torch\n"
        "from explorer.core.files.prepare import FileLoadError, prepare_load\n"
        "size = int(open('/proc/self/statm').read().split()[0]) * resource.getpagesize()\n"
        "resource.setrlimit(resource.RLIMIT_AS, (size + 2**30, resource.RLIM_INFINITY))\n"
        "out = {}\n"
        "for path in sys.argv[1:]:\n"
        "    try:\n"
        "        out[path] = 'accepted: ' + prepare_load(path)['summary']\n"
        "    except FileLoadError as exc:\n"
        "        out[path] = [str(exc), exc.needs_pickle]\n"
        "print('RESULT ' + json.dumps(out))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", child, str(big), str(many)], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(next(x for x in done.stdout.splitlines() if x.startswith("RESULT ")).removeprefix("RESULT "))
    assert big.stat().st_size < 400 and many.stat().st_size < 600
    for path in (big, many):
        message, needs_pickle = out[str(path)]
        assert needs_pickle and "(builtins.bytearray), not just tensors" in message, message


def test_deep_shared_tuple_as_a_key_is_refused(tmp_path: Path) -> None:
    """t1 = (t0, t0), t2 = (t1, t1) ... through the memo: hashing t25 as a dict key would take 2**25 steps."""
    levels = pb.integer(1) + pb.TUPLE1 + pb.put(0)
    for depth in range(1, 26):
        levels += pb.get(depth - 1) + pb.get(depth - 1) + pb.TUPLE2 + pb.put(depth)
    # {"levels": (t0, ..., t25), t25: None}, with only the opcodes torch's weights-only unpickler knows
    data = pb.PROTO2 + pb.EMPTY_DICT + pb.text("levels") + pb.MARK + levels + pb.TUPLE + pb.SETITEM \
        + pb.get(25) + pb.NONE + pb.SETITEM + pb.STOP
    error = refused(pb.write_zip(tmp_path / "keys.pt", data))
    assert error.needs_pickle


def test_compressed_pickle_is_held_to_the_memory_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deflated data.pkl can expand a thousandfold: its real size must fit in memory before it is read."""
    import zipfile

    data = pb.pickle_of(pb.text("a" * 2_000_000))
    path = pb.write_zip(tmp_path / "zipped.pt", data, compression=zipfile.ZIP_DEFLATED)
    assert path.stat().st_size < 20_000
    monkeypatch.setattr(files_common, "available_memory", lambda: 1_000_000)
    assert "memory" in str(refused(path))
    monkeypatch.undo()
    assert prepare_load(str(path))["summary"] == "str (no tensors)"


def test_plain_values_from_the_allow_list_still_load(tmp_path: Path) -> None:
    """What torch.save writes with those same names (bytes, bytearray, set, complex, Counter) is not refused."""
    from collections import Counter

    value = {"b": b"xy", "ba": bytearray(b"ab"), "s": {1, 2}, "c": 1 + 2j, "n": Counter("aab"), "size": torch.Size([2]),
             "dev": torch.device("cpu"), "dtype": torch.float16, "w": torch.ones(2)}
    torch.save(value, tmp_path / "plain.pt")
    result = prepare_load(str(tmp_path / "plain.pt"))
    assert result["summary"] == "dict of 9 keys with 1 tensor, 2 parameters, 8 B"
    namespace: dict = {}
    exec(result["code"], namespace)
    assert namespace[result["name"]]["ba"] == bytearray(b"ab")
