"""ChangeTracker: new, changed and changed-through-an-alias variables."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

from explorer.core.snapshot import fingerprint as fingerprints
from explorer.core.snapshot.build import build_snapshot
from explorer.core.snapshot.changes import ChangeTracker, written_names

_MODULES = {"torch": torch, "np": np}


class Session:
    """Runs code in a namespace and asks a tracker what changed, as the agent does.

    ``snapshot=True`` gives the tracker the snapshot's real VARs (its quick path);
    otherwise bare ``{"name"}`` records, so it reads every fact from the values.
    """

    def __init__(self, snapshot: bool | str = False) -> None:
        self.ns: dict[str, Any] = dict(_MODULES)
        self.tracker = ChangeTracker()
        self.snapshot = bool(snapshot)
        self.defer = snapshot == "deferred"  # as the kernel side does: new objects' prints settled after the reply

    def run(self, code: str) -> dict:
        exec(code, self.ns)
        user = {k: v for k, v in self.ns.items() if k not in _MODULES and not k.startswith("__")}
        variables = build_snapshot(user, overlaps=False)["variables"] if self.snapshot else [{"name": k} for k in user]
        report = self.tracker.update(user, variables, code, defer=self.defer)
        if self.defer:
            self.tracker.settle()
        return report


both = pytest.mark.parametrize("snapshot", [False, True, "deferred"], ids=["bare", "snapshot", "deferred"])


@pytest.mark.parametrize("setup, code, changed, through", [
    ("t = torch.tensor([1.0, 2.0]); n = t.numpy()", "n[0] = 100.0", "t", "n"),
    ("t = torch.arange(10).reshape(2, 5); sub = t[:1]", "sub[0, 0] = 999", "t", "sub"),
    ("arr = np.ones(3); t2 = torch.from_numpy(arr)", "t2.add_(1)", "arr", "t2"),
    ("big = torch.zeros(100_000); v = big[5000:6000]", "v.fill_(3)", "big", "v"),
    ("a = np.zeros((4, 4)); col = a[:, 1]", "col += 1", "a", "col"),
    ("a = np.zeros(5); b = a[::-1]", "np.copyto(b, 7.0)", "a", "b"),
], ids=["numpy_of_tensor", "slice", "from_numpy", "big_torch_version", "augassign", "passed_to_call"])
@both
def test_seed_scenarios_change_through_alias(setup: str, code: str, changed: str, through: str, snapshot: bool | str) -> None:
    s = Session(snapshot)
    first = s.run(setup)
    assert all(v == {"status": "new", "through": None} for v in first.values())
    report = s.run(code)
    assert report[changed] == {"status": "changed_through", "through": through}
    assert report[through]["status"] == "changed"


@both
def test_unchanged_variables_are_not_reported(snapshot: bool) -> None:
    s = Session(snapshot)
    s.run("a = torch.ones(3); b = np.zeros(2); k = 5")
    assert s.run("c = a + 1") == {"c": {"status": "new", "through": None}}


@both
def test_disjoint_half_is_not_changed(snapshot: bool) -> None:
    s = Session(snapshot)
    s.run("t = torch.arange(8.0); lo = t[:4]; hi = t[4:]")
    report = s.run("lo.zero_()")
    assert "hi" not in report
    assert report["t"] == {"status": "changed_through", "through": "lo"}


@both
def test_reassignment_is_a_direct_change(snapshot: bool) -> None:
    s = Session(snapshot)
    s.run("x = torch.ones(2)")
    assert s.run("x = torch.ones(2)") == {"x": {"status": "changed", "through": None}}


@both
def test_metadata_change_without_content_change(snapshot: bool) -> None:
    s = Session(snapshot)
    s.run("w = torch.zeros(3)")
    assert s.run("w.requires_grad_()")["w"]["status"] == "changed"


@both
def test_small_numpy_write_is_found_exactly(snapshot: bool) -> None:
    s = Session(snapshot)
    s.run("a = np.zeros(8000); v = torch.from_numpy(a)")  # 64,000 bytes: hashed whole
    report = s.run("a[4321] = 1.0")
    assert report["v"] == {"status": "changed_through", "through": "a"}


def test_large_array_uses_sampled_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    big = np.zeros(1_000_000, dtype=np.uint8)
    seen: list[int] = []
    real = fingerprints._sample_flat
    monkeypatch.setattr(fingerprints, "_sample_flat", lambda n: seen.append(n) or real(n))
    fp = fingerprints.fingerprint(big, {"name": "big"})
    assert seen == [1_000_000]
    big[0] = 1  # the first chunk always starts at element 0
    assert fingerprints.fingerprint(big, {"name": "big"}) != fp


@both
@pytest.mark.parametrize(("setup", "code", "changed"), [
    ("t = torch.zeros(4, 4)", "torch.Tensor.__setitem__(t, (3, 3), 1.0)", "t"),  # contiguous: read from its memory
    ("t = torch.zeros(4, 4); v = t[1:, ::2]", "t.numpy()[3, 2] = 5.0", "v"),  # strided view: gathered
    ("a = np.zeros((4, 4))", "a.reshape(-1)[15] = 2.0", "a"),
    ("a = np.zeros((4, 4)); c = a[:, 1]", "a[3, 1] = 2.0", "c"),  # non-contiguous array
    ("a = np.zeros(6)", "a.shape = (2, 3)", "a"),  # same object, same bytes, new shape
    ("w = torch.zeros(2)", "w.requires_grad_()", "w"),
    ("b = torch.zeros(2, dtype=torch.bfloat16)", "b.add_(1)", "b"),  # numpy lacks bf16: general path
])
def test_one_write_anywhere_is_seen(setup: str, code: str, changed: str, snapshot: bool) -> None:
    """Whichever path fingerprints a small value, one changed element or fact is reported."""
    s = Session(snapshot)
    s.run(setup)
    assert changed in s.run(code)
    assert s.run("") == {}


def test_snapshot_vars_of_unchanged_values_are_not_reported_after_rebinding_others() -> None:
    """Rebinding every other name leaves the untouched ones out of the report (their VARs are compared by facts)."""
    s = Session(snapshot=True)
    s.run("keep = [torch.ones(3) for _ in range(3)]; t = torch.ones(5); a = np.ones(5); v = t[::2]")
    report = s.run("t = torch.ones(5); a = np.ones(5); v = t[::2]")
    assert set(report) == {"t", "a", "v"}
    assert s.run("x = 1") == {"x": {"status": "new", "through": None}}


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


@pytest.mark.parametrize("value", [
    np.arange(10).astype("datetime64[D]"),  # small: hashed whole
    np.arange(20_000).astype("datetime64[s]"),  # large: sampled
    np.arange(20_000.0),  # large contiguous array: sampled straight from its memory
], ids=["datetime-small", "datetime-large", "float-large"])
def test_a_write_the_code_does_not_name_is_seen_in_any_array(value: np.ndarray) -> None:
    """Found by content alone (the code names no variable), whatever the dtype or size."""
    ns = {"arr": value}
    tracker = ChangeTracker()
    tracker.update(ns, build_snapshot(ns, overlaps=False)["variables"], "")
    value.view(np.int64)[0] += 1  # the first sampled chunk starts at element 0
    assert tracker.update(ns, build_snapshot(ns, overlaps=False)["variables"], "") == {
        "arr": {"status": "changed", "through": None}}


def test_large_contiguous_tensor_write_is_seen_by_its_version_and_samples() -> None:
    big = torch.zeros(100_000)
    ns = {"big": big}
    tracker = ChangeTracker()
    tracker.update(ns, build_snapshot(ns, overlaps=False)["variables"], "")
    big.numpy()[0] = 1.0  # numpy bumps no version counter: the sampled chunks see it
    assert "big" in tracker.update(ns, build_snapshot(ns, overlaps=False)["variables"], "")
    big[50_000] = 2.0  # not in any sampled chunk, but torch's in-place write bumps the version
    assert "big" in tracker.update(ns, build_snapshot(ns, overlaps=False)["variables"], "")
    assert tracker.update(ns, build_snapshot(ns, overlaps=False)["variables"], "") == {}


def test_names_bound_to_a_new_object_are_not_hashed_until_the_reply_is_sent(monkeypatch) -> None:
    from explorer.core.snapshot import changes

    hashed: list[int] = []
    real = changes.fingerprint_of
    monkeypatch.setattr(changes, "fingerprint_of", lambda value, var: hashed.append(id(value)) or real(value, var))
    s = Session("deferred")
    s.run("a = torch.zeros(4); b = np.zeros(4)")
    hashed.clear()
    s.ns["a"][0] = 5.0  # in place: same object
    exec("b = np.ones(4)", s.ns)  # another object
    user = {k: s.ns[k] for k in ("a", "b")}
    variables = build_snapshot(user, overlaps=False)["variables"]
    report = s.tracker.update(user, variables, "a[0] = 5.0\nb = np.ones(4)", defer=True)
    assert report == {"a": {"status": "changed", "through": None}, "b": {"status": "changed", "through": None}}
    assert hashed == [id(s.ns["a"])]  # b's content is not needed to say it changed
    s.tracker.settle()
    assert hashed == [id(s.ns["a"]), id(s.ns["b"])]  # its print is taken once the reply has gone
    assert s.run("c = 1") == {"c": {"status": "new", "through": None}}  # a and b unchanged since


def test_a_deferred_print_never_settled_reports_the_name_as_changed_not_as_unchanged() -> None:
    s = Session(snapshot=True)
    user = {"t": torch.zeros(3)}
    variables = build_snapshot(user, overlaps=False)["variables"]
    assert s.tracker.update(user, variables, "t = torch.zeros(3)", defer=True)["t"]["status"] == "new"
    user["t"][0] = 1.0  # written before any settle: its content at the end of the run is unknown
    variables = build_snapshot(user, overlaps=False)["variables"]
    assert s.tracker.update(user, variables, "", defer=True) == {"t": {"status": "changed", "through": None}}


@both
def test_a_name_bound_again_without_its_name_is_changed_not_changed_through(snapshot: bool | str) -> None:
    s = Session(snapshot)
    s.run("t = torch.zeros(3)")
    report = s.run("n = torch.ones(3)\nglobals()['t'] = n")  # t is n's object now: nothing wrote into t
    assert report["t"] == {"status": "changed", "through": None} and report["n"]["status"] == "new"
