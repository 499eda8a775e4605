"""An item removed by ``del xs[i:j]`` or a bare ``xs.pop(i)`` has a zero cotangent shaped
like the item: an item that came from arithmetic (``xs.extend([s * 0.25, s])``) and was
deleted gave its producer a None cotangent (a TypeError in the backward sweep)."""

import itertools

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad

DELETIONS = ["del xs[1:3]", "del xs[0:4:2]", "del xs[-2:]", "xs.pop(1)", "xs.pop()",
             "del xs[1]"]
ITEMS = ["s * 0.25", "v[0] * s", "np.sin(s)", "s"]


def program(deletion, item):
    text = ("def f(v, s):\n"
            "    xs = [v[2], s]\n"
            f"    xs.extend([{item}, v[1] - s])\n"
            f"    {deletion}\n"
            "    return np.sum(sum(xs) ** 2)\n")
    return sg.exec_source(text, {"np": np})["f"]


@pytest.mark.parametrize("deletion,item", list(itertools.product(DELETIONS, ITEMS)))
def test_deleted_items_give_zero_cotangents(deletion, item):
    f = program(deletion, item)
    v, s = np.array([0.3, -0.7, 1.1]), 0.6
    g = sg.grad(f, wrt=(0, 1))
    for _ in range(2):
        dv, ds = g(v, s)
        assert np.allclose(dv, numeric_grad(f, [v, s], 0), atol=1e-6)
        assert np.allclose(ds, numeric_grad(f, [v, s], 1), atol=1e-6)
