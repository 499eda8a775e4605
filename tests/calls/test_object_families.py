"""Generated families of the objects users write, in reverse mode, forward mode and hvp
against finite differences: dataclasses and NamedTuples with fields left at their
defaults, properties (constant, or computed from fields), methods calling methods and
reading fields, and one object used twice.

Forward mode once gave a defaulted field the default as its tangent (``Box(w_dot)``
kept ``c = 0.7``) and read a property on the tangent object; reverse mode dropped a
property's cotangent and could not add the cotangents of an object reached twice."""

import itertools
import textwrap

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.errors import SrcgradError
from tests.calls.oracle import check_modes, load_source

KINDS = {
    "dataclass": """
        @dataclasses.dataclass
        class Box:
            w: np.ndarray
            c: float = 0.7
            k: int = 3
        {MEMBERS}""",
    "frozen": """
        @dataclasses.dataclass(frozen=True)
        class Box:
            w: np.ndarray
            c: float = 0.7
            k: int = 3
        {MEMBERS}""",
    "namedtuple": """
        class Box(typing.NamedTuple):
            w: np.ndarray
            c: float = 0.7
            k: int = 3
        {MEMBERS}""",
}

MEMBERS = """
            @property
            def one(self):
                return 1.5

            @property
            def norm2(self):
                return 1.0 + np.sum(self.w ** 2)

            def inner(self):
                return self.w * self.c

            def outer(self):
                return np.sum(self.inner()) * self.c + self.norm2

            def __call__(self, z):
                return np.tanh(self.c * z) + np.sum(self.w) * z
"""

BUILDS = {   # how the object is made from w
    "default": "Box(w)",
    "given": "Box(w, w[0] * 0.5)",
    "keyword": "Box(w=np.sin(w), c=w[1])",
    "default_const": "Box(w, 0.3)",
}

USES = {   # what the function returns, ``b`` the object
    "field_default": "np.sum(w) * b.c",
    "const_property": "np.sum(w) * b.one",
    "property": "b.norm2",
    "field_over_property": "np.sum(b.w / b.norm2)",
    "method_calls_method": "b.outer()",
    "used_twice": "b(b(0.5))",
    "fields_and_int": "np.sum(b.w) * b.k + b.c * b.c",
}


def program(kind, build, use):
    members = textwrap.dedent(MEMBERS)
    cls = textwrap.dedent(KINDS[kind]).strip("\n").replace("{MEMBERS}", "")
    cls += textwrap.indent(members, "    ")
    return ("import dataclasses\nimport typing\n\nimport numpy as np\n\n\n" + cls
            + f"\n\ndef f(w):\n    b = {BUILDS[build]}\n    return {USES[use]}\n")


CASES = list(itertools.product(sorted(KINDS), sorted(BUILDS), sorted(USES)))


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("object_families")


@pytest.mark.parametrize("kind,build,use", CASES)
def test_object_family(folder, kind, build, use):
    module = load_source(program(kind, build, use), folder, f"obj_{kind}_{build}_{use}")
    w = np.array([0.3, -0.4, 0.8])
    check_modes(module.f, w, modes=("grad", "jvp"))
    try:   # a second derivative: the finite-difference value, or a srcgrad error
        hv = sg.hvp(module.f)(w, np.array([1.0, 0.5, -1.0]))
    except SrcgradError:
        return
    check_modes(module.f, w, modes=("hvp",))
    assert np.all(np.isfinite(hv))
