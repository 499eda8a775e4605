"""Second derivatives that reached a function with no row: ``np.cumprod``'s adjoint
helper calls ``np.asanyarray`` (now a row, as ``np.asarray`` is), and the gradient of
code reading an object's fields picks a field out of the object's cotangent with
``getattr`` (``_sg.field_cotangent``), a row too (user code calling ``getattr(obj,
name)`` on a field gets the same row). Each program in reverse mode, forward mode and
hvp against central differences, each derivative asked for twice."""

import itertools
import textwrap

import numpy as np
import pytest

import srcgrad as sg
from tests.calls.oracle import check_modes, load_source

CUMPRODS = {   # a scalar function of a vector of 6
    "flat": "np.sum(np.cumprod(1.0 + 0.3 * np.tanh(v)))",
    "matrix_axis0": "np.sum(np.cumprod(np.reshape(v, (2, 3)) ** 2 + 0.5, axis=0) * v[:3])",
    "matrix_axis1": "np.sum(np.cumprod(np.reshape(np.sin(v), (3, 2)), axis=1) ** 2)",
    "size_one": "np.sum(np.cumprod(v[1:2] * v[0]) * v)",
    "with_a_zero": "np.sum(np.cumprod(v * np.array([1.0, 0.0, 1.0, 1.0, 1.0, 1.0])))",
    "asanyarray": "np.sum(np.asanyarray(np.tanh(v) * v, dtype=float) ** 3)",
    "asanyarray_scalar": "np.asanyarray(v[2] * v[3]) ** 2",
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("cumprod_getattr")


@pytest.mark.parametrize("name", sorted(CUMPRODS))
def test_cumprod_and_asanyarray_in_every_mode(folder, name):
    source = f"import numpy as np\n\n\ndef f(v):\n    return {CUMPRODS[name]}\n"
    module = load_source(source, folder, f"cumprod_{name}")
    check_modes(module.f, np.array([0.3, -0.2, 0.5, 0.9, -0.6, 0.25]))


KINDS = {
    "dataclass": "@dataclasses.dataclass\nclass Box:\n    w: np.ndarray\n    c: float = 0.7\n",
    "inherited": ("@dataclasses.dataclass\nclass Base:\n    w: np.ndarray\n\n"
                  "    def apply(self, u):\n        return np.tanh(self.w * u)\n\n\n"
                  "@dataclasses.dataclass\nclass Box(Base):\n    c: float = 0.7\n"),
    "namedtuple": "class Box(typing.NamedTuple):\n    w: np.ndarray\n    c: float = 0.7\n",
    "plain": ("class Box:\n    def __init__(self, w, c=0.7):\n        self.w = w\n"
              "        self.c = c\n"),
}
METHODS = """
    def scaled(self, u):
        return np.sin(self.w * u) * self.c
"""
SUPER = """
    def apply(self, u):
        return super().apply(u) * 0.8 + self.c
"""
BUILDS = {"default": "Box(v * 2.0)", "given": "Box(np.tanh(v), v[0] * v[1])"}
USES = {
    "method": "np.sum(b.scaled(0.5)) + b.c",
    "getattr": "np.sum(getattr(b, 'w') ** 2) * getattr(b, 'c')",
    "getattr_name": "np.sum(getattr(b, name) * v)",
    "super": "np.sum(b.apply(0.5)) * b.c",
}


def _program(kind, build, use):
    cls = KINDS[kind] + METHODS + (SUPER if kind == "inherited" else "")
    return ("import dataclasses\nimport typing\n\nimport numpy as np\n\n\n" + cls
            + textwrap.dedent(f"""

                def f(v, name='w'):
                    b = {BUILDS[build]}
                    return {USES[use]}
                """))


CASES = [(k, b, u) for k, b, u in itertools.product(sorted(KINDS), sorted(BUILDS), sorted(USES))
         if u != "super" or k == "inherited"]


@pytest.mark.parametrize("kind,build,use", CASES)
def test_fields_of_objects_in_every_mode(folder, kind, build, use):
    module = load_source(_program(kind, build, use), folder, f"fields_{kind}_{build}_{use}")
    check_modes(module.f, np.array([0.3, -0.4, 0.8]))


def test_getattr_of_a_property_is_refused_in_reverse_mode(folder):
    source = ("import dataclasses\n\nimport numpy as np\n\n\n@dataclasses.dataclass\n"
              "class Box:\n    w: np.ndarray\n\n    @property\n    def n2(self):\n"
              "        return np.sum(self.w ** 2)\n\n\ndef f(v):\n"
              "    return getattr(Box(v), 'n2')\n")
    module = load_source(source, folder, "getattr_property")
    with pytest.raises(sg.TransformError, match="getattr.*'n2'.*property"):
        sg.grad(module.f)(np.array([0.3, -0.4, 0.8]))
    check_modes(module.f, np.array([0.3, -0.4, 0.8]), modes=("jvp",))
