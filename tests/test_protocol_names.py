"""Inspector names (``explorer.protocol.names``): the kernel's resolver and the window read them alike."""

from __future__ import annotations

import pytest
import torch

from explorer.core.resolve import ResolveError, resolve
from explorer.core.summary.dispatch import summarize
from explorer.protocol.names import is_top_level, name_steps, root_name


@pytest.mark.parametrize(("name", "steps"), [
    ("x", (("name", "x"),)),
    ("sd['fc.weight']", (("name", "sd"), ("item", "fc.weight"))),
    ("cfg['a[0]']['b']", (("name", "cfg"), ("item", "a[0]"), ("item", "b"))),
    ("model.layers[0].bias", (("name", "model"), ("attr", "layers"), ("item", 0), ("attr", "bias"))),
    ("m._modules['0']", (("name", "m"), ("attr", "_modules"), ("item", "0"))),
])
def test_a_name_is_read_as_python_reads_it(name: str, steps: tuple) -> None:
    assert name_steps(name) == steps
    assert root_name(name) == steps[0][1]
    assert is_top_level(name) is (len(steps) == 1)


@pytest.mark.parametrize("text", ["", "a +", "f(x)", "a[i]", "1", "x.", "class"])
def test_what_is_not_a_name_says_so(text: str) -> None:
    with pytest.raises(ValueError, match="not a variable name"):
        name_steps(text)
    assert root_name(text) == text and not is_top_level(text)
    with pytest.raises(ResolveError):
        resolve({"a": 1, "x": 2}, text)


def test_every_child_the_kernel_names_has_its_container_as_root() -> None:
    model = torch.nn.Sequential(torch.nn.Linear(2, 1))
    ns = {"sd": {"fc.weight": torch.zeros(1), "x[0]": torch.ones(1)}, "items": [torch.zeros(1), [torch.ones(1)]],
          "model": model}

    def children(var):
        for child in var["children"] or []:
            yield child
            yield from children(child)

    for top, value in ns.items():
        found = list(children(summarize(top, value)))
        assert found, top
        for child in found:
            name = child["name"]
            assert root_name(name) == top and not is_top_level(name)
            assert summarize(name, resolve(ns, name)) == child  # the resolver finds the very value listed


def test_a_negative_index_is_a_constant_subscript() -> None:
    """``history[-1]`` (a watched name path): the last item, read through list's own __getitem__."""
    assert name_steps("history[-1]") == (("name", "history"), ("item", -1))
    assert resolve({"history": [1.0, 2.0, 3.0]}, "history[-1]") == 3.0
    with pytest.raises(ValueError):
        name_steps("history[-x]")
