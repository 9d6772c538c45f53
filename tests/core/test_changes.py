"""ChangeTracker: new, changed and changed-through-an-alias variables."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

from explorer.core.snapshot import changes
from explorer.core.snapshot.changes import ChangeTracker, written_names

_MODULES = {"torch": torch, "np": np}


class Session:
    """Runs code in a namespace and asks a tracker what changed, as the agent does."""

    def __init__(self) -> None:
        self.ns: dict[str, Any] = dict(_MODULES)
        self.tracker = ChangeTracker()

    def run(self, code: str) -> dict:
        exec(code, self.ns)  # noqa: S102 - test code
        user = {k: v for k, v in self.ns.items() if k not in _MODULES and not k.startswith("__")}
        return self.tracker.update(user, [{"name": k} for k in user], code)


@pytest.mark.parametrize("setup, code, changed, through", [
    ("t = torch.tensor([1.0, 2.0]); n = t.numpy()", "n[0] = 100.0", "t", "n"),
    ("t = torch.arange(10).reshape(2, 5); sub = t[:1]", "sub[0, 0] = 999", "t", "sub"),
    ("arr = np.ones(3); t2 = torch.from_numpy(arr)", "t2.add_(1)", "arr", "t2"),
    ("big = torch.zeros(100_000); v = big[5000:6000]", "v.fill_(3)", "big", "v"),
    ("a = np.zeros((4, 4)); col = a[:, 1]", "col += 1", "a", "col"),
    ("a = np.zeros(5); b = a[::-1]", "np.copyto(b, 7.0)", "a", "b"),
], ids=["numpy_of_tensor", "slice", "from_numpy", "big_torch_version", "augassign", "passed_to_call"])
def test_seed_scenarios_change_through_alias(setup: str, code: str, changed: str, through: str) -> None:
    s = Session()
    first = s.run(setup)
    assert all(v == {"status": "new", "through": None} for v in first.values())
    report = s.run(code)
    assert report[changed] == {"status": "changed_through", "through": through}
    assert report[through]["status"] == "changed"


def test_unchanged_variables_are_not_reported() -> None:
    s = Session()
    s.run("a = torch.ones(3); b = np.zeros(2); k = 5")
    assert s.run("c = a + 1") == {"c": {"status": "new", "through": None}}


def test_disjoint_half_is_not_changed() -> None:
    s = Session()
    s.run("t = torch.arange(8.0); lo = t[:4]; hi = t[4:]")
    report = s.run("lo.zero_()")
    assert "hi" not in report
    assert report["t"] == {"status": "changed_through", "through": "lo"}


def test_reassignment_is_a_direct_change() -> None:
    s = Session()
    s.run("x = torch.ones(2)")
    assert s.run("x = torch.ones(2)") == {"x": {"status": "changed", "through": None}}


def test_metadata_change_without_content_change() -> None:
    s = Session()
    s.run("w = torch.zeros(3)")
    assert s.run("w.requires_grad_()")["w"]["status"] == "changed"


def test_small_numpy_write_is_found_exactly() -> None:
    s = Session()
    s.run("a = np.zeros(8000); v = torch.from_numpy(a)")  # 64,000 bytes: hashed whole
    report = s.run("a[4321] = 1.0")
    assert report["v"] == {"status": "changed_through", "through": "a"}


def test_large_array_uses_sampled_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    big = np.zeros(1_000_000, dtype=np.uint8)
    seen: list[int] = []
    real = changes._sample_flat
    monkeypatch.setattr(changes, "_sample_flat", lambda n: seen.append(n) or real(n))
    fp = changes.fingerprint(big, {"name": "big"})
    assert seen == [1_000_000]
    big[0] = 1  # the first chunk always starts at element 0
    assert changes.fingerprint(big, {"name": "big"}) != fp


@pytest.mark.parametrize("code", ["%time x.add_(1)", "x.add_(1\n", "def (:", "", "!ls"])
def test_bad_code_never_raises(code: str) -> None:
    tracker = ChangeTracker()
    ns = {"x": torch.ones(2)}
    tracker.update(ns, [{"name": "x"}], "")
    ns["x"].add_(1)
    report = tracker.update(ns, [{"name": "x"}], code)
    assert report["x"]["status"] == "changed"


def test_magic_lines_are_skipped_but_the_rest_is_parsed() -> None:
    strong, _ = written_names("%matplotlib inline\nn[0] = 1\nm.mul_(2)")
    assert {"n", "m"} <= strong


def test_written_names_rules() -> None:
    strong, weak = written_names(
        "a = 1\nb, (c, d) = 1, (2, 3)\ne[0] += 1\nf.x = 2\ng.add_(1)\nh.sum()\n"
        "for i in range(3): pass\nfoo(j, k=l)\nm.fc.weight.data.mul_(0)\nlst.append(1)"
    )
    assert strong == {"a", "b", "c", "d", "e", "f", "g", "i", "m", "lst"}
    assert {"j", "l"} <= weak and "h" not in strong


@pytest.mark.parametrize("value", [
    torch.empty(2, device="meta"),
    torch.eye(2).to_sparse(),
    torch.ones(3, dtype=torch.bfloat16),
    torch.ones(2, dtype=torch.complex64).conj(),
    torch.zeros(0),
    torch.tensor(3.0),
    np.array([object(), 1], dtype=object),
    np.arange(6)[::-2],
    torch.arange(3.0)[:, None].expand(3, 4),
], ids=["meta", "sparse", "bf16", "conj", "empty", "0d", "object", "negstride", "expand"])
def test_awkward_values_are_fingerprinted_stably(value: Any) -> None:
    tracker = ChangeTracker()
    ns = {"v": value}
    assert tracker.update(ns, [{"name": "v"}], "")["v"]["status"] == "new"
    assert tracker.update(ns, [{"name": "v"}], "") == {}


def test_children_are_tracked() -> None:
    tracker = ChangeTracker()
    sd = {"w": torch.zeros(2)}
    ns = {"sd": sd}
    variables = [{"name": "sd", "kind": "dict", "children": [{"name": "sd['w']"}]}]
    tracker.update(ns, variables, "")
    sd["w"].add_(1)
    report = tracker.update(ns, variables, "sd['w'].add_(1)")
    assert report == {"sd['w']": {"status": "changed", "through": None}}


def test_module_parameter_changed_through_state_dict_child() -> None:
    lin = torch.nn.Linear(2, 2)
    sd = lin.state_dict()
    ns = {"lin": lin, "sd": sd}
    variables = [
        {"name": "lin", "kind": "module", "children": [{"name": "lin.weight"}, {"name": "lin.bias"}]},
        {"name": "sd", "kind": "dict", "children": [{"name": "sd['weight']"}, {"name": "sd['bias']"}]},
    ]
    tracker = ChangeTracker()
    tracker.update(ns, variables, "")
    sd["weight"].zero_()
    report = tracker.update(ns, variables, "sd['weight'].zero_()")
    assert report["lin.weight"] == {"status": "changed_through", "through": "sd['weight']"}
    assert report["sd['weight']"]["status"] == "changed"
    assert "lin.bias" not in report
