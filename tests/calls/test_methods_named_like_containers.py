"""Methods of the user's classes named like dict or list methods (``get``, ``values``,
``items``, ``keys``, ``pop``, ``append``) are the class's own: resolved by what the
object is (an instance the function builds is proven one), in reverse mode, forward mode
and hvp against finite differences. And ``NamedTuple._replace`` in every mode."""

import itertools
import textwrap
import typing

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.errors import SrcgradError
from tests.calls.oracle import check_modes, load_source

KINDS = {
    "dataclass": "@dataclasses.dataclass\nclass Box:\n    w: np.ndarray\n    c: float = 0.5\n",
    "namedtuple": "class Box(typing.NamedTuple):\n    w: np.ndarray\n    c: float = 0.5\n",
    "plain": ("class Box:\n    def __init__(self, w, c=0.5):\n        self.w = w\n"
              "        self.c = c\n"),
}

METHODS = {   # name -> body returning something of self.w
    "get": "return self.w * self.c",
    "values": "return np.sin(self.w)",
    "items": "return [self.w[0], self.w[1] * self.w[2]]",
    "keys": "return self.w ** 2",
    "pop": "return np.sum(self.w) * 2.0",
    "append": "return self.w[0] * self.c",
}

USES = {
    "direct": "np.sum(Box({W}).{M}()) * 2.0",
    "bound": "b = Box({W})\n    return np.sum(b.{M}()) + np.sum(b.w)",
    "copied": "b = Box({W})\n    a = b\n    return np.sum(a.{M}()) * np.sum(a.w)",
}


def program(kind, method, use):
    cls = KINDS[kind] + textwrap.indent(f"\ndef {method}(self):\n    {METHODS[method]}\n",
                                        "    ")
    body = USES[use].replace("{W}", "np.tanh(w)").replace("{M}", method)
    if not body.startswith("b ="):
        body = "return " + body
    return ("import dataclasses\nimport typing\n\nimport numpy as np\n\n\n" + cls
            + f"\n\ndef f(w):\n    {body}\n")


CASES = list(itertools.product(sorted(KINDS), sorted(METHODS), sorted(USES)))


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("container_named_methods")


@pytest.mark.parametrize("kind,method,use", CASES)
def test_method_named_like_a_container_method(folder, kind, method, use):
    module = load_source(program(kind, method, use), folder, f"m_{kind}_{method}_{use}")
    w = np.array([0.3, -0.4, 0.8])
    if kind == "plain":   # a class of the user's own built from differentiated values
        try:
            sg.grad(module.f)(w)
        except SrcgradError:
            return   # refused, as the README says (not silently wrong)
    check_modes(module.f, w, modes=("grad", "jvp"))
    try:
        sg.hvp(module.f)(w, np.ones(3))
    except SrcgradError:
        return
    check_modes(module.f, w, modes=("hvp",))


class P(typing.NamedTuple):
    w: np.ndarray
    c: float


REPLACES = {
    "c": lambda v: P(v, 0.5)._replace(c=v[0]),
    "w": lambda v: P(v, 0.5)._replace(w=np.sin(v)),
    "both": lambda v: P(v, 0.5)._replace(c=v[1] * 2.0, w=v * v),
    "none": lambda v: P(v, v[2])._replace(),
    "twice": lambda v: P(v, 0.5)._replace(c=v[0])._replace(w=v ** 3),
}


def replaced(kind):
    make = REPLACES[kind]

    def f(v):
        q = make(v)
        return np.sum(q.w) * q.c
    return f


@pytest.mark.parametrize("kind", sorted(REPLACES))
def test_namedtuple_replace(kind):
    f = replaced(kind)
    v = np.array([0.3, -0.2, 0.5])
    check_modes(f, v, modes=("grad", "jvp"))
    try:
        sg.hvp(f)(v, np.ones(3))
    except SrcgradError:
        return
    check_modes(f, v, modes=("hvp",))


def param_program(kind, method):
    """The object passed in: ``use``'s parameter ``b`` is proven nothing; its method is
    looked up when it runs (dict's for a dict, the class's own for an object)."""
    if kind == "dict":
        cls, build = "", "{'w': np.tanh(w), 'c': w[0]}"
        call = {"get": "b.get('w') * b.get('c', 1.0)", "values": "b.values()",
                "items": "[v for _, v in b.items()]", "keys": "[b[k] for k in b.keys()]",
                "pop": "b.get('w')", "append": "b.get('c', 2.0)"}[method]
    else:
        cls = KINDS[kind] + textwrap.indent(f"\ndef {method}(self):\n    {METHODS[method]}\n",
                                            "    ")
        build, call = "Box(np.tanh(w), w[0])", f"b.{method}()"
    return ("import dataclasses\nimport typing\n\nimport numpy as np\n\n\n" + cls + f"""

def use(b, v):
    out = 0.0
    for item in {call}:
        out = out + np.sum(item) * v[1]
    return out + np.sum(v)


def build(w):
    return {build}


def f(w):
    return use(build(w), w)


B = build(np.array([0.3, -0.4, 0.8]))


def g(v):
    return use(B, v)
""")


@pytest.mark.parametrize("kind,method", list(itertools.product(
    sorted(KINDS) + ["dict"], ["get", "values", "items", "keys"])))
def test_a_parameters_method_is_what_the_object_has(folder, kind, method):
    module = load_source(param_program(kind, method), folder, f"p_{kind}_{method}")
    w = np.array([0.3, -0.4, 0.8])
    check_modes(module.g, np.array([0.5, 0.2, -0.1]))
    if kind != "plain":   # (a plain class built from differentiated values: see above)
        check_modes(module.f, w)
