"""What srcgrad keeps for a function dies with it: functions made from text with
globals of their own (``sg.exec_source``, a notebook cell run again), their generated
code's ``linecache`` entries, and the objects closures hold (a list holding a large
array) are freed once the user's functions are gone; growth over many such functions
is bounded."""

import gc
import linecache
import os
import subprocess
import sys
import weakref

import numpy as np
import pytest

import srcgrad as sg

X = np.array([0.3, -0.7, 1.1])
S = sg.Variable(np.array([1.0, 2.0, 3.0]))

TEXTS = {
    "def": "def f(x):\n    return np.sum(np.sin(x) * {k}.5)\n",
    "lambda": "f = lambda x: np.sum(np.cos(x) * {k}.25)\n",
    "decorated": "@sg.differentiable\ndef f(x):\n    return np.sum(np.tanh(x) ** {k})\n",
    "factory": "def make(c):\n    def f(x):\n        return np.sum(x * c * {k})\n"
               "    return f\nf = make(2.0)\n",
}
APIS = {
    "grad": lambda f: sg.grad(f)(X),
    "jvp": lambda f: sg.jvp(f)(X, X),
    "hvp": lambda f: sg.hvp(f)(X, X),
}


def made_from_text(kind, k):
    namespace = sg.exec_source(TEXTS[kind].format(k=k + 1), {"np": np, "sg": sg})
    return namespace["f"]


@pytest.mark.parametrize("api", APIS, ids=str)
@pytest.mark.parametrize("kind", TEXTS, ids=str)
def test_functions_made_from_text_are_freed(kind, api):
    APIS[api](made_from_text(kind, 100))   # (what stays: units of srcgrad's own helpers)
    gc.collect()
    entries = len(linecache.cache)
    refs = []
    for k in range(5):
        f = made_from_text(kind, k)
        APIS[api](f)
        APIS[api](f)
        refs.append(weakref.ref(f))
        del f
    gc.collect()
    assert sum(r() is not None for r in refs) == 0
    assert len(linecache.cache) <= entries   # the text's and the generated code's


def test_implicit_gradients_of_functions_made_from_text_are_freed():
    refs = []
    for k in range(5):
        f = sg.exec_source(f"def f(x):\n    return np.sum(S * x) * {k}.5\n",
                           {"np": np, "S": S})["f"]
        g = sg.implicit_value_and_gradients(f)
        g(X)
        refs.append(weakref.ref(f))
        del f, g
    gc.collect()
    assert sum(r() is not None for r in refs) == 0


def make_from_list(items):
    def loss(w):
        return np.sum(w * items[0][:3])
    return loss


def test_arrays_held_by_closures_die_with_them():
    arrays = []
    for _ in range(6):
        big = [np.ones(100_000)]
        arrays.append(weakref.ref(big[0]))
        loss = make_from_list(big)
        assert np.allclose(sg.grad(loss)(X), 1.0)
        del big, loss
    gc.collect()
    assert sum(a() is not None for a in arrays) == 0


GROWTH = """
import gc, sys, tracemalloc
import numpy as np
import srcgrad as sg
X = np.array([0.3, -0.7, 1.1])


def one(k):
    f = sg.exec_source(f"def f(x):\\n    return np.sum(np.sin(x) * {k}.5)\\n", {"np": np})["f"]
    sg.grad(f)(X)


for k in range(10):   # warm: lazily built tables
    one(k)
gc.collect()
tracemalloc.start()
before = tracemalloc.get_traced_memory()[0]
for k in range(10, 60):
    one(k)
gc.collect()
print(tracemalloc.get_traced_memory()[0] - before)
"""


def test_growth_over_many_functions_is_bounded():
    """In a process of its own (threads and state left by other tests count otherwise).
    srcgrad's bounded caches (rule templates, compiled ``def``s, compiled texts) take
    about 2 KiB per new function until full; a function that kept its globals, generated
    module and text took ~30 KiB."""
    done = subprocess.run([sys.executable, "-c", GROWTH], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "SRCGRAD_CACHE": "0"})
    assert done.returncode == 0, done.stderr
    grown = int(done.stdout.split()[-1])
    assert grown < 50 * 3072, f"{grown / 1024:.0f} KiB for 50 functions"
