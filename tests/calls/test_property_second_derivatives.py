"""Second derivatives through properties: ``sg.hvp`` (forward mode over the gradient)
of code reading ``obj.prop``, whose getter the backward sweep differentiates
(``_sg.add_attr``). Forward mode adds the getter's second derivative through the object
(``property_curvature``); it was refused. Generated: properties reading fields, calling
methods and other properties, on dataclasses, NamedTuples and plain classes, read once,
twice and inside methods, against finite differences (grad, jvp, hvp; jvp of a gradient
and gradient of a gradient: reverse mode over the backward sweep runs the reverse mode of
the getter's vjp, where the object got no cotangent through it, a silent zero)."""

import textwrap

import numpy as np
import pytest

import srcgrad as sg
from tests.calls.oracle import _fd_grad, check_modes, load_source

KINDS = {
    "dataclass": """
        @dataclasses.dataclass
        class Box:
            w: np.ndarray
            c: float = 0.7
        """,
    "namedtuple": """
        class Box(typing.NamedTuple):
            w: np.ndarray
            c: float = 0.7
        """,
    "plain": """
        class Box:
            def __init__(self, w, c=0.7):
                self.w = w
                self.c = c
        """,
}

GETTERS = {
    "fields": "1.0 + np.sum(self.w ** 2) * self.c",
    "method": "np.sum(self.inner()) * self.c",
    "property": "self.scaled_sum ** 2 + self.c",
}

USES = {
    "times_field": "b.norm2 * b.c + np.sum(v)",
    "squared": "b.norm2 ** 2",
    "in_method": "b.outer() + b.norm2",
}


def program(kind, getter, use):
    body = textwrap.dedent(KINDS[kind]).strip("\n").splitlines()
    body += ["", "    @property", "    def norm2(self):", f"        return {GETTERS[getter]}",
             "", "    @property", "    def scaled_sum(self):",
             "        return np.sum(np.tanh(self.w)) * self.c",
             "", "    def inner(self):", "        return np.sin(self.w) * self.w",
             "", "    def outer(self):", "        return np.sum(self.inner()) * self.norm2"]
    build = "Box(np.sin(v) * 0.5, v[0])" if kind != "namedtuple" else "Box(v * 0.5, v[0])"
    return "\n".join(["import dataclasses", "import typing", "", "import numpy as np", "",
                      ""] + body + ["", "", "def f(v):", f"    b = {build}",
                                    f"    return {USES[use]}", ""])


CASES = [(k, g, u) for k in KINDS for g in GETTERS for u in USES]
SAMPLE = CASES[::3]   # each kind, getter and use; the rest with --function-tables-full


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("property_second")


def _run(folder, kind, getter, use):
    module = load_source(program(kind, getter, use), folder, f"prop_{kind}_{getter}_{use}")
    check_modes(module.f, np.array([0.3, -0.2, 0.5]))
    return module


@pytest.mark.parametrize("kind, getter, use", SAMPLE)
def test_hvp_through_a_property(folder, kind, getter, use):
    _run(folder, kind, getter, use)


@pytest.mark.function_tables_full
@pytest.mark.parametrize("kind, getter, use", [c for c in CASES if c not in SAMPLE])
def test_hvp_through_a_property_full(folder, kind, getter, use):
    _run(folder, kind, getter, use)


GRAD_OF_GRAD = [("dataclass", "method", "squared"), ("plain", "fields", "in_method"),
                ("namedtuple", "property", "times_field")]


@pytest.mark.parametrize("kind, getter, use", GRAD_OF_GRAD)
def test_jvp_of_a_gradient_and_a_gradient_of_a_gradient(folder, kind, getter, use):
    """Forward and reverse mode over the gradient; reverse over reverse runs the reverse
    mode of the getter's vjp (it gave the object no cotangent through it: a zero), and a
    method's object cotangent, written into field by field (it crashed)."""
    module = _run(folder, kind, getter, use)
    v, t = np.array([0.3, -0.2, 0.5]), np.array([1.0, 0.5, -1.0])

    def directional(x):
        return np.sum(sg.grad(module.f)(x) * t)

    want = _fd_grad(directional, v)
    for _ in range(2):
        _, got = sg.jvp(sg.grad(module.f))(v, t)
        np.testing.assert_allclose(got @ t, want @ t, rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(sg.grad(directional)(v), want, rtol=1e-4, atol=1e-6)
