"""codegen.naming: readable names that never collide with the user's or with builtins."""

import builtins
import keyword

import numpy as np

import srcgrad as sg
from srcgrad.codegen.naming import Namer


def test_adjoint_and_tangent_names():
    namer = Namer(["x", "w"])
    assert namer.adjoint("x") == "dx"
    assert namer.adjoint("_mul") == "d_mul"
    assert namer.tangent("x") == "x_dot"
    assert namer.adjoint("x") == "dx"  # stable on a second request


def test_suffix_only_on_collision():
    namer = Namer(["dx", "_mul"])
    assert namer.adjoint("x") == "dx_1"
    assert namer.temp("mul") == "_mul_1"
    assert namer.temp("mul") == "_mul_2"
    assert namer.temp("sin") == "_sin"


def test_never_a_builtin_or_keyword():
    namer = Namer()
    for word in ["sum", "len", "lambda", "if", "np", "math", "_sg"]:
        name = namer.fresh(word)
        assert name != word
        assert name not in dir(builtins) and not keyword.iskeyword(name)


def test_unsafe_characters_are_replaced():
    namer = Namer()
    assert namer.fresh("a.b-c") == "a_b_c"
    assert namer.fresh("2x") == "_2x"


def test_generated_code_avoids_user_names():
    def shadows(x, dx, _mul):
        return x * dx + _mul

    text = sg.source(sg.grad(shadows, wrt=(0, 1, 2)))
    assert "def shadows_grad(x, dx, _mul):" in text
    assert "dx_1" in text and "d_mul" in text
    assert sg.grad(shadows, wrt=(0, 1, 2))(2.0, 3.0, 4.0) == (3.0, 2.0, 1.0)


def test_generated_temporaries_are_named_after_their_operation():
    def chain(x):
        return np.sin(x * x)

    text = sg.source(sg.grad(chain))
    assert "_mul = x * x" in text and "_sin = np.sin(_mul)" in text
    assert "d_sin" in text and "d_mul" in text

